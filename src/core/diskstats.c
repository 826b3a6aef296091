/* SPDX-License-Identifier: MIT */
/* A block device's I/O counters from /proc/diskstats. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/diskstats.h"

#define LINE_MAX_LEN 512

int diskstats_read(const char *path, const char *name, struct diskstats *out)
{
	unsigned long long rd, rd_merged, rd_sec, rd_ms, wr, wr_merged, wr_sec, wr_ms, busy = 0;
	char line[LINE_MAX_LEN], dev[64];
	unsigned maj, mnr;
	FILE *fp = fopen(path, "re");
	int rc = -ENOENT;

	if (!fp)
		return -errno;
	while (fgets(line, sizeof(line), fp)) {
		/* in flight (field 9) is missing from a copy cut after field 8: 0 then */
		if (sscanf(line, "%u %u %63s %llu %llu %llu %llu %llu %llu %llu %llu %llu", &maj,
			   &mnr, dev, &rd, &rd_merged, &rd_sec, &rd_ms, &wr, &wr_merged, &wr_sec,
			   &wr_ms, &busy) < 11 || strcmp(dev, name))
			continue;
		*out = (struct diskstats){ rd, rd_sec, rd_ms, wr, wr_sec, wr_ms, busy };
		rc = 0;
		break;
	}
	fclose(fp);
	return rc;
}
