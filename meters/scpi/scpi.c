/* SPDX-License-Identifier: MIT */
/* SCPI driver: *IDN? picks the model row, then MEAS:CURR? and MEAS:VOLT? polled; SYST:ERR? reported. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/events.h"
#include "core/log.h"
#include "core/mem.h"
#include "meters/scpi/scpi.h"
#include "meters/scpi/scpi_protocol.h"
#include "meters/transport/serial.h"

#define MOD "scpi"
#define IDN_TIMEOUT_NS (3 * NS_PER_SEC)
#define PROBE_TIMEOUT_NS (5 * NS_PER_SEC)
#define WRITE_TIMEOUT_MS 500
/* SYST:ERR? asked again while the queue holds more, at most this often per failure. */
#define ERR_DRAIN_MAX 8

enum scpi_state { ST_IDLE, ST_WAIT_I, ST_WAIT_V, ST_WAIT_ERR };

struct scpi_priv {
	struct serial_port *sp;
	const struct scpi_model *m;
	struct scpi_idn idn;
	struct scpi_rx rx;
	char q_i[SCPI_CMD_MAX], q_v[SCPI_CMD_MAX];
	const char *asked; /* the query a failure follows, for its report */
	enum scpi_state st;
	uint64_t interval_ns, timeout_ns, sent_ns, next_ns, t_i_ns, lag_ns;
	double a, volts;
	unsigned drained;
	uint64_t errors;
};

struct scpi_args {
	uint64_t interval_ns, timeout_ns;
	unsigned ch;
	double volts;
};

#define SCPI_KEY(f) offsetof(struct scpi_args, f)
static const struct opt_desc scpi_keys[] = {
	{ .name = "interval", .type = OPT_DURATION, .off = SCPI_KEY(interval_ns), .def = "200ms",
	  .bare_unit_ns = NS_PER_MS, .min = 20 * NS_PER_MS, .max = 60 * NS_PER_SEC,
	  .help = "time between polls (each is MEAS:CURR? then MEAS:VOLT?)" },
	{ .name = "ch", .type = OPT_UINT, .off = SCPI_KEY(ch), .def = "1", .min = 1, .max = 8,
	  .help = "the output to read (CH2, (@2) or INST:NSEL 2, as the model wants)" },
	{ .name = "timeout", .type = OPT_DURATION, .off = SCPI_KEY(timeout_ns), .def = "1s",
	  .bare_unit_ns = NS_PER_MS, .min = 100 * NS_PER_MS, .max = 10 * NS_PER_SEC,
	  .help = "how long a reply may take before SYST:ERR? is asked" },
	{ .name = "volts", .type = OPT_DOUBLE, .off = SCPI_KEY(volts), .min = 0, .max = 1000,
	  .help = "the supply's volts, for W from a DMM that reads current only" },
};

static int send_line(struct scpi_priv *p, const char *cmd)
{
	char buf[SCPI_CMD_MAX + 2];
	int n = snprintf(buf, sizeof(buf), "%s\n", cmd), rc;

	rc = serial_flush_input(p->sp);
	if (rc)
		return rc;
	scpi_rx_reset(&p->rx);
	rc = serial_write(p->sp, buf, (size_t)n, WRITE_TIMEOUT_MS);
	return rc < 0 ? (rc == -ETIMEDOUT ? -EIO : rc) : 0;
}

static int ask(struct scpi_priv *p, const char *q, enum scpi_state st, uint64_t now)
{
	p->st = st;
	p->sent_ns = now;
	if (st != ST_WAIT_ERR)
		p->asked = q;
	return send_line(p, q);
}

/* The instrument's own account of a failure goes to the log, the events and the extras. */
static void report_error(struct meter_dev *dev, struct scpi_priv *p, const char *line)
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

/* A reply or a silence that is no reading: counted, and the error queue asked why. */
static int failed(struct meter_dev *dev, struct scpi_priv *p, uint64_t now)
{
	METER_COUNT(dev->frames_bad);
	p->drained = 0;
	return ask(p, "SYST:ERR?", ST_WAIT_ERR, now);
}

/* One reply line; 1 when it completed a sample in *out. */
static int take_line(struct meter_dev *dev, struct scpi_priv *p, struct meter_sample *out,
		     uint64_t now, int *err)
{
	double val;

	*err = 0;
	switch (p->st) {
	case ST_WAIT_I:
		if (scpi_number(p->rx.line, &val)) {
			*err = failed(dev, p, now);
			return 0;
		}
		p->a = val;
		p->t_i_ns = p->sent_ns + (now - p->sent_ns) / 2;
		p->lag_ns = (now - p->sent_ns) / 2;
		if (p->m->volt_q) {
			*err = ask(p, p->q_v, ST_WAIT_V, now);
			return 0;
		}
		val = p->volts;
		break;
	case ST_WAIT_V:
		if (scpi_number(p->rx.line, &val)) {
			*err = failed(dev, p, now);
			return 0;
		}
		break;
	case ST_WAIT_ERR:
		report_error(dev, p, p->rx.line);
		if (strncmp(p->rx.line, "0", 1) && strncmp(p->rx.line, "+0", 2) &&
		    ++p->drained < ERR_DRAIN_MAX) {
			*err = ask(p, "SYST:ERR?", ST_WAIT_ERR, now);
			return 0;
		}
		p->st = ST_IDLE;
		p->next_ns = now;
		return 0;
	default:
		return 0; /* nothing asked: a late reply, dropped */
	}
	*out = (struct meter_sample){ .t_ns = p->t_i_ns, .v = val, .a = p->a, .w = val * p->a,
				      .flags = SAMPLE_W_COMPUTED };
	p->st = ST_IDLE;
	p->next_ns = p->t_i_ns - p->lag_ns + p->interval_ns;
	return 1;
}

