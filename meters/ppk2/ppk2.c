/* SPDX-License-Identifier: MIT */
/* Nordic PPK2 driver: calibration from its metadata, 100 kS/s of sample words, losses counted. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/sysfs.h"
#include "meters/ppk2/ppk2.h"
#include "meters/ppk2/ppk2_filter.h"
#include "meters/ppk2/ppk2_protocol.h"
#include "meters/transport/serial.h"

#define MOD "ppk2"
#define META_TIMEOUT_NS (2 * NS_PER_SEC)
#define META_MAX 2048
#define QUIET_MS 50
#define DRAIN_MAX_NS NS_PER_SEC
#define WRITE_TIMEOUT_MS 100
#define STEP_READ_MS 50
#define RX_BYTES 16384
#define BATCH (RX_BYTES / PPK2_WORD_LEN)
#define DEFAULT_VDD_MV 3300
#define MV_PER_V 1000.0
/* USB full speed hands over a few ms of samples at a time. */
#define PPK2_LAG_NS NS_PER_MS
/*
 * The device's clock stamps its samples: the n-th is n periods after the first. Arrival
 * only corrects that clock: a sample cannot have been taken after it arrived (the anchor
 * moves back), and one that arrives more than this late means samples went missing that
 * the 6-bit counter could not show (a multiple of 64): the anchor moves forward, the hole
 * is counted. A loaded host can hold a batch back a few hundred ms without losing it.
 * A hole the counter shows is known only modulo 64 samples: a device whose buffer filled
 * while the host was busy drops thousands, and counting only the remainder stamped every
 * later sample early by the rest (tens of ms, for the rest of the stream, the arrival
 * check never moving a clock that runs early). After one the clock is anchored afresh on
 * the next arrival, as at the start.
 */
#define RESYNC_NS NS_PER_SEC
/* A move of the clock beyond this marks the batch's first sample SAMPLE_CLOCK_STEP. */
#define STEP_NS (NS_PER_MS / 2)

struct ppk2_priv {
	struct serial_port *sp;
	struct ppk2_cal cal;
	int mode;	 /* PPK2_MODE_AMPERE or PPK2_MODE_SOURCE */
	double vdd_mv;	 /* in the calibration's S term */
	double volts;	 /* the DUT's supply for W; NAN: current only */
	uint8_t rem[PPK2_WORD_LEN];
	unsigned nrem;
	struct ppk2_seq seq;
	struct ppk2_spike_filter spike;
	uint64_t jumps_told; /* seq.jumps already added to the device's count */
	unsigned k;	     /* samples in batch */
	int held_from;	     /* batch index of the first sample held out of sequence; -1 none */
	int anchored;
	uint64_t base_ns; /* when sample 0 was taken */
	uint64_t idx;	  /* the device's sample number of the next sample */
	struct meter_pump pump;
	struct meter_sample batch[BATCH];
	uint8_t rx[RX_BYTES];
};

/* The spec's keys (ppk2_keys); mode is an index of modes[]. */
enum { KEY_AMPERE, KEY_SOURCE };
struct ppk2_args {
	int mode, spike_filter;
	unsigned vdd_mv; /* 0: not given */
};

static const struct opt_choice modes[] = { { "ampere", NULL }, { "source", NULL }, { NULL, NULL } };

#define PPK2_KEY(f) offsetof(struct ppk2_args, f)
static const struct opt_desc ppk2_keys[] = {
	{ .name = "mode", .type = OPT_ENUM, .off = PPK2_KEY(mode), .def = "ampere", .choices = modes,
	  .help = "ampere: in series with your supply; source: the PPK2 powers the device at "
		  "vdd (only when asked: needs vdd=)" },
	{ .name = "vdd", .type = OPT_UINT, .off = PPK2_KEY(vdd_mv), .min = PPK2_VDD_MIN_MV,
	  .max = PPK2_VDD_MAX_MV,
	  .help = "mV: source mode's output; ampere mode: your supply's voltage, for W "
		  "(without it, current and charge only)" },
	{ .name = "spike_filter", .type = OPT_BOOL, .off = PPK2_KEY(spike_filter), .def = "on",
	  .metavar = "on|off",
	  .help = "smooth the 3 samples after a range switch as Nordic's and IRNAS's software "
		  "do (off: the raw samples, switching transients included)" },
};

