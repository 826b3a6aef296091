/* SPDX-License-Identifier: MIT */
/* An emulated wire into a meter's digital input: a board GPIO line's level changes, read from a file. */
#ifndef IOWATT_EMU_WIRE_H
#define IOWATT_EMU_WIRE_H

#include <stdint.h>

/* Changes read but not yet reached by the samples. */
#define EMU_WIRE_QUEUE 64

/*
 * The file holds a line "T_NS LEVEL" per change (CLOCK_MONOTONIC, 0 or 1), appended by
 * whatever drives the line (a test's emulated gpiochip); it is read as it grows.
 */
struct emu_wire {
	int fd; /* -1: not open yet */
	char buf[128];
	unsigned have;
	int level;
	struct {
		uint64_t t_ns;
		int level;
	} q[EMU_WIRE_QUEUE];
	unsigned head, n;
};

void emu_wire_init(struct emu_wire *w);
/* Reads the changes appended since the last call (path may not exist yet: none). */
void emu_wire_poll(struct emu_wire *w, const char *path);
/* The line's level at t_ns (calls in time order): the changes up to it applied. */
int emu_wire_level(struct emu_wire *w, uint64_t t_ns);
void emu_wire_close(struct emu_wire *w);

#endif
