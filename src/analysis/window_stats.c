/* SPDX-License-Identifier: MIT */
/* A window's figures from a result's samples file: average, min, max, charge and energy per meter. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/window_stats.h"
#include "core/phase.h"
#include "result/samples_file.h"
#include "core/log.h"
#include "core/mem.h"

#define MOD "stats"
#define SEC_PER_H 3600.0

static void meter_init(struct window_meter *m)
{
	memset(m, 0, sizeof(*m));
	m->a_min = m->w_min = INFINITY;
	m->a_max = m->w_max = -INFINITY;
}

/* The part of the trapezoid from (t0, y0) to (t1, y1) inside [a, b), in value x s. */
static double trap_in(uint64_t t0, double y0, uint64_t t1, double y1, uint64_t a, uint64_t b,
		      double *len_s)
{
	uint64_t lo = t0 > a ? t0 : a, hi = t1 < b ? t1 : b;
	double span = (double)(t1 - t0), ylo, yhi;

	*len_s = 0;
	if (hi <= lo || !(span > 0))
		return 0;
	ylo = y0 + (y1 - y0) * (double)(lo - t0) / span;
	yhi = y0 + (y1 - y0) * (double)(hi - t0) / span;
	*len_s = (double)(hi - lo) / 1e9;
	return (ylo + yhi) / 2 * *len_s;
}

/* One row: integrate from the meter's previous row, then keep its extremes if inside. */
static void add_row(struct window_stats *st, struct window_meter *m, uint64_t t, double v,
		    double a, double w, uint64_t n, const double ext[4])
{
	double len;

	if (m->have_prev && t > m->prev_t) {
		if (isfinite(a) && isfinite(m->prev_a)) {
			m->charge_c += trap_in(m->prev_t, m->prev_a, t, a, st->t_from_ns, st->t_to_ns, &len);
			m->a_s += len;
		}
		if (isfinite(w) && isfinite(m->prev_w)) {
			m->energy_j += trap_in(m->prev_t, m->prev_w, t, w, st->t_from_ns, st->t_to_ns, &len);
			m->w_s += len;
		}
		if (isfinite(v) && isfinite(m->prev_v)) {
			m->v_int += trap_in(m->prev_t, m->prev_v, t, v, st->t_from_ns, st->t_to_ns, &len);
			m->v_s += len;
		}
		trap_in(m->prev_t, 0, t, 0, st->t_from_ns, st->t_to_ns, &len);
		m->span_s += len;
	}
	if (t >= st->t_from_ns && t < st->t_to_ns) {
		m->rows++;
		m->readings += n;
		if (isfinite(ext[0]) && ext[0] < m->a_min)
			m->a_min = ext[0];
		if (isfinite(ext[1]) && ext[1] > m->a_max)
			m->a_max = ext[1];
		if (isfinite(ext[2]) && ext[2] < m->w_min)
			m->w_min = ext[2];
		if (isfinite(ext[3]) && ext[3] > m->w_max)
			m->w_max = ext[3];
	}
	if (n > 1 && m->have_prev && t > m->prev_t && (!m->bin_ns || t - m->prev_t < m->bin_ns))
		m->bin_ns = t - m->prev_t;
	m->have_prev = 1;
	m->prev_t = t;
	m->prev_v = v;
	m->prev_a = a;
	m->prev_w = w;
}

/* One row of the file: a bin counts as its mean at its start, with its extremes. */
static int on_row(const struct samples_row *row, void *ctx)
{
	struct window_stats *st = ctx;
	double w = row->w, ext[4] = { row->a_min, row->a_max, row->w_min, row->w_max };

	st->rows_read++;
	if (row->meter >= WINDOW_METERS_MAX)
		return 0;
	if (isnan(w) && isfinite(row->v) && isfinite(row->a)) {
		w = row->v * row->a;
		ext[2] = row->v_min * row->a_min;
		ext[3] = row->v_max * row->a_max;
		/* A bin's lowest voltage and lowest current need not be one reading's: their
		 * product bounds its lowest power, it is not a reading of it. */
		if (row->n > 1 && row->t_ns >= st->t_from_ns && row->t_ns < st->t_to_ns)
			st->m[row->meter].w_ext_bound = 1;
	}
	add_row(st, &st->m[row->meter], row->t_ns, row->v, row->a, w, row->n ? row->n : 1, ext);
	return 0;
}

int window_stats_read(const char *path, uint64_t t_from_ns, uint64_t t_to_ns,
		      struct window_stats *st)
{
	int ret, i;

	memset(st, 0, sizeof(*st));
	st->t_from_ns = t_from_ns;
	st->t_to_ns = t_to_ns;
	for (i = 0; i < WINDOW_METERS_MAX; i++)
		meter_init(&st->m[i]);
	ret = samples_file_read(path, -1, on_row, st);
	if (!ret && !st->rows_read) {
		log_err(MOD, "%s: no samples in it", path);
		ret = -ENODATA;
	}
	return ret;
}

