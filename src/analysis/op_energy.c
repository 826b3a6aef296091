/* SPDX-License-Identifier: MIT */
/* Energy per operation per device: each result's pooled power models as cells of a small table. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/op_energy.h"
#include "core/units.h"

/* A lock-step pair's cells: the sum in its first kind's, the mark alone in the second's. */
#define SUM_MARK "\u2020"

static const char *const kind_names[] = { "read", "write", "flush" };

static int64_t opt_int(const struct job_result *j, const char *key)
{
	const struct result_opt *o = result_opt_find(j, key);

	return o && o->type == RESULT_OPT_INT ? o->i : 0;
}

const struct result_device_model *op_energy_model(const struct rr_result *r,
						  const struct job_result *j)
{
	const struct result_device_model *d;
	size_t i;

	if (!j->nmeters || !j->meters[0].spec)
		return NULL;
	for (i = 0; i < r->rep.nenergy_models; i++) {
		d = &r->rep.energy_models[i];
		if (d->meter && !strcmp(d->meter, j->meters[0].spec) && d->bs == rr_bs(j) &&
		    d->direct == (opt_int(j, "direct") > 0))
			return d;
	}
	return NULL;
}

size_t op_energy_count(const struct rr_set *set)
{
	size_t i, n = 0;

	for (i = 0; i < set->nres; i++)
		n += set->res[i].rep.energy_models ? set->res[i].rep.nenergy_models : 0;
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

/* Which kinds ("write+flush") a lock-step sum holds: first and second, -1 when none. */
static void sum_kinds(const struct result_device_model *d, int *first, int *second)
{
	const char *plus = d->sum_of ? strchr(d->sum_of, '+') : NULL;
	int k;

	*first = *second = -1;
	for (k = 0; plus && isfinite(d->sum_uj_per_op) && k < 3; k++) {
		if (strlen(kind_names[k]) == (size_t)(plus - d->sum_of) &&
		    !strncmp(d->sum_of, kind_names[k], strlen(kind_names[k])))
			*first = k;
		if (!strcmp(plus + 1, kind_names[k]))
			*second = k;
	}
	if (*first < 0 || *second < 0)
		*first = *second = -1;
}

size_t op_energy_row_cells(const struct rr_result *r, const struct result_device_model *d,
			   char cells[][COMPARE_CELL])
{
	const double v[3] = { d->read_uj_per_op, d->write_uj_per_op, d->flush_uj_per_op };
	const double u[3] = { d->read_uj_per_op_u95, d->write_uj_per_op_u95,
			      d->flush_uj_per_op_u95 };
	const uint64_t ops[3] = { d->reads, d->writes, d->flushes };
	char bs[32];
	int first, second;
	size_t k, n = 0;

	sum_kinds(d, &first, &second);
	snprintf(cells[n++], COMPARE_CELL, "%s", r->label);
	meter_cell(r, d->meter, cells[n++], COMPARE_CELL);
	snprintf(cells[n++], COMPARE_CELL, "%s %s", fmt_size(d->bs, bs, sizeof(bs)),
		 d->direct ? "direct" : "buffered");
	snprintf(cells[n++], COMPARE_CELL, "%llu", (unsigned long long)d->jobs);
	for (k = 0; k < 3; k++, n++) {
		if ((int)k == first)
			uj_cell(d->sum_uj_per_op, d->sum_uj_per_op_u95, " " SUM_MARK, cells[n],
				COMPARE_CELL);
		else if ((int)k == second)
			snprintf(cells[n], COMPARE_CELL, SUM_MARK);
		else if (isfinite(v[k]))
			uj_cell(v[k], u[k], "", cells[n], COMPARE_CELL);
		else /* did none: "-"; did some the fit could not price: say so */
			snprintf(cells[n], COMPARE_CELL, "%s", ops[k] ? "not known" : "-");
	}
	snprintf(cells[n++], COMPARE_CELL, "%s", d->verdict ? d->verdict : "-");
	return n;
}

int op_energy_cell_left(size_t k)
{
	return k <= 1 || k == OP_ENERGY_CELLS - 1;
}

void op_energy_notes(const struct rr_set *set, void (*fn)(void *ctx, const char *text), void *ctx)
{
	char line[COMPARE_CELL * 3], meter[96], bs[32];
	const struct result_device_model *d;
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
			if (!d->verdict || !strcmp(d->verdict, "ok"))
				continue;
			meter_cell(&set->res[i], d->meter, meter, sizeof(meter));
			snprintf(line, sizeof(line), "%s, %s, %s: %s%s%s", set->res[i].label, meter,
				 fmt_size(d->bs, bs, sizeof(bs)), d->verdict, d->why ? ": " : "",
				 d->why ? d->why : "");
			fn(ctx, line);
		}
}
