/* SPDX-License-Identifier: MIT */
/* core/si_units: the unit chosen from a figure and from a column, digits at every scale, --units. */
#include <math.h>
#include <stdio.h>

#include "core/si_units.h"
#include "tap.h"

static const char *unit_of(enum si_quantity q, double v)
{
	static char buf[16];
	struct si_unit u = si_unit_of(q, v);

	snprintf(buf, sizeof(buf), "%s", u.text);
	return buf;
}

static const char *shown(enum si_quantity q, double v, int sig)
{
	static char buf[64];

	return si_fmt_unit(q, v, sig, 0, buf, sizeof(buf));
}

static void test_choice(void)
{
	is_str(unit_of(SI_CURRENT, 5e-6), "\u00b5A", "5 uA is shown in uA");
	is_str(unit_of(SI_CURRENT, 150e-6), "\u00b5A", "150 uA in uA");
	is_str(unit_of(SI_CURRENT, 1.5e-3), "mA", "1500 uA in mA");
	is_str(unit_of(SI_CURRENT, -1.411e-8), "nA", "a negative offset of -14 nA in nA");
	is_str(unit_of(SI_CURRENT, 2.0), "A", "2 A in A");
	is_str(unit_of(SI_CURRENT, 1e-12), "nA", "below the smallest prefix: nA");
	is_str(unit_of(SI_CURRENT, NAN), "mA", "nothing known: the usual mA");
	is_str(unit_of(SI_CURRENT, 0), "mA", "zero: the usual mA");
	is_str(unit_of(SI_POWER, 2.5e-5), "\u00b5W", "25 uW in uW");
	is_str(unit_of(SI_POWER, 0.8), "mW", "0.8 W in mW");
	is_str(unit_of(SI_POWER, 30), "W", "30 W stays W (no kW)");
	is_str(unit_of(SI_CHARGE, 4e-6), "\u00b5Ah", "4 uAh in uAh");
	is_str(unit_of(SI_ENERGY, 2500), "kJ", "2500 J in kJ");
	is_str(unit_of(SI_ENERGY, 3e-7), "nJ", "300 nJ in nJ");
	is_str(unit_of(SI_CURRENT, 999.99e-6), "mA",
	       "999.99 uA rounds to 1000 at 4 digits: mA, never '1000 uA'");
}

static void test_digits(void)
{
	is_str(shown(SI_CURRENT, 5.0234e-6, 3), "5.02 \u00b5A", "5 uA: three digits");
	is_str(shown(SI_CURRENT, 150.4e-6, 3), "150 \u00b5A", "150 uA: three digits");
	is_str(shown(SI_CURRENT, 1.5004e-3, 3), "1.50 mA", "1500 uA: three digits");
	is_str(shown(SI_CURRENT, -1.411e-8, 4), "-14.11 nA",
	       "the issue's -0.00001411 mA reads -14.11 nA");
	is_str(shown(SI_CURRENT, NAN, 3), "-", "unknown: -");

	double col[] = { 1.5e-3, 150e-6, 5e-6, NAN };
	struct si_unit u = si_unit_for(SI_CURRENT, col, 4);
	char buf[32];

	is_str(u.text, "mA", "a column of 1500, 150 and 5 uA: one unit, from its largest");
	is_str(u.ascii, "mA", "ASCII spelling");
	is_str(si_fmt(&u, 5e-6, 3, buf, sizeof(buf)), "0.00500",
	       "the column's 5 uA keeps its three digits in mA");

	is_str(si_fmt(&u, 999.96e-6, 4, buf, sizeof(buf)), "1.000",
	       "999.96 uA at 4 digits in mA: 1.000, the rounding carried");
	is_str(si_fmt(&u, 999.94e-6, 4, buf, sizeof(buf)), "0.9999", "999.94 uA: 0.9999 mA");

	/* A fixed unit far from the figure: its digits in scientific notation, never cut. */
	u = si_unit_at(SI_CURRENT, -3);
	is_str(si_fmt(&u, 1.5, 4, buf, sizeof(buf)), "1.500e9", "1.5 A in nA: 1.500e9");
	is_str(si_fmt(&u, 1234.6e-9, 4, buf, sizeof(buf)), "1235", "1234.6 nA: 1235");
	is_str(si_fmt(&u, 12346e-9, 4, buf, sizeof(buf)), "12346",
	       "12346 nA: plain up to six integer digits, none cut");
	is_str(si_fmt(&u, 999999.4e-9, 4, buf, sizeof(buf)), "999999", "999999 nA: still plain");
	is_str(si_fmt(&u, 999999.6e-9, 4, buf, sizeof(buf)), "1.000e6",
	       "999999.6 nA rounds to seven digits: 1.000e6");
	is_str(si_fmt(&u, -2.5, 3, buf, sizeof(buf)), "-2.50e9", "negative too");
	u = si_unit_at(SI_CURRENT, 0);
	is_str(si_fmt(&u, 5.0234e-6, 4, buf, sizeof(buf)), "0.000005023",
	       "5 uA in A: nine decimals still hold four digits");
	is_str(si_fmt(&u, 5.0234e-10, 3, buf, sizeof(buf)), "5.02e-10",
	       "0.5 nA in A: 5.02e-10, not 0.000000001");

	is_str(si_fmt_prefixed(1430, 3, buf, sizeof(buf)), "1.43 k", "1430 -> 1.43 k");
	is_str(si_fmt_prefixed(2.5e6, 3, buf, sizeof(buf)), "2.50 M", "2.5e6 -> 2.50 M");
	is_str(si_fmt_prefixed(42, 3, buf, sizeof(buf)), "42.0", "42 -> 42.0");
	is_str(si_fmt_prefixed(0.012, 3, buf, sizeof(buf)), "12.0 m", "0.012 -> 12.0 m");
}

