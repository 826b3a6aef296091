/* SPDX-License-Identifier: MIT */
/* PPK2: metadata, sample words, the formula by hand, the counter as Nordic reads it, the spike filter. */
#include <errno.h>
#include <string.h>

#include "meters/ppk2/ppk2_filter.h"
#include "meters/ppk2/ppk2_protocol.h"
#include "tap.h"

/* A dump in the shape a device gives (keys as Nordic and IRNAS read them, a VDD line,
 * lowercase mode, "-nan" where a calibration step was skipped). */
static const char meta[] =
	"Calibrated: 1\r\n"
	"R0: 1015.25\nR1: 100.5\nR2: 10.0\nR3: 0\nR4: 0.0425\n"
	"GS0: 0\nGS1: 1\nGS2: 0.5\nGS3: 1\nGS4: 1\n"
	"GI0: 1\nGI1: 1\nGI2: 1.02\nGI3: 1\nGI4: 1\n"
	"O0: 112\nO1: 0\nO2: 100\nO3: 0\nO4: 0\n"
	"S0: -nan\nS1: 0\nS2: 0.001\nS3: 0\nS4: 0\n"
	"I0: 0\nI1: 0\nI2: 0.0002\nI3: 0\nI4: 0\n"
	"UG0: 1\nUG1: 1\nUG2: 0.98\nUG3: 1\nUG4: 1\n"
	"HW: 9173\nmode: 2\nIA: 56\nVDD: 3000\nEND\n";

static void test_meta(void)
{
	struct ppk2_cal c;

	is_int(ppk2_parse_meta(meta, &c), 0, "metadata up to END parses");
	ok(c.calibrated && c.hw == 9173 && c.vdd_mv == 3000, "Calibrated, HW and VDD lines");
	is_dbl(c.r[0], 1015.25, 0, "R0 from the device");
	is_dbl(c.r[3], 0.94, 0, "R3: 0 keeps the default (it divides)");
	is_dbl(c.gs[0], 0.0, 0, "GS0: 0 is kept (a real zero)");
	is_dbl(c.s[0], 0.0, 0, "S0: -nan keeps the default");
	is_dbl(c.o[0], 112, 0, "O0");
	is_dbl(c.ug[2], 0.98, 0, "UG2");
	is_int(ppk2_parse_meta("R0: 1\nGS0: 2\n", &c), -EBADMSG, "no END: refused");
	ok(c.r[1] == 101.65 && c.r[4] == 0.043, "defaults R1, R4 from Nordic's table");
}

static void test_formula(void)
{
	struct ppk2_cal c;
	unsigned r, adc;

	ppk2_parse_meta(meta, &c);
	/* By hand, range 2, ADC 5000: a = 20000; x = (20000 - 100) * 1.8/163840 / 10
	 * = 0.021862793; I = 0.98 * (x (0.5 x + 1.02) + 0.001 * 3.000 + 0.0002)
	 * = 0.025224259 A. */
	is_dbl(ppk2_amps(&c, 2, 5000, 3000), 0.025224258892595764, 1e-12,
	       "range 2 with every coefficient in play");
	ppk2_cal_defaults(&c);
	/* Defaults, range 0, ADC 8192: x = 32768 * 1.8/163840 / 1031.64 = 3.4896e-4 A, and
	 * with GS = GI = 1: I = x (x + 1). */
	is_dbl(ppk2_amps(&c, 0, 8192, 3300), 0.0003490807115060479, 1e-15,
	       "default calibration, range 0");
	/* The emulator's inverse reads back within one ADC step. */
	ppk2_parse_meta(meta, &c);
	ppk2_adc_for(&c, 0.0252, 3000, &r, &adc);
	ok(r == 2 && fabs(ppk2_amps(&c, r, adc, 3000) - 0.0252) < 1e-5,
	   "25.2 mA is read in range 2 (%u, ADC %u)", r, adc);
	ppk2_cal_defaults(&c);
	ppk2_adc_for(&c, 20e-6, 3300, &r, &adc);
	ok(r == 0 && fabs(ppk2_amps(&c, r, adc, 3300) - 20e-6) < 5e-8, "20 uA in range 0");
}