/* Source mode powers the device: never without an explicit voltage. */
static int ppk2_check(const struct meter_dev *dev)
{
	const struct ppk2_args *a = dev->args;

	if (a->mode == KEY_SOURCE && !a->vdd_mv) {
		log_err(MOD, "meter '%s': mode=source powers the device: give vdd=MV (%d-%d)",
			dev->spec, PPK2_VDD_MIN_MV, PPK2_VDD_MAX_MV);
		return -EINVAL;
	}
	return 0;
}

static int send(struct ppk2_priv *p, const uint8_t *cmd, size_t n)
{
	return serial_write(p->sp, cmd, n, WRITE_TIMEOUT_MS) < 0 ? -EIO : 0;
}

static int send1(struct ppk2_priv *p, uint8_t cmd, int arg)
{
	uint8_t b[2] = { cmd, (uint8_t)arg };

	return send(p, b, arg < 0 ? 1 : 2);
}

/* A stream left running by an earlier client is stopped and its bytes dropped. */
static int quiet(struct ppk2_priv *p)
{
	uint64_t end = now_ns() + DRAIN_MAX_NS;
	int n, rc = send1(p, PPK2_AVERAGE_STOP, -1);

	while (!rc && now_ns() < end) {
		n = serial_read(p->sp, p->rx, sizeof(p->rx), QUIET_MS);
		if (n <= 0)
			return n;
	}
	return rc;
}

static int read_meta(struct meter_dev *dev, struct ppk2_priv *p)
{
	char text[META_MAX + 1];
	size_t have = 0;
	uint64_t end = now_ns() + META_TIMEOUT_NS;
	int n, rc = send1(p, PPK2_GET_META_DATA, -1);

	while (!rc && have < META_MAX && now_ns() < end && !meter_stopping(dev)) {
		n = serial_read(p->sp, text + have, META_MAX - have, QUIET_MS);
		if (n < 0)
			return n;
		have += (size_t)n;
		text[have] = '\0';
		if (strstr(text, "END\n") || strstr(text, "END\r"))
			return ppk2_parse_meta(text, &p->cal);
	}
	return rc ? rc : meter_stopping(dev) ? -ECANCELED : -ETIMEDOUT;
}

/*
 * The calibration's S term follows the PPK2's own VDD: what iowatt sets in source mode,
 * the one its metadata reports in ampere mode (as Nordic's software reads it). W needs the
 * device's supply: vdd= in either mode.
 */
static void config(const struct meter_dev *dev, struct ppk2_priv *p)
{
	const struct ppk2_args *a = dev->args;

	p->mode = a->mode == KEY_SOURCE ? PPK2_MODE_SOURCE : PPK2_MODE_AMPERE;
	if (p->mode == PPK2_MODE_SOURCE)
		p->vdd_mv = a->vdd_mv;
	else
		p->vdd_mv = p->cal.vdd_mv ? p->cal.vdd_mv : DEFAULT_VDD_MV;
	p->volts = a->vdd_mv ? a->vdd_mv / MV_PER_V : NAN;
}

/*
 * The mode, then the regulator, then the DUT switch closes. Source mode: the regulator
 * to vdd=. Ampere mode: to the VDD the metadata reports, as Nordic's software does on
 * open, so the device and the S term agree; the same value the device already runs at,
 * and the PPK2 sources nothing in ampere mode. Without a VDD line nothing is set.
 */
