/* SPDX-License-Identifier: MIT */
/* The conversation with an SCPI instrument: a query, its reply line within a bound, SYST:ERR? after a failure. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/clock.h"
#include "core/events.h"
#include "core/log.h"
#include "meters/scpi/scpi_priv.h"
#include "meters/transport/serial.h"

#define MOD SCPI_MOD
#define WRITE_TIMEOUT_MS 500
#define QUERY_TIMEOUT_NS (3 * NS_PER_SEC)
/* SYST:ERR? asked again while the queue holds more, at most this often per failure. */
#define ERR_DRAIN_MAX 8

int scpi_send(struct scpi_priv *p, const char *cmd)
{
	char buf[SCPI_CMD_MAX + 2];
	int n = snprintf(buf, sizeof(buf), "%s\n", cmd), rc;

	rc = serial_flush_input(p->sp);
	if (rc)
		return rc;
	scpi_rx_reset(&p->rx, p->points ? SCPI_ARRAY_LINE_MAX : SCPI_LINE_MAX);
	rc = serial_write(p->sp, buf, (size_t)n, WRITE_TIMEOUT_MS);
	return rc < 0 ? (rc == -ETIMEDOUT ? -EIO : rc) : 0;
}

int scpi_ask(struct scpi_priv *p, const char *q, enum scpi_state st, uint64_t now)
{
	p->st = st;
	p->sent_ns = now;
	if (st != ST_WAIT_ERR)
		p->asked = q;
	return scpi_send(p, q);
}

void scpi_report_error(struct meter_dev *dev, struct scpi_priv *p, const char *line)
{
	char text[128];
	int code;

	if (scpi_error(line, &code, text, sizeof(text))) {
		log_debug(MOD, "%s: SYST:ERR? answered '%s'", dev->spec, line);
		return;
	}
	if (!code)
		return;
	p->errors++;
	log_msg(p->errors <= 5 ? LOG_WARN : LOG_DEBUG, MOD,
		"meter '%s': the instrument reports SCPI error %d \"%s\" (after %s)", dev->spec,
		code, text, p->asked ? p->asked : "setup");
	event_pushf(dev->events, EV_INFO, now_ns(), dev->spec, "SCPI error %d \"%s\" after %s",
		    code, text, p->asked ? p->asked : "setup");
	meter_set_extras(dev, "SCPI errors %llu, last %d %s", (unsigned long long)p->errors,
			 code, text);
}

int scpi_failed(struct meter_dev *dev, struct scpi_priv *p, uint64_t now)
{
	METER_COUNT(dev->frames_bad);
	p->drained = 0;
	p->reply_ns = p->timeout_ns;
	return scpi_ask(p, "SYST:ERR?", ST_WAIT_ERR, now);
}

/* SYST:ERR?'s reply: reported, asked again while errors remain, then readings again. */
static int take_error(struct meter_dev *dev, struct scpi_priv *p, uint64_t now)
{
	scpi_report_error(dev, p, p->rx.line);
	if (strncmp(p->rx.line, "0", 1) && strncmp(p->rx.line, "+0", 2) &&
	    ++p->drained < ERR_DRAIN_MAX)
		return scpi_ask(p, "SYST:ERR?", ST_WAIT_ERR, now);
	p->st = ST_IDLE;
	p->next_ns = now;
	return 0;
}

unsigned scpi_take_pending(struct scpi_priv *p, struct meter_sample *out, unsigned max)
{
	unsigned n = p->pend_n - p->pend_i;

	if (n > max)
		n = max;
	memcpy(out, p->pend + p->pend_i, n * sizeof(*out));
	p->pend_i += n;
	return n;
}

/* The awaited reply is late: SYST:ERR? asks why; SYST:ERR? itself late: readings again. */
static int late(struct meter_dev *dev, struct scpi_priv *p, uint64_t now)
{
	if (p->st != ST_WAIT_ERR)
		return scpi_failed(dev, p, now);
	p->st = ST_IDLE;
	p->next_ns = now;
	return 0;
}

/* One complete line: what the state awaited, or -errno. */
static int take_line(struct meter_dev *dev, struct scpi_priv *p, struct meter_sample *out,
		     unsigned max, uint64_t now)
{
	if (p->st == ST_WAIT_ERR)
		return take_error(dev, p, now);
	if (p->st == ST_IDLE)
		return 0; /* nothing asked: a late reply, dropped */
	return p->mode->take(dev, p, out, max, now);
}

int scpi_pump(struct meter_dev *dev, struct scpi_priv *p, struct meter_sample *out,
	      unsigned max, int timeout_ms)
{
	uint64_t now = now_ns(), deadline = now + (uint64_t)timeout_ms * NS_PER_MS, until;
	char buf[4096];
	size_t off, used;
	int n, rc, got = 0;

	if (!max)
		return 0;
	if (p->pend_i < p->pend_n)
		return (int)scpi_take_pending(p, out, max);
	for (;;) {
		rc = 0;
		if (p->st == ST_IDLE && now >= p->next_ns)
			rc = p->mode->begin(dev, p, now);
		else if (p->st != ST_IDLE && now >= p->sent_ns + p->reply_ns)
			rc = late(dev, p, now);
		if (rc)
			return rc;
		until = p->st == ST_IDLE ? p->next_ns : p->sent_ns + p->reply_ns;
		n = meter_std_read_until(p->sp, buf, sizeof(buf), now, until, deadline);
		if (n < 0)
			return n;
		now = now_ns();
		for (off = 0; off < (size_t)n && !got; off += used) {
			rc = scpi_rx_take(&p->rx, buf + off, (size_t)n - off, &used);
			if (rc < 0) {
				log_msg(meter_log_level(dev, LOG_ERR), MOD, "meter '%s': a reply "
					"line longer than %zu bytes: not an instrument's answer; "
					"dropping the link", dev->spec, p->rx.max);
				return -EPROTO;
			}
			if (rc == 1 && off + used < (size_t)n) {
				/* More behind the reply, before the next query went out: an
				 * instrument speaks only when asked, so the line cannot be
				 * trusted to be the reply (a flood, another client's answers). */
				METER_COUNT(dev->frames_bad);
				scpi_rx_reset(&p->rx, p->rx.max);
				p->st = ST_IDLE;
				p->next_ns = now + p->interval_ns;
				break;
			}
			if (rc == 1) {
				got = take_line(dev, p, out, max, now);
				scpi_rx_reset(&p->rx, p->rx.max);
				if (got < 0)
					return got;
			}
		}
		if (got || now >= deadline)
			return got;
	}
}

int scpi_query_line(struct meter_dev *dev, struct scpi_priv *p, const char *q, char *line,
		    size_t len)
{
	uint64_t end = now_ns() + QUERY_TIMEOUT_NS;
	char buf[256];
	size_t off, used;
	int n, rc = scpi_send(p, q);

	while (!rc && now_ns() < end) {
		if (meter_stopping(dev))
			return -ECANCELED;
		n = serial_read(p->sp, buf, sizeof(buf), 100);
		if (n < 0)
			return n;
		for (off = 0; off < (size_t)n; off += used) {
			rc = scpi_rx_take(&p->rx, buf + off, (size_t)n - off, &used);
			if (rc == 1) {
				snprintf(line, len, "%s", p->rx.line);
				return 0;
			}
			if (rc < 0)
				return -EPROTO;
		}
	}
	return rc ? rc : -ETIMEDOUT;
}
