/* SPDX-License-Identifier: MIT */
/* RDTech UM24C/UM25C/UM34C driver: poll 0xF0 over a serial link, one request at a time. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/log.h"
#include "core/mem.h"
#include "meters/transport/serial.h"
#include "meters/um/um.h"
#include "meters/um/um_protocol.h"

#define MOD "um"
/* Opening /dev/rfcomm0 starts the Bluetooth connection; a page and the RFCOMM setup
 * can take a few seconds, so the first reply may come late (polls are re-sent). */
#define PROBE_TIMEOUT_NS (3 * NS_PER_SEC)
#define PROBE_READ_MS 50
#define POLL_WRITE_TIMEOUT_MS 100
/* Default reply timeout: 4/5 of the interval, within these bounds (see um_config). */
#define TIMEOUT_OF_INTERVAL_NUM 4
#define TIMEOUT_OF_INTERVAL_DEN 5
#define TIMEOUT_MIN_NS (300 * NS_PER_MS)
#define TIMEOUT_MAX_NS NS_PER_SEC
#define RX_CHUNK 256

struct um_priv {
	struct serial_port *sp;
	const struct um_model *model;
	struct um_rx rx;
	uint64_t interval_ns, timeout_ns;
	uint64_t sent_ns; /* 0: no request outstanding */
	uint64_t next_poll_ns;
	uint64_t rx_bytes; /* since the request */
	uint64_t lag_ns;   /* half the last round trip */
};

/* The spec's keys (um_keys). */
struct um_args {
	uint64_t interval_ns, timeout_ns; /* timeout 0: not given */
	unsigned baud;
};

#define UM_KEY(f) offsetof(struct um_args, f)
static const struct opt_desc um_keys[] = {
	{ .name = "interval", .type = OPT_DURATION, .off = UM_KEY(interval_ns), .def = "500ms",
	  .bare_unit_ns = NS_PER_MS, .min = 100 * NS_PER_MS, .max = 60 * NS_PER_SEC,
	  .help = "time between polls; the meters update about twice a second" },
	{ .name = "timeout", .type = OPT_DURATION, .off = UM_KEY(timeout_ns),
	  .bare_unit_ns = NS_PER_MS, .min = 10 * NS_PER_MS, .max = 60 * NS_PER_SEC,
	  .help = "wait for a reply before asking again (default: 4/5 of interval, 300ms to 1s)" },
	{ .name = "baud", .type = OPT_UINT, .off = UM_KEY(baud), .def = "115200", .min = 1200,
	  .max = 4000000, .help = "line speed: RFCOMM and CDC ignore it, USB serial bridges need it" },
};

/*
 * A reply timeout long enough for a Bluetooth round trip (tens to a few hundred ms),
 * short enough that a lost reply is asked for again before two periods pass without
 * a reading.
 */
static void um_config(const struct meter_dev *dev, struct um_priv *p)
{
	const struct um_args *a = dev->args;

	p->interval_ns = a->interval_ns;
	p->timeout_ns = p->interval_ns * TIMEOUT_OF_INTERVAL_NUM / TIMEOUT_OF_INTERVAL_DEN;
	if (p->timeout_ns < TIMEOUT_MIN_NS)
		p->timeout_ns = TIMEOUT_MIN_NS;
	if (p->timeout_ns > TIMEOUT_MAX_NS)
		p->timeout_ns = TIMEOUT_MAX_NS;
	if (a->timeout_ns)
		p->timeout_ns = a->timeout_ns;
}

static int um_send_poll(struct um_priv *p, uint64_t now)
{
	static const uint8_t cmd = UM_CMD_POLL;
	int rc;

	/* Stale bytes of a reply we gave up on would only cost a resync. */
	rc = serial_flush_input(p->sp);
	if (rc)
		return rc;
	um_rx_reset(&p->rx);
	rc = serial_write(p->sp, &cmd, 1, POLL_WRITE_TIMEOUT_MS);
	if (rc < 0)
		return -EIO;
	p->sent_ns = now;
	p->rx_bytes = 0;
	return 0;
}

static void um_reply_failed(struct meter_dev *dev, struct um_priv *p, uint64_t now)
{
	METER_COUNT(dev->frames_bad);
	p->sent_ns = 0;
	p->next_poll_ns = now; /* the reply is lost: ask again at once */
}

/*
 * Drive the request/reply cycle for up to timeout_ms. A sample's time is the last
 * byte's arrival minus lag_ns, half this poll's round trip: the midpoint estimate of
 * when the meter answered. The reading itself can be up to one internal update
 * (~500 ms) older; nothing on the wire tells its age, so that part is not corrected.
 */
