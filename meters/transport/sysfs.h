/* SPDX-License-Identifier: MIT */
/* Sysfs for meters: attributes kept open, fixed-rate polling, power from energy counters. */
#ifndef IOWATT_SYSFS_H
#define IOWATT_SYSFS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/sysfs.h"

/*
 * An attribute kept open for the meter thread: pread at offset 0 makes sysfs call the
 * driver's show() again, which saves the open/close per sample.
 */
struct sysfs_attr {
	int fd;
};
/* Opens and reads once: -EBADMSG when the attribute holds no number (fd left closed). */
int sysfs_attr_open(struct sysfs_attr *a, const char *fullpath);
/* 0; -ENODEV when the device went away (the core then reconnects); -EBADMSG when what
 * it holds is not a decimal number (a bad frame, not a lost device). */
int sysfs_attr_read_ll(struct sysfs_attr *a, long long *out);
/* strerror() that says what -EBADMSG means here. */
const char *sysfs_attr_strerror(int err);
void sysfs_attr_close(struct sysfs_attr *a);
void sysfs_attr_close_all(struct sysfs_attr *a, int n);

/*
 * Fixed-rate polling for sysfs meters: waits for the next tick or timeout_ms.
 * Returns 1 at a tick (time to read), 0 on timeout. A late reader skips missed ticks.
 */
int sysfs_wait_tick(uint64_t *next_ns, uint64_t period_ns, int timeout_ms);

/*
 * Power from a cumulative energy counter (µJ) that wraps at range_uj (0 = never).
 * Returns 1 and *w when a rate is known, 0 on the first reading.
 */
struct energy_rate {
	uint64_t t_ns;
	double uj;
	int have;
};
/* Power from an energy counter (range_uj: wrap, 0 if none); *mid_ns gets the middle of
 * the interval the power is the mean of. 1 when *w is set. */
int energy_rate_update(struct energy_rate *r, uint64_t t_ns, double uj, double range_uj, double *w,
		       uint64_t *mid_ns);

/* Polling state at the start of every sysfs-style meter's private struct. */
struct sysfs_poll {
	uint64_t period_ns;
	uint64_t next_ns;
	struct energy_rate rate;
};

#endif
