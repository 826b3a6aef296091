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
	const char *array_q;	   /* a buffered array fetch it has; NULL: none */
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
/* SYST:ERR?'s reply "-113,\"Undefined header\"" -> *code and text: 0, or -EBADMSG. */
int scpi_error(const char *line, int *code, char *text, size_t len);

/*
 * A reply line assembled from reads: bytes in, 1 when a line is complete (in line, NUL
 * terminated, without CR/LF), 0 when more is needed, -EMSGSIZE once the line is longer
 * than SCPI_LINE_MAX: no instrument says that much, so the caller gives the link up.
 * *used: bytes of in taken (after a complete line, the rest is the next reply's).
 */
struct scpi_rx {
	char line[SCPI_LINE_MAX + 1];
	size_t len;
};
void scpi_rx_reset(struct scpi_rx *rx);
int scpi_rx_take(struct scpi_rx *rx, const char *in, size_t n, size_t *used);

#endif
