/* SPDX-License-Identifier: MIT */
/* The PPK2 side of `iowatt emulate`: metadata, then 100 kS/s of sample words on a pty. */
#include <math.h>
#include <string.h>

#include "core/clock.h"
#include "meters/emu/emu.h"
#include "meters/ppk2/ppk2.h"
#include "meters/ppk2/ppk2_protocol.h"

#define PUSH_NS (10 * NS_PER_MS)
#define META_MAX 2048
/* The device's buffer: what the host has not taken yet, about 160 ms of samples. Beyond
 * it new samples are lost, as on the device, and the counter shows the hole. */
#define PENDING_MAX 65536
/* At most this much is generated in one push (after a stall). */
#define MAX_DUE PPK2_RATE_HZ
#define LOST_MAX 50 /* a "corrupt" push loses 1..LOST_MAX samples */
#define NS_PER_SAMPLE (1000000000ULL / PPK2_RATE_HZ)
/*
 * A range switch's transient, as an emulated shape (not a measured one): the samples of
 * the switch and the two after it read this many times the current in the new range,
 * the spike that Nordic's and IRNAS's filter smooths away. The truth log says
 * "range_switch" with the first sample's amps.
 */
static const double switch_spike[] = { 4.0, 2.0, 1.3 };
#define SPIKE_SAMPLES (sizeof(switch_spike) / sizeof(switch_spike[0]))

struct ppk2_emu {
	uint8_t cmd[8];
	size_t have;
	int streaming;
	uint64_t start_ns, generated;
	unsigned counter;
	unsigned vdd_mv;
	int mode, dut_on; /* as last set: a real PPK2 sources VDD when both say so */
	int have_range;
	unsigned range;	       /* of the last sample */
	unsigned since_switch; /* samples since the last range switch */
	uint8_t pending[PENDING_MAX];
	size_t npending;
};

/* A calibration unlike the defaults, so a driver that ignored the metadata would read wrong. */
static void emu_cal(struct ppk2_cal *c)
{
	static const double r[PPK2_RANGES] = { 1015.21, 100.83, 10.041, 0.9401, 0.04312 };
	int i;

	ppk2_cal_defaults(c);
	for (i = 0; i < PPK2_RANGES; i++) {
		c->r[i] = r[i];
		c->gs[i] = 0;
		c->gi[i] = 1.0021;
		c->o[i] = 24 + i;
		/* A supply-dependent offset of a few hundred nA: a driver ignoring S still reads
		 * wrong at sleep currents. 0.3 mA per volt floored every reading at about 1 mA
		 * at 3 V (no ADC code is below the offset), so 5 and 150 uA both read 0.99 mA */
		c->s[i] = 3e-7 / (i + 1);
		c->i[i] = 0;
		c->ug[i] = 0.999;
	}
	c->calibrated = 1;
	c->hw = 9173;
	c->vdd_mv = 3300;
}

static size_t cmd_len(uint8_t op)
{
	switch (op) {
	case PPK2_SET_POWER_MODE:
	case PPK2_DEVICE_RUNNING_SET:
		return 2;
	case PPK2_REGULATOR_SET:
		return 3;
	default:
		return 1;
	}
}

/*
 * The truth log keeps every command that changes what the PPK2 does with power (kind
 * cmd_*, v the regulator's volts where one was set), so a test can check what a spec
 * makes iowatt switch on, in the order it was sent.
 */
static void log_power(struct emu *e, struct ppk2_emu *st, uint64_t now, const char *kind)
{
	double v = st->vdd_mv ? st->vdd_mv / 1000.0 : NAN;

	emu_truth(e, now, v, NAN, NAN, kind);
	if (st->mode == PPK2_MODE_SOURCE && st->dut_on)
		emu_truth(e, now, v, NAN, NAN, "source_output_on");
}

static void command(struct emu *e, struct ppk2_emu *st, uint64_t now)
{
	struct ppk2_cal c;
	char meta[META_MAX];

	switch (st->cmd[0]) {
	case PPK2_GET_META_DATA:
		emu_cal(&c);
		if (!ppk2_format_meta(&c, meta, sizeof(meta)))
			emu_write(e, meta, strlen(meta));
		break;
	case PPK2_SET_POWER_MODE:
		st->mode = st->cmd[1];
		log_power(e, st, now, st->mode == PPK2_MODE_SOURCE   ? "cmd_mode_source"
				      : st->mode == PPK2_MODE_AMPERE ? "cmd_mode_ampere"
								     : "cmd_mode_unknown");
		break;
	case PPK2_REGULATOR_SET:
		st->vdd_mv = (unsigned)st->cmd[1] << 8 | st->cmd[2];
		log_power(e, st, now, "cmd_regulator_set");
		break;
	case PPK2_DEVICE_RUNNING_SET:
		st->dut_on = st->cmd[1] != 0;
		log_power(e, st, now, st->dut_on ? "cmd_dut_on" : "cmd_dut_off");
		break;
	case PPK2_AVERAGE_START:
		st->streaming = 1;
		st->start_ns = now;
		st->generated = 0;
		st->npending = 0;
		break;
	case PPK2_AVERAGE_STOP:
		st->streaming = 0;
		st->npending = 0;
		break;
	default:
		break;
	}
}

