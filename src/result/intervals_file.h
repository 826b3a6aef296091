/* SPDX-License-Identifier: MIT */
/* A result's intervals file (NAME.intervals.csv): the I/O of each job, interval by interval, read back. */
#ifndef IOWATT_RESULT_INTERVALS_FILE_H
#define IOWATT_RESULT_INTERVALS_FILE_H

#include <stdint.h>

#define INTERVALS_HEADER "job,loop,t_start_ns,t_end_ns,read_iops,read_bw_bytes,write_iops,write_bw_bytes"

struct interval_row {
	const char *job; /* valid during the call only */
	unsigned loop;
	uint64_t t_start_ns, t_end_ns;
	double read_iops, read_bw_bytes, write_iops, write_bw_bytes;
};

/*
 * Every row of an intervals file to fn, in file order; fn's non-zero return stops the
 * reading and is returned. A line that is not a row is left out with a warning naming
 * FILE:LINE. 0 or -errno (logged with the path).
 */
int intervals_file_read(const char *path, int (*fn)(const struct interval_row *row, void *ctx),
			void *ctx);

#endif
