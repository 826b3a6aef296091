/* SPDX-License-Identifier: MIT */
/* A recording from another tool placed on a result's clock by its active phases' edges, and each job's phases measured from it. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/recording_align.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/order_stat.h"

#define MOD "recording"
/* The longest window a side of an edge is averaged over; shorter where phases are short. */
#define EDGE_WINDOW_MAX_S 0.2
/* Another offset scoring this share of the best makes the placement ambiguous. */
#define AMBIGUOUS_SHARE 0.8

struct edge {
	double t_s; /* on the run's clock, from t0 */
	int sign;   /* +1 the current should rise (an active phase starts), -1 fall */
};

struct prefix {
	double *sum; /* sum[i]: the first i points, NaN taken as 0 */
	unsigned *cnt;
	size_t n;
};

static void prefix_build(const struct recording *rec, struct prefix *p)
{
	size_t i;

	p->n = rec->n;
	p->sum = xcalloc(rec->n + 1, sizeof(double));
	p->cnt = xcalloc(rec->n + 1, sizeof(unsigned));
	for (i = 0; i < rec->n; i++) {
		int ok = !isnan(rec->ma[i]);

		p->sum[i + 1] = p->sum[i] + (ok ? rec->ma[i] : 0);
		p->cnt[i + 1] = p->cnt[i] + (unsigned)ok;
	}
}

/* The mean of points [a, b), NAN when none. */
static double mean(const struct prefix *p, long a, long b)
{
	unsigned c;

	if (a < 0 || b > (long)p->n || b <= a)
		return NAN;
	c = p->cnt[b] - p->cnt[a];
	return c ? (p->sum[b] - p->sum[a]) / c : NAN;
}

/* An edge's score with the recording starting at off_s on the run's clock. */
static double edge_score(const struct prefix *p, double rate, double off_s, const struct edge *e,
			 long w)
{
	long i = lround((e->t_s - off_s) * rate);
	double after = mean(p, i, i + w), before = mean(p, i - w, i);

	return isnan(after) || isnan(before) ? NAN : e->sign * (after - before);
}

static double total_score(const struct prefix *p, double rate, double off_s,
			  const struct edge *e, size_t ne, long w, unsigned *used)
{
	double s = 0, x;
	size_t k;

	*used = 0;
	for (k = 0; k < ne; k++) {
		x = edge_score(p, rate, off_s, &e[k], w);
		if (!isnan(x)) {
			s += x;
			(*used)++;
		}
	}
	return s;
}

/* Each job's active start (up) and end (down); the shortest phase beside an edge bounds the
 * window. */
static size_t collect_edges(const struct rr_result *r, struct edge **out, double *shortest_s)
{
	const double t0 = (double)r->rep.t0_ns / 1e9;
	struct edge *e = xcalloc(2 * r->rep.njobs + 1, sizeof(*e));
	size_t i, n = 0;

	*shortest_s = INFINITY;
	for (i = 0; i < r->rep.njobs; i++) {
		const struct result_phases *ph = r->rep.jobs[i].phases;
		double a;

		if (!ph || !ph->active || ph->active->t_end_ns <= ph->active->t_start_ns)
			continue;
		a = result_span_s(ph->active);
		*shortest_s = fmin(*shortest_s, a);
		if (ph->idle)
			*shortest_s = fmin(*shortest_s, result_span_s(ph->idle));
		e[n++] = (struct edge){ (double)ph->active->t_start_ns / 1e9 - t0, +1 };
		e[n++] = (struct edge){ (double)ph->active->t_end_ns / 1e9 - t0, -1 };
	}
	*out = e;
	return n;
}

/*
 * How often the recording's source gave a new value, in seconds: the median length of its
 * runs of equal points. A 2 Hz meter's readings put on a finer grid hold each for 0.5 s,
 * and an edge in them is known to that, however many points the grid has.
 */
static double source_period_s(const struct recording *rec)
{
	float *runs = xcalloc(rec->n + 1, sizeof(*runs));
	size_t nr = 0, len = 1, i;
	double med;

	/* As floats: a run's length is exact to 2^24 points, and a median that long is a
	 * recording that never changes, whose period's last digit does not matter. */
	for (i = 1; i <= rec->n; i++) {
		if (i < rec->n && (rec->ma[i] == rec->ma[i - 1] ||
				   (isnan(rec->ma[i]) && isnan(rec->ma[i - 1])))) {
			len++;
			continue;
		}
		runs[nr++] = (float)len;
		len = 1;
	}
	med = nr ? (double)order_stat_float(runs, nr, nr / 2) / rec->rate_hz : 1.0 / rec->rate_hz;
	free(runs);
	return med;
}

