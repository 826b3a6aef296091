/* SPDX-License-Identifier: MIT */
/* Manual meter: hand readings of a display-only tester, turned into samples by phase. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "core/log.h"
#include "core/phase.h"
#include "core/util.h"
#include "meters/meter.h"

#define MOD "manual"
#define MANUAL_PERIOD_NS (100 * NS_PER_MS)

/*
 * For testers with only a display (report 002's A3-B): the user reads the idle and the
 * busy current by eye and types them in. The run still gets an energy figure, flagged
 * SAMPLE_MANUAL everywhere, from the phase the main thread announces.
 */
struct manual_priv {
	double idle_a, active_a, tail_a, v;
	uint64_t next_ns;
	int phase; /* the level being given out */
};

static const char *const manual_keys[] = { "idle_ma", "active_ma", "tail_ma", "v", NULL };

static int manual_number(struct meter_dev *dev, const char *key, int required, double max,
			 double *out)
{
	const char *s = meter_param(dev, key);

	if (!s) {
		if (!required)
			return 0;
		log_err(MOD, "meter '%s': missing %s= (manual needs idle_ma=, active_ma= and "
			"v=, e.g. manual:idle_ma=85,active_ma=310,v=5.05)", dev->spec, key);
		return -EINVAL;
	}
	if (parse_double(s, out) || *out < 0 || *out > max) {
		log_err(MOD, "meter '%s': %s '%s': expected a number from 0 to %g", dev->spec,
			key, s, max);
		return -EINVAL;
	}
	return 1;
}

static int manual_open(struct meter_dev *dev)
{
	struct manual_priv *p;
	double idle_ma = 0, active_ma = 0, tail_ma = 0, v = 0;
	int rc, have_tail;

	rc = meter_check_params(dev, manual_keys);
	if (rc)
		return rc;
	if (*dev->conn) {
		log_err(MOD, "meter '%s': manual takes only key=value readings, not '%s'",
			dev->spec, dev->conn);
		return -EINVAL;
	}
	if (manual_number(dev, "idle_ma", 1, 1e5, &idle_ma) < 0 ||
	    manual_number(dev, "active_ma", 1, 1e5, &active_ma) < 0 ||
	    manual_number(dev, "v", 1, 1000, &v) < 0)
		return -EINVAL;
	have_tail = manual_number(dev, "tail_ma", 0, 1e5, &tail_ma);
	if (have_tail < 0)
		return -EINVAL;
	p = xcalloc(1, sizeof(*p));
	p->idle_a = idle_ma / 1000.0;
	p->active_a = active_ma / 1000.0;
	p->tail_a = have_tail ? tail_ma / 1000.0 : p->idle_a;
	p->v = v;
	dev->priv = p;
	dev->manual = 1;
	dev->emulated = 0;
	dev->period_ns = MANUAL_PERIOD_NS;
	dev->lag_ns = 0;
	snprintf(dev->model, sizeof(dev->model), "manual (hand readings)");
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
	/* After a long pause (debugger, suspended process) do not replay the backlog. */
	if (now > p->next_ns + NS_PER_SEC)
		p->next_ns = now + MANUAL_PERIOD_NS;
	return 1;
}

static void manual_stop(struct meter_dev *dev)
{
	(void)dev;
}

static void manual_close(struct meter_dev *dev)
{
	free(dev->priv);
	dev->priv = NULL;
}

const struct meter_driver meter_manual = {
	.name = "manual",
	.desc = "hand readings from a display-only tester: idle_ma=,active_ma=,v=[,tail_ma=]",
	.open = manual_open,
	.start = manual_start,
	.read = manual_read,
	.stop = manual_stop,
	.close = manual_close,
};
