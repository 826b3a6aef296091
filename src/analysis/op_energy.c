/* SPDX-License-Identifier: MIT */
/* Energy per operation per device: each result's pooled power models and its jobs' event-locked figures as cells of a small table. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/op_energy.h"
#include "core/units.h"

/* A lock-step pair's cells: the sum in its first kind's, the mark alone in the second's. */
#define SUM_MARK "\u2020"

const char *const op_energy_kinds[OP_ENERGY_KINDS] = { "read", "write", "flush" };
const char *const op_energy_kinds_plural[OP_ENERGY_KINDS] = { "reads", "writes", "flushes" };

static int64_t opt_int(const struct job_result *j, const char *key)
{
	const struct result_opt *o = result_opt_find(j, key);

	return o && o->type == RESULT_OPT_INT ? o->i : 0;
}

/* As the pool groups jobs (energy/energy_pool.c): a buffered job's fdatasync, else 0. */
static uint64_t writes_per_flush(const struct job_result *j)
{
	int64_t n = opt_int(j, "fdatasync");

	return opt_int(j, "direct") > 0 || n < 0 ? 0 : (uint64_t)n;
}

/* Whether d pools job j: its meter, block size, direct setting and, unless any_sync, its
 * writes per flush. */
static int pools_job(const struct result_device_model *d, const struct job_result *j,
		     int any_sync)
{
	return d->meter && !strcmp(d->meter, j->meters[0].spec) && d->bs == rr_bs(j) &&
	       d->direct == (opt_int(j, "direct") > 0) &&
	       (any_sync || d->writes_per_flush == writes_per_flush(j));
}

const struct result_device_model *op_energy_model(const struct rr_result *r,
						  const struct job_result *j)
{
	size_t i;

	if (!j->nmeters || !j->meters[0].spec)
		return NULL;
	for (i = 0; i < r->rep.nenergy_models; i++)
		if (pools_job(&r->rep.energy_models[i], j, 0))
			return &r->rep.energy_models[i];
	return NULL;
}

const struct result_event_locked *op_energy_event_locked(const struct job_result *j)
{
	const struct result_power *p = rr_power(j);
	const struct result_event_locked *el = p ? p->event_locked : NULL;

	if (!el || !(isfinite(el->read_uj_per_op) || isfinite(el->write_uj_per_op) ||
		     isfinite(el->flush_uj_per_op) || isfinite(el->sum_uj_per_op)))
		return NULL;
	return el;
}

/* The rows of r: its pooled models, then each job event-locked on a fast meter. */
static size_t result_rows(const struct rr_result *r)
{
	size_t i, n = r->rep.energy_models ? r->rep.nenergy_models : 0;

	for (i = 0; i < r->rep.njobs; i++)
		n += op_energy_event_locked(&r->rep.jobs[i]) != NULL;
	return n;
}

size_t op_energy_count(const struct rr_set *set)
{
	size_t i, n = 0;

	for (i = 0; i < set->nres; i++)
		n += result_rows(&set->res[i]);
	return n;
}

size_t op_energy_head_cells(char cells[][COMPARE_CELL])
{
	static const char *const head[OP_ENERGY_CELLS] = {
		"device", "meter", "bs", "jobs", "read \u00b5J \u00b195%", "write \u00b5J \u00b195%",
		"flush \u00b5J \u00b195%", "fit"
	};
	size_t k;

	for (k = 0; k < OP_ENERGY_CELLS; k++)
		snprintf(cells[k], COMPARE_CELL, "%s", head[k]);
	return OP_ENERGY_CELLS;
}

/* The meter as a reader knows it ("UM25C on rfcomm0"), from the result's list by spec. */
static void meter_cell(const struct rr_result *r, const char *spec, char *buf, size_t len)
{
	size_t i;

	for (i = 0; spec && i < r->rep.nmeters; i++)
		if (r->rep.meters[i].spec && !strcmp(r->rep.meters[i].spec, spec)) {
			rr_meter_name(&r->rep.meters[i], buf, len);
			return;
		}
	snprintf(buf, len, "%s", spec ? spec : "-");
}

/* "613 ±51"; "613" without an interval. */
static void uj_cell(double v, double u95, const char *mark, char *buf, size_t len)
{
	char a[32], b[32];

	fmt_sig(v, 3, a, sizeof(a));
	if (isfinite(u95))
		snprintf(buf, len, "%s \u00b1%s%s", a, fmt_sig(u95, 2, b, sizeof(b)), mark);
	else
		snprintf(buf, len, "%s%s", a, mark);
}

