/* SPDX-License-Identifier: MIT */
/* Choosing the SI prefix a figure or a column is shown with, and --units that fixes it. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "core/si_units.h"
#include "core/units.h"

struct quantity_desc {
	const char *name;   /* as --units names it: "current" */
	const char *symbol; /* "A" */
	int min_exp3, max_exp3;
	int usual_exp3; /* when no figure says: what the tables always printed */
};

static const struct quantity_desc quantities[SI_NQUANTITIES] = {
	[SI_CURRENT] = { "current", "A", -3, 0, -1 },
	[SI_POWER] = { "power", "W", -3, 0, 0 },
	[SI_CHARGE] = { "charge", "Ah", -3, 0, -1 },
	[SI_ENERGY] = { "energy", "J", -3, 1, 0 },
};

/* Prefixes by exp3 + 3: nano .. kilo (µ as UTF-8 and as the ASCII 'u'). */
static const char *const prefix_text[] = { "n", "\u00b5", "m", "", "k" };
static const char *const prefix_ascii[] = { "n", "u", "m", "", "k" };
#define PREFIX_MIN_EXP3 (-3)

/* The process's choice: 0 auto, else 1 + the fixed unit's exp3 - PREFIX_MIN_EXP3. */
static int fixed_exp3[SI_NQUANTITIES];

struct si_unit si_unit_at(enum si_quantity q, int exp3)
{
	const struct quantity_desc *d = &quantities[q];
	struct si_unit u = { .q = q };

	if (exp3 < d->min_exp3)
		exp3 = d->min_exp3;
	if (exp3 > d->max_exp3)
		exp3 = d->max_exp3;
	u.exp3 = exp3;
	u.per_base = pow(1000.0, -exp3);
	snprintf(u.text, sizeof(u.text), "%s%s", prefix_text[exp3 - PREFIX_MIN_EXP3], d->symbol);
	snprintf(u.ascii, sizeof(u.ascii), "%s%s", prefix_ascii[exp3 - PREFIX_MIN_EXP3],
		 d->symbol);
	return u;
}

int si_units_fixed(enum si_quantity q)
{
	return fixed_exp3[q] != 0;
}

struct si_unit si_unit_for(enum si_quantity q, const double *v, size_t n)
{
	double big = 0;
	size_t i;

	if (fixed_exp3[q])
		return si_unit_at(q, fixed_exp3[q] - 1 + PREFIX_MIN_EXP3);
	for (i = 0; i < n; i++)
		if (isfinite(v[i]) && fabs(v[i]) > big)
			big = fabs(v[i]);
	if (big == 0)
		return si_unit_at(q, quantities[q].usual_exp3);
	/* 999.97 µA shown with 4 digits is 1000 µA: the largest magnitude, nudged by the
	 * rounding the widest format does, picks the prefix. */
	return si_unit_at(q, (int)floor(log10(big * (1 + 5e-5)) / 3));
}

struct si_unit si_unit_of(enum si_quantity q, double v)
{
	return si_unit_for(q, &v, 1);
}

/*
 * x with sig significant digits in scientific notation, the exponent without '+' or
 * leading zeros ("1.500e9", "5.02e-10"): short, and strtod reads it.
 */
static const char *fmt_exp(double x, int sig, char *buf, size_t len)
{
	char tmp[48], *e;
	int exp10;

	snprintf(tmp, sizeof(tmp), "%.*e", sig - 1, x);
	e = strchr(tmp, 'e');
	if (!e)
		return snprintf(buf, len, "%s", tmp), buf;
	exp10 = atoi(e + 1);
	*e = '\0';
	snprintf(buf, len, "%se%d", tmp, exp10);
	return buf;
}

const char *si_fmt(const struct si_unit *u, double v, int sig, char *buf, size_t len)
{
	double x = v * u->per_base;
	int mag;

	if (!isfinite(x) || x == 0)
		return fmt_sig(x, sig, buf, len);
	/* The magnitude after rounding to sig digits: 999.96 at 4 digits is 1000. */
	mag = (int)floor(log10(fabs(x)));
	if (fabs(x) >= pow(10, mag + 1) * (1 - 0.5 * pow(10, -sig)))
		mag++;
	/*
	 * A unit fixed by --units can put the figure far from 1: 1.5 A in nA is ten integer
	 * digits, 5 nA in A more leading zeros than a column holds. Past SI_FMT_MAX_INT_DIGITS
	 * integer digits or SI_FMT_MAX_DECIMALS decimals it is shown in scientific notation
	 * with its sig digits, never as a row of zeros nor cut to fewer digits; below that,
	 * plain (1430 J/GB in J, as fmt_sig writes IOPS).
	 */
	if (fabs(x) >= pow(10, SI_FMT_MAX_INT_DIGITS) - 0.5 || sig - 1 - mag > SI_FMT_MAX_DECIMALS)
		return fmt_exp(x, sig, buf, len);
	snprintf(buf, len, "%.*f", sig - 1 - mag > 0 ? sig - 1 - mag : 0, x);
	return buf;
}

