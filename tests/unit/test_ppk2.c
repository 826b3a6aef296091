/* SPDX-License-Identifier: MIT */
/* PPK2: metadata parsing, sample words, the calibration formula by hand, counter gaps. */
#include <errno.h>
#include <string.h>

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

int main(void)
{
	test_meta();
	test_formula();
	test_words();
	return done_testing();
}
