/* SPDX-License-Identifier: MIT */
/* For tests: the I/O engines of this build that this kernel runs, best first. */
#ifndef IOWATT_TEST_ENGINES_UTIL_H
#define IOWATT_TEST_ENGINES_UTIL_H

#include <stdio.h>

#include "io/engine.h"
#include "tap.h"

#define MAX_TEST_ENGINES 8

/*
 * NULL-terminated. Under qemu-user io_uring and libaio answer ENOSYS, and a seccomp filter
 * may refuse them: each engine left out is a TAP skip that says why, so the tests that
 * run I/O through every engine say what they did not cover.
 */
static const struct io_engine *engines[MAX_TEST_ENGINES];

static inline void find_usable_engines(void)
{
	char why[160], line[200];
	size_t i, n = 0;

	for (i = 0; io_engines[i] && n + 1 < MAX_TEST_ENGINES; i++) {
		if (io_engines[i]->probe && io_engines[i]->probe(why, sizeof(why))) {
			snprintf(line, sizeof(line), "ioengine=%s: %s", io_engines[i]->name, why);
			skip(line);
			continue;
		}
		engines[n++] = io_engines[i];
	}
}

#endif