const char *si_fmt_unit(enum si_quantity q, double v, int sig, int ascii, char *buf,
			size_t len)
{
	struct si_unit u = si_unit_of(q, v);
	char num[48];

	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%s %s", si_fmt(&u, v, sig, num, sizeof(num)),
			 ascii ? u.ascii : u.text);
	return buf;
}

const char *si_fmt_prefixed(double v, int sig, char *buf, size_t len)
{
	static const char *const pre[] = { "n", "\u00b5", "m", "", "k", "M", "G", "T" };
	int e = 0;
	char num[48];

	if (!isfinite(v) || v == 0)
		return fmt_sig(v, sig, buf, len);
	e = (int)floor(log10(fabs(v) * (1 + 5e-5)) / 3);
	if (e < -3)
		e = -3;
	if (e > 4)
		e = 4;
	fmt_sig(v / pow(1000.0, e), sig, num, sizeof(num));
	snprintf(buf, len, "%s%s%s", num, e ? " " : "", pre[e + 3]);
	return buf;
}

/* "uA" / "µA" / "mW" -> quantity and exp3; -EINVAL if it is none of the units. */
static int parse_unit(const char *s, enum si_quantity *q, int *exp3)
{
	size_t i, k, plen;

	for (i = 0; i < SI_NQUANTITIES; i++) {
		for (k = 0; k < ARRAY_SIZE(prefix_text); k++) {
			int e = (int)k + PREFIX_MIN_EXP3;
			const char *alts[2] = { prefix_text[k], prefix_ascii[k] };
			int a;

			if (e < quantities[i].min_exp3 || e > quantities[i].max_exp3)
				continue;
			for (a = 0; a < 2; a++) {
				plen = strlen(alts[a]);
				if (!strncmp(s, alts[a], plen) &&
				    !strcmp(s + plen, quantities[i].symbol)) {
					*q = (enum si_quantity)i;
					*exp3 = e;
					return 0;
				}
			}
		}
	}
	return -EINVAL;
}

/* One item of --units: "uA", "current=uA" or "current=auto" into fixed[]. */
static int parse_item(char *item, int fixed[SI_NQUANTITIES], char *err, size_t errlen)
{
	char *eq = strchr(item, '=');
	const char *unit = eq ? eq + 1 : item;
	enum si_quantity q = SI_NQUANTITIES, uq;
	int exp3;
	size_t i;

	if (eq) {
		*eq = '\0';
		for (i = 0; i < SI_NQUANTITIES; i++)
			if (!strcmp(item, quantities[i].name))
				q = (enum si_quantity)i;
		if (q == SI_NQUANTITIES) {
			snprintf(err, errlen, "unknown quantity '%s' (current, power, charge, "
				 "energy)", item);
			return -EINVAL;
		}
		if (!strcmp(unit, "auto")) {
			fixed[q] = 0;
			return 0;
		}
	}
	if (parse_unit(unit, &uq, &exp3)) {
		snprintf(err, errlen, "unknown unit '%s' (e.g. mA, uA, nA, W, mW, uW, mAh, uAh, "
			 "J, mJ, uJ; or auto)", unit);
		return -EINVAL;
	}
	if (eq && uq != q) {
		snprintf(err, errlen, "'%s' is not a unit of %s", unit, quantities[q].name);
		return -EINVAL;
	}
	fixed[uq] = exp3 - PREFIX_MIN_EXP3 + 1;
	return 0;
}

int si_units_set(const char *spec, char *err, size_t errlen)
{
	int fixed[SI_NQUANTITIES] = { 0 };
	char *copy, *item, *save = NULL;
	int rc = 0;

	if (!spec || !*spec) {
		snprintf(err, errlen, "expected auto or units such as uA,mW");
		return -EINVAL;
	}
	if (strcmp(spec, "auto")) {
		copy = xstrdup(spec);
		for (item = strtok_r(copy, ",", &save); item && !rc;
		     item = strtok_r(NULL, ",", &save))
			rc = parse_item(item, fixed, err, errlen);
		free(copy);
		if (rc)
			return rc;
	}
	memcpy(fixed_exp3, fixed, sizeof(fixed_exp3));
	return 0;
}

void si_units_reset(void)
{
	memset(fixed_exp3, 0, sizeof(fixed_exp3));
}

int si_units_opt(const struct opt_desc *d, void *base, const char *value, char *err,
		 size_t errlen)
{
	(void)d;
	(void)base;
	return si_units_set(value, err, errlen);
}
