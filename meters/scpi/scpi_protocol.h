/* SPDX-License-Identifier: MIT */
/* SCPI as bench supplies and DMMs speak it: *IDN? to a model row, queries per channel, replies, errors. */
#ifndef IOWATT_SCPI_PROTOCOL_H
#define IOWATT_SCPI_PROTOCOL_H

#include <stddef.h>

#include "meters/meter-internal.h"

/* The longest reply line taken (an *IDN? is under 100 bytes, a reading under 20); a
 * longer one is not an instrument's answer and the link is given up. */
#define SCPI_LINE_MAX 512
#define SCPI_CMD_MAX 96
#define SCPI_TCP_PORT "5025" /* raw-socket SCPI (IEC 61158 "SCPI-RAW", LXI) */

/*
 * A buffered acquisition: points readings tint apart, started by a bus trigger, fetched
 * as comma-separated arrays. Each is a printf format taking (value, channel) or
 * (channel) as scpi_array_cmd() says.
 */
enum scpi_array_step {
	SCPI_ARR_POINTS,  /* "SENS:SWE:POIN %u,(@%u)" */
	SCPI_ARR_TINT,	  /* "SENS:SWE:TINT %.9g,(@%u)" */
	SCPI_ARR_TINT_Q,  /* what the instrument made of it */
	SCPI_ARR_FUNC_I,  /* current and voltage both digitized */
	SCPI_ARR_FUNC_V,
	SCPI_ARR_TRIG_SRC, /* the trigger from the bus (*TRG) */
	SCPI_ARR_INIT,
	SCPI_ARR_TRIGGER,
	SCPI_ARR_FETCH_I,
	SCPI_ARR_FETCH_V,
	SCPI_ARR_STEPS
};
#define SCPI_ARRAY_POINTS_MAX 1000
/* A fetched array's line: "+1.234567E-01," per point, with room. */
#define SCPI_ARRAY_LINE_MAX (SCPI_ARRAY_POINTS_MAX * 24 + 64)

struct scpi_array_set {
	const char *fmt[SCPI_ARR_STEPS];
	double tint_min_s; /* the shortest time between points it digitizes */
};

/* How a query names one output of a supply with several. */
enum scpi_chan_style {
	SCPI_CH_NONE,	/* one output: MEAS:CURR? */
	SCPI_CH_SUFFIX, /* MEAS:CURR? CH2 (Rigol DP800, Siglent SPD) */
	SCPI_CH_LIST,	/* MEAS:CURR? (@2) (Keysight E36300, N6700) */
	SCPI_CH_NSEL,	/* INST:NSEL 2 once, then MEAS:CURR? (Keysight E364xA/E3631A, R&S) */
};

struct scpi_model {
	struct meter_model meta;
	const char *match;	   /* *IDN?'s model field starts with this (any case) */
	unsigned channels;
	enum scpi_chan_style ch_style;
	const char *curr_q, *volt_q; /* volt_q NULL: a DMM reading current only */
	const struct scpi_array_set *array; /* its buffered acquisition; NULL: none */
};

/* Longest match first; the last row ("SCPI") takes any instrument not listed. */
#define SCPI_NMODELS 17
extern const struct scpi_model scpi_models[SCPI_NMODELS];
/* The row the emulator plays (the DP832: three outputs, MEAS:CURR? CH2). */
#define SCPI_EMU_ROW 7

/* *IDN?'s four fields; "MODEL " before the model (Keithley) is dropped. */
struct scpi_idn {
	char maker[64], model[48], serial[48], firmware[48];
};

/* "MAKER,MODEL,SERIAL,FIRMWARE" -> idn: 0, or -EBADMSG when there are not four fields. */
int scpi_idn_parse(const char *line, struct scpi_idn *idn);
/* The row for a model name (never NULL: the generic last row). */
const struct scpi_model *scpi_model_find(const char *model);
/*
 * The query for quantity q ('I' or 'V') of channel ch (1-based) of model m, into buf:
 * its length, or -EINVAL for a channel the model has not or a quantity it cannot read.
 */
int scpi_query(const struct scpi_model *m, char q, unsigned ch, char *buf, size_t len);
/* What selects channel ch before the queries (INST:NSEL style), or 0 with "" for none. */
int scpi_select(const struct scpi_model *m, unsigned ch, char *buf, size_t len);
/*
 * A reading's reply (NR1/NR2/NR3, blanks around, CR before LF taken off) -> *val: 0;
 * -EBADMSG for anything else, -ERANGE for 9.9E37 (SCPI's overload) and beyond.
 */
int scpi_number(const char *line, double *val);
/*
 * Step of m's array acquisition for channel ch (POINTS takes points, TINT tint_s) into
 * buf: its length, or -EINVAL when m has none.
 */
int scpi_array_cmd(const struct scpi_model *m, enum scpi_array_step step, unsigned ch,
		   unsigned points, double tint_s, char *buf, size_t len);
/* A fetched array "v1,v2,..." -> out (at most max): the count, or -EBADMSG. */
int scpi_numbers(const char *line, double *out, unsigned max);
/* SYST:ERR?'s reply "-113,\"Undefined header\"" -> *code and text: 0, or -EBADMSG. */
int scpi_error(const char *line, int *code, char *text, size_t len);

/*
 * A reply line assembled from reads: bytes in, 1 when a line is complete (in line, NUL
 * terminated, without CR/LF), 0 when more is needed, -EMSGSIZE once the line is longer
 * than its bound (SCPI_LINE_MAX, or SCPI_ARRAY_LINE_MAX while an array is fetched): no
 * instrument says that much, so the caller gives the link up. *used: bytes of in taken
 * (after a complete line, the rest is the next reply's).
 */
struct scpi_rx {
	char line[SCPI_ARRAY_LINE_MAX + 1];
	size_t len, max;
};
/* Empty, taking lines of at most max bytes. */
void scpi_rx_reset(struct scpi_rx *rx, size_t max);
int scpi_rx_take(struct scpi_rx *rx, const char *in, size_t n, size_t *used);

#endif