/*
 * The score that noise alone reaches: five standard deviations of a sum of `edges`
 * differences of two w-point means, the points' noise taken from their successive
 * differences (robustly: 1.4826 x their median absolute value, over sqrt 2).
 */
static double significant(const struct recording *rec, long w, unsigned edges)
{
	size_t n = rec->n > 1 ? rec->n - 1 : 0, k = 0, i;
	float *d = xcalloc(n + 1, sizeof(*d));
	double sigma;

	for (i = 0; i < n; i++)
		if (!isnan(rec->ma[i]) && !isnan(rec->ma[i + 1]))
			d[k++] = fabsf(rec->ma[i + 1] - rec->ma[i]);
	sigma = k ? 1.4826 * order_stat_float(d, k, k / 2) / sqrt(2.0) : 0;
	free(d);
	return 5.0 * sigma * sqrt(2.0 / (double)w) * sqrt((double)edges);
}

/* The offsets searched: every one that puts an edge inside the recording, a step apart. */
struct search {
	const struct prefix *p;
	const struct edge *e;
	size_t ne;
	double rate, lo, hi, step_s;
	long w;
};

/*
 * The search is coarse, then fine. An edge's score falls off linearly over w points either
 * side of its offset, so on a grid w/4 points apart a peak loses at most an eighth of its
 * height: a first pass on that grid finds every offset that could be the best, or the
 * runner-up that makes the placement ambiguous, and only those are searched a step apart.
 * Every step of an hour at 10 kS/s with a score per edge each was minutes of work.
 */
#define COARSE_SHARE 0.25
/* Coarse peaks down to this share of the highest are searched finely: the runner-up that
 * matters (AMBIGUOUS_SHARE of the best) reads at least 7/8 of that on the coarse grid. */
#define REFINE_SHARE 0.6
#define REFINE_MAX 64

struct peak {
	double score, off;
};

static int cmp_peak_desc(const void *a, const void *b)
{
	double x = ((const struct peak *)a)->score, y = ((const struct peak *)b)->score;

	return x > y ? -1 : x < y;
}

/* The best score a step apart within half of centre (-INFINITY when no edge lands). */
static struct peak fine_peak(const struct search *sc, double centre, double half, unsigned *used)
{
	struct peak pk = { -INFINITY, centre };
	double from = fmax(sc->lo, centre - half), to = fmin(sc->hi, centre + half), off, x;
	unsigned u;

	for (off = from; off <= to + 1e-12; off += sc->step_s) {
		x = total_score(sc->p, sc->rate, off, sc->e, sc->ne, sc->w, &u);
		if (u && x > pk.score) {
			pk = (struct peak){ x, off };
			*used = u;
		}
	}
	return pk;
}

/*
 * The offset whose edges score the most (*best at *best_off, over *used edges), and the best
 * score at least two windows away from it (*runner, -INFINITY when none).
 */
