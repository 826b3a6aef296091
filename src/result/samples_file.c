/* SPDX-License-Identifier: MIT */
/* A result's samples file (NAME.samples.csv or .samples.bin): its flag names, the row parser and the reader. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/input.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/sample.h"
#include "result/samples_file.h"

#define MOD "samples"

static const struct {
	uint32_t bit;
	const char *name;
} flag_names[] = {
	{ SAMPLE_EMULATED, "emulated" }, { SAMPLE_MANUAL, "manual" },
	{ SAMPLE_AFTER_GAP, "after_gap" }, { SAMPLE_W_COMPUTED, "w_computed" },
	{ SAMPLE_RAIL_SUM, "rail_sum" }, { SAMPLE_AFTER_LOSS, "after_loss" },
	{ SAMPLE_AFTER_DROP, "after_dropped" }, { SAMPLE_CLOCK_STEP, "clock_step" },
};

void samples_put_flags(FILE *fp, uint32_t bits)
{
	const char *sep = "";
	size_t i;

	for (i = 0; i < ARRAY_SIZE(flag_names); i++) {
		if (bits & flag_names[i].bit) {
			fprintf(fp, "%s%s", sep, flag_names[i].name);
			sep = "|";
		}
	}
}

/* One number field at *p (just after its comma); *p then points at what follows it. NAN if
 * empty; -EINVAL when the field is not a number. */
static int field_num(const char **p, double *v)
{
	char *end;

	*v = NAN;
	if (**p == ',' || **p == '\n' || **p == '\r' || !**p)
		return 0;
	*v = strtod(*p, &end);
	if (end == *p)
		return -EINVAL;
	*p = end;
	return 0;
}

/* The next field's start, past its comma; NULL at the end of the line. */
static const char *next_field(const char *p)
{
	return *p == ',' ? p + 1 : NULL;
}

static uint32_t field_flags(const char **pp)
{
	const char *p = *pp;
	uint32_t bits = 0;
	size_t i, n;

	for (; *p && *p != '\n' && *p != '\r' && *p != ','; p += n + (p[n] == '|')) {
		n = strcspn(p, "|,\r\n");
		for (i = 0; i < ARRAY_SIZE(flag_names); i++)
			if (strlen(flag_names[i].name) == n && !strncmp(p, flag_names[i].name, n))
				bits |= flag_names[i].bit;
	}
	*pp = p;
	return bits;
}

int samples_parse_line(const char *line, struct samples_row *r)
{
	double *nums[3] = { &r->v, &r->a, &r->w }, *ext[6] = { &r->v_min, &r->v_max, &r->a_min,
							      &r->a_max, &r->w_min, &r->w_max };
	const char *p = line;
	char *end;
	unsigned long m;
	size_t i;

	memset(r, 0, sizeof(*r));
	errno = 0;
	r->t_ns = strtoull(p, &end, 10);
	if (end == p || *end != ',' || errno)
		return -EINVAL; /* the header, or not a row */
	p = end + 1;
	m = strtoul(p, &end, 10);
	if (end == p || *end != ',' || m > 255)
		return -EINVAL;
	r->meter = (unsigned)m;
	p = end;
	for (i = 0; i < 3; i++)
		if (!(p = next_field(p)) || field_num(&p, nums[i]))
			return -EINVAL;
	if (!(p = next_field(p)))
		return -EINVAL;
	r->flags = field_flags(&p);
	r->n = 1;
	r->v_min = r->v_max = r->v;
	r->a_min = r->a_max = r->a;
	r->w_min = r->w_max = r->w;
	if (*p != ',')
		return 0;
	/* A binned file's seven more columns: n, then each quantity's extremes. */
	p++;
	r->n = strtoull(p, &end, 10);
	if (end == p || !r->n)
		return -EINVAL;
	p = end;
	for (i = 0; i < 6; i++)
		if (!(p = next_field(p)) || field_num(&p, ext[i]))
			return -EINVAL;
	return 0;
}

static int read_binary(FILE *fp, const char *path, int meter,
		       int (*fn)(const struct samples_row *row, void *ctx), void *ctx)
{
	char magic[sizeof(SAMPLES_BIN_MAGIC) - 1];
	struct samples_record rec;
	struct samples_row r;
	int rc;

	if (fread(magic, 1, sizeof(magic), fp) != sizeof(magic) ||
	    memcmp(magic, SAMPLES_BIN_MAGIC, sizeof(magic))) {
		log_err(MOD, "%s: not an iowatt samples file (no " SAMPLES_BIN_MAGIC " at its start)",
			path);
		return -EINVAL;
	}
	while (fread(&rec, sizeof(rec), 1, fp) == 1) {
		if (meter >= 0 && rec.meter != (uint32_t)meter)
			continue;
		r = (struct samples_row){ .t_ns = rec.t_ns, .meter = rec.meter, .v = rec.v,
					  .a = rec.a, .w = rec.w, .flags = rec.flags, .n = 1,
					  .v_min = rec.v, .v_max = rec.v, .a_min = rec.a,
					  .a_max = rec.a, .w_min = rec.w, .w_max = rec.w };
		rc = fn(&r, ctx);
		if (rc)
			return rc;
	}
	return 0;
}

int samples_file_read(const char *path, int meter,
		      int (*fn)(const struct samples_row *row, void *ctx), void *ctx)
{
	char line[SAMPLES_LINE_MAX + 2];
	struct samples_row r;
	long lineno = 0, bad = 0, first_bad = 0;
	size_t len;
	int err, rc = 0;
	FILE *fp = input_fopen(path, INPUT_NOFOLLOW, 0, &err);

	if (!fp) {
		log_err(MOD, "%s: %s", path, input_strerror(err));
		return err;
	}
	len = strlen(path);
	if (len > 4 && !strcmp(path + len - 4, ".bin")) {
		rc = read_binary(fp, path, meter, fn, ctx);
		fclose(fp);
		return rc;
	}
	while (fgets(line, sizeof(line), fp)) {
		lineno++;
		if (!strchr(line, '\n') && !feof(fp)) {
			log_err(MOD, "%s:%ld: a line longer than %d characters: not a samples file",
				path, lineno, SAMPLES_LINE_MAX);
			rc = -EINVAL;
			break;
		}
		if (samples_parse_line(line, &r)) {
			if (lineno > 1 && !bad++)
				first_bad = lineno;
			continue;
		}
		if (meter >= 0 && r.meter != (unsigned)meter)
			continue;
		rc = fn(&r, ctx);
		if (rc)
			break;
	}
	fclose(fp);
	if (bad)
		log_warn(MOD, "%s:%ld: %ld line(s) that are not samples, left out", path, first_bad,
			 bad);
	return rc;
}
