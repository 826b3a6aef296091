/* SPDX-License-Identifier: MIT */
/* The emulator's state, shared by its run loop (emu_core.c) and its options (emu_args.c). */
#ifndef IOWATT_EMU_INT_H
#define IOWATT_EMU_INT_H

#include <stdint.h>
#include <stdio.h>

#include "meters/emu/emu.h"
#include "meters/emu/emu_model.h"
#include "meters/emu/emu_wire.h"

#define EMU_PTS_LEN 64

/* A pause of the link: no answers (stall) or no pty at all (hangup). AT "signal": only
 * when SIGUSR1 (stall) or SIGUSR2 (hangup) comes; a signal also restarts a timed one. */
struct emu_fault {
	double at_s, dur_s;
	int set;
	int active; /* inside it at the last look: its start and end are logged once */
};

#define EMU_FAULT_DEFAULT_S 2.0 /* a fault's length when a signal starts one not given */

/*
 * --noise: the meter's datasheet accuracy as errors. The gains and offsets are drawn once
 * per run, uniformly within the declared bounds (what "+-(g % + n digits)" allows a real
 * meter to be off by, all run long); each reading adds normal scatter of the declared
 * standard deviation. The protocol then rounds to the meter's steps.
 */
struct emu_noise {
	int on;
	double v_gain, a_gain; /* fractions */
	double v_offset, a_offset; /* fractions of the declared offset bound, -1..1 */
};

/* Updates kept for a fast meter that renders its samples later (1 s at 1 ms). */
#define EMU_HISTORY 1024

struct emu {
	const struct emu_protocol *proto;
	struct emu_noise noise;
	struct emu_model model;
	const char *link;
	const char *truth_path;
	uint64_t update_ns, duration_ns;
	double corrupt_pct;
	struct emu_fault stall, hangup;
	FILE *truth;
	uint64_t rng;
	/* The pty: master answers, our own slave fd keeps it alive between clients. */
	int master, slave;
	char pts[EMU_PTS_LEN];
	/* Latest update and the meter's running totals. */
	double v, a, mah, mwh;
	/* The last updates' amps, a ring (emu_amps_at). */
	struct emu_update {
		uint64_t t_ns;
		double a;
	} hist[EMU_HISTORY];
	unsigned nhist, hist_next;
	uint64_t start_ns, last_update_ns;
	uint64_t replies, corrupted;
	/* --logic-wire: a GPIO line's changes into digital input wire_input; --hold-ms: what
	 * the meter sends is this old at least (its clock then reads late by as much). */
	const char *wire_path;
	unsigned wire_input;
	uint64_t hold_ns;
	struct emu_wire wire;
	void *priv; /* the protocol's state (emu_priv) */
	size_t priv_size;
};

#endif
