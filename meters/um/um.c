/* SPDX-License-Identifier: MIT */
/* RDTech UM24C/UM25C/UM34C driver: poll 0xF0 over a serial link, one request at a time. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/util.h"
#include "meters/core/emu_registry.h"
#include "meters/meter.h"
#include "meters/transport/serial.h"
#include "meters/um/um.h"

#define MOD "um"
#define INTERVAL_DEF_NS (500 * NS_PER_MS)
#define INTERVAL_MIN_NS (100 * NS_PER_MS)
/* Opening /dev/rfcomm0 starts the Bluetooth connection; a page and the RFCOMM setup
 * can take a few seconds, so the first reply may come late (polls are re-sent). */
#define PROBE_TIMEOUT_NS (3 * NS_PER_SEC)

struct um_priv {
	struct serial_port *sp;
	const struct um_model *model;
	struct um_rx rx;
	uint64_t interval_ns, timeout_ns;
	uint64_t sent_ns; /* 0: no request outstanding */
	uint64_t next_poll_ns;
	uint64_t rx_bytes; /* since the request */
};

static const char *const um_keys[] = { "interval", "timeout", "baud", NULL };

static int um_parse_params(struct meter_dev *dev, struct um_priv *p, long *baud)
{
	const char *s;

	p->interval_ns = INTERVAL_DEF_NS;
	s = meter_param(dev, "interval");
	if (s && (parse_duration_ns(s, NS_PER_MS, &p->interval_ns) ||
		  p->interval_ns < INTERVAL_MIN_NS)) {
		log_err(MOD, "meter '%s': interval '%s': expected a duration of at least 100ms "
			"(the meters update about twice a second)", dev->spec, s);
		return -EINVAL;
	}
	/*
	 * Long enough for a Bluetooth round trip (tens to a few hundred ms), short enough
	 * that a lost reply is asked for again before two periods pass without a reading.
	 */
	p->timeout_ns = p->interval_ns * 4 / 5;
	if (p->timeout_ns < 300 * NS_PER_MS)
		p->timeout_ns = 300 * NS_PER_MS;
	if (p->timeout_ns > NS_PER_SEC)
		p->timeout_ns = NS_PER_SEC;
	s = meter_param(dev, "timeout");
	if (s && (parse_duration_ns(s, NS_PER_MS, &p->timeout_ns) || p->timeout_ns < 10 * NS_PER_MS)) {
		log_err(MOD, "meter '%s': timeout '%s': expected a duration of at least 10ms",
			dev->spec, s);
		return -EINVAL;
	}
	*baud = 115200;
	s = meter_param(dev, "baud");
	if (s && parse_int(s, 1200, 4000000, baud)) {
		log_err(MOD, "meter '%s': baud '%s': expected 1200..4000000", dev->spec, s);
		return -EINVAL;
	}
	return 0;
}

