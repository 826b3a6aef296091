/* SPDX-License-Identifier: MIT */
/* Battery sizing maths and workload parsers against hand-computed examples. */
#include <errno.h>
#include <math.h>

#include "analysis/battery.h"
#include "tap.h"

static void test_parse_battery(void)
{
	struct battery_spec b;

	ok(battery_parse("3000mAh@3.7V", &b) == 0, "3000mAh@3.7V parses");
	is_dbl(b.capacity_wh, 11.1, 1e-9, "3000 mAh x 3.7 V = 11.1 Wh");
	is_dbl(b.capacity_mah, 3000, 1e-9, "capacity kept in mAh");
	is_dbl(b.nominal_v, 3.7, 1e-9, "nominal voltage kept");
	ok(battery_parse("3Ah@3.7V", &b) == 0 && fabs(b.capacity_wh - 11.1) < 1e-9, "3Ah@3.7V = 11.1 Wh");
	ok(battery_parse("11.1Wh", &b) == 0 && fabs(b.capacity_wh - 11.1) < 1e-9 && b.nominal_v == 0,
	   "11.1Wh: energy only, voltage unknown");
	ok(battery_parse("11100mWh", &b) == 0 && fabs(b.capacity_wh - 11.1) < 1e-9, "11100mWh = 11.1 Wh");
	ok(battery_parse("3000mah@3.7v", &b) == 0, "units are case-insensitive");
	ok(battery_parse("3000mAh", &b) == -EINVAL, "mAh without a voltage is rejected");
	ok(battery_parse("3000mAh@", &b) == -EINVAL, "empty voltage is rejected");
	ok(battery_parse("3000mAh@3.7", &b) == -EINVAL, "voltage without V is rejected");
	ok(battery_parse("-5Wh", &b) == -EINVAL, "negative capacity is rejected");
	ok(battery_parse("0Wh", &b) == -EINVAL, "zero capacity is rejected");
	ok(battery_parse("lots", &b) == -EINVAL, "garbage is rejected");
	ok(battery_parse(NULL, &b) == -EINVAL, "NULL is rejected");
}

static void test_parse_workload(void)
{
	double bpd, per_day, a, p, f;
	uint64_t rec;

	ok(battery_parse_rate("200MB/day", &bpd) == 0, "200MB/day parses");
	is_dbl(bpd, 200e6, 1e-6, "200MB/day is 200 x 10^6 B a day, as run prints MB/s");
	ok(battery_parse_rate("50MiB/day", &bpd) == 0 && fabs(bpd - 50.0 * 1048576) < 1e-6,
	   "50MiB/day is 50 x 2^20 B: MiB said explicitly");
	ok(battery_parse_rate("50m/day", &bpd) == 0 && fabs(bpd - 50.0 * 1048576) < 1e-6,
	   "50m/day is binary, as fio's short suffix");
	ok(battery_parse_rate("5MB/h", &bpd) == 0 && fabs(bpd - 5e6 * 24) < 1e-6,
	   "5MB/h = 120 MB a day");
	ok(battery_parse_rate("7GB/week", &bpd) == 0 && fabs(bpd - 1e9) < 1e-3,
	   "7GB/week = 1 GB a day");
	ok(battery_parse_rate("7GiB/week", &bpd) == 0 && fabs(bpd - 1073741824.0) < 1e-3,
	   "7GiB/week = 1 GiB a day");
	ok(battery_parse_rate("200MB", &bpd) == -EINVAL, "a rate needs a period");
	ok(battery_parse_rate("200MB/fortnight", &bpd) == -EINVAL, "unknown period is rejected");
	ok(battery_parse_rate("/day", &bpd) == -EINVAL, "missing size is rejected");
	ok(battery_parse_rate("lots/day", &bpd) == -EINVAL, "bad size is rejected");

	ok(battery_parse_records("4KiB@1/min", &rec, &per_day) == 0, "4KiB@1/min parses");
	is_int(rec, 4096, "record of 4 KiB");
	is_dbl(per_day, 1440, 1e-9, "one a minute is 1440 a day");
	ok(battery_parse_records("512@10/s", &rec, &per_day) == 0 && rec == 512 &&
	   fabs(per_day - 864000) < 1e-6, "512@10/s = 864000 records of 512 B a day");
	ok(battery_parse_records("4KiB", &rec, &per_day) == -EINVAL, "records need @RATE");
	ok(battery_parse_records("4KiB@0/min", &rec, &per_day) == -EINVAL, "zero rate is rejected");
	ok(battery_parse_records("4KiB@1/parsec", &rec, &per_day) == -EINVAL, "bad period is rejected");
	ok(battery_parse_records("0@1/min", &rec, &per_day) == -EINVAL, "empty record is rejected");

	ok(battery_parse_duty("2s/60s", &a, &p) == 0 && a == 2 && p == 60, "2s/60s parses");
	ok(battery_parse_duty("500ms/1m", &a, &p) == 0 && fabs(a - 0.5) < 1e-12 && p == 60,
	   "500ms/1m parses");
	ok(battery_parse_duty("60s/2s", &a, &p) == -ERANGE, "active longer than the period is rejected");
	ok(battery_parse_duty("2s/0s", &a, &p) == -ERANGE, "zero period is rejected");
	ok(battery_parse_duty("2s", &a, &p) == -EINVAL, "duty needs ACTIVE/PERIOD");

	ok(battery_parse_fraction("85%", &f) == 0 && fabs(f - 0.85) < 1e-12, "85%% = 0.85");
	ok(battery_parse_fraction("0.9", &f) == 0 && fabs(f - 0.9) < 1e-12, "0.9 as a fraction");
	ok(battery_parse_fraction("2%/month", &f) == 0 && fabs(f - 0.02) < 1e-12, "2%%/month = 0.02");
	ok(battery_parse_fraction("85", &f) == -ERANGE, "bare 85 is ambiguous: rejected");
	ok(battery_parse_fraction("150%", &f) == -ERANGE, "over 100 %% is rejected");
	ok(battery_parse_fraction("x", &f) == -EINVAL, "garbage is rejected");
}

