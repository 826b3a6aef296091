/* SPDX-License-Identifier: MIT */
/* Inside the scpi driver: its state, the conversation with the instrument, and the two ways of reading. */
#ifndef IOWATT_SCPI_PRIV_H
#define IOWATT_SCPI_PRIV_H

#include <stdint.h>

#include "meters/meter-internal.h"
#include "meters/scpi/scpi_protocol.h"

#define SCPI_MOD "scpi"

/* Waiting for: nothing, a reading's first reply (current), its second (voltage), or
 * SYST:ERR? after a failure. */
enum scpi_state { ST_IDLE, ST_WAIT_I, ST_WAIT_V, ST_WAIT_ERR };

struct scpi_priv;

/* How readings are asked for and taken: MEAS polled (scpi.c) or an array (scpi_array.c). */
struct scpi_mode {
	/* The next reading is due: ask for it (ST_WAIT_I). 0 or -errno (a lost link). */
	int (*begin)(struct meter_dev *dev, struct scpi_priv *p, uint64_t now);
	/* A reply line in ST_WAIT_I or ST_WAIT_V: how many samples it completed into out (at
	 * most max; an array's rest waits in pend), or -errno (a lost link). */
	int (*take)(struct meter_dev *dev, struct scpi_priv *p, struct meter_sample *out,
		    unsigned max, uint64_t now);
};

struct scpi_priv {
	struct serial_port *sp;
	const struct scpi_model *m;
	const struct scpi_mode *mode;
	struct scpi_idn idn;
	struct scpi_rx rx;
	char q_i[SCPI_CMD_MAX], q_v[SCPI_CMD_MAX];
	const char *asked; /* the query a failure follows, for its report */
	enum scpi_state st;
	unsigned ch;
	uint64_t interval_ns, timeout_ns, sent_ns, next_ns, t_i_ns, lag_ns;
	uint64_t reply_ns; /* how long the awaited reply may take */
	double a, volts;
	unsigned drained;
	uint64_t errors;
	/* Array mode: points per interval, tint_ns apart, the block's trigger time; fetched
	 * currents, and samples not yet handed to the core. */
	unsigned points;
	uint64_t tint_ns, trg_ns;
	double *arr_a, *arr_v;
	struct meter_sample *pend;
	unsigned pend_n, pend_i;
};

extern const struct scpi_mode scpi_array_mode;

/* cmd and LF, after dropping what arrived unasked: 0 or -errno. */
int scpi_send(struct scpi_priv *p, const char *cmd);
/* scpi_send(q), now awaiting st (its reply within p->reply_ns). */
int scpi_ask(struct scpi_priv *p, const char *q, enum scpi_state st, uint64_t now);
/* A reply that is no reading, or none: counted bad, SYST:ERR? asked. */
int scpi_failed(struct meter_dev *dev, struct scpi_priv *p, uint64_t now);
/* SYST:ERR?'s reply: a non-zero error logged (with the query it followed), an event, the
 * extras line. */
void scpi_report_error(struct meter_dev *dev, struct scpi_priv *p, const char *line);
/* A query answered within a few seconds (open only): 0 and the line, or -errno. */
int scpi_query_line(struct meter_dev *dev, struct scpi_priv *p, const char *q, char *line,
		    size_t len);
/* Samples an array fetch left over, at most max into out: how many. */
unsigned scpi_take_pending(struct scpi_priv *p, struct meter_sample *out, unsigned max);
/* read(): the mode's queries, their replies, timeouts and SYST:ERR?, within timeout_ms. */
int scpi_pump(struct meter_dev *dev, struct scpi_priv *p, struct meter_sample *out,
	      unsigned max, int timeout_ms);
/* Array mode at open: the acquisition set up for p->points per interval (p->tint_ns as
 * the instrument has it). 0 or -errno after a message. */
int scpi_array_setup(struct meter_dev *dev, struct scpi_priv *p);

#endif
