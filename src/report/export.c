/* SPDX-License-Identifier: MIT */
/* iowatt export: the phases that label a result's samples, the CSV form, and the choice of form. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/mem.h"
#include "core/outfile.h"
#include "core/text.h"
#include "report/export.h"
#include "result/samples_file.h"

#define MOD "export"

int export_format_parse(const char *name)
{
	if (!strcmp(name, "srzip") || !strcmp(name, "sr"))
		return EXPORT_SRZIP;
	if (!strcmp(name, "csv"))
		return EXPORT_CSV;
	return -EINVAL;
}

struct csv_out {
	FILE *fp;
	uint64_t t0_ns;
	const struct export_spans *sp;
	uint64_t rows;
};

static void put_num(FILE *fp, const char *fmt, double v)
{
	fputc(',', fp);
	if (!isnan(v))
		fprintf(fp, fmt, v);
}

static int csv_row(const struct samples_row *r, void *ctx)
{
	struct csv_out *c = ctx;
	const struct export_span *s = export_span_at(c->sp, r->t_ns);

	fprintf(c->fp, "%" PRIu64 ",%.6f,%u,", r->t_ns,
		(double)((int64_t)(r->t_ns - c->t0_ns)) / 1e9, r->meter);
	text_csv_field(c->fp, s ? s->job : "");
	fprintf(c->fp, ",%s", s ? s->phase : "");
	put_num(c->fp, "%.4f", r->v);
	put_num(c->fp, "%.6f", r->a * 1e3);
	put_num(c->fp, "%.6f", r->w);
	fprintf(c->fp, ",%" PRIu64, r->n);
	put_num(c->fp, "%.6f", r->a_min * 1e3);
	put_num(c->fp, "%.6f", r->a_max * 1e3);
	fputc(',', c->fp);
	samples_put_flags(c->fp, r->flags);
	fputc('\n', c->fp);
	c->rows++;
	return 0;
}

int export_csv(const struct rr_result *r, const char *samples, const struct export_opts *o)
{
	struct atomic_file af;
	struct export_spans sp;
	struct csv_out c = { .t0_ns = r->rep.t0_ns };
	int rc = atomic_file_open(&af, o->out, o->replace);

	if (rc)
		return rc;
	export_spans_build(r, &sp);
	c.fp = af.fp;
	c.sp = &sp;
	fputs("t_ns,t_s,meter,job,phase,v,ma,w,n,ma_min,ma_max,flags\n", af.fp);
	rc = samples_file_read(samples, -1, csv_row, &c);
	export_spans_free(&sp);
	if (rc) {
		atomic_file_abort(&af);
		return rc;
	}
	rc = atomic_file_commit(&af);
	if (!rc)
		log_info(MOD, "%s: %" PRIu64 " samples with their job and phase", o->out, c.rows);
	return rc;
}

static int ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), m = strlen(tail);

	return n >= m && !strcmp(s + n - m, tail);
}

int export_result(const struct rr_result *r, const struct export_opts *o)
{
	struct export_opts x = *o;
	char *samples;
	int rc;

	if (x.format == EXPORT_AUTO) {
		if (ends_with(x.out, ".sr"))
			x.format = EXPORT_SRZIP;
		else if (ends_with(x.out, ".csv"))
			x.format = EXPORT_CSV;
		else {
			log_err(MOD, "%s: say --format srzip or csv (the name ends in neither .sr "
				"nor .csv)", x.out);
			return -EINVAL;
		}
	}
	samples = rr_companion_path(r, "samples");
	if (!samples) {
		log_err(MOD, "%s: no samples file beside it: nothing to export", r->path);
		return -ENOENT;
	}
	rc = x.format == EXPORT_CSV ? export_csv(r, samples, &x) : export_srzip(r, samples, &x);
	free(samples);
	return rc;
}