static void test_model(void)
{
	struct battery_model bm = { .usable_frac = 0.85, .regulator_eff = 0.90,
				    .self_discharge_month = 0.02 };
	struct load_model lm = { .idle_w = 0.5, .extra_j_per_day = 0, .supply_v = 5.0 };
	struct battery_life life;

	battery_parse("3000mAh@3.7V", &bm.bat);
	/*
	 * A Pi-class board idling at 0.5 W on an 18650 cell (11.1 Wh):
	 * usable 11.1 x 0.85 = 9.435 Wh; from the battery 0.5 / 0.9 = 0.555556 W;
	 * self-discharge 11.1 Wh x 0.02 / (30.4375 d x 24 h) = 0.000303901 W;
	 * days = 9.435 / ((0.555556 + 0.000303901) x 24) = 0.707238.
	 */
	battery_life_compute(&bm, &lm, &life);
	is_dbl(life.energy_day_j, 43200, 1e-9, "0.5 W all day is 43200 J");
	is_dbl(life.avg_ma, 100, 1e-9, "0.5 W at 5 V is 100 mA");
	is_dbl(life.battery_w, 0.5 / 0.9, 1e-12, "regulator losses: 0.5 W / 0.9");
	is_dbl(life.battery_ma, 0.5 / 0.9 / 3.7 * 1000, 1e-9, "battery current at 3.7 V");
	is_dbl(life.self_discharge_w, 0.000303901437, 1e-12, "2 %%/month of 11.1 Wh as a drain");
	is_dbl(life.usable_wh, 9.435, 1e-12, "85 %% of 11.1 Wh usable");
	is_dbl(life.days, 0.707238125, 1e-8, "board on an 18650: 0.707 days");
	is_dbl(life.idle_share, 1.0, 1e-12, "no workload: all idle");

	/*
	 * A logger: 10 mW idle, 200 MiB/day at 20 J/GB net, 11.1 Wh:
	 * workload 209715200 B x 20 J / 1e9 B = 4.194304 J/day; idle 864 J/day;
	 * 868.194304 J / 86400 s = 0.0100485452 W; / 0.9 = 0.0111650502 W;
	 * days = 9.435 / ((0.0111650502 + 0.000303901) x 24) = 34.2773265.
	 */
	lm.idle_w = 0.010;
	lm.extra_j_per_day = battery_bytes_energy_j(200.0 * 1048576, 20);
	is_dbl(lm.extra_j_per_day, 4.194304, 1e-9, "200 MiB at 20 J/GB = 4.194304 J");
	battery_parse("11.1Wh", &bm.bat);
	battery_life_compute(&bm, &lm, &life);
	is_dbl(life.energy_day_j, 868.194304, 1e-9, "idle + workload energy per day");
	is_dbl(life.days, 34.2773265, 1e-6, "logger on 11.1 Wh: 34.28 days");
	is_dbl(life.idle_share, 864 / 868.194304, 1e-12, "idle is 99.5 %% of the energy");
	ok(isnan(life.battery_ma), "battery current unknown without a nominal voltage");

	/* No losses at all: 10 Wh at 1 W lasts 10 h. */
	bm.usable_frac = 1;
	bm.regulator_eff = 1;
	bm.self_discharge_month = 0;
	battery_parse("10Wh", &bm.bat);
	lm.idle_w = 1;
	lm.extra_j_per_day = 0;
	battery_life_compute(&bm, &lm, &life);
	is_dbl(life.days, 10.0 / 24, 1e-12, "ideal battery: 10 Wh / 1 W = 10 h");
	/* Self-discharge alone: 2 %/month of a battery used down to 85 % lasts 42.5 months. */
	bm.usable_frac = 0.85;
	bm.self_discharge_month = 0.02;
	lm.idle_w = 0;
	battery_life_compute(&bm, &lm, &life);
	is_dbl(life.days, 42.5 * BATTERY_DAYS_PER_MONTH, 1e-6, "shelf life: 0.85 / 0.02 months");
}