static void test_words(void)
{
	struct ppk2_word w = { .adc = 0x1ABC, .range = 3, .counter = 45, .logic = 0xA5 }, d;
	uint32_t x = ppk2_word_encode(&w);

	ok(x == (0x1ABCu | 3u << 14 | 45u << 18 | 0xA5u << 24), "bits: ADC 0-13, range 14-16, "
							       "counter 18-23, logic 24-31");
	ppk2_word_decode(x, &d);
	ok(d.adc == 0x1ABC && d.range == 3 && d.counter == 45 && d.logic == 0xA5, "and back");
	ppk2_word_decode(7u << 14, &d);
	is_int(d.range, 4, "ranges 5-7 are clamped to 4");
	is_int(ppk2_counter_gap(10, 11), 0, "consecutive counters: nothing lost");
	is_int(ppk2_counter_gap(63, 0), 0, "the wrap at 64 is not a loss");
	is_int(ppk2_counter_gap(62, 3), 4, "62 -> 3 lost 63, 0, 1, 2");
	is_int(ppk2_counter_gap(5, 5), 63, "the same counter twice: 63 lost (or 127...)");
}

/* Zero gains: GI and UG read as 1 (Nordic's rule), GS kept (IRNAS, ppk2-rs). */
static void test_zero_gains(void)
{
	struct ppk2_cal c;

	is_int(ppk2_parse_meta("GS4: 0\nGI1: 0\nUG3: 0\nUG0: 0.5\nEND\n", &c), 0, "parses");
	is_dbl(c.gi[1], 1.0, 0, "GI1: 0 is read as 1");
	is_dbl(c.ug[3], 1.0, 0, "UG3: 0 is read as 1");
	is_dbl(c.ug[0], 0.5, 0, "UG0: 0.5 is kept");
	is_dbl(c.gs[4], 0.0, 0, "GS4: 0 is kept (the quadratic term)");
	ok(c.zero_gains == (1u << 1 | 1u << (8 + 3)), "zero_gains names GI1 and UG3 (0x%x)",
	   c.zero_gains);
	is_int(ppk2_parse_meta(meta, &c), 0, "a dump without zero gains");
	is_int(c.zero_gains, 0, "and none reported");
}

/* Feeds counters; returns the events as letters (i in, h held, r recovered, l loss) and
 * the samples the losses counted. */
static void seq_run(const unsigned *ctr, size_t n, char *ev, unsigned *lost_total,
		    struct ppk2_seq *s)
{
	static const char letters[] = { 'i', 'h', 'r', 'l' };
	unsigned lost;
	size_t i;

	ppk2_seq_reset(s);
	*lost_total = 0;
	for (i = 0; i < n; i++) {
		ev[i] = letters[ppk2_seq_next(s, ctr[i], &lost)];
		*lost_total += lost;
	}
	ev[n] = '\0';
}