int op_energy_pair(const char *sum_of, int *first, int *second)
{
	const char *plus = sum_of ? strchr(sum_of, '+') : NULL;
	int k;

	*first = *second = -1;
	for (k = 0; plus && k < OP_ENERGY_KINDS; k++) {
		if (strlen(op_energy_kinds[k]) == (size_t)(plus - sum_of) &&
		    !strncmp(sum_of, op_energy_kinds[k], strlen(op_energy_kinds[k])))
			*first = k;
		if (!strcmp(plus + 1, op_energy_kinds[k]))
			*second = k;
	}
	if (*first < 0 || *second < 0 || *first == *second)
		*first = *second = -1;
	return *first >= 0;
}

/* Which kinds a pooled lock-step sum holds: first and second, -1 when none. */
static void sum_kinds(const struct result_device_model *d, int *first, int *second)
{
	if (!isfinite(d->sum_uj_per_op) || !op_energy_pair(d->sum_of, first, second))
		*first = *second = -1;
}

/* "4 KiB direct"; a buffered pool with its writes per flush: "4 KiB buffered, 4 writes/flush". */
static void bs_cell(const struct result_device_model *d, char *buf, size_t len)
{
	char bs[32];

	fmt_size(d->bs, bs, sizeof(bs));
	if (d->writes_per_flush)
		snprintf(buf, len, "%s buffered, %llu write%s/flush", bs,
			 (unsigned long long)d->writes_per_flush, d->writes_per_flush > 1 ? "s" : "");
	else
		snprintf(buf, len, "%s %s", bs, d->direct ? "direct" : "buffered");
}

/* A cost below zero beyond its U95: an operation does not give energy back, the model
 * misses what moves the power. */
static int below_zero(double v, double u95)
{
	return isfinite(v) && v + (isfinite(u95) ? u95 : 0) < 0;
}

/* How bad a verdict is: ok, not identifiable, poor fit. */
static int verdict_rank(const char *v)
{
	return !v || !strcmp(v, "ok") ? 0 : !strcmp(v, "poor fit") ? 2 : 1;
}

/*
 * The fit column: the worst of the pool's verdict (how its jobs agree: a pool of one job
 * always agrees with itself), its jobs' own fits in r (a result written before the pool
 * judged them) and a cost below zero beyond its U95; why, NULL for ok.
 */
static const char *row_fit(const struct rr_result *r, const struct result_device_model *d,
			   const char **why)
{
	static const char *const neg = "a cost below zero beyond its U95: the model misses "
				       "what moves the power";
	const struct result_energy_model *em;
	const struct job_result *j;
	const char *v = d->verdict;
	int any_sync = 1;
	size_t i;

	/* a result written before pools were per writes per flush pooled every pattern */
	for (i = 0; i < r->rep.nenergy_models; i++)
		any_sync &= !r->rep.energy_models[i].writes_per_flush;
	*why = verdict_rank(v) ? d->why : NULL;
	for (i = 0; i < r->rep.njobs; i++) {
		j = &r->rep.jobs[i];
		em = rr_power(j) ? rr_power(j)->energy_model : NULL;
		if (!em || !j->nmeters || !j->meters[0].spec || !pools_job(d, j, any_sync) ||
		    verdict_rank(em->verdict) < 2 || verdict_rank(v) >= 2)
			continue;
		v = em->verdict;
		*why = em->why;
	}
	if (verdict_rank(v) < 2 &&
	    (below_zero(d->read_uj_per_op, d->read_uj_per_op_u95) ||
	     below_zero(d->write_uj_per_op, d->write_uj_per_op_u95) ||
	     below_zero(d->flush_uj_per_op, d->flush_uj_per_op_u95) ||
	     below_zero(d->sum_uj_per_op, d->sum_uj_per_op_u95))) {
		v = "poor fit";
		*why = neg;
	}
	return v;
}