static void test_workload_energy(void)
{
	is_dbl(battery_duty_energy_j(2, 60, 0.4, 0.1), 864, 1e-9,
	       "busy 2 s a minute 0.3 W above idle: 864 J/day");
	ok(isnan(battery_duty_energy_j(2, 0, 0.4, 0.1)), "zero period: NAN");
	is_dbl(battery_ios_energy_j(1440, 0.5e-3), 0.72, 1e-12, "1440 I/Os at 0.5 mJ = 0.72 J");
	is_dbl(battery_ios_per_record(4096, 4096), 1, 0, "a 4 KiB record is one 4 KiB I/O");
	is_dbl(battery_ios_per_record(10000, 4096), 3, 0, "10000 B need three 4 KiB I/Os");
	is_dbl(battery_ios_per_record(512, 4096), 1, 0, "a small record still costs one I/O");
}

/*
 * 11.1 Wh, 85 % usable, 90 % regulator, no self-discharge, 0.1 W idle: 9.435 Wh over
 * 24 h x 0.1111 W = 3.5381 days. d days / d P = days / (0.9 x 0.1111 W) = 35.381 days/W,
 * so +-0.01 W of idle gives +-0.3538 days and +-864 J/day of workload (0.01 W) the same.
 */
static void test_life_u95(void)
{
	struct battery_model bm = { .bat = { .capacity_wh = 11.1 }, .usable_frac = 0.85,
				    .regulator_eff = 0.9, .self_discharge_month = 0 };
	struct load_model lm = { .idle_w = 0.1, .extra_j_per_day = 0, .supply_v = 5 };
	struct load_u95 u = { .idle_w = 0.01, .extra_j_per_day = 864 };
	struct battery_life life;
	struct life_u95 lu;

	battery_life_compute(&bm, &lm, &life);
	battery_life_u95(&bm, &life, &u, &lu);
	is_dbl(life.days, 9.435 / (24 * 0.1 / 0.9), 1e-9, "3.5381 days");
	is_dbl(lu.from_idle_days, life.days / (0.9 * 0.1 / 0.9) * 0.01, 1e-9,
	       "idle's share: +-0.3538 days");
	is_dbl(lu.from_workload_days, lu.from_idle_days, 1e-12,
	       "864 J/day is 0.01 W: the same share");
	is_dbl(lu.days, hypot(lu.from_idle_days, lu.from_workload_days), 1e-12,
	       "the two in quadrature: +-0.5004 days");
	/* A measured sleep power's share: +-0.02 W of average power, twice idle's. */
	u.sleep_w = 0.02;
	battery_life_u95(&bm, &life, &u, &lu);
	is_dbl(lu.from_sleep_days, 2 * lu.from_idle_days, 1e-12, "sleep's share: +-0.7076 days");
	is_dbl(lu.days, sqrt(0.3538 * 0.3538 * 2 + 0.7076 * 0.7076), 1e-3,
	       "the three in quadrature: +-0.8666 days");
	u.idle_w = NAN;
	battery_life_u95(&bm, &life, &u, &lu);
	ok(isnan(lu.days), "an unknown input leaves the interval unknown");
}

int main(void)
{
	test_parse_battery();
	test_parse_workload();
	test_model();
	test_workload_energy();
	test_life_u95();
	return done_testing();
}