static void scan(const struct search *sc, double *best, double *best_off, unsigned *used,
		 double *runner)
{
	double cs = fmax(sc->step_s, floor(COARSE_SHARE * (double)sc->w) / sc->rate), top = -INFINITY;
	size_t n = (size_t)floor((sc->hi - sc->lo) / cs) + 1, i, np = 0, k;
	double *score = xcalloc(n, sizeof(*score)), apart = 2.0 * (double)sc->w / sc->rate;
	struct peak *pk = xcalloc(n, sizeof(*pk)), f;
	unsigned u;

	for (i = 0; i < n; i++) {
		score[i] = total_score(sc->p, sc->rate, sc->lo + (double)i * cs, sc->e, sc->ne, sc->w, &u);
		if (!u)
			score[i] = -INFINITY;
		top = fmax(top, score[i]);
	}
	for (i = 0; i < n && top > 0; i++)
		if (score[i] >= REFINE_SHARE * top && (!i || score[i] >= score[i - 1]) &&
		    (i + 1 == n || score[i] >= score[i + 1]))
			pk[np++] = (struct peak){ score[i], sc->lo + (double)i * cs };
	qsort(pk, np, sizeof(*pk), cmp_peak_desc);
	np = np < REFINE_MAX ? np : REFINE_MAX;
	*best = -INFINITY;
	*best_off = 0;
	*used = 0;
	for (k = 0; k < np; k++) {
		unsigned pu = 0;

		f = fine_peak(sc, pk[k].off, cs, &pu);
		pk[k] = f;
		if (f.score > *best) {
			*best = f.score;
			*best_off = f.off;
			*used = pu;
		}
	}
	if (!np) { /* nothing rose above zero: the coarse best stands, for the caller to refuse */
		for (i = 0; i < n; i++)
			if (score[i] > *best) {
				*best = score[i];
				*best_off = sc->lo + (double)i * cs;
				total_score(sc->p, sc->rate, *best_off, sc->e, sc->ne, sc->w, used);
			}
	}
	/* Refined peaks where they were searched, the coarse grid elsewhere (below
	 * REFINE_SHARE, a coarse score cannot hide one that makes the placement ambiguous). */
	*runner = -INFINITY;
	for (k = 0; k < np; k++)
		if (fabs(pk[k].off - *best_off) >= apart)
			*runner = fmax(*runner, pk[k].score);
	for (i = 0; i < n; i++)
		if (fabs(sc->lo + (double)i * cs - *best_off) >= apart)
			*runner = fmax(*runner, score[i]);
	free(score);
	free(pk);
}

/* Each edge alone near the peak: its own best shift; their mean and spread into al. */
static double refine_edges(const struct search *sc, double best_off, struct recording_alignment *al)
{
	double sum = 0, sq = 0, y;
	long half = sc->w / 2, j;
	unsigned got = 0;
	size_t k;

	for (k = 0; k < sc->ne; k++) {
		double eb = -INFINITY, es = 0;

		for (j = -half; j <= half; j++) {
			y = edge_score(sc->p, sc->rate, best_off + (double)j / sc->rate, &sc->e[k], sc->w);
			if (!isnan(y) && y > eb) {
				eb = y;
				es = (double)j / sc->rate;
			}
		}
		if (isinf(eb))
			continue;
		sum += es;
		sq += es * es;
		got++;
	}
	al->edges = got;
	al->spread_s = got > 1 ? sqrt(fmax(0, (sq - sum * sum / got) / (got - 1))) : 0;
	return best_off + (got ? sum / got : 0);
}

int recording_align(const struct recording *rec, const struct rr_result *r,
		    struct recording_alignment *al)
{
	struct prefix p;
	struct edge *e;
	struct search sc;
	double shortest, best, best_off, off, runner, dur = (double)rec->n / rec->rate_hz;
	size_t ne = collect_edges(r, &e, &shortest), k;
	unsigned used;
	int rc = 0;

	al->runner_up = 0;
	al->given = 0;
	sc = (struct search){ .p = &p, .e = e, .ne = ne, .rate = rec->rate_hz,
			      .w = lround(fmin(EDGE_WINDOW_MAX_S, 0.4 * shortest) * rec->rate_hz),
			      .step_s = fmin(1.0 / rec->rate_hz, 1e-3) };
	if (!ne || sc.w < 2) {
		log_err(MOD, "the result has no active phase long enough to place a recording on");
		free(e);
		return -ENODATA;
	}
	prefix_build(rec, &p);
	sc.lo = e[0].t_s - dur;
	sc.hi = e[0].t_s;
	for (k = 0; k < ne; k++) {
		sc.lo = fmin(sc.lo, e[k].t_s - dur);
		sc.hi = fmax(sc.hi, e[k].t_s);
	}
	scan(&sc, &best, &best_off, &used, &runner);
	if (!used || best <= significant(rec, sc.w, used)) {
		log_err(MOD, "no offset puts the recording's steps at the result's active phases "
			"(the best one's steps are within the recording's noise)");
		rc = -ENODATA;
		goto out;
	}
	al->runner_up = runner > 0 ? runner / best : 0;
	off = refine_edges(&sc, best_off, al);
	al->offset_ns = (int64_t)llround(off * 1e9) + (int64_t)r->rep.t0_ns;
	/* The edges' spread over their count, never finer than the source's own period (a
	 * slow meter's reading lags the step by up to a period: that is not averaged away). */
	al->source_period_s = source_period_s(rec);
	al->u95_s = fmax(al->edges > 1 ? 2 * al->spread_s / sqrt(al->edges) : 0,
			 al->source_period_s);
	if (al->runner_up > AMBIGUOUS_SHARE) {
		log_err(MOD, "the recording fits the result as well %.0f%% elsewhere: its place is "
			"not clear (a recording that repeats itself); give --offset", 100 * al->runner_up);
		rc = -EDOM;
	}
out:
	free(p.sum);
	free(p.cnt);
	free(e);
	return rc;
}