static int scpi_read(struct meter_dev *dev, struct meter_sample *out, unsigned max,
		     int timeout_ms)
{
	struct scpi_priv *p = dev->priv;
	uint64_t now = now_ns(), deadline = now + (uint64_t)timeout_ms * NS_PER_MS, until;
	char buf[256];
	size_t off, used;
	int n, rc, got = 0, err;

	if (!max)
		return 0;
	for (;;) {
		if (p->st == ST_IDLE && now >= p->next_ns) {
			rc = ask(p, p->q_i, ST_WAIT_I, now);
			if (rc)
				return rc;
		} else if (p->st == ST_WAIT_ERR && now >= p->sent_ns + p->timeout_ns) {
			p->st = ST_IDLE; /* SYST:ERR? unanswered too: ask for a reading again */
			p->next_ns = now;
			continue;
		} else if (p->st != ST_IDLE && now >= p->sent_ns + p->timeout_ns) {
			rc = failed(dev, p, now);
			if (rc)
				return rc;
			continue;
		}
		until = p->st == ST_IDLE ? p->next_ns : p->sent_ns + p->timeout_ns;
		if (until > deadline)
			until = deadline;
		n = serial_read(p->sp, buf, sizeof(buf),
				until > now ? (int)((until - now + NS_PER_MS - 1) / NS_PER_MS) : 0);
		if (n < 0)
			return n;
		now = now_ns();
		for (off = 0; off < (size_t)n && !got; off += used) {
			rc = scpi_rx_take(&p->rx, buf + off, (size_t)n - off, &used);
			if (rc < 0) {
				log_msg(meter_log_level(dev, LOG_ERR), MOD, "meter '%s': a reply "
					"line longer than %d bytes: not an instrument's answer; "
					"dropping the link", dev->spec, SCPI_LINE_MAX);
				return -EPROTO;
			}
			if (rc == 1 && off + used < (size_t)n) {
				/* More behind the reply, before the next query went out: an
				 * instrument speaks only when asked, so the line cannot be
				 * trusted to be the reply (a flood, another client's answers). */
				METER_COUNT(dev->frames_bad);
				scpi_rx_reset(&p->rx);
				p->st = ST_IDLE;
				p->next_ns = now + p->interval_ns;
				break;
			}
			if (rc == 1) {
				got = take_line(dev, p, out, now, &err);
				scpi_rx_reset(&p->rx);
				if (err)
					return err;
			}
		}
		if (got || now >= deadline)
			return got;
	}
}

/* A query answered within IDN_TIMEOUT_NS (open only): 0 and the line, or -errno. */
static int query_line(struct meter_dev *dev, struct scpi_priv *p, const char *q, char *line,
		      size_t len)
{
	uint64_t end = now_ns() + IDN_TIMEOUT_NS;
	char buf[256];
	size_t off, used;
	int n, rc = send_line(p, q);

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
				scpi_rx_reset(&p->rx);
				return 0;
			}
			if (rc < 0)
				return -EPROTO;
		}
	}
	return rc ? rc : -ETIMEDOUT;
}

/* "tcp://HOST" is raw-socket SCPI's port 5025; any other spelling is taken as it is. */
static char *conn_path(const char *conn)
{
	const char *host = conn + 6, *colon;

	if (strncmp(conn, "tcp://", 6))
		return xstrdup(conn);
	colon = strrchr(host, ':');
	if (colon && (host[0] != '[' || colon > strchr(host, ']')))
		return xstrdup(conn);
	return xasprintf("%s:%s", conn, SCPI_TCP_PORT);
}

static int identify(struct meter_dev *dev, struct scpi_priv *p, unsigned ch)
{
	char line[SCPI_LINE_MAX + 1], sel[SCPI_CMD_MAX];
	int rc, level = meter_log_level(dev, LOG_ERR);

	/* *CLS: errors left from before are not this run's. */
	rc = send_line(p, "*CLS");
	if (!rc)
		rc = query_line(dev, p, "*IDN?", line, sizeof(line));
	if (rc == -ETIMEDOUT || (!rc && scpi_idn_parse(line, &p->idn))) {
		log_msg(level, MOD, "meter '%s': no *IDN? answer of four fields within %.0f s%s%s",
			dev->spec, (double)IDN_TIMEOUT_NS / 1e9, rc ? "" : ": got ", rc ? "" : line);
		return -ENODEV;
	}
	if (rc)
		return rc;
	p->m = scpi_model_find(p->idn.model);
	if (scpi_query(p->m, 'I', ch, p->q_i, sizeof(p->q_i)) < 0) {
		log_msg(level, MOD, "meter '%s': ch=%u, but iowatt knows %u output%s of the %s",
			dev->spec, ch, p->m->channels, p->m->channels > 1 ? "s" : "", p->idn.model);
		return -EINVAL;
	}
	if (p->m->volt_q)
		scpi_query(p->m, 'V', ch, p->q_v, sizeof(p->q_v));
	scpi_select(p->m, ch, sel, sizeof(sel));
	return sel[0] ? send_line(p, sel) : 0;
}