static void test_sequence(void)
{
	/* One corrupt counter (40 in place of 12): held, then back in sequence: no loss. */
	static const unsigned corrupt[] = { 10, 11, 40, 13, 14, 15 };
	/* 7 samples lost after 11 (12..18): the run of out-of-sequence samples confirms it
	 * at the sixth. */
	static const unsigned lost7[] = { 10, 11, 19, 20, 21, 22, 23, 24, 25, 26 };
	/* Across the wrap: 62, 63, then 3 (0, 1, 2 lost). */
	static const unsigned wrap[] = { 61, 62, 63, 3, 4, 5, 6, 7, 8, 9 };
	/* Four out-of-sequence words then back: within the tolerance, no loss. */
	static const unsigned four[] = { 1, 2, 50, 51, 52, 53, 7, 8 };
	struct ppk2_seq s;
	char ev[16];
	unsigned lost;

	seq_run(corrupt, 6, ev, &lost, &s);
	ok(!strcmp(ev, "iihrii") && lost == 0 && s.jumps == 2,
	   "a corrupt counter: held, recovered, no loss, 2 raw jumps (%s, %u, %llu)", ev, lost,
	   (unsigned long long)s.jumps);
	seq_run(lost7, 10, ev, &lost, &s);
	ok(!strcmp(ev, "iihhhhhlii") && lost == 7 && s.jumps == 1,
	   "7 lost: held 5, confirmed at the 6th, 7 counted, 1 raw jump (%s, %u, %llu)", ev,
	   lost, (unsigned long long)s.jumps);
	seq_run(wrap, 10, ev, &lost, &s);
	ok(!strcmp(ev, "iiihhhhhli") && lost == 3, "3 lost across the wrap at 64 (%s, %u)", ev,
	   lost);
	seq_run(four, 8, ev, &lost, &s);
	ok(!strcmp(ev, "iihhhhri") && lost == 0 && s.jumps == 2,
	   "4 out of sequence, then back: within Nordic's tolerance, no loss (%s)", ev);
}

/*
 * The filter against hand-computed averages: 1 mA in range 2, then a switch to range 3
 * whose first samples read a transient (50, 20 mA) before settling at 10 mA; then a
 * switch to range 4 with 500 and 300 mA before 200 mA.
 */
static void test_spike_filter(void)
{
	static const double in[] = { 1e-3, 1e-3, 1e-3, 50e-3, 20e-3, 10e-3, 10e-3, 0.5, 0.3,
				     0.2, 0.2 };
	static const unsigned rng[] = { 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4 };
	/* alpha = 0.18 from a steady 1 mA: 0.18 * 50 + 0.82 * 1 = 9.82 mA; 0.18 * 20 + 0.82 *
	 * 9.82 = 11.6524; 0.18 * 10 + 0.82 * 11.6524 = 11.354968; then 10 mA as read. */
	static const double ema3[] = { 9.82e-3, 11.6524e-3, 11.354968e-3 };
	struct ppk2_spike_filter f;
	double out[11], top, top2;
	size_t i;

	ppk2_spike_reset(&f, 1);
	for (i = 0; i < 11; i++)
		out[i] = ppk2_spike_apply(&f, rng[i], in[i]);
	ok(out[0] == 1e-3 && out[1] == 1e-3 && out[2] == 1e-3, "no switch: samples as read");
	for (i = 0; i < 3; i++)
		is_dbl(out[3 + i], ema3[i], 1e-12, "range 2 -> 3, sample %zu after the switch: the "
		       "alpha 0.18 average", i);
	is_dbl(out[6], 10e-3, 0, "the 4th sample after the switch: as read");
	/* alpha5 = 0.06 average over the same inputs up to 10 mA (index 6), by hand. */
	top = 1e-3;
	for (i = 1; i <= 6; i++)
		top = 0.06 * in[i] + 0.94 * top;
	ok(out[7] == top && out[8] == top,
	   "range 4: the first two samples are left out, the alpha5 average holds (%.9g)", top);
	top2 = 0.06 * 0.2 + 0.94 * top;
	is_dbl(out[9], top2, 1e-15, "the third: averaged in with alpha5 0.06");
	is_dbl(out[10], 0.2, 0, "then as read");
	is_int((int)f.replaced, 6, "6 samples replaced (3 per switch)");
	ppk2_spike_reset(&f, 0);
	ok(ppk2_spike_apply(&f, 2, 1e-3) == 1e-3 && ppk2_spike_apply(&f, 3, 50e-3) == 50e-3,
	   "spike_filter=off: the transient as read");
}

int main(void)
{
	test_meta();
	test_zero_gains();
	test_sequence();
	test_spike_filter();
	test_formula();
	test_words();
	return done_testing();
}