static int set_up(const struct meter_dev *dev, struct ppk2_priv *p)
{
	unsigned mv = p->mode == PPK2_MODE_SOURCE ? (unsigned)p->vdd_mv : p->cal.vdd_mv;
	uint8_t reg[3] = { PPK2_REGULATOR_SET, (uint8_t)(mv >> 8), (uint8_t)mv };
	int rc = send1(p, PPK2_SET_POWER_MODE, p->mode);

	if (!rc && mv >= PPK2_VDD_MIN_MV && mv <= PPK2_VDD_MAX_MV)
		rc = send(p, reg, sizeof(reg));
	else if (!rc)
		log_debug(MOD, "%s: the metadata gives no VDD in %d-%d mV: no REGULATOR_SET",
			  dev->spec, PPK2_VDD_MIN_MV, PPK2_VDD_MAX_MV);
	if (!rc)
		rc = send1(p, PPK2_DEVICE_RUNNING_SET, 1);
	return rc;
}

static int ppk2_open(struct meter_dev *dev, struct meter_info *info)
{
	struct ppk2_priv *p = xcalloc(1, sizeof(*p));
	int rc;

	rc = meter_std_serial_open(dev, 115200, &p->sp);
	if (rc) {
		free(p);
		return rc;
	}
	rc = quiet(p);
	if (!rc)
		rc = read_meta(dev, p);
	if (!rc) {
		config(dev, p);
		rc = set_up(dev, p);
	}
	if (rc) {
		if (rc != -ECANCELED)
			log_msg(meter_log_level(dev, LOG_ERR), MOD,
				"meter '%s': no metadata from the PPK2 (%s); is it the data port "
				"(the lower-numbered ttyACM) and not used by nRF Connect?", dev->spec,
				strerror(-rc));
		serial_close(p->sp);
		free(p);
		return rc;
	}
	dev->priv = p;
	meter_std_serial_label(dev, p->sp, info, p->mode == PPK2_MODE_SOURCE ? "PPK2 source meter"
								      : "PPK2 ampere meter");
	meter_std_range(info, &ppk2_model);
	snprintf(info->processing, sizeof(info->processing), "%s",
		 ((const struct ppk2_args *)dev->args)->spike_filter
			 ? "spike filter after range switches (Nordic's: alpha 0.18, 0.06 in "
			   "range 4, 3 samples)"
			 : "spike filter off: raw samples");
	info->period_ns = PPK2_PERIOD_NS;
	info->lag_ns = PPK2_LAG_NS;
	log_debug(MOD, "%s: %s, calibrated %d, HW %u, VDD %.0f mV%s", dev->spec, info->model,
		  p->cal.calibrated, p->cal.hw, p->vdd_mv,
		  isnan(p->volts) ? "; no vdd=: current only" : "");
	if (p->cal.zero_gains)
		log_info(MOD, "meter '%s': the metadata gives a zero GI or UG (mask 0x%x): read "
			 "as 1, as Nordic's software does", dev->spec, p->cal.zero_gains);
	return 0;
}

/* Words from the stream (a word may straddle two reads). */
static size_t words(struct ppk2_priv *p, const uint8_t *b, size_t n, uint32_t *out, size_t max)
{
	size_t k = 0, i = 0;

	while (p->nrem && p->nrem < PPK2_WORD_LEN && i < n)
		p->rem[p->nrem++] = b[i++];
	if (p->nrem == PPK2_WORD_LEN) {
		out[k++] = (uint32_t)p->rem[0] | (uint32_t)p->rem[1] << 8 | (uint32_t)p->rem[2] << 16 |
			   (uint32_t)p->rem[3] << 24;
		p->nrem = 0;
	}
	for (; i + PPK2_WORD_LEN <= n && k < max; i += PPK2_WORD_LEN)
		out[k++] = (uint32_t)b[i] | (uint32_t)b[i + 1] << 8 | (uint32_t)b[i + 2] << 16 |
			   (uint32_t)b[i + 3] << 24;
	while (i < n)
		p->rem[p->nrem++] = b[i++];
	return k;
}

