/* SPDX-License-Identifier: MIT */
/* A current recording made by another tool (a sigrok session, a PPK2 file), read back as a series at a fixed rate. */
#ifndef IOWATT_RESULT_RECORDING_H
#define IOWATT_RESULT_RECORDING_H

#include <stddef.h>
#include <stdint.h>

/* At most this many points are kept (a longer or faster recording is averaged into bins
 * on reading): an hour at 10 kHz. */
#define RECORDING_MAX_POINTS (36u * 1000 * 1000)
/* Bins finer than this are not kept: alignment and phases need about 1 ms. */
#define RECORDING_MAX_RATE_HZ 10000.0

struct recording {
	double rate_hz; /* points per second, after binning */
	float *ma;	/* the current, mA, NAN where the file had none */
	size_t n;
	char format[16];   /* "srzip", "ppk2" */
	char channel[64];  /* the channel read */
	double src_rate_hz; /* the file's own rate */
};

/*
 * The recording at path: a sigrok session (.sr: the analog channel named channel, or the
 * only one; its values in unit: "A", "mA" or "uA", default from the name's _mA/_uA/_A
 * ending, else A) or an nRF Connect Power Profiler file (.ppk2: its current, in uA).
 * 0 or -errno (logged with the path and what is wrong).
 */
int recording_load(const char *path, const char *channel, const char *unit, struct recording *rec);
void recording_free(struct recording *rec);

#endif