static void ppk2_input(struct emu *e, const uint8_t *buf, size_t n, uint64_t now)
{
	struct ppk2_emu *st = emu_priv(e, sizeof(*st));
	size_t i;

	for (i = 0; i < n; i++) {
		st->cmd[st->have++] = buf[i];
		if (st->have >= cmd_len(st->cmd[0])) {
			command(e, st, now);
			st->have = 0;
		}
	}
}

static void flush_pending(struct emu *e, struct ppk2_emu *st)
{
	size_t w = emu_write_some(e, st->pending, st->npending);

	memmove(st->pending, st->pending + w, st->npending - w);
	st->npending -= w;
}

/* When the i-th sample of this push was taken. */
static uint64_t sample_ns(const struct ppk2_emu *st, uint64_t i)
{
	return st->start_ns + (st->generated + i) * NS_PER_SAMPLE;
}

/* One sample of a amps into w, in the range it needs: a range switch's transient on the
 * switch and the samples after it. */
static void sample_word(struct emu *e, struct ppk2_emu *st, const struct ppk2_cal *c, double a,
			double v, double vdd, struct ppk2_word *w)
{
	ppk2_adc_for(c, a, vdd, &w->range, &w->adc);
	if (st->have_range && w->range != st->range) {
		st->since_switch = 0;
		emu_truth(e, now_ns(), v, a * switch_spike[0], NAN, "range_switch");
	}
	st->have_range = 1;
	st->range = w->range;
	if (st->since_switch < SPIKE_SAMPLES)
		w->adc = ppk2_adc_in_range(c, w->range, a * switch_spike[st->since_switch++], vdd);
}

/* Every sample due since the start, at the current: its words, a lost run now and then. */
static void ppk2_push(struct emu *e, uint64_t now)
{
	struct ppk2_emu *st = emu_priv(e, sizeof(*st));
	struct emu_reading r;
	struct ppk2_cal c;
	struct ppk2_word w = { 0 };
	uint64_t due, i, lost = 0, dropped = 0, upto, taken, sent;
	uint32_t word;
	double vdd = st->vdd_mv ? st->vdd_mv : 3300, amps, dev;

	if (!st->streaming)
		return;
	flush_pending(e, st);
	/* up to where the model knows the current (a model pricing completions: its last
	 * update) */
	upto = emu_known_until_ns(e, now);
	if (upto < st->start_ns)
		return;
	emu_logic_poll(e);
	due = (upto - st->start_ns) / NS_PER_SAMPLE;
	due = due > st->generated ? due - st->generated : 0;
	if (due > MAX_DUE) {
		dropped = due - MAX_DUE;
		st->generated += due - MAX_DUE; /* a stall: the device's samples are gone */
		st->counter += (unsigned)(due - MAX_DUE);
		due = MAX_DUE;
	}
	emu_cal(&c);
	emu_reading(e, now, &r);
	ppk2_adc_for(&c, r.a, vdd, &w.range, &w.adc);
	amps = ppk2_amps(&c, w.range, w.adc, vdd);
	/* each sample at the current of its own time (a 1 ms operation is 1 ms of samples,
	 * not the whole push's or none), with the reading's noise, in the range it needs */
	dev = r.a - emu_amps_at(e, now);
	if (!st->have_range)
		st->since_switch = SPIKE_SAMPLES;
	if (due && emu_corrupt(e))
		lost = 1 + (uint64_t)(emu_rand(e) * LOST_MAX);
	for (i = 0; i < due; i++) {
		w.counter = st->counter++ % PPK2_COUNTER_MOD;
		w.logic = emu_logic_at(e, sample_ns(st, i));
		sample_word(e, st, &c, emu_amps_at(e, sample_ns(st, i)) + dev, r.v, vdd, &w);
		if (i < lost)
			continue;
		if (st->npending + PPK2_WORD_LEN > PENDING_MAX) {
			dropped++; /* the host is behind: the device's buffer is full */
			continue;
		}
		word = ppk2_word_encode(&w);
		memcpy(st->pending + st->npending, &word, PPK2_WORD_LEN);
		st->npending += PPK2_WORD_LEN;
	}
	taken = due ? sample_ns(st, due - 1) : 0;
	st->generated += due;
	sent = now_ns();
	flush_pending(e, st);
	if (due) {
		emu_truth(e, now_ns(), r.v, amps, r.v * amps, lost ? "lost" : "stream");
		/* when the push's last sample was taken and when it went out: the least gap
		 * between them is where a host's stamps put the meter's clock (its USB lag
		 * aside), the truth of an offset found from the samples */
		emu_truth(e, taken, NAN, NAN, NAN, "sample_taken");
		emu_truth(e, sent, NAN, NAN, NAN, "sample_sent");
	}
	/* Not asked for (not --corrupt-pct): a test can tell its losses from the reader's. */
	if (dropped)
		emu_truth(e, now_ns(), r.v, amps, r.v * amps, "overflow");
}

const struct emu_protocol emu_ppk2 = {
	.name = "ppk2",
	.title = "PPK2",
	.summary = "Nordic PPK2: metadata, a calibration, 100 kS/s of sample words",
	.spec_vdd_max_mv = PPK2_VDD_MAX_MV,
	.push_ns = PUSH_NS,
	.input = ppk2_input,
	.push = ppk2_push,
	.data = &ppk2_model,
};
