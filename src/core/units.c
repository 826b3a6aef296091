/* SPDX-License-Identifier: MIT */
/* Parsers and formatters for sizes, durations and numbers as options and tables spell them. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/clock.h"
#include "core/mem.h"
#include "core/units.h"

/* Skips the number; returns the suffix start. */
static int parse_number_prefix(const char *s, double *val, const char **rest)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	if (!*s || *s == '-' || *s == '+')
		return -EINVAL;
	errno = 0;
	*val = strtod(s, &end);
	if (end == s || errno == ERANGE || !isfinite(*val))
		return errno == ERANGE ? -ERANGE : -EINVAL;
	while (isspace((unsigned char)*end))
		end++;
	*rest = end;
	return 0;
}

struct unit_mult {
	const char *suffix;
	double mult;
};

/* Number with an optional unit suffix from the table; "" in the table allows none. */
static int parse_with_unit(const char *s, const struct unit_mult *units, size_t n, double *out)
{
	const char *rest;
	double v;
	size_t i;
	int rc;

	if (!s)
		return -EINVAL;
	rc = parse_number_prefix(s, &v, &rest);
	if (rc)
		return rc;
	for (i = 0; i < n; i++) {
		if (!strcasecmp(rest, units[i].suffix)) {
			*out = v * units[i].mult;
			return *out >= 1.8e19 ? -ERANGE : 0;
		}
	}
	return -EINVAL;
}

int parse_size(const char *s, uint64_t *out)
{
	/* MB is 10^6 bytes as in every figure iowatt prints; a MiB says so (k, m, g are
	 * binary as in fio job files, which spell 1 MiB "1m"). */
	static const struct unit_mult units[] = {
		{ "", 1 },	       { "b", 1 },		{ "k", 1024.0 },
		{ "kib", 1024.0 },     { "kb", 1e3 },		{ "m", 1048576.0 },
		{ "mib", 1048576.0 },  { "mb", 1e6 },		{ "g", 1073741824.0 },
		{ "gib", 1073741824.0 }, { "gb", 1e9 },	{ "t", 1099511627776.0 },
		{ "tib", 1099511627776.0 }, { "tb", 1e12 },
	};
	double v;
	int rc = parse_with_unit(s, units, ARRAY_SIZE(units), &v);

	if (rc)
		return rc;
	if (v != floor(v))
		return -EINVAL;
	*out = (uint64_t)v;
	return 0;
}

int parse_duration_ns(const char *s, uint64_t default_unit_ns, uint64_t *out)
{
	const struct unit_mult units[] = {
		{ "", (double)default_unit_ns }, { "ns", 1 }, { "us", 1e3 }, { "usec", 1e3 },
		{ "ms", 1e6 }, { "msec", 1e6 }, { "s", 1e9 }, { "sec", 1e9 }, { "m", 60e9 },
		{ "min", 60e9 }, { "h", 3600e9 },
	};
	double v;
	int rc = parse_with_unit(s, units, ARRAY_SIZE(units), &v);

	if (rc)
		return rc;
	*out = (uint64_t)llround(v);
	return 0;
}

int parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || *s == '-' || isspace((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	/* Decimal unless "0x": a leading zero is not octal ("010" is ten). */
	v = strtoull(s, &end, strncasecmp(s, "0x", 2) ? 10 : 16);
	if (errno == ERANGE)
		return -ERANGE;
	if (*end)
		return -EINVAL;
	*out = v;
	return 0;
}

int parse_int(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	if (!s || !*s || isspace((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtol(s, &end, strncasecmp(s, "0x", 2) ? 10 : 16);
	if (errno == ERANGE)
		return -ERANGE;
	if (*end)
		return -EINVAL;
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int parse_double(const char *s, double *out)
{
	char *end;
	double v;

	if (!s || !*s || isspace((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno == ERANGE || !isfinite(v))
		return -ERANGE;
	if (*end)
		return -EINVAL;
	*out = v;
	return 0;
}

int parse_bool(const char *s, int *out)
{
	static const char *const yes[] = { "1", "true", "yes", "on" };
	static const char *const no[] = { "0", "false", "no", "off" };
	size_t i;

	if (!s)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(yes); i++) {
		if (!strcasecmp(s, yes[i])) {
			*out = 1;
			return 0;
		}
		if (!strcasecmp(s, no[i])) {
			*out = 0;
			return 0;
		}
	}
	return -EINVAL;
}

const char *fmt_size(uint64_t bytes, char *buf, size_t len)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double v = (double)bytes;
	size_t u = 0;

	while (v >= 1024.0 && u + 1 < ARRAY_SIZE(units)) {
		v /= 1024.0;
		u++;
	}
	if (v == floor(v))
		snprintf(buf, len, "%.0f %s", v, units[u]);
	else
		snprintf(buf, len, "%.1f %s", v, units[u]);
	return buf;
}

const char *fmt_duration(uint64_t ns, char *buf, size_t len)
{
	double s = (double)ns / 1e9;

	if (ns < NS_PER_MS)
		snprintf(buf, len, "%.0f us", (double)ns / 1e3);
	else if (s < 1.0)
		snprintf(buf, len, "%.0f ms", (double)ns / 1e6);
	else if (s < 60.0)
		snprintf(buf, len, "%.1f s", s);
	else
		snprintf(buf, len, "%" PRIu64 " min %02u s", (uint64_t)(ns / NS_PER_SEC / 60),
			 (unsigned)(ns / NS_PER_SEC % 60));
	return buf;
}

/* Decimals beyond this say nothing a table should (sub-nano figures are 0.000000...). */
#define FMT_SIG_MAX_DECIMALS 9

const char *fmt_sig(double v, int sig, char *buf, size_t len)
{
	int decimals;

	if (isnan(v)) {
		snprintf(buf, len, "-");
		return buf;
	}
	if (v == 0 || isinf(v)) {
		snprintf(buf, len, "%.0f", v);
		return buf;
	}
	decimals = sig - 1 - (int)floor(log10(fabs(v)));
	if (decimals < 0)
		decimals = 0;
	if (decimals > FMT_SIG_MAX_DECIMALS)
		decimals = FMT_SIG_MAX_DECIMALS;
	snprintf(buf, len, "%.*f", decimals, v);
	return buf;
}

const char *fmt_si_label(double v, char *buf, size_t len)
{
	static const char *const big[] = { "", " k", " M", " G", " T", " P" };
	static const char *const small[] = { "", " m", " \u00b5", " n", " p" };
	size_t i = 0;

	if (!isfinite(v)) {
		snprintf(buf, len, "%s", "");
		return buf;
	}
	/* 999.5 prints as 1e+03 at 3 digits: it is already "1 k" */
	if (fabs(v) >= 999.5) {
		for (; fabs(v) >= 999.5 && i + 1 < ARRAY_SIZE(big); i++)
			v /= 1000;
		snprintf(buf, len, "%.3g%s", v, big[i]);
	} else if (v != 0 && fabs(v) < 1e-3) {
		for (; fabs(v) < 0.9995 && i + 1 < ARRAY_SIZE(small); i++)
			v *= 1000;
		snprintf(buf, len, "%.3g%s", v, small[i]);
	} else {
		snprintf(buf, len, "%.3g", v);
	}
	return buf;
}
