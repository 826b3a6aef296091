/* SPDX-License-Identifier: MIT */
/* One meter reading on the run's clock: what the meters deliver and the energy maths integrate. */
#ifndef IOWATT_SAMPLE_H
#define IOWATT_SAMPLE_H

#include <stdint.h>

/* One reading. Quantities a meter lacks are NAN. */
struct meter_sample {
	uint64_t t_ns; /* CLOCK_MONOTONIC when the reading was taken (arrival minus lag) */
	double v;      /* volts */
	double a;      /* amps */
	double w;      /* watts: measured, or v * a with SAMPLE_W_COMPUTED */
	uint32_t flags;
	/* Readings the core dropped just before this one as impossible (meter_sample_check):
	 * the phases the hole overlaps say so. */
	uint32_t dropped_before;
	/* The meter's digital inputs D0..D7 at the reading (bit n: Dn high), with
	 * SAMPLE_LOGIC: a marker wired to one lines its edges up with the readings. */
	uint8_t logic;
};

#define SAMPLE_W_COMPUTED (1u << 0) /* w = v * a, the meter has no power register */
#define SAMPLE_AFTER_GAP (1u << 1)  /* first sample after a reconnect or stall */
#define SAMPLE_EMULATED (1u << 2)   /* from iowatt's own emulator */
#define SAMPLE_MANUAL (1u << 3)	    /* typed in from a display, not measured */
#define SAMPLE_RAIL_SUM (1u << 4)   /* a sum of rails (Pi 5 PMIC), not the input */
/* Samples were lost just before this one (the core's ring was full, or the device said so):
 * the phases the hole overlaps are not valid. */
#define SAMPLE_AFTER_LOSS (1u << 5)
/* Readings were dropped as impossible just before this one (dropped_before says how many;
 * a sample read back from a samples file keeps only the flag). */
#define SAMPLE_AFTER_DROP (1u << 6)
#define SAMPLE_LOGIC (1u << 7) /* logic holds the meter's digital inputs (PPK2) */
/* The meter's clock was set again just before this one (a PPK2 anchored afresh after a
 * hole, or moved by more than 0.5 ms): readings either side of it may sit on clocks that
 * differ by more than that. */
#define SAMPLE_CLOCK_STEP (1u << 8)

#endif
