/* SPDX-License-Identifier: MIT */
/* The meter's clock against iowatt's from a GPIO marker's edges seen on the meter's digital inputs. */
#ifndef IOWATT_EVENT_MARKER_H
#define IOWATT_EVENT_MARKER_H

#include <stddef.h>
#include <stdint.h>

/* A meter's digital inputs (the PPK2's D0..D7). */
#define EL_LOGIC_INPUTS 8
/* Edges kept per input and job: a marker makes four a job; an input that toggles more
 * is not the marker's. */
#define EL_LOGIC_EDGES 32
/* Host and meter edges further apart than this are not the same edge. */
#define EL_MARK_MAX_OFFSET_NS 500000000LL
/* Edges paired at one offset may scatter this much about it (the ioctl's and the
 * sample period's share come on top): more, and they are not the same edges. */
#define EL_MARK_MATCH_NS 2000000LL

struct el_logic_edge {
	uint64_t t_ns; /* the first reading at the new level, on the meter's clock */
	uint8_t level;
};

/* Each digital input's edges over a job, as the readings carry them (SAMPLE_LOGIC). */
struct el_logic {
	int have;      /* a reading with the inputs was fed */
	uint8_t prev;  /* the last reading's inputs */
	uint64_t period_ns;
	unsigned n[EL_LOGIC_INPUTS];	 /* edges kept */
	unsigned extra[EL_LOGIC_INPUTS]; /* edges beyond EL_LOGIC_EDGES */
	struct el_logic_edge e[EL_LOGIC_INPUTS][EL_LOGIC_EDGES];
};

/* An edge the host drove on the marker line: its time on iowatt's clock, within +- half_ns
 * (half the set-value call's duration), and the line's level after it. */
struct el_mark {
	uint64_t t_ns, half_ns;
	int level;
};

/* What the edges say: ok, or why not (why). */
struct el_align {
	int ok;
	int input;	   /* the digital input used (-1: none) */
	unsigned edges;	   /* host edges paired with a meter's */
	double offset_s;   /* a time t on iowatt's clock reads t + offset_s on the meter's */
	double u95_s;	   /* its U95 */
	double drift_ppm;  /* the meter's clock against iowatt's, NAN when not fitted */
	char why[160];	   /* not ok: the reason; ok: empty */
};

void el_logic_reset(struct el_logic *l, uint64_t period_ns);
/* A reading's digital inputs at t_ns (meter's clock). */
void el_logic_add(struct el_logic *l, uint64_t t_ns, uint8_t inputs);

/*
 * Pairs the marker's edges (marks, nmarks) with the edges of input (0..7; -1: whichever
 * input pairs most) and takes the offset between the clocks: their mean, U95 from the
 * sample period, the set calls' durations and the pairs' scatter, and a drift when the
 * pairs span a second or more. Not ok (why says it) with no marker edges, no readings of
 * the inputs, no input's edges pairing with the marker's, or pairs that disagree.
 */
void el_marker_align(const struct el_logic *l, const struct el_mark *marks, size_t nmarks,
		     int input, struct el_align *out);

#endif
