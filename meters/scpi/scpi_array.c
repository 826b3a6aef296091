/* SPDX-License-Identifier: MIT */
/* SCPI buffered acquisition: points readings per interval digitized by the instrument, fetched as arrays. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/log.h"
#include "core/mem.h"
#include "meters/scpi/scpi_priv.h"

#define MOD SCPI_MOD

static int step(struct scpi_priv *p, enum scpi_array_step s, char *buf, size_t len)
{
	double tint_s = (double)p->interval_ns / 1e9 / p->points;

	return scpi_array_cmd(p->m, s, p->ch, p->points, tint_s, buf, len) < 0 ? -EINVAL : 0;
}

static int send_step(struct scpi_priv *p, enum scpi_array_step s)
{
	char cmd[SCPI_CMD_MAX];
	int rc = step(p, s, cmd, sizeof(cmd));

	return rc ? rc : scpi_send(p, cmd);
}

/*
 * The instrument rounds the interval between points to its own steps: what it says it
 * uses (SENS:SWE:TINT?) times the samples, not what was asked. Its round trip is the
 * lag of a trigger.
 */
static int read_tint(struct meter_dev *dev, struct scpi_priv *p)
{
	char q[SCPI_CMD_MAX], line[SCPI_LINE_MAX + 1];
	uint64_t t0 = now_ns();
	double tint_s;
	int rc = step(p, SCPI_ARR_TINT_Q, q, sizeof(q));

	if (!rc)
		rc = scpi_query_line(dev, p, q, line, sizeof(line));
	if (rc)
		return rc;
	p->lag_ns = (now_ns() - t0) / 2;
	/* Rounded to the instrument's steps, it stays within the interval asked for; longer
	 * is no rounding (and past 2^63 ns not even a time). */
	if (scpi_number(line, &tint_s) || tint_s <= 0 || tint_s > (double)p->interval_ns / 1e9) {
		log_msg(meter_log_level(dev, LOG_ERR), MOD, "meter '%s': %s answered '%s', not an "
			"interval between points within the %.0f ms asked for", dev->spec, q, line,
			(double)p->interval_ns / 1e6);
		return -EPROTO;
	}
	p->tint_ns = (uint64_t)llround(tint_s * 1e9);
	return 0;
}

int scpi_array_setup(struct meter_dev *dev, struct scpi_priv *p)
{
	const struct scpi_array_set *arr = p->m->array;
	int level = meter_log_level(dev, LOG_ERR), rc = 0;
	double tint_s = (double)p->interval_ns / 1e9 / p->points;
	enum scpi_array_step s;

	if (!arr) {
		log_msg(level, MOD, "meter '%s': points=%u, but iowatt knows no buffered "
			"acquisition of the %s: leave points= out to poll MEAS", dev->spec, p->points,
			p->idn.model);
		return -EINVAL;
	}
	if (tint_s < arr->tint_min_s) {
		log_msg(level, MOD, "meter '%s': interval/points is %.3g us, shorter than the %s's "
			"%.3g us between points", dev->spec, tint_s * 1e6, p->idn.model,
			arr->tint_min_s * 1e6);
		return -EINVAL;
	}
	for (s = SCPI_ARR_POINTS; !rc && s <= SCPI_ARR_TRIG_SRC; s++)
		if (s != SCPI_ARR_TINT_Q)
			rc = send_step(p, s);
	if (!rc)
		rc = read_tint(dev, p);
	if (!rc)
		rc = step(p, SCPI_ARR_FETCH_I, p->q_i, sizeof(p->q_i));
	if (!rc)
		rc = step(p, SCPI_ARR_FETCH_V, p->q_v, sizeof(p->q_v));
	if (rc)
		return rc;
	p->arr_a = xcalloc(p->points, sizeof(*p->arr_a));
	p->arr_v = xcalloc(p->points, sizeof(*p->arr_v));
	p->pend = xcalloc(p->points, sizeof(*p->pend));
	log_info(MOD, "meter '%s': %u points %.2f us apart per %.0f ms, fetched with %s",
		 dev->spec, p->points, (double)p->tint_ns / 1e3, (double)p->interval_ns / 1e6,
		 p->q_i);
	return 0;
}

/* A block: the acquisition armed, triggered, and its currents asked for (the fetch waits
 * for the acquisition to end). */
static int array_begin(struct meter_dev *dev, struct scpi_priv *p, uint64_t now)
{
	int rc = send_step(p, SCPI_ARR_INIT);

	(void)dev;
	if (!rc)
		rc = send_step(p, SCPI_ARR_TRIGGER);
	if (rc)
		return rc;
	p->trg_ns = now_ns() + p->lag_ns;
	p->reply_ns = p->points * p->tint_ns + p->timeout_ns;
	return scpi_ask(p, p->q_i, ST_WAIT_I, now);
}

static int array_take(struct meter_dev *dev, struct scpi_priv *p, struct meter_sample *out,
		      unsigned max, uint64_t now)
{
	unsigned k;
	double v;
	int n;

	if (p->st == ST_WAIT_I) {
		n = scpi_numbers(p->rx.line, p->arr_a, p->points);
		if (n != (int)p->points)
			return scpi_failed(dev, p, now);
		p->reply_ns = p->timeout_ns;
		return scpi_ask(p, p->q_v, ST_WAIT_V, now);
	}
	n = scpi_numbers(p->rx.line, p->arr_v, p->points);
	if (n != (int)p->points)
		return scpi_failed(dev, p, now);
	for (k = 0; k < p->points; k++) {
		v = p->arr_v[k];
		p->pend[k] = (struct meter_sample){
			.t_ns = p->trg_ns + k * p->tint_ns + p->tint_ns / 2, .v = v,
			.a = p->arr_a[k], .w = v * p->arr_a[k], .flags = SAMPLE_W_COMPUTED };
	}
	p->pend_n = p->points;
	p->pend_i = 0;
	p->st = ST_IDLE;
	p->next_ns = now;
	return (int)scpi_take_pending(p, out, max);
}

const struct scpi_mode scpi_array_mode = { .begin = array_begin, .take = array_take };