static int scpi_open(struct meter_dev *dev, struct meter_info *info)
{
	const struct scpi_args *a = dev->args;
	struct scpi_priv *p = xcalloc(1, sizeof(*p));
	struct meter_sample s;
	char *path = conn_path(dev->conn), label[METER_MODEL_LEN], line[SCPI_LINE_MAX + 1];
	uint64_t end;
	int rc, n = 0;

	p->interval_ns = a->interval_ns;
	p->timeout_ns = a->timeout_ns;
	p->volts = meter_key_given(dev, &a->volts) ? a->volts : NAN;
	rc = meter_std_serial_open_path(dev, path, 115200, &p->sp);
	free(path);
	if (rc) {
		free(p);
		return rc;
	}
	dev->priv = p;
	rc = identify(dev, p, a->ch);
	for (end = now_ns() + PROBE_TIMEOUT_NS; !rc && !n && now_ns() < end;)
		n = meter_stopping(dev) ? -ECANCELED : scpi_read(dev, &s, 1, 50);
	if (!rc && n <= 0)
		rc = n < 0 ? n : -ETIMEDOUT;
	if (!rc && !query_line(dev, p, "SYST:ERR?", line, sizeof(line)))
		report_error(dev, p, line);
	if (rc) {
		if (rc == -ETIMEDOUT)
			log_msg(meter_log_level(dev, LOG_ERR), MOD, "meter '%s': no reading "
				"within %.0f s (%s)", dev->spec, (double)PROBE_TIMEOUT_NS / 1e9,
				p->errors ? "the instrument's errors are above" : "no SCPI error");
		meter_std_serial_close(dev, p->sp);
		return rc;
	}
	atomic_store_explicit(&dev->frames_bad, 0, memory_order_relaxed);
	snprintf(label, sizeof(label), p->m->channels > 1 ? "%s ch%u" : "%s", p->idn.model, a->ch);
	meter_std_serial_label(dev, p->sp, info, label);
	meter_std_range(info, &p->m->meta);
	meter_std_accuracy(info, &p->m->meta);
	/* A supply's readback sits around 0 with its offset error at no load: a small
	 * negative current is a reading, not an impossibility. */
	info->signed_q = METER_SIGNED_A | METER_SIGNED_W |
			 (p->m->meta.range.v_min < 0 ? METER_SIGNED_V : 0);
	info->period_ns = p->interval_ns;
	info->lag_ns = p->lag_ns;
	snprintf(info->processing, sizeof(info->processing), "W = %s x %s",
		 p->m->volt_q ? p->m->volt_q : "volts=", p->m->curr_q);
	meter_std_poll_latency(dev, 2 * p->lag_ns, p->interval_ns, p->timeout_ns);
	if (!p->m->volt_q && isnan(p->volts))
		log_warn(MOD, "meter '%s': the %s reads current only; give volts= for W",
			 dev->spec, p->idn.model);
	log_debug(MOD, "%s: %s %s serial %s firmware %s over %s: row %s, asks '%s'", dev->spec,
		  p->idn.maker, p->idn.model, p->idn.serial, p->idn.firmware,
		  serial_backend(p->sp), p->m->meta.name, p->q_i);
	return 0;
}

static int scpi_start(struct meter_dev *dev)
{
	struct scpi_priv *p = dev->priv;

	p->st = ST_IDLE;
	p->next_ns = now_ns();
	return 0;
}

static void scpi_close(struct meter_dev *dev)
{
	struct scpi_priv *p = dev->priv;

	if (p)
		meter_std_serial_close(dev, p->sp);
}

const struct meter_driver meter_scpi = {
	.name = "scpi",
	.desc = "SCPI bench supply or DMM (Keysight, Rigol, Siglent, R&S, Keithley): "
		"MEAS:CURR? and MEAS:VOLT? polled",
	.conn = "tcp://HOST[:5025] (raw socket), /dev/usbtmcN (the kernel's usbtmc), or a "
		"serial port",
	.conn_rule = METER_CONN_REQUIRED,
	.flags = METER_DRV_SERIAL,
	.example = "scpi:tcp://192.168.1.50,ch=2",
	METER_KEYS(scpi_keys, struct scpi_args),
	METER_MODELS_META(scpi_models),
	.open = scpi_open,
	.start = scpi_start,
	.read = scpi_read,
	.close = scpi_close,
};
