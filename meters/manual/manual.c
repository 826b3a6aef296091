/* SPDX-License-Identifier: MIT */
/* Manual meter: hand readings of a display-only tester, turned into samples by phase. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "core/clock.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/phase.h"
#include "meters/manual/manual.h"
#include "meters/meter-internal.h"

#define MOD "manual"
#define MANUAL_PERIOD_NS (100 * NS_PER_MS)
#define MA_MAX 100000.0
#define V_MAX 1000.0
#define MA_PER_A 1000.0
/* After a pause longer than this (debugger, suspended process), do not replay the backlog. */
#define MANUAL_CATCH_UP_NS NS_PER_SEC

/*
 * For testers with only a display: the user reads the idle and the busy current by eye
 * and types them in. The run still gets an energy figure, flagged SAMPLE_MANUAL
 * everywhere, from the phase the main thread announces.
 */
struct manual_priv {
	double idle_a, active_a, tail_a, v;
	uint64_t next_ns;
	int phase; /* the level being given out */
};

/* The spec's keys (manual_keys). */
struct manual_args {
	double idle_ma, active_ma, v, tail_ma;
};

#define MANUAL_KEY(f) offsetof(struct manual_args, f)
static const struct opt_desc manual_keys[] = {
	{ .name = "idle_ma", .type = OPT_DOUBLE, .off = MANUAL_KEY(idle_ma), .min = 0,
	  .max = MA_MAX, .required = 1, .help = "current shown while the device idles, mA" },
	{ .name = "active_ma", .type = OPT_DOUBLE, .off = MANUAL_KEY(active_ma), .min = 0,
	  .max = MA_MAX, .required = 1, .help = "current shown during the I/O, mA" },
	{ .name = "v", .type = OPT_DOUBLE, .off = MANUAL_KEY(v), .min = 0, .max = V_MAX,
	  .required = 1, .help = "voltage shown, V" },
	{ .name = "tail_ma", .type = OPT_DOUBLE, .off = MANUAL_KEY(tail_ma), .min = 0,
	  .max = MA_MAX, .help = "current shown after the I/O (default: idle_ma)" },
};

/*
 * A reading by eye of a display that flickers between values: iowatt assumes the typed
 * current is within 5 % of the true mean and the voltage within 1 %, both the same for
 * the whole run. What was typed is exact otherwise (no steps, no scatter).
 */
#define MANUAL_A_GAIN 0.05
#define MANUAL_V_GAIN 0.01
static const struct meter_accuracy manual_accuracy = {
	.v = { MANUAL_V_GAIN, 0, 0, 0 },
	.a = { MANUAL_A_GAIN, 0, 0, 0 },
	.w = { NAN, NAN, 0, 0 },
	.source = "hand readings: A within 5 %, V within 1 % assumed",
};

static int manual_open(struct meter_dev *dev, struct meter_info *info)
{
	const struct manual_args *a = dev->args;
	struct manual_priv *p = xcalloc(1, sizeof(*p));

	p->idle_a = a->idle_ma / MA_PER_A;
	p->active_a = a->active_ma / MA_PER_A;
	p->tail_a = meter_key_given(dev, &a->tail_ma) ? a->tail_ma / MA_PER_A : p->idle_a;
	p->v = a->v;
	dev->priv = p;
	info->manual = 1;
	info->period_ns = MANUAL_PERIOD_NS;
	snprintf(info->model, sizeof(info->model), "manual (hand readings)");
	info->accuracy = manual_accuracy;
	return 0;
}

static int manual_start(struct meter_dev *dev)
{
	struct manual_priv *p = dev->priv;

	p->next_ns = now_ns();
	p->phase = meter_get_phase(dev, NULL);
	return 0;
}

static void manual_sample(const struct manual_priv *p, int phase, uint64_t t_ns,
			  struct meter_sample *out)
{
	out->a = phase == PHASE_ACTIVE ? p->active_a : phase == PHASE_TAIL ? p->tail_a : p->idle_a;
	out->v = p->v;
	out->w = out->v * out->a;
	out->flags = SAMPLE_MANUAL | SAMPLE_W_COMPUTED;
	out->t_ns = t_ns;
}

/*
 * Hand readings are levels, one per phase: the current steps at each boundary. A pair
 * of samples at the boundary's own time (old level, new level) makes the integral a
 * step there instead of a ramp between the two samples around it.
 */
static int manual_read(struct meter_dev *dev, struct meter_sample *out, unsigned max,
		       int timeout_ms)
{
	struct manual_priv *p = dev->priv;
	uint64_t now = now_ns(), until = now + (uint64_t)timeout_ms * NS_PER_MS, since;
	int phase;

	if (max < 2)
		return 0;
	if (now < p->next_ns) {
		sleep_until_ns(p->next_ns < until ? p->next_ns : until);
		now = now_ns();
		if (now < p->next_ns)
			return 0;
	}
	phase = meter_get_phase(dev, &since);
	if (phase != p->phase && since <= p->next_ns) {
		manual_sample(p, p->phase, since, &out[0]);
		manual_sample(p, phase, since, &out[1]);
		p->phase = phase;
		return 2;
	}
	manual_sample(p, p->phase, p->next_ns, out);
	p->next_ns += MANUAL_PERIOD_NS;
	if (now > p->next_ns + MANUAL_CATCH_UP_NS)
		p->next_ns = now + MANUAL_PERIOD_NS;
	return 1;
}

const struct meter_driver meter_manual = {
	.name = "manual",
	.desc = "hand readings from a display-only tester, one current per phase",
	.conn_rule = METER_CONN_NONE,
	.example = "manual:idle_ma=85,active_ma=310,v=5.05",
	METER_KEYS(manual_keys, struct manual_args),
	.open = manual_open,
	.start = manual_start,
	.read = manual_read,
	.close = meter_std_free_priv,
};
