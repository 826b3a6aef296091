/* SPDX-License-Identifier: MIT */
/* Battery and duty-cycle sizing maths: battery life from idle power and energy per byte. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analysis/battery.h"
#include "core/clock.h"
#include "core/mem.h"
#include "core/units.h"

void battery_life_compute(const struct battery_model *bm, const struct load_model *lm,
			  struct battery_life *out)
{
	double idle_day_j = lm->idle_w * BATTERY_SECONDS_PER_DAY - lm->idle_off_w * lm->off_s_per_day;
	double drain_w;

	memset(out, 0, sizeof(*out));
	out->energy_day_j = idle_day_j + lm->extra_j_per_day;
	out->avg_w = out->energy_day_j / BATTERY_SECONDS_PER_DAY;
	out->avg_ma = lm->supply_v > 0 ? out->avg_w / lm->supply_v * 1000.0 : NAN;
	out->battery_w = out->avg_w / bm->regulator_eff;
	out->battery_ma = bm->bat.nominal_v > 0 ? out->battery_w / bm->bat.nominal_v * 1000.0 : NAN;
	/* Wh lost per hour is a drain in W. */
	out->self_discharge_w = bm->bat.capacity_wh * bm->self_discharge_month /
				(BATTERY_DAYS_PER_MONTH * 24.0);
	out->usable_wh = bm->bat.capacity_wh * bm->usable_frac;
	drain_w = out->battery_w + out->self_discharge_w;
	out->days = drain_w > 0 ? out->usable_wh / (drain_w * 24.0) : INFINITY;
	out->idle_share = out->energy_day_j > 0 ? idle_day_j / out->energy_day_j : 0;
}

void battery_life_u95(const struct battery_model *bm, const struct battery_life *life,
		      const struct load_u95 *u, struct life_u95 *out)
{
	double drain_w = life->battery_w + life->self_discharge_w;
	double per_w = drain_w > 0 ? life->days / (bm->regulator_eff * drain_w) : NAN;

	out->from_idle_days = per_w * u->idle_w;
	out->from_workload_days = per_w * u->extra_j_per_day / BATTERY_SECONDS_PER_DAY;
	out->from_sleep_days = per_w * u->sleep_w;
	out->days = hypot(hypot(out->from_idle_days, out->from_workload_days), out->from_sleep_days);
}

double battery_bytes_energy_j(double bytes_per_day, double j_per_gb_net)
{
	return bytes_per_day * j_per_gb_net / 1e9;
}

double battery_ios_energy_j(double ios_per_day, double net_j_per_io)
{
	return ios_per_day * net_j_per_io;
}

double battery_duty_energy_j(double active_s, double period_s, double active_w, double idle_w)
{
	if (period_s <= 0)
		return NAN;
	return (active_w - idle_w) * active_s / period_s * BATTERY_SECONDS_PER_DAY;
}

double battery_on_seconds(double bytes_per_day, double bytes_per_s, double ios_per_day,
			  double iops, double bursts_per_day, double tail_s)
{
	double on = 0;

	if (bytes_per_day > 0)
		on += bytes_per_day / bytes_per_s;
	if (ios_per_day > 0)
		on += ios_per_day / iops;
	if (bursts_per_day > 0 && tail_s > 0)
		on += bursts_per_day * tail_s;
	return isnan(on) ? NAN : fmin(on, BATTERY_SECONDS_PER_DAY);
}

double battery_ios_per_record(uint64_t rec_bytes, uint64_t bs)
{
	if (!bs || rec_bytes <= bs)
		return 1;
	return (double)((rec_bytes + bs - 1) / bs);
}

/* "12.5" + rest; rejects signs and empty numbers. */
static int number_prefix(const char *s, double *v, const char **rest)
{
	char *end;

	if (!s || !*s || *s == '-' || *s == '+')
		return -EINVAL;
	errno = 0;
	*v = strtod(s, &end);
	if (end == s || errno == ERANGE || !isfinite(*v))
		return errno == ERANGE ? -ERANGE : -EINVAL;
	*rest = end;
	return 0;
}