/* Device time for the k samples in batch, which arrived at now (see RESYNC_NS). */
static void stamp(struct meter_dev *dev, struct ppk2_priv *p, unsigned k, uint64_t now)
{
	uint64_t end = now - PPK2_LAG_NS, last, behind;
	unsigned i;
	int step = 0;

	if (!k)
		return;
	if (!p->anchored) {
		step = p->idx > 0; /* anchored afresh after a hole, not at the start */
		p->base_ns = end - (uint64_t)(p->idx + k - 1) * PPK2_PERIOD_NS;
		p->anchored = 1;
	}
	last = p->base_ns + (p->idx + k - 1) * PPK2_PERIOD_NS;
	if (last > end) {
		step |= last - end > STEP_NS;
		p->base_ns -= last - end;
	} else if (end - last > RESYNC_NS) {
		behind = (end - last) / PPK2_PERIOD_NS;
		meter_deliver_lost(dev, behind);
		p->idx += behind;
		step = 1;
	}
	if (step)
		p->batch[0].flags |= SAMPLE_CLOCK_STEP;
	for (i = 0; i < k; i++)
		p->batch[i].t_ns = p->base_ns + (p->idx + i) * PPK2_PERIOD_NS;
	p->idx += k;
}

static void deliver(struct meter_dev *dev, struct ppk2_priv *p, unsigned k, uint64_t now)
{
	stamp(dev, p, k, now);
	meter_deliver(dev, p->batch, k);
}

/* The samples before the held ones to the core; the held ones move to the front. */
static void deliver_ready(struct meter_dev *dev, struct ppk2_priv *p, uint64_t now)
{
	unsigned ready = p->held_from < 0 ? p->k : (unsigned)p->held_from;

	if (!ready)
		return;
	deliver(dev, p, ready, now);
	memmove(p->batch, p->batch + ready, (p->k - ready) * sizeof(p->batch[0]));
	p->k -= ready;
	if (p->held_from >= 0)
		p->held_from = 0;
}

/* What the counter says of one sample: a hold begins or ends, or a loss is confirmed. */
static void sequence(struct meter_dev *dev, struct ppk2_priv *p, unsigned counter,
		     uint64_t now)
{
	unsigned lost;

	switch (ppk2_seq_next(&p->seq, counter, &lost)) {
	case PPK2_SEQ_HELD:
		if (p->held_from < 0)
			p->held_from = (int)p->k;
		break;
	case PPK2_SEQ_RECOVERED:
		p->held_from = -1;
		break;
	case PPK2_SEQ_LOSS:
		deliver_ready(dev, p, now);
		p->held_from = -1;
		meter_deliver_lost(dev, lost);
		atomic_fetch_add_explicit(&dev->counter_lost, lost, memory_order_relaxed);
		p->idx += lost;
		p->anchored = 0;
		break;
	default:
		break;
	}
}

/*
 * One read: samples to the core. Samples out of sequence stay in the batch until the
 * counter says whether a loss came before them (the core's clock must skip it first).
 */
static int ppk2_step(struct meter_dev *dev)
{
	struct ppk2_priv *p = dev->priv;
	static _Thread_local uint32_t w[BATCH + 1];
	struct ppk2_word d;
	struct meter_sample *s;
	uint64_t now;
	size_t n, i;
	int rd;

	rd = serial_read(p->sp, p->rx, sizeof(p->rx), STEP_READ_MS);
	if (rd <= 0)
		return rd;
	now = now_ns();
	n = words(p, p->rx, (size_t)rd, w, BATCH + 1);
	for (i = 0; i < n; i++) {
		ppk2_word_decode(w[i], &d);
		sequence(dev, p, d.counter, now);
		s = &p->batch[p->k++];
		s->t_ns = 0;
		s->flags = SAMPLE_W_COMPUTED | SAMPLE_LOGIC;
		s->dropped_before = 0;
		s->logic = d.logic;
		s->a = ppk2_spike_apply(&p->spike, d.range,
					ppk2_amps(&p->cal, d.range, d.adc, p->vdd_mv));
		s->v = p->volts;
		s->w = p->volts * s->a;
		if (p->k == BATCH)
			deliver_ready(dev, p, now);
	}
	deliver_ready(dev, p, now);
	atomic_fetch_add_explicit(&dev->counter_jumps, p->seq.jumps - p->jumps_told,
				  memory_order_relaxed);
	p->jumps_told = p->seq.jumps;
	return 0;
}