static int um_send_poll(struct um_priv *p, uint64_t now)
{
	static const uint8_t cmd = UM_CMD_POLL;
	int rc;

	/* Stale bytes of a reply we gave up on would only cost a resync. */
	serial_flush_input(p->sp);
	um_rx_reset(&p->rx);
	rc = serial_write(p->sp, &cmd, 1, 100);
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
	uint8_t buf[256], frame[UM_FRAME_LEN];
	const struct um_model *m;
	uint64_t now = now_ns(), deadline = now + (uint64_t)timeout_ms * NS_PER_MS, until;
	int n;

	if (!max)
		return 0;
	for (;;) {
		if (!p->sent_ns && now >= p->next_poll_ns && um_send_poll(p, now))
			return -EIO;
		if (p->sent_ns && now >= p->sent_ns + p->timeout_ns) {
			um_reply_failed(dev, p, now);
			continue;
		}
		until = p->sent_ns ? p->sent_ns + p->timeout_ns : p->next_poll_ns;
		if (until > deadline)
			until = deadline;
		n = serial_read(p->sp, buf, sizeof(buf),
				until > now ? (int)((until - now + NS_PER_MS - 1) / NS_PER_MS) : 0);
		if (n < 0)
			return n;
		now = now_ns();
		if (n > 0 && p->sent_ns) {
			um_rx_push(&p->rx, buf, (size_t)n);
			p->rx_bytes += (uint64_t)n;
			if (um_rx_next(&p->rx, frame, &m)) {
				um_decode(m, frame, out);
				p->model = m;
				dev->lag_ns = (now - p->sent_ns) / 2;
				out->t_ns = now - dev->lag_ns;
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
		n = um_read(dev, &s, 1, 50);
		if (n < 0)
			return n;
		if (n == 1)
			break;
	}
	(void)s;
	/* Replies lost while the link settles are not the run's bad frames. */
	__atomic_store_n(&dev->frames_bad, bad, __ATOMIC_RELAXED);
	return p->model ? 0 : -ETIMEDOUT;
}

static void um_label(struct meter_dev *dev, const struct um_model *m)
{
	if (emureg_owner(dev->conn)) {
		dev->emulated = 1;
		snprintf(dev->model, sizeof(dev->model), "%s (emulated)", m->name);
	} else if (serial_path_is_pty(dev->conn)) {
		dev->emulated = 0;
		snprintf(dev->model, sizeof(dev->model), "%s via pty bridge", m->name);
	} else {
		dev->emulated = 0;
		snprintf(dev->model, sizeof(dev->model), "%s", m->name);
	}
}

static int um_open(struct meter_dev *dev)
{
	const struct um_model *want = um_model_by_driver(dev->drv->name);
	struct um_priv *p;
	long baud;
	int rc;

	rc = meter_check_params(dev, um_keys);
	if (rc)
		return rc;
	p = xcalloc(1, sizeof(*p));
	rc = um_parse_params(dev, p, &baud);
	if (!rc && !*dev->conn) {
		log_err(MOD, "meter '%s': no port given (e.g. %s:/dev/rfcomm0)", dev->spec,
			dev->drv->name);
		rc = -EINVAL;
	}
	if (!rc)
		rc = serial_open(dev->conn, (unsigned)baud,
				 dev->reconnecting ? LOG_DEBUG : LOG_ERR, &p->sp);
	if (rc) {
		free(p);
		return rc;
	}
	dev->priv = p;
	rc = um_probe(dev, p);
	if (rc) {
		log_msg(dev->reconnecting ? LOG_DEBUG : LOG_ERR, MOD,
			"meter '%s': no valid reply to 0xF0 within %.1f s (is the meter "
			"on, paired and not used by another program?)", dev->spec,
			(double)PROBE_TIMEOUT_NS / 1e9);
		serial_close(p->sp);
		free(p);
		dev->priv = NULL;
		return rc == -ETIMEDOUT ? -ETIMEDOUT : rc;
	}
	if (want && want != p->model)
		log_msg(dev->reconnecting ? LOG_DEBUG : LOG_WARN, MOD,
			"meter '%s': the spec says %s but the meter answers as %s; using %s",
			dev->spec, want->name, p->model->name, p->model->name);
	um_label(dev, p->model);
	dev->period_ns = p->interval_ns;
	log_debug(MOD, "%s: %s over %s, lag %.1f ms", dev->spec, dev->model,
		  serial_backend(p->sp), (double)dev->lag_ns / 1e6);
	return 0;
}

static int um_start(struct meter_dev *dev)
{
	struct um_priv *p = dev->priv;

	p->sent_ns = 0;
	p->next_poll_ns = now_ns();
	return 0;
}

static void um_stop(struct meter_dev *dev)
{
	(void)dev;
}

static void um_close(struct meter_dev *dev)
{
	struct um_priv *p = dev->priv;

	if (!p)
		return;
	serial_close(p->sp);
	free(p);
	dev->priv = NULL;
}

#define UM_DRIVER(drv_name, text)                                                         \
	const struct meter_driver meter_##drv_name = {                                    \
		.name = #drv_name,                                                        \
		.desc = text,                                                             \
		.open = um_open,                                                          \
		.start = um_start,                                                        \
		.read = um_read,                                                          \
		.stop = um_stop,                                                          \
		.close = um_close,                                                        \
	}

UM_DRIVER(um, "RDTech UM24C/UM25C/UM34C, model detected from the reply");
UM_DRIVER(um24c, "RDTech UM24C USB tester (Bluetooth SPP)");
UM_DRIVER(um25c, "RDTech UM25C USB-C tester (Bluetooth SPP)");
UM_DRIVER(um34c, "RDTech UM34C USB 3 tester (Bluetooth SPP)");
