/* SPDX-License-Identifier: MIT */
/* The live progress line on stderr: set by the phase loops, drawn at the end of a pump. */
#ifndef IOWATT_PROGRESS_H
#define IOWATT_PROGRESS_H

#include <stdint.h>

#include "run/session.h"

#define PROGRESS_LINE_MAX 256

struct progress {
	int enabled;		     /* draw at all (stderr is a terminal, or asked) */
	int drawn;		     /* a line is on the screen */
	uint64_t last_ns;	     /* when it was last drawn */
	char line[PROGRESS_LINE_MAX]; /* what the next draw shows; "" for nothing */
};

/* A session sink: redraws the line when it is due. */
extern const struct session_sink_ops progress_sink_ops;

void progress_set(struct progress *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Erase the line (before a message, or at a job's end) and forget its text. */
void progress_clear(struct progress *p);

#endif
