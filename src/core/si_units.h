/* SPDX-License-Identifier: MIT */
/* The unit a figure or a column of figures is shown in (mA, µA, nA; W, mW, µW; ...), chosen from the values or fixed by --units. */
#ifndef IOWATT_SI_UNITS_H
#define IOWATT_SI_UNITS_H

#include <stddef.h>

#include "core/options.h"

/*
 * What is shown; results keep each in its base unit (or in the unit its key names:
 * active_ma, uj_per_io), and only what a person reads is scaled. A sleep current of
 * 5 µA printed in mA is 0.005, whose digits say nothing at a glance.
 */
enum si_quantity {
	SI_CURRENT, /* A: A, mA, µA, nA */
	SI_POWER,   /* W: W, mW, µW, nW */
	SI_CHARGE,  /* Ah: Ah, mAh, µAh, nAh */
	SI_ENERGY,  /* J: kJ, J, mJ, µJ, nJ (per GB, per I/O) */
	SI_NQUANTITIES
};

/* A unit of a quantity: shown value = base value * per_base. */
struct si_unit {
	enum si_quantity q;
	int exp3;	 /* power of 1000 of the prefix: -1 milli, -2 micro, 1 kilo */
	double per_base; /* 1000^-exp3 */
	char text[8];	 /* "µA": tables, markdown, the page, charts (UTF-8) */
	char ascii[8];	 /* "uA": CSV headers and keys, where only ASCII is safe */
};

/*
 * The unit for the values v[0..n) in base units (A, W, Ah, J): the largest prefix at
 * which the largest magnitude among them is at least 1 (1.43 mA, 5.02 µA, 812 nA), so a
 * column's numbers share one unit and line up; the quantity's usual unit (mA, W, mAh, J)
 * when none is finite and non-zero. A unit fixed by si_units_set wins.
 */
struct si_unit si_unit_for(enum si_quantity q, const double *v, size_t n);
/* The same for one value. */
struct si_unit si_unit_of(enum si_quantity q, double v);
/* The quantity's unit at a power of 1000 (clamped to the quantity's prefixes). */
struct si_unit si_unit_at(enum si_quantity q, int exp3);
/*
 * v (base units) in u with sig significant digits at every scale ("5.02", "150",
 * "1.50"); "-" for NAN. A unit chosen from the figures never needs an exponent; a fixed
 * one that would show over SI_FMT_MAX_INT_DIGITS integer digits or SI_FMT_MAX_DECIMALS
 * decimals gives scientific notation with sig digits ("1.500e9" nA, "5.02e-10" A).
 * Returns buf.
 */
#define SI_FMT_MAX_INT_DIGITS 6
#define SI_FMT_MAX_DECIMALS 9
const char *si_fmt(const struct si_unit *u, double v, int sig, char *buf, size_t len);
/* v in its own unit, "5.02 µA" (ascii: "5.02 uA"); "-" for NAN. Returns buf. */
const char *si_fmt_unit(enum si_quantity q, double v, int sig, int ascii, char *buf,
			size_t len);
/*
 * A count or rate with an SI prefix, for chart axes and labels where width is short:
 * 1430 -> "1.43 k", 2.5e6 -> "2.50 M", 0.012 -> "12.0 m", 42 -> "42.0". Returns buf.
 */
const char *si_fmt_prefixed(double v, int sig, char *buf, size_t len);

/*
 * --units: "auto" (every quantity chosen from its figures), or a comma-separated list of
 * units, each fixing its quantity ("uA,mW"), optionally named ("current=uA,power=auto").
 * Units: A, W, Ah, J with the prefixes k (J only), m, u or µ, n. Sets the process's
 * choice; 0, or -EINVAL with the reason alone in err.
 */
int si_units_set(const char *spec, char *err, size_t errlen);
/* Back to auto for every quantity (tests). */
void si_units_reset(void);
/* Whether q's unit was fixed by --units. */
int si_units_fixed(enum si_quantity q);
/* The --units option row of a command's table (OPT_FUNC: it stores nothing in base). */
int si_units_opt(const struct opt_desc *d, void *base, const char *value, char *err,
		 size_t errlen);
#define SI_UNITS_HELP                                                                       \
	"units figures are shown in: auto (from the figures: mA, uA or nA; W, mW or uW; mAh, " \
	"uAh; J, mJ, uJ) or units to fix, \"uA,mW\" or \"current=uA,power=auto\"; results " \
	"keep their own units"
#define SI_UNITS_OPTION(grp)                                                                \
	{ .name = "units", .type = OPT_FUNC, .parse = si_units_opt, .def = "auto",         \
	  .metavar = "LIST", .help = SI_UNITS_HELP, .group = (grp) }

#endif
