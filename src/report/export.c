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

const char *const export_phase_names[EXPORT_PHASES] = { "idle", "active", "tail" };

static int span_cmp(const void *a, const void *b)
{
	const struct export_span *x = a, *y = b;

	return x->t0_ns < y->t0_ns ? -1 : x->t0_ns > y->t0_ns;
}

void export_spans_build(const struct rr_result *r, struct export_spans *sp)
{
	size_t i, k;

	sp->s = xcalloc(r->rep.njobs * EXPORT_PHASES + 1, sizeof(*sp->s));
	sp->n = 0;
	for (i = 0; i < r->rep.njobs; i++) {
		const struct job_result *j = &r->rep.jobs[i];
		const struct result_span *ph[EXPORT_PHASES];

		if (!j->phases)
			continue;
		ph[0] = j->phases->idle;
		ph[1] = j->phases->active;
		ph[2] = j->phases->tail;
		for (k = 0; k < EXPORT_PHASES; k++) {
			if (!ph[k] || ph[k]->t_end_ns <= ph[k]->t_start_ns)
				continue;
			sp->s[sp->n++] = (struct export_span){ ph[k]->t_start_ns, ph[k]->t_end_ns,
							       rr_job_name(r, j),
							       export_phase_names[k], (unsigned)k };
		}
	}
	qsort(sp->s, sp->n, sizeof(*sp->s), span_cmp);
}

void export_spans_free(struct export_spans *sp)
{
	free(sp->s);
	sp->s = NULL;
	sp->n = 0;
}

const struct export_span *export_span_at(const struct export_spans *sp, uint64_t t_ns)
{
	size_t lo = 0, hi = sp->n;

	while (lo < hi) { /* the first span starting after t */
		size_t mid = lo + (hi - lo) / 2;

		if (sp->s[mid].t0_ns <= t_ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && t_ns < sp->s[lo - 1].t1_ns ? &sp->s[lo - 1] : NULL;
}

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