static void test_fixed(void)
{
	char err[160];
	struct si_unit u;

	ok(!si_units_set("uA,mW", err, sizeof(err)), "--units uA,mW parses");
	is_str(unit_of(SI_CURRENT, 1.5), "\u00b5A", "current fixed to uA even at 1.5 A");
	is_str(unit_of(SI_POWER, 2e-6), "mW", "power fixed to mW");
	is_str(unit_of(SI_CHARGE, 2e-6), "\u00b5Ah", "charge not named: still auto");
	ok(si_units_fixed(SI_CURRENT) && !si_units_fixed(SI_CHARGE), "si_units_fixed says which");
	ok(!si_units_set("current=\u00b5A,power=auto", err, sizeof(err)),
	   "named quantities, the micro sign and auto parse");
	is_str(unit_of(SI_POWER, 2e-6), "\u00b5W", "power=auto: chosen again");
	u = si_unit_of(SI_CURRENT, 1);
	is_str(u.ascii, "uA", "the fixed unit's ASCII spelling");
	ok(!si_units_set("auto", err, sizeof(err)) && !si_units_fixed(SI_CURRENT),
	   "auto clears every fixed unit");

	ok(si_units_set("uV", err, sizeof(err)) < 0, "an unknown unit is refused: %s", err);
	ok(si_units_set("power=uA", err, sizeof(err)) < 0, "a unit of another quantity is "
	   "refused: %s", err);
	ok(si_units_set("volts=uV", err, sizeof(err)) < 0, "an unknown quantity is refused: %s",
	   err);
	ok(si_units_set("kA", err, sizeof(err)) < 0, "a prefix the quantity has not: %s", err);
	ok(si_units_set("", err, sizeof(err)) < 0, "empty is refused");
	ok(!si_units_set("nA,kJ,uAh,uW", err, sizeof(err)), "every quantity at once");
	is_str(unit_of(SI_ENERGY, 1e-9), "kJ", "energy fixed to kJ");
	ok(si_units_set("mA,bogus", err, sizeof(err)) < 0 && si_units_fixed(SI_ENERGY) &&
		   !strcmp(unit_of(SI_CURRENT, 1), "nA"),
	   "a refused list changes nothing");
	si_units_reset();
	ok(!si_units_fixed(SI_CURRENT), "reset: auto");
}

int main(void)
{
	test_choice();
	test_digits();
	test_fixed();
	return done_testing();
}