static int ppk2_start(struct meter_dev *dev)
{
	struct ppk2_priv *p = dev->priv;
	int rc;

	p->nrem = 0;
	ppk2_seq_reset(&p->seq);
	p->jumps_told = 0;
	ppk2_spike_reset(&p->spike, ((const struct ppk2_args *)dev->args)->spike_filter);
	p->k = 0;
	p->held_from = -1;
	p->anchored = 0;
	p->idx = 0;
	rc = send1(p, PPK2_AVERAGE_START, -1);
	return rc ? rc : meter_pump_start(&p->pump, dev, ppk2_step);
}

static void ppk2_stop(struct meter_dev *dev)
{
	struct ppk2_priv *p = dev->priv;

	if (!p)
		return;
	meter_pump_stop(&p->pump);
	send1(p, PPK2_AVERAGE_STOP, -1);
}

static void ppk2_close(struct meter_dev *dev)
{
	struct ppk2_priv *p = dev->priv;

	if (!p)
		return;
	/* What iowatt powered, iowatt switches off. */
	if (p->mode == PPK2_MODE_SOURCE)
		send1(p, PPK2_DEVICE_RUNNING_SET, 0);
	meter_std_serial_close(dev, p->sp);
}

/* The PPK2's ttyACM ports by USB ID, with a word when this user cannot open them. */
static void ppk2_scan(const char *sysfs_root, FILE *out)
{
	char **names, path[PATH_MAX], vid[8], pid[8], dev[48];
	int n = sysfs_list(sysfs_root, "/sys/class/tty", "ttyACM", &names), i, found = 0, acc;

	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "/sys/class/tty/%s/device/../idVendor", names[i]);
		if (sysfs_read_str(sysfs_root, path, vid, sizeof(vid)) ||
		    strtoul(vid, NULL, 16) != PPK2_VID)
			continue;
		snprintf(path, sizeof(path), "/sys/class/tty/%s/device/../idProduct", names[i]);
		if (sysfs_read_str(sysfs_root, path, pid, sizeof(pid)) ||
		    strtoul(pid, NULL, 16) != PPK2_PID)
			continue;
		snprintf(dev, sizeof(dev), "/dev/%s", names[i]);
		acc = sysfs_path(sysfs_root, dev, path, sizeof(path)) ? -ENAMETOOLONG
		      : access(path, R_OK | W_OK) ? -errno : 0;
		fprintf(out, "  %-16s Nordic PPK2%s\n    spec: ppk2:%s,vdd=MV   (ampere meter; "
			     "the lower-numbered port of the two)\n", dev,
			acc == -EACCES ? "  PERMISSION DENIED: add yourself to dialout, or install "
					 "dist/udev/60-iowatt.rules (make install does)"
			: acc ? "  (no device node)" : "",
			dev);
		found++;
	}
	if (n > 0)
		sysfs_list_free(names, n);
	if (!found)
		fprintf(out, "  (no PPK2 among %d ttyACM port(s))\n", n < 0 ? 0 : n);
}

const struct meter_driver meter_ppk2 = {
	.name = "ppk2",
	.desc = "Nordic Power Profiler Kit II (USB CDC, 100 kS/s, 200 nA-1 A)",
	.conn = "the PPK2's data port: /dev/ttyACM0 (the lower-numbered one), a pty, "
		"rfc2217://HOST:PORT or tcp://HOST:PORT (ser2net)",
	.conn_rule = METER_CONN_REQUIRED,
	.example = "ppk2:/dev/ttyACM0,vdd=5000",
	.flags = METER_DRV_PUSH | METER_DRV_SERIAL,
	METER_KEYS(ppk2_keys, struct ppk2_args),
	.models = &ppk2_model,
	.nmodels = 1,
	.model_size = sizeof(ppk2_model),
	.check = ppk2_check,
	.open = ppk2_open,
	.start = ppk2_start,
	.stop = ppk2_stop,
	.close = ppk2_close,
	.scan = ppk2_scan,
};
