/* SPDX-License-Identifier: MIT */
/* A block device's I/O counters from /proc/diskstats. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/diskstats.h"

#define LINE_MAX_LEN 512

int diskstats_read(const char *path, const char *name, struct diskstats *out)
{
	unsigned long long f[17] = { 0 };
	char line[LINE_MAX_LEN], dev[64];
	unsigned maj, mnr;
	FILE *fp = fopen(path, "re");
	int rc = -ENOENT;

	if (!fp)
		return -errno;
	while (fgets(line, sizeof(line), fp)) {
		memset(f, 0, sizeof(f));
		/* Fields 1-8 are in every kernel iowatt runs on; the rest only in newer ones (or
		 * missing from a copy cut after field 8): 0 then. */
		if (sscanf(line,
			   "%u %u %63s %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu "
			   "%llu %llu %llu %llu %llu",
			   &maj, &mnr, dev, &f[0], &f[1], &f[2], &f[3], &f[4], &f[5], &f[6], &f[7],
			   &f[8], &f[9], &f[10], &f[11], &f[12], &f[13], &f[14], &f[15],
			   &f[16]) < 11 ||
		    strcmp(dev, name))
			continue;
		*out = (struct diskstats){ .reads = f[0], .read_sectors = f[2], .read_ms = f[3],
					   .writes = f[4], .write_sectors = f[6], .write_ms = f[7],
					   .in_flight = f[8], .io_ms = f[9], .discards = f[11],
					   .flushes = f[15] };
		rc = 0;
		break;
	}
	fclose(fp);
	return rc;
}
