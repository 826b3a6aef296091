/* SPDX-License-Identifier: MIT */
/* A block device's I/O counters as the kernel keeps them (/proc/diskstats). */
#ifndef IOWATT_DISKSTATS_H
#define IOWATT_DISKSTATS_H

#include <stdint.h>

#define DISKSTATS_PATH "/proc/diskstats"
/* The kernel counts 512-byte sectors whatever the device's block size. */
#define DISKSTATS_SECTOR 512

/* Completed I/Os and sectors per direction, and the ms spent on them (fields 1-8); the
 * I/Os in flight now and the ms the device had any (fields 9-10); completed discards and
 * flushes (fields 12 and 16: 0 on kernels before 4.18 and 5.5, which lack them). */
struct diskstats {
	uint64_t reads, read_sectors, read_ms;
	uint64_t writes, write_sectors, write_ms;
	uint64_t in_flight, io_ms;
	uint64_t discards, flushes;
};

/* The counters of device `name` ("sda", "loop3") from the file at path (DISKSTATS_PATH,
 * or a copy under a test's root). 0, -ENOENT when the device is not listed, or -errno. */
int diskstats_read(const char *path, const char *name, struct diskstats *out);

#endif
