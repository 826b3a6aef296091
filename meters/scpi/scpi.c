/* SPDX-License-Identifier: MIT */
/* SCPI driver: *IDN? picks the model row, then MEAS:CURR? and MEAS:VOLT? polled or an array fetched. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/log.h"
#include "core/mem.h"
#include "meters/scpi/scpi.h"
#include "meters/scpi/scpi_priv.h"
#include "meters/scpi/scpi_protocol.h"
#include "meters/transport/serial.h"

#define MOD SCPI_MOD
#define PROBE_TIMEOUT_NS (5 * NS_PER_SEC)

struct scpi_args {
	uint64_t interval_ns, timeout_ns;
	unsigned ch, points;
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
	{ .name = "points", .type = OPT_UINT, .off = SCPI_KEY(points), .def = "0", .min = 0,
	  .max = SCPI_ARRAY_POINTS_MAX,
	  .help = "readings per interval from the model's buffered acquisition (N6705C: "
		  "FETC:ARR:CURR?), interval/points apart; 0: MEAS polled" },
	{ .name = "volts", .type = OPT_DOUBLE, .off = SCPI_KEY(volts), .min = 0, .max = 1000,
	  .help = "the supply's volts, for W from a DMM that reads current only" },
};

/* Polled: MEAS:CURR?, then MEAS:VOLT?, one sample per interval. */
static int poll_begin(struct meter_dev *dev, struct scpi_priv *p, uint64_t now)
{
	(void)dev;
	p->reply_ns = p->timeout_ns;
	return scpi_ask(p, p->q_i, ST_WAIT_I, now);
}

static int poll_take(struct meter_dev *dev, struct scpi_priv *p, struct meter_sample *out,
		     unsigned max, uint64_t now)
{
	double val;

	(void)max;
	if (scpi_number(p->rx.line, &val))
		return scpi_failed(dev, p, now);
	if (p->st == ST_WAIT_I) {
		p->a = val;
		p->t_i_ns = p->sent_ns + (now - p->sent_ns) / 2;
		p->lag_ns = (now - p->sent_ns) / 2;
		if (p->m->volt_q)
			return scpi_ask(p, p->q_v, ST_WAIT_V, now);
		val = p->volts;
	}
	*out = (struct meter_sample){ .t_ns = p->t_i_ns, .v = val, .a = p->a, .w = val * p->a,
				      .flags = SAMPLE_W_COMPUTED };
	p->st = ST_IDLE;
	p->next_ns = p->t_i_ns - p->lag_ns + p->interval_ns;
	return 1;
}

static const struct scpi_mode poll_mode = { .begin = poll_begin, .take = poll_take };

static int scpi_read(struct meter_dev *dev, struct meter_sample *out, unsigned max,
		     int timeout_ms)
{
	return scpi_pump(dev, dev->priv, out, max, timeout_ms);
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
	rc = scpi_send(p, "*CLS");
	if (!rc)
		rc = scpi_query_line(dev, p, "*IDN?", line, sizeof(line));
	if (rc == -ETIMEDOUT || (!rc && scpi_idn_parse(line, &p->idn))) {
		log_msg(level, MOD, "meter '%s': no *IDN? answer of four fields within %.0f s%s%s",
			dev->spec, 3.0, rc ? "" : ": got ", rc ? "" : line);
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
	rc = sel[0] ? scpi_send(p, sel) : 0;
	if (!rc && p->points)
		rc = scpi_array_setup(dev, p);
	return rc;
}

/* What open() made: the port closed, the buffers and priv freed. */
static void drop(struct meter_dev *dev, struct scpi_priv *p)
{
	free(p->arr_a);
	free(p->arr_v);
	free(p->pend);
	meter_std_serial_close(dev, p->sp);
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
	p->ch = a->ch;
	p->points = a->points;
	p->mode = p->points ? &scpi_array_mode : &poll_mode;
	rc = meter_std_serial_open_path(dev, path, 115200, &p->sp);
	free(path);
	if (rc) {
		free(p);
		return rc;
	}
	dev->priv = p;
	rc = identify(dev, p, a->ch);
	for (end = now_ns() + PROBE_TIMEOUT_NS + p->interval_ns; !rc && !n && now_ns() < end;)
		n = meter_stopping(dev) ? -ECANCELED : scpi_read(dev, &s, 1, 50);
	if (!rc && n <= 0)
		rc = n < 0 ? n : -ETIMEDOUT;
	if (!rc && !scpi_query_line(dev, p, "SYST:ERR?", line, sizeof(line)))
		scpi_report_error(dev, p, line);
	if (rc) {
		if (rc == -ETIMEDOUT)
			log_msg(meter_log_level(dev, LOG_ERR), MOD, "meter '%s': no reading "
				"within %.0f s (%s)", dev->spec, (double)PROBE_TIMEOUT_NS / 1e9,
				p->errors ? "the instrument's errors are above" : "no SCPI error");
		drop(dev, p);
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
	if (p->points)
		snprintf(info->processing, sizeof(info->processing), "W = V x A of %u buffered "
			 "points per interval, %.2f us apart", p->points, (double)p->tint_ns / 1e3);
	else
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
	p->pend_n = p->pend_i = 0; /* the probe's block: before the run */
	return 0;
}

static void scpi_close(struct meter_dev *dev)
{
	struct scpi_priv *p = dev->priv;

	if (p)
		drop(dev, p);
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
