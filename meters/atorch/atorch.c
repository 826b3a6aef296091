/* SPDX-License-Identifier: MIT */
/* ATORCH UD18/UD24/J7-C USB and DC meters: listen to the report the meter pushes each second. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/log.h"
#include "core/mem.h"
#include "meters/atorch/atorch.h"
#include "meters/atorch/atorch_protocol.h"
#include "meters/transport/serial.h"

#define MOD "atorch"
/* The meter only speaks once a second (sigrok's probe listens up to 10 s). */
#define PROBE_TIMEOUT_NS (5 * NS_PER_SEC)
#define PROBE_READ_MS 100
#define RX_CHUNK 128
/* A report is sent as the meter updates; over RFCOMM it arrives within tens of ms. */
#define ATORCH_LAG_NS (20 * NS_PER_MS)

struct atorch_priv {
	struct serial_port *sp;
	struct atorch_rx rx;
	int check;    /* verify checksums (not on J7-C firmware) */
	int dev_type; /* from the first good report */
	uint64_t unchecked; /* J7-C mode: reports taken on magic, length and fields alone */
	struct atorch_reading last;
};

/* The spec's keys (atorch_keys). */
struct atorch_args {
	int check;
	double v_scale;
	unsigned baud;
};

#define ATORCH_KEY(f) offsetof(struct atorch_args, f)
static const struct opt_desc atorch_keys[] = {
	{ .name = "check", .type = OPT_BOOL, .off = ATORCH_KEY(check), .def = "on",
	  .metavar = "on|off",
	  .help = "verify each report's checksum; off for a J7-C, whose firmware sends "
		  "checksums that fail (reports are then taken on magic, length and type)" },
	{ .name = "v_scale", .type = OPT_DOUBLE, .off = ATORCH_KEY(v_scale), .def = "1",
	  .min = 0.001, .max = 1000,
	  .help = "multiplies the voltage the reports give: a meter whose display disagrees "
		  "by a power of ten with the layout's step (DT3010: compare with its display)" },
	{ .name = "baud", .type = OPT_UINT, .off = ATORCH_KEY(baud), .def = "9600", .min = 1200,
	  .max = 4000000, .help = "line speed: RFCOMM ignores it, USB serial bridges need it" },
};

/* One report within timeout_ms: 1 and its reading, 0 on timeout, -errno on a lost link. */
static int next_report(struct meter_dev *dev, struct atorch_priv *p, struct atorch_reading *out,
		       int timeout_ms)
{
	uint8_t buf[RX_CHUNK], r[ATORCH_REPORT_LEN];
	uint64_t end = now_ns() + (uint64_t)timeout_ms * NS_PER_MS, now;
	int n, rc;

	for (;;) {
		while (atorch_rx_next(&p->rx, r)) {
			rc = atorch_decode(r, p->check, out);
			if (!rc) {
				p->unchecked += !p->check;
				return 1;
			}
			METER_COUNT(dev->frames_bad);
			atorch_rx_reject(&p->rx, r);
		}
		now = now_ns();
		if (now >= end)
			return 0;
		n = serial_read(p->sp, buf, sizeof(buf), (int)((end - now + NS_PER_MS - 1) / NS_PER_MS));
		if (n < 0)
			return n;
		atorch_rx_push(&p->rx, buf, (size_t)n);
	}
}

static int atorch_read(struct meter_dev *dev, struct meter_sample *out, unsigned max,
		       int timeout_ms)
{
	struct atorch_priv *p = dev->priv;
	struct atorch_reading rd;
	int rc;

	if (!max)
		return 0;
	rc = next_report(dev, p, &rd, timeout_ms);
	if (rc <= 0)
		return rc;
	rd.v *= ((const struct atorch_args *)dev->args)->v_scale;
	p->last = rd;
	if (rd.dev_type == ATORCH_DEV_USB)
		meter_set_extras(dev, "D+ %.2f V, D- %.2f V, %.0f C", rd.dp_v, rd.dn_v, rd.temp_c);
	else
		meter_set_extras(dev, "%.0f C", rd.temp_c);
	*out = (struct meter_sample){ .t_ns = now_ns() - ATORCH_LAG_NS, .v = rd.v, .a = rd.a,
				      .w = rd.v * rd.a, .flags = SAMPLE_W_COMPUTED };
	return 1;
}

static int atorch_open(struct meter_dev *dev, struct meter_info *info)
{
	const struct atorch_args *a = dev->args;
	struct atorch_priv *p = xcalloc(1, sizeof(*p));
	struct atorch_reading rd;
	uint64_t end, bad;
	int rc;

	p->check = a->check;
	rc = meter_std_serial_open(dev, a->baud, &p->sp);
	if (rc) {
		free(p);
		return rc;
	}
	dev->priv = p;
	bad = METER_LOAD(dev->frames_bad);
	end = now_ns() + PROBE_TIMEOUT_NS;
	rc = 0;
	while (!rc && now_ns() < end && !meter_stopping(dev))
		rc = next_report(dev, p, &rd, PROBE_READ_MS);
	atomic_store_explicit(&dev->frames_bad, bad, memory_order_relaxed);
	if (rc != 1 && meter_stopping(dev))
		rc = -ECANCELED;
	if (rc != 1) {
		if (rc != -ECANCELED)
			log_msg(meter_log_level(dev, LOG_ERR), MOD,
				"meter '%s': no valid report within %.0f s (is the meter on and "
				"not connected to its phone app?%s)", dev->spec,
				(double)PROBE_TIMEOUT_NS / 1e9,
				p->check ? " a J7-C needs check=off" : "");
		meter_std_serial_close(dev, p->sp);
		return rc < 0 ? rc : -ETIMEDOUT;
	}
	p->dev_type = rd.dev_type;
	meter_std_serial_label(dev, p->sp, info,
			       atorch_models[rd.dev_type == ATORCH_DEV_USB ? 0 : 1].name);
	meter_std_range(info, &atorch_models[rd.dev_type == ATORCH_DEV_USB ? 0 : 1]);
	info->period_ns = ATORCH_PERIOD_NS;
	info->lag_ns = ATORCH_LAG_NS;
	return 0;
}

static void atorch_close(struct meter_dev *dev)
{
	struct atorch_priv *p = dev->priv;

	if (!p)
		return;
	if (p->unchecked)
		log_info(MOD, "%s: %" PRIu64 " reports taken without a checksum (check=off)",
			 dev->spec, p->unchecked);
	meter_std_serial_close(dev, p->sp);
}

const struct meter_driver meter_atorch = {
	.name = "atorch",
	.desc = "ATORCH UD18/UD24/J7-C USB and DL24-style DC meters (pushed 1/s; a job needs "
		">= 20 s of active phase to be valid)",
	.conn = "the serial port: /dev/rfcomm0 (Bluetooth SPP, channel 2 on some), a pty, "
		"rfc2217://HOST:PORT or tcp://HOST:PORT (ser2net)",
	.conn_rule = METER_CONN_REQUIRED,
	.flags = METER_DRV_SERIAL,
	.example = "atorch:/dev/rfcomm0",
	METER_KEYS(atorch_keys, struct atorch_args),
	METER_MODELS(atorch_models),
	.open = atorch_open,
	.read = atorch_read,
	.close = atorch_close,
};