int battery_parse(const char *s, struct battery_spec *out)
{
	const char *rest, *at;
	double cap, v;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = number_prefix(s, &cap, &rest);
	if (rc || cap <= 0)
		return rc ? rc : -EINVAL;
	if (!strcasecmp(rest, "wh") || !strcasecmp(rest, "mwh")) {
		out->capacity_wh = tolower((unsigned char)rest[0]) == 'm' ? cap / 1000.0 : cap;
		return out->capacity_wh > BATTERY_MAX_WH ? -ERANGE : 0;
	}
	at = strchr(rest, '@');
	if (!at)
		return -EINVAL;
	if (!strncasecmp(rest, "mah", 3) && rest + 3 == at)
		out->capacity_mah = cap;
	else if (!strncasecmp(rest, "ah", 2) && rest + 2 == at)
		out->capacity_mah = cap * 1000.0;
	else
		return -EINVAL;
	rc = number_prefix(at + 1, &v, &rest);
	if (rc || v <= 0 || strcasecmp(rest, "v"))
		return rc ? rc : -EINVAL;
	out->nominal_v = v;
	out->capacity_wh = out->capacity_mah * v / 1000.0;
	return v > BATTERY_MAX_V || out->capacity_wh > BATTERY_MAX_WH ? -ERANGE : 0;
}

/* "/day" etc. -> how many per day. */
static int per_day(const char *unit, double *mult)
{
	static const struct {
		const char *name;
		double per_day;
	} units[] = {
		{ "s", 86400 },	    { "sec", 86400 }, { "min", 1440 }, { "h", 24 },
		{ "hour", 24 },	    { "d", 1 },	      { "day", 1 },    { "week", 1 / 7.0 },
		{ "w", 1 / 7.0 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(units); i++) {
		if (!strcasecmp(unit, units[i].name)) {
			*mult = units[i].per_day;
			return 0;
		}
	}
	return -EINVAL;
}

/* "HEAD<sep>TAIL": copies a non-empty HEAD into buf, returns TAIL or NULL. */
static const char *split_head(const char *s, int sep, char *buf, size_t len)
{
	const char *p = s ? strchr(s, sep) : NULL;

	if (!p || p == s || (size_t)(p - s) >= len)
		return NULL;
	memcpy(buf, s, (size_t)(p - s));
	buf[p - s] = '\0';
	return p + 1;
}

int battery_parse_rate(const char *s, double *bytes_per_day)
{
	const char *period;
	char size[64];
	uint64_t bytes;
	double mult;
	int rc;

	period = split_head(s, '/', size, sizeof(size));
	if (!period || per_day(period, &mult))
		return -EINVAL;
	rc = parse_size(size, &bytes);
	if (rc)
		return rc;
	*bytes_per_day = (double)bytes * mult;
	return *bytes_per_day > BATTERY_MAX_BYTES_PER_S * BATTERY_SECONDS_PER_DAY ? -ERANGE : 0;
}

int battery_parse_records(const char *s, uint64_t *rec_bytes, double *per_day_out)
{
	const char *rate, *rest;
	char size[64];
	double n, mult;

	rate = split_head(s, '@', size, sizeof(size));
	if (!rate || parse_size(size, rec_bytes) || !*rec_bytes)
		return -EINVAL;
	if (number_prefix(rate, &n, &rest) || n <= 0 || *rest != '/')
		return -EINVAL;
	if (per_day(rest + 1, &mult))
		return -EINVAL;
	*per_day_out = n * mult;
	return *per_day_out > BATTERY_MAX_RECORDS_PER_S * BATTERY_SECONDS_PER_DAY ? -ERANGE : 0;
}

int battery_parse_duty(const char *s, double *active_s, double *period_s)
{
	const char *period;
	char a[64];
	uint64_t a_ns, p_ns;

	period = split_head(s, '/', a, sizeof(a));
	if (!period || parse_duration_ns(a, NS_PER_SEC, &a_ns) ||
	    parse_duration_ns(period, NS_PER_SEC, &p_ns))
		return -EINVAL;
	if (!p_ns || a_ns > p_ns)
		return -ERANGE;
	*active_s = (double)a_ns / 1e9;
	*period_s = (double)p_ns / 1e9;
	return 0;
}

int battery_parse_fraction(const char *s, double *out)
{
	const char *rest;
	double v;

	if (number_prefix(s, &v, &rest))
		return -EINVAL;
	if (*rest == '%') {
		v /= 100.0;
		rest++;
	} else if (v > 1.0) {
		return -ERANGE; /* "85" is ambiguous: ask for "85%" */
	}
	if (*rest && strcasecmp(rest, "/month") && strcasecmp(rest, "/mo"))
		return -EINVAL;
	if (v < 0 || v > 1.0)
		return -ERANGE;
	*out = v;
	return 0;
}
