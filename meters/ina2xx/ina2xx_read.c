/* SPDX-License-Identifier: MIT */
/* INA2xx sampling: pace on the conversion-ready flag, drop overflows, repair chip resets. */
#include <errno.h>
#include <string.h>
#include <sys/prctl.h>

#include "core/clock.h"
#include "core/events.h"
#include "core/log.h"
#include "meters/ina2xx/ina2xx_priv.h"
#include "meters/transport/i2c.h"

#define TIMER_SLACK_NS 1000UL

/* Opening programs the chip and a repaired reset programs it again. */
int ina_program(struct ina_priv *p)
{
	uint16_t back = 0;
	int ret;

	ret = i2c_write16(p->fd, p->addr, INA_REG_CONFIG, p->s.config);
	if (!ret && p->s.cal)
		ret = i2c_write16(p->fd, p->addr, INA_REG_CAL, p->s.cal);
	if (!ret)
		ret = i2c_read16(p->fd, p->addr, INA_REG_CONFIG, &back);
	if (!ret && back != p->s.config)
		ret = -EPROTO;
	return ret;
}

static int ina_link_lost(struct meter_dev *dev, struct ina_priv *p, int err)
{
	log_warn("ina2xx", "%s: bus error at 0x%02x (%s): link lost", dev->spec, p->addr,
		 strerror(-err));
	if (err == -ENODEV || err == -EIO || err == -EPIPE || err == -ENXIO || err == -EREMOTEIO)
		return err;
	return -EIO;
}

int ina_start(struct meter_dev *dev)
{
	struct ina_priv *p = dev->priv;
	uint16_t dummy;
	int ret;

	/* clear a stale ready flag so the first sample is a fresh conversion */
	ret = i2c_read16(p->fd, p->addr, p->model == INA219 ? INA_REG_POWER : INA_REG_MASK, &dummy);
	p->next_ns = now_ns() + p->s.conv_ns * 3 / 4;
	p->not_ready_ns = 0;
	/* sub-millisecond conversions: the default 50 us timer slack would eat the margin */
	prctl(PR_SET_TIMERSLACK, TIMER_SLACK_NS, 0, 0, 0);
	p->checked_ns = now_ns();
	return ret < 0 ? ina_link_lost(dev, p, ret) : 0;
}

/* Cal reads 0 (or the INA260's config changed) after a brown-out: program it again. */
static int ina_check_reset(struct meter_dev *dev, struct ina_priv *p, uint64_t t, int *reset)
{
	uint16_t v = 0;
	int ret;

	*reset = 0;
	p->checked_ns = t;
	ret = i2c_read16(p->fd, p->addr, p->s.cal ? INA_REG_CAL : INA_REG_CONFIG, &v);
	if (ret < 0)
		return ret;
	if (v == (p->s.cal ? p->s.cal : p->s.config))
		return 0;
	*reset = 1;
	event_pushf(dev->events, EV_METER_RESET, t, dev->spec, "%s %s read 0x%04x: chip reset, reprogrammed",
		     ina_model_name(p->model), p->s.cal ? "calibration" : "configuration", v);
	log_warn("ina2xx", "%s: chip reset (register read 0x%04x); reprogrammed", dev->spec, v);
	return ina_program(p);
}

/*
 * When to look again. The chip converts on its own clock, so the next conversion ends
 * one period after this one did. It ended between the last "not ready" poll and the
 * "ready" one: start polling a little before (last not-ready + period) so detection stays
 * within one poll step of the edge. Without a not-ready poll we do not know how late we
 * were, so wake at 3/4 of the period to find the edge again.
 */
static uint64_t ina_next(struct ina_priv *p, uint64_t t_ready)
{
	uint64_t conv = p->s.conv_ns, next;

	if (p->interval_ns > conv)
		next = t_ready + p->interval_ns - conv / 4;
	else if (p->not_ready_ns && t_ready - p->not_ready_ns < conv / 2)
		next = p->not_ready_ns + conv - conv / 16;
	else
		next = t_ready + conv * 3 / 4;
	p->not_ready_ns = 0;
	return next;
}