static int um_read(struct meter_dev *dev, struct meter_sample *out, unsigned max,
		   int timeout_ms)
{
	struct um_priv *p = dev->priv;
	uint8_t buf[RX_CHUNK], frame[UM_FRAME_LEN];
	const struct um_model *m;
	uint64_t now = now_ns(), deadline = now + (uint64_t)timeout_ms * NS_PER_MS, until;
	int n;

	if (!max)
		return 0;
	for (;;) {
		if (!p->sent_ns && now >= p->next_poll_ns && (n = um_send_poll(p, now)))
			return n;
		if (p->sent_ns && now >= p->sent_ns + p->timeout_ns) {
			um_reply_failed(dev, p, now);
			continue;
		}
		until = p->sent_ns ? p->sent_ns + p->timeout_ns : p->next_poll_ns;
		n = meter_std_read_until(p->sp, buf, sizeof(buf), now, until, deadline);
		if (n < 0)
			return n;
		now = now_ns();
		if (n > 0 && p->sent_ns) {
			um_rx_push(&p->rx, buf, (size_t)n);
			p->rx_bytes += (uint64_t)n;
			if (um_rx_next(&p->rx, frame, &m)) {
				um_decode(m, frame, out);
				p->model = m;
				p->lag_ns = (now - p->sent_ns) / 2;
				out->t_ns = now - p->lag_ns;
				p->next_poll_ns = p->sent_ns + p->interval_ns;
				p->sent_ns = 0;
				return 1;
			}
			/* A whole reply's worth arrived and nothing in it can start a frame. */
			if (p->rx_bytes >= UM_FRAME_LEN && !p->rx.len)
				um_reply_failed(dev, p, now);
		}
		if (now >= deadline)
			return 0;
	}
}

/* Waits for one valid reply to learn the model; -ETIMEDOUT if none comes. */
static int um_probe(struct meter_dev *dev, struct um_priv *p)
{
	struct meter_sample s;
	uint64_t end = now_ns() + PROBE_TIMEOUT_NS;
	uint64_t bad = METER_LOAD(dev->frames_bad);
	int n;

	p->next_poll_ns = 0;
	p->model = NULL;
	while (now_ns() < end) {
		if (meter_stopping(dev))
			return -ECANCELED;
		n = um_read(dev, &s, 1, PROBE_READ_MS);
		if (n < 0)
			return n;
		if (n == 1)
			break;
	}
	/* Replies lost while the link settles are not the run's bad frames. */
	atomic_store_explicit(&dev->frames_bad, bad, memory_order_relaxed);
	return p->model ? 0 : -ETIMEDOUT;
}

static int um_open(struct meter_dev *dev, struct meter_info *info)
{
	const struct um_model *want = um_model_by_driver(dev->drv->name);
	struct um_priv *p = xcalloc(1, sizeof(*p));
	int rc;

	um_config(dev, p);
	rc = meter_std_serial_open(dev, ((const struct um_args *)dev->args)->baud, &p->sp);
	if (rc) {
		free(p);
		return rc;
	}
	dev->priv = p;
	rc = um_probe(dev, p);
	if (rc) {
		/* -EPROTO: the transport said why (a flood). */
		if (rc != -ECANCELED && rc != -EPROTO)
			log_msg(meter_log_level(dev, LOG_ERR), MOD,
				"meter '%s': no valid reply to 0xF0 within %.1f s (is the meter "
				"on, paired and not used by another program?)", dev->spec,
				(double)PROBE_TIMEOUT_NS / 1e9);
		meter_std_serial_close(dev, p->sp);
		return rc;
	}
	if (want && want != p->model)
		log_msg(meter_log_level(dev, LOG_WARN), MOD,
			"meter '%s': the spec says %s but the meter answers as %s; using %s",
			dev->spec, want->meta.name, p->model->meta.name, p->model->meta.name);
	meter_std_serial_label(dev, p->sp, info, p->model->meta.name);
	meter_std_range(info, &p->model->meta);
	info->frame_vaw = 1;
	meter_std_accuracy(info, &p->model->meta);
	info->period_ns = p->interval_ns;
	info->lag_ns = p->lag_ns;
	meter_std_poll_latency(dev, 2 * p->lag_ns, p->interval_ns, p->timeout_ns);
	log_debug(MOD, "%s: %s over %s, lag %.1f ms", dev->spec, info->model,
		  serial_backend(p->sp), (double)p->lag_ns / 1e6);
	return 0;
}

static int um_start(struct meter_dev *dev)
{
	struct um_priv *p = dev->priv;

	p->sent_ns = 0;
	p->next_poll_ns = now_ns();
	return 0;
}

static void um_close(struct meter_dev *dev)
{
	struct um_priv *p = dev->priv;

	if (!p)
		return;
	meter_std_serial_close(dev, p->sp);
}

#define UM_DRIVER(drv_name, text)                                                         \
	const struct meter_driver meter_##drv_name = {                                    \
		.name = #drv_name,                                                        \
		.desc = text,                                                             \
		.conn = "the serial port: /dev/rfcomm0 (Bluetooth), /dev/ttyUSB0, a pty, "          \
			"rfc2217://HOST:PORT or tcp://HOST:PORT (ser2net)",               \
		.conn_rule = METER_CONN_REQUIRED,                                         \
		.flags = METER_DRV_SERIAL,                                                \
		.example = #drv_name ":/dev/rfcomm0,interval=500ms",                      \
		METER_KEYS(um_keys, struct um_args),                                      \
		METER_MODELS_META(um_models),                                             \
		.open = um_open,                                                          \
		.start = um_start,                                                        \
		.read = um_read,                                                          \
		.close = um_close,                                                        \
	}

UM_DRIVER(um, "RDTech UM24C/UM25C/UM34C, model detected from the reply");
UM_DRIVER(um24c, "RDTech UM24C USB tester (Bluetooth SPP)");
UM_DRIVER(um25c, "RDTech UM25C USB-C tester (Bluetooth SPP)");
UM_DRIVER(um34c, "RDTech UM34C USB 3 tester (Bluetooth SPP)");