size_t op_energy_row_cells(const struct rr_result *r, const struct result_device_model *d,
			   char cells[][COMPARE_CELL])
{
	const double v[3] = { d->read_uj_per_op, d->write_uj_per_op, d->flush_uj_per_op };
	const double u[3] = { d->read_uj_per_op_u95, d->write_uj_per_op_u95,
			      d->flush_uj_per_op_u95 };
	const uint64_t ops[3] = { d->reads, d->writes, d->flushes };
	const char *why, *fit = row_fit(r, d, &why);
	int first, second;
	size_t k, n = 0;

	sum_kinds(d, &first, &second);
	snprintf(cells[n++], COMPARE_CELL, "%s", r->label);
	meter_cell(r, d->meter, cells[n++], COMPARE_CELL);
	bs_cell(d, cells[n++], COMPARE_CELL);
	snprintf(cells[n++], COMPARE_CELL, "%llu", (unsigned long long)d->jobs);
	for (k = 0; k < 3; k++, n++) {
		if ((int)k == first && below_zero(d->sum_uj_per_op, d->sum_uj_per_op_u95))
			snprintf(cells[n], COMPARE_CELL, "- " SUM_MARK);
		else if ((int)k == first)
			uj_cell(d->sum_uj_per_op, d->sum_uj_per_op_u95, " " SUM_MARK, cells[n],
				COMPARE_CELL);
		else if ((int)k == second)
			snprintf(cells[n], COMPARE_CELL, SUM_MARK);
		else if (below_zero(v[k], u[k])) /* the fit column says why */
			snprintf(cells[n], COMPARE_CELL, "-");
		else if (isfinite(v[k]))
			uj_cell(v[k], u[k], "", cells[n], COMPARE_CELL);
		else /* did none: "-"; did some the fit could not price: say so */
			snprintf(cells[n], COMPARE_CELL, "%s", ops[k] ? "not known" : "-");
	}
	snprintf(cells[n++], COMPARE_CELL, "%s", fit ? fit : "-");
	return n;
}

int op_energy_cell_left(size_t k)
{
	return k <= 1 || k == OP_ENERGY_CELLS - 1;
}

void op_energy_notes(const struct rr_set *set, void (*fn)(void *ctx, const char *text), void *ctx)
{
	char line[COMPARE_CELL * 3], meter[96], bs[64];
	const struct result_device_model *d;
	const char *verdict, *why;
	int first, second, sums = 0;
	size_t i, m;

	for (i = 0; i < set->nres; i++)
		for (m = 0; set->res[i].rep.energy_models && m < set->res[i].rep.nenergy_models; m++) {
			d = &set->res[i].rep.energy_models[m];
			sum_kinds(d, &first, &second);
			if (first >= 0 && !sums++)
				fn(ctx, SUM_MARK " two kinds that came in lock-step in every job: only "
					"their sum is known, one of the first with its share of the "
					"second, in the first's cell");
			if (!verdict_rank(verdict = row_fit(&set->res[i], d, &why)))
				continue;
			meter_cell(&set->res[i], d->meter, meter, sizeof(meter));
			bs_cell(d, bs, sizeof(bs));
			snprintf(line, sizeof(line), "%s, %s, %s: %s%s%s", set->res[i].label, meter,
				 bs, verdict, why ? ": " : "", why ? why : "");
			fn(ctx, line);
		}
}

/*
 * Job j's event-locked figures as a row: its own ops averaged on the meter's trace, one
 * job (no pool), the source in the fit column, EMULATED when the meter was.
 */
static size_t el_row_cells(const struct rr_result *r, const struct job_result *j,
			   const struct result_event_locked *el, char cells[][COMPARE_CELL])
{
	struct result_device_model d = {
		.meter = j->nmeters ? j->meters[0].spec : NULL,
		.bs = rr_bs(j),
		.direct = opt_int(j, "direct") > 0,
		.writes_per_flush = writes_per_flush(j),
		.jobs = 1,
		.reads = el->reads, .writes = el->writes, .flushes = el->flushes,
		.read_uj_per_op = el->read_uj_per_op, .read_uj_per_op_u95 = el->read_uj_per_op_u95,
		.write_uj_per_op = el->write_uj_per_op,
		.write_uj_per_op_u95 = el->write_uj_per_op_u95,
		.flush_uj_per_op = el->flush_uj_per_op,
		.flush_uj_per_op_u95 = el->flush_uj_per_op_u95,
		.sum_uj_per_op = el->sum_uj_per_op, .sum_uj_per_op_u95 = el->sum_uj_per_op_u95,
		.sum_ratio = el->sum_ratio, .sum_of = el->sum_of,
	};
	size_t n = op_energy_row_cells(r, &d, cells);

	snprintf(cells[n - 1], COMPARE_CELL, "event-locked, job %s%s%s",
		 j->jobname ? j->jobname : "?",
		 el->agrees_with_model == 0 ? ", the 100 ms model disagrees" : "",
		 j->validity && j->validity->emulated ? ", EMULATED" : "");
	return n;
}

size_t op_energy_result_row(const struct rr_result *r, size_t row, char cells[][COMPARE_CELL])
{
	size_t nm = r->rep.energy_models ? r->rep.nenergy_models : 0, i;
	const struct result_event_locked *el;

	if (row < nm)
		return op_energy_row_cells(r, &r->rep.energy_models[row], cells);
	for (row -= nm, i = 0; i < r->rep.njobs; i++) {
		el = op_energy_event_locked(&r->rep.jobs[i]);
		if (el && !row--)
			return el_row_cells(r, &r->rep.jobs[i], el, cells);
	}
	return 0;
}
