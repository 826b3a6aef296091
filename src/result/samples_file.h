/* SPDX-License-Identifier: MIT */
/* A result's samples file (NAME.samples.csv or .samples.bin): its format, for the writer and every reader. */
#ifndef IOWATT_RESULT_SAMPLES_FILE_H
#define IOWATT_RESULT_SAMPLES_FILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define SAMPLES_BIN_MAGIC "IOWATTS1"
#define SAMPLES_HEADER "t_ns,meter,v,a,w,flags"
#define SAMPLES_BIN_COLUMNS ",n,v_min,v_max,a_min,a_max,w_min,w_max"

/* One record of NAME.samples.bin, little-endian as the hosts iowatt runs on. */
struct samples_record {
	uint64_t t_ns;
	uint32_t meter;
	uint32_t flags;
	double v, a, w;
};

/* One row read back: a sample (n 1), or a bin of n samples with their means and extremes.
 * What the file leaves empty is NAN; a row without extremes has them equal to its means. */
struct samples_row {
	uint64_t t_ns;
	unsigned meter;
	double v, a, w;
	uint32_t flags; /* SAMPLE_* (core/sample.h) */
	uint64_t n;
	double v_min, v_max, a_min, a_max, w_min, w_max;
};

/* The flags as the CSV names them, "|"-joined. */
void samples_put_flags(FILE *fp, uint32_t bits);

/* A CSV line as a row: 0, or -EINVAL for the header or a line that is not a row. */
int samples_parse_line(const char *line, struct samples_row *row);

/* Bounds on a file read back from anywhere: a longer line is refused, not split. */
#define SAMPLES_LINE_MAX 512

/*
 * Every row of a samples file, either form, in file order, to fn (meter: only that
 * meter's rows; -1 every meter); fn's non-zero return stops the reading and is returned.
 * The file is a regular file, not followed through a final symbolic link. 0 or -errno
 * (logged with the path, and the line for a malformed one).
 */
int samples_file_read(const char *path, int meter,
		      int (*fn)(const struct samples_row *row, void *ctx), void *ctx);

#endif
