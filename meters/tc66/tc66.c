/* SPDX-License-Identifier: MIT */
/* RDTech TC66/TC66C driver: "getva" over USB CDC, 192 encrypted bytes back, one at a time. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/log.h"
#include "core/mem.h"
#include "meters/tc66/tc66.h"
#include "meters/tc66/tc66_protocol.h"
#include "meters/transport/serial.h"

#define MOD "tc66"
#define PROBE_TIMEOUT_NS (3 * NS_PER_SEC)
#define PROBE_READ_MS 50
#define WRITE_TIMEOUT_MS 100
/* sigrok waits up to 1 s for a reply; a lost one is asked for again after this. */
#define REPLY_TIMEOUT_NS (500 * NS_PER_MS)

struct tc66_priv {
	struct serial_port *sp;
	uint8_t buf[TC66_REPLY_LEN];
	unsigned have;
	uint64_t interval_ns;
	uint64_t sent_ns; /* 0: no request outstanding */
	uint64_t next_ns;
	uint64_t lag_ns;  /* half the last round trip */
	struct tc66_reading last;
};

/* The spec's keys (tc66_keys). */
struct tc66_args {
	uint64_t interval_ns;
};

static const struct opt_desc tc66_keys[] = {
	{ .name = "interval", .type = OPT_DURATION, .off = offsetof(struct tc66_args, interval_ns),
	  .def = "200ms", .bare_unit_ns = NS_PER_MS, .min = 100 * NS_PER_MS,
	  .max = 60 * NS_PER_SEC, .help = "time between polls (sigrok polls every 100 ms)" },
};

/* sigrok does not resync on "pac1": stale bytes are flushed before each request. */
static int send_getva(struct tc66_priv *p, uint64_t now)
{
	int rc = serial_flush_input(p->sp);

	if (rc)
		return rc;
	p->have = 0;
	if (serial_write(p->sp, TC66_CMD_GETVA, strlen(TC66_CMD_GETVA), WRITE_TIMEOUT_MS) < 0)
		return -EIO;
	p->sent_ns = now;
	return 0;
}

/* A complete reply: 1 and the reading, or 0 after counting a bad one. */
static int take_reply(struct meter_dev *dev, struct tc66_priv *p, struct meter_sample *out,
		      uint64_t now)
{
	struct tc66_reading r;

	tc66_decrypt(p->buf);
	p->sent_ns = 0;
	p->next_ns = now;
	if (tc66_decode(p->buf, &r)) {
		METER_COUNT(dev->frames_bad);
		return 0;
	}
	p->last = r;
	meter_set_extras(dev, "D+ %.2f V, D- %.2f V, %.0f C, %.1f Ohm", r.dp_v, r.dn_v, r.temp_c,
			 r.ohms);
	*out = (struct meter_sample){ .v = r.v, .a = r.a, .w = r.w };
	return 1;
}

static int tc66_read(struct meter_dev *dev, struct meter_sample *out, unsigned max,
		     int timeout_ms)
{
	struct tc66_priv *p = dev->priv;
	uint64_t now = now_ns(), deadline = now + (uint64_t)timeout_ms * NS_PER_MS, until, sent;
	int n;

	if (!max)
		return 0;
	for (;;) {
		if (!p->sent_ns && now >= p->next_ns && (n = send_getva(p, now)))
			return n;
		if (p->sent_ns && now >= p->sent_ns + REPLY_TIMEOUT_NS) {
			METER_COUNT(dev->frames_bad);
			p->sent_ns = 0;
			p->next_ns = now;
			continue;
		}
		until = p->sent_ns ? p->sent_ns + REPLY_TIMEOUT_NS : p->next_ns;
		n = meter_std_read_until(p->sp, p->buf + p->have, sizeof(p->buf) - p->have, now,
					 until, deadline);
		if (n < 0)
			return n;
		now = now_ns();
		if (n > 0 && p->sent_ns) {
			p->have += (unsigned)n;
			if (p->have == TC66_REPLY_LEN) {
				sent = p->sent_ns;
				if (take_reply(dev, p, out, now)) {
					p->lag_ns = (now - sent) / 2;
					out->t_ns = now - p->lag_ns;
					p->next_ns = sent + p->interval_ns;
					return 1;
				}
			}
		}
		if (now >= deadline)
			return 0;
	}
}

static int probe(struct meter_dev *dev, struct tc66_priv *p)
{
	struct meter_sample s;
	uint64_t end = now_ns() + PROBE_TIMEOUT_NS, bad = METER_LOAD(dev->frames_bad);
	int n = 0;

	p->next_ns = 0;
	while (n == 0 && now_ns() < end) {
		if (meter_stopping(dev))
			return -ECANCELED;
		n = tc66_read(dev, &s, 1, PROBE_READ_MS);
	}
	atomic_store_explicit(&dev->frames_bad, bad, memory_order_relaxed);
	return n < 0 ? n : n ? 0 : -ETIMEDOUT;
}

static int tc66_open(struct meter_dev *dev, struct meter_info *info)
{
	struct tc66_priv *p = xcalloc(1, sizeof(*p));
	int rc;

	p->interval_ns = ((const struct tc66_args *)dev->args)->interval_ns;
	rc = meter_std_serial_open(dev, 115200, &p->sp);
	if (rc) {
		free(p);
		return rc;
	}
	dev->priv = p;
	rc = probe(dev, p);
	if (rc) {
		/* -EPROTO: the transport said why (a flood). */
		if (rc != -ECANCELED && rc != -EPROTO)
			log_msg(meter_log_level(dev, LOG_ERR), MOD,
				"meter '%s': no valid answer to getva within %.0f s (is it a "
				"TC66C in its application, not the bootloader?)", dev->spec,
				(double)PROBE_TIMEOUT_NS / 1e9);
		meter_std_serial_close(dev, p->sp);
		return rc;
	}
	meter_std_serial_label(dev, p->sp, info, strcmp(p->last.model, "TC66") ? p->last.model : "TC66C");
	meter_std_range(info, &tc66_models[0]);
	info->frame_vaw = 1;
	info->period_ns = p->interval_ns;
	info->lag_ns = p->lag_ns;
	meter_std_poll_latency(dev, 2 * p->lag_ns, p->interval_ns, REPLY_TIMEOUT_NS);
	log_debug(MOD, "%s: %s firmware %s, serial %u", dev->spec, info->model, p->last.fw,
		  p->last.serial);
	return 0;
}

static int tc66_start(struct meter_dev *dev)
{
	struct tc66_priv *p = dev->priv;

	p->sent_ns = 0;
	p->next_ns = now_ns();
	return 0;
}

static void tc66_close(struct meter_dev *dev)
{
	struct tc66_priv *p = dev->priv;

	if (!p)
		return;
	meter_std_serial_close(dev, p->sp);
}

const struct meter_driver meter_tc66c = {
	.name = "tc66c",
	.desc = "RDTech TC66/TC66C USB-C tester (USB CDC; AES replies decrypted with nettle)",
	.conn = "the serial port: /dev/ttyACM0, a pty, rfc2217://HOST:PORT or "
		"tcp://HOST:PORT (ser2net)",
	.conn_rule = METER_CONN_REQUIRED,
	.flags = METER_DRV_SERIAL,
	.example = "tc66c:/dev/ttyACM0,interval=200ms",
	METER_KEYS(tc66_keys, struct tc66_args),
	METER_MODELS(tc66_models),
	.open = tc66_open,
	.start = tc66_start,
	.read = tc66_read,
	.close = tc66_close,
};