/* The window asked for, in ns of the run's clock: a job's phase, or a span from t0. */
static int resolve(const struct rr_result *r, const struct window_req *q, uint64_t *from,
		   uint64_t *to, char *what, size_t len)
{
	static const char *const names[PHASE_COUNT] = { "idle", "active", "tail" };
	const struct job_result *j = NULL;
	const struct result_span *sp = NULL;
	int ph = q->phase >= 0 && q->phase < PHASE_COUNT ? q->phase : PHASE_ACTIVE;
	size_t i;

	if (q->phase < 0 && !q->job) {
		*from = q->from_ns ? r->rep.t0_ns + q->from_ns : 0;
		*to = q->to_ns ? r->rep.t0_ns + q->to_ns : UINT64_MAX;
		snprintf(what, len, "window");
		return *to > *from ? 0 : -EINVAL;
	}
	for (i = 0; i < r->rep.njobs && !j; i++)
		if (!q->job || !strcmp(rr_job_name(r, &r->rep.jobs[i]), q->job))
			j = &r->rep.jobs[i];
	if (!j) {
		log_err(MOD, "%s: no job '%s'", r->path, q->job ? q->job : "");
		return -ENOENT;
	}
	if (j->phases)
		sp = ph == PHASE_IDLE ? j->phases->idle : ph == PHASE_TAIL ? j->phases->tail
									  : j->phases->active;
	if (!sp || sp->t_end_ns <= sp->t_start_ns) {
		log_err(MOD, "%s: job %s has no %s phase", r->path, rr_job_name(r, j), names[ph]);
		return -ENOENT;
	}
	*from = sp->t_start_ns;
	*to = sp->t_end_ns;
	snprintf(what, len, "job %s, %s phase", rr_job_name(r, j), names[ph]);
	return 0;
}

static double ratio(double num, double den)
{
	return den > 0 ? num / den : NAN;
}

/* A quantity's line: its average, then min and max in milli-units (the readings inside the
 * window's: none when it falls between two, whose interpolation gives the average). */
static void put_avg_range(FILE *out, const char *what, double avg, double lo, double hi,
			  const char *unit)
{
	fprintf(out, "  %-8s avg %.6g %s", what, avg * 1e3, unit);
	if (isfinite(lo) && isfinite(hi))
		fprintf(out, "  min %.6g %s  max %.6g %s\n", lo * 1e3, unit, hi * 1e3, unit);
	else
		fprintf(out, "  min -  max - (no reading inside the window)\n");
}

static void print_meter(const struct rr_result *r, unsigned i, const struct window_meter *m,
			FILE *out)
{
	char name[96];

	if (i < r->rep.nmeters)
		rr_meter_name(&r->rep.meters[i], name, sizeof(name));
	else
		snprintf(name, sizeof(name), "meter %u", i);
	fprintf(out, "%s: %llu readings", name, (unsigned long long)m->readings);
	if (m->bin_ns)
		fprintf(out, " in %llu bins of %g ms: times to the bin, min and max exact\n",
			(unsigned long long)m->rows, (double)m->bin_ns / 1e6);
	else
		fprintf(out, ", a row per reading\n");
	if (m->a_s > 0)
		put_avg_range(out, "current", ratio(m->charge_c, m->a_s), m->a_min, m->a_max, "mA");
	if (m->w_s > 0 && m->w_ext_bound && isfinite(m->w_min) && isfinite(m->w_max))
		fprintf(out, "  %-8s avg %.6g mW  min >= %.6g mW  max <= %.6g mW (bounds: the bins' "
			"voltage and current extremes; the file has no power column)\n", "power",
			ratio(m->energy_j, m->w_s) * 1e3, m->w_min * 1e3, m->w_max * 1e3);
	else if (m->w_s > 0)
		put_avg_range(out, "power", ratio(m->energy_j, m->w_s), m->w_min, m->w_max, "mW");
	if (m->v_s > 0)
		fprintf(out, "  voltage  avg %.6g V\n", ratio(m->v_int, m->v_s));
	if (m->a_s > 0)
		fprintf(out, "  charge   %.6g uAh (%.6g mC) over %.6g s\n",
			m->charge_c / SEC_PER_H * 1e6, m->charge_c * 1e3, m->a_s);
	if (m->w_s > 0)
		fprintf(out, "  energy   %.6g mJ (%.6g uWh) over %.6g s\n", m->energy_j * 1e3,
			m->energy_j / SEC_PER_H * 1e6, m->w_s);
}

int window_stats_print(const struct rr_result *r, const struct window_req *q, FILE *out)
{
	struct window_stats *st;
	char *path, what[160];
	uint64_t from, to;
	unsigned i, shown = 0;
	int ret;

	ret = resolve(r, q, &from, &to, what, sizeof(what));
	if (ret == -EINVAL)
		log_err(MOD, "--to must be later than --from");
	if (ret)
		return ret;
	path = rr_companion_path(r, "samples");
	if (!path)
		return -EINVAL;
	st = xcalloc(1, sizeof(*st));
	ret = window_stats_read(path, from, to, st);
	free(path);
	if (!ret) {
		fprintf(out, "%s: %s from ", r->path, what);
		if (from >= r->rep.t0_ns)
			fprintf(out, "%.6g s", (double)(from - r->rep.t0_ns) / 1e9);
		else
			fprintf(out, "the first reading");
		if (to != UINT64_MAX)
			fprintf(out, " to %.6g s\n", (double)(to - r->rep.t0_ns) / 1e9);
		else
			fprintf(out, " to the last reading\n");
		for (i = 0; i < WINDOW_METERS_MAX; i++)
			if (st->m[i].readings || st->m[i].span_s > 0) {
				print_meter(r, i, &st->m[i], out);
				shown++;
			}
		if (!shown) {
			log_err(MOD, "%s: no readings in that window", r->path);
			ret = -ENOENT;
		}
	}
	free(st);
	return ret;
}
