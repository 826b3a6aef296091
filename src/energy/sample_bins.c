/* SPDX-License-Identifier: MIT */
/* Decimation of a fast meter's samples into fixed time bins with min, mean and max. */
#include <math.h>
#include <string.h>

#include "energy/sample_bins.h"

int sample_bins_wanted(uint64_t period_ns, uint64_t bin_ns)
{
	return period_ns && bin_ns && period_ns * SAMPLE_BINS_MIN_PER_BIN <= bin_ns;
}

void sample_binner_init(struct sample_binner *b, uint64_t bin_ns)
{
	memset(b, 0, sizeof(*b));
	b->bin_ns = bin_ns;
}

static void acc_reset(struct bin_acc *x)
{
	x->sum = 0;
	x->n = 0;
	x->min = INFINITY;
	x->max = -INFINITY;
}

static void acc_add(struct bin_acc *x, double v)
{
	if (!isfinite(v))
		return;
	x->sum += v;
	x->n++;
	if (v < x->min)
		x->min = v;
	if (v > x->max)
		x->max = v;
}

static void acc_stat(const struct bin_acc *x, struct bin_stat *out)
{
	if (!x->n) {
		out->min = out->mean = out->max = NAN;
		return;
	}
	out->min = x->min;
	out->mean = x->sum / (double)x->n;
	out->max = x->max;
}

static void bin_open(struct sample_binner *b, uint64_t t_ns)
{
	b->t_ns = t_ns - t_ns % b->bin_ns;
	b->n = 0;
	b->flags = 0;
	acc_reset(&b->v);
	acc_reset(&b->a);
	acc_reset(&b->w);
}

int sample_binner_flush(struct sample_binner *b, struct sample_bin *done)
{
	if (!b->n)
		return 0;
	done->t_ns = b->t_ns;
	done->n = b->n;
	done->flags = b->flags;
	acc_stat(&b->v, &done->v);
	acc_stat(&b->a, &done->a);
	acc_stat(&b->w, &done->w);
	b->n = 0;
	return 1;
}

int sample_binner_add(struct sample_binner *b, const struct meter_sample *s,
		      struct sample_bin *done)
{
	int closed = 0;

	if (b->n && s->t_ns >= b->t_ns + b->bin_ns)
		closed = sample_binner_flush(b, done);
	if (!b->n)
		bin_open(b, s->t_ns);
	b->n++;
	b->flags |= s->flags;
	acc_add(&b->v, s->v);
	acc_add(&b->a, s->a);
	acc_add(&b->w, s->w);
	return closed;
}