static void measure_span(const struct recording *rec, int64_t offset_ns,
			 const struct result_span *sp, struct recording_phase *ph)
{
	long a, b, i;
	double s = 0, lo = INFINITY, hi = -INFINITY;
	unsigned n = 0;

	memset(ph, 0, sizeof(*ph));
	ph->mean_ma = ph->min_ma = ph->max_ma = NAN;
	if (!sp || sp->t_end_ns <= sp->t_start_ns)
		return;
	a = lround((double)((int64_t)sp->t_start_ns - offset_ns) / 1e9 * rec->rate_hz);
	b = lround((double)((int64_t)sp->t_end_ns - offset_ns) / 1e9 * rec->rate_hz);
	if (a < 0)
		a = 0;
	if (b > (long)rec->n)
		b = (long)rec->n;
	for (i = a; i < b; i++) {
		if (isnan(rec->ma[i]))
			continue;
		s += rec->ma[i];
		lo = fmin(lo, rec->ma[i]);
		hi = fmax(hi, rec->ma[i]);
		n++;
	}
	if (!n)
		return;
	ph->seconds = (double)n / rec->rate_hz;
	ph->mean_ma = s / n;
	ph->min_ma = lo;
	ph->max_ma = hi;
	ph->charge_mc = ph->mean_ma * ph->seconds;
}

/* Whether the recording covers span sp whole (to a point at either end); no span: nothing
 * to cover. */
static int covers(const struct recording *rec, const struct result_span *sp,
		  const struct recording_phase *ph)
{
	if (!sp || sp->t_end_ns <= sp->t_start_ns)
		return 1;
	return ph->seconds >= result_span_s(sp) - 2.0 / rec->rate_hz;
}

void recording_measure_job(const struct recording *rec, int64_t offset_ns,
			   const struct rr_result *r, const struct job_result *j, double volts,
			   struct recording_job *out)
{
	const struct result_power *pw = rr_power(j);
	double v = !isnan(volts) ? volts : pw->active_v, bytes = 0, idle_ma;

	memset(out, 0, sizeof(*out));
	out->name = rr_job_name(r, j);
	out->meter_active_ma = pw->active_ma;
	if (j->phases) {
		measure_span(rec, offset_ns, j->phases->idle, &out->idle);
		measure_span(rec, offset_ns, j->phases->active, &out->active);
		measure_span(rec, offset_ns, j->phases->tail, &out->tail);
	} else {
		measure_span(rec, offset_ns, NULL, &out->idle);
		measure_span(rec, offset_ns, NULL, &out->active);
		measure_span(rec, offset_ns, NULL, &out->tail);
	}
	out->volts = v;
	if (j->read)
		bytes += (double)j->read->io_bytes;
	if (j->write)
		bytes += (double)j->write->io_bytes;
	idle_ma = out->idle.mean_ma;
	out->active_j = out->active.charge_mc * 1e-3 * v;
	out->tail_net_j = out->tail.seconds > 0 && !isnan(idle_ma)
				  ? (out->tail.mean_ma - idle_ma) * 1e-3 * v * out->tail.seconds
				  : 0;
	out->net_j = !isnan(idle_ma)
			     ? (out->active.mean_ma - idle_ma) * 1e-3 * v * out->active.seconds +
				       out->tail_net_j
			     : NAN;
	out->j_per_gb = bytes > 0 ? (out->active_j + out->tail_net_j) / (bytes / 1e9) : NAN;
	/* Energies of a part of the phases are no job's: over all its bytes they would read low. */
	if (!j->phases || !j->phases->active || !covers(rec, j->phases->active, &out->active) ||
	    !covers(rec, j->phases->tail, &out->tail))
		out->active_j = out->tail_net_j = out->net_j = out->j_per_gb = NAN;
}
