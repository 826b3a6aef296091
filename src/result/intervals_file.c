/* SPDX-License-Identifier: MIT */
/* A result's intervals file (NAME.intervals.csv) read back, row by row, within fixed bounds. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/input.h"
#include "core/log.h"
#include "core/text.h"
#include "result/intervals_file.h"

#define MOD "intervals"
#define LINE_MAX_CHARS 1024
#define FIELDS 8

static int parse(char *line, struct interval_row *r)
{
	char *f[FIELDS + 1], *end;
	double *num[4] = { &r->read_iops, &r->read_bw_bytes, &r->write_iops, &r->write_bw_bytes };
	size_t i;

	if (text_split_commas(line, f, FIELDS + 1) != FIELDS)
		return -EINVAL;
	r->job = f[0];
	r->loop = (unsigned)strtoul(f[1], &end, 10);
	if (*end)
		return -EINVAL;
	r->t_start_ns = strtoull(f[2], &end, 10);
	if (*end || end == f[2])
		return -EINVAL;
	r->t_end_ns = strtoull(f[3], &end, 10);
	if (*end || end == f[3] || r->t_end_ns < r->t_start_ns)
		return -EINVAL;
	for (i = 0; i < 4; i++) {
		*num[i] = strtod(f[4 + i], &end);
		if (*end || end == f[4 + i])
			return -EINVAL;
	}
	return 0;
}

int intervals_file_read(const char *path, int (*fn)(const struct interval_row *row, void *ctx),
			void *ctx)
{
	char line[LINE_MAX_CHARS + 2];
	struct interval_row r;
	long lineno = 0;
	int err, rc = 0;
	FILE *fp = input_fopen(path, INPUT_NOFOLLOW, 0, &err);

	if (!fp) {
		log_err(MOD, "%s: %s", path, input_strerror(err));
		return err;
	}
	while (fgets(line, sizeof(line), fp)) {
		lineno++;
		if (!strchr(line, '\n') && !feof(fp)) {
			log_err(MOD, "%s:%ld: a line longer than %d characters: not an intervals file",
				path, lineno, LINE_MAX_CHARS);
			rc = -EINVAL;
			break;
		}
		if (lineno == 1 && !strncmp(line, "job,", 4))
			continue;
		memset(&r, 0, sizeof(r));
		if (parse(line, &r)) {
			log_warn(MOD, "%s:%ld: expected %d fields (" INTERVALS_HEADER "), line left out",
				 path, lineno, FIELDS);
			continue;
		}
		rc = fn(&r, ctx);
		if (rc)
			break;
	}
	fclose(fp);
	return rc;
}