/* Poll the ready flag this often: a sixteenth of a conversion, never under 20 us. */
#define POLL_DIV 16
#define POLL_MIN_NS (20 * NS_PER_US)

/* Sleep to the expected edge, then poll the ready flag: 1 ready (flag, t), 0 past the
 * deadline, or a link-lost error. */
static int ina_wait_ready(struct meter_dev *dev, struct ina_priv *p, uint64_t deadline,
			  uint16_t *flag, uint64_t *t)
{
	uint64_t poll_ns = p->s.conv_ns / POLL_DIV < POLL_MIN_NS ? POLL_MIN_NS :
							       p->s.conv_ns / POLL_DIV;
	int ret;

	for (;;) {
		if (p->next_ns > now_ns()) {
			if (p->next_ns > deadline) {
				sleep_until_ns(deadline);
				return 0;
			}
			sleep_until_ns(p->next_ns);
		}
		ret = i2c_read16(p->fd, p->addr, p->model == INA219 ? INA_REG_BUS : INA_REG_MASK,
				 flag);
		if (ret < 0)
			return ina_link_lost(dev, p, ret);
		*t = now_ns();
		if (*flag & (p->model == INA219 ? INA219_BUS_CNVR : INA226_MASK_CVRF))
			return 1;
		p->not_ready_ns = *t;
		if (*t >= deadline)
			return 0;
		p->next_ns = *t + poll_ns;
	}
}

/* A ready conversion's registers: 1 and the sample, 0 when it is dropped (overflow, or
 * read before a reset was repaired), or a link-lost error. */
static int ina_take(struct meter_dev *dev, struct ina_priv *p, uint16_t flag, uint64_t t,
		    struct meter_sample *out)
{
	uint16_t bus = flag, cur, pwr;
	int ret, reset = 0;
	int ovf = !!(flag & (p->model == INA219 ? INA219_BUS_OVF : INA226_MASK_OVF));

	ret = p->model == INA219 ? 0 : i2c_read16(p->fd, p->addr, INA_REG_BUS, &bus);
	if (!ret)
		ret = i2c_read16(p->fd, p->addr, p->model == INA260 ? INA_REG_SHUNT : INA_REG_CURRENT,
				 &cur);
	if (!ret) /* on the INA219 this also clears CNVR */
		ret = i2c_read16(p->fd, p->addr, INA_REG_POWER, &pwr);
	if (!ret && ((!cur && !pwr) || t - p->checked_ns >= CAL_CHECK_NS))
		ret = ina_check_reset(dev, p, t, &reset);
	if (ret < 0)
		return ina_link_lost(dev, p, ret);
	p->next_ns = ina_next(p, t);
	if (ovf || reset) { /* overflowed maths or a pre-reset reading: not a sample */
		METER_COUNT(dev->frames_bad);
		return 0;
	}
	out->t_ns = t - p->lag_ns;
	out->v = ina_bus_v(&p->s, bus);
	out->a = ina_current_a(&p->s, cur);
	out->w = ina_power_w(&p->s, pwr);
	out->flags = 0;
	return 1;
}

int ina_read(struct meter_dev *dev, struct meter_sample *out, unsigned max, int timeout_ms)
{
	struct ina_priv *p = dev->priv;
	uint64_t deadline = now_ns() + (uint64_t)(timeout_ms > 0 ? timeout_ms : 0) * NS_PER_MS;
	uint64_t t = 0;
	uint16_t flag = 0;
	int ret;

	if (!max)
		return 0;
	for (;;) {
		ret = ina_wait_ready(dev, p, deadline, &flag, &t);
		if (ret <= 0)
			return ret;
		ret = ina_take(dev, p, flag, t, out);
		if (ret || t >= deadline)
			return ret;
	}
}
