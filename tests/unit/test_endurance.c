/* SPDX-License-Identifier: MIT */
/* The device's endurance against a workload: days, their interval, which ends first. */
#include <math.h>

#include "analysis/endurance.h"
#include "tap.h"

static void test_days(void)
{
	/* 40 TB rated; 200 MB a day of writes at WA 2 (1.5..3) and 10 MB of records at WA 8 */
	struct endurance_in in = {
		.rated_bytes = 40e12, .nparts = 2,
		.part = { { 200e6, 2, 1.5, 3 }, { 10e6, 8, 8, 8 } },
		.battery_days = 30, .battery_days_u95 = 2,
	};
	struct endurance e;
	double dev = 200e6 * 2 + 10e6 * 8;

	endurance_compute(&in, &e);
	is_dbl(e.device_bpd, dev, 1e-3, "device bytes a day: each part times its WA");
	is_dbl(e.days, 40e12 / dev, 1e-6, "days = rated / device bytes a day");
	is_dbl(e.days_lo, 40e12 / (200e6 * 3 + 10e6 * 8), 1e-6, "the shortest at the highest WA");
	is_dbl(e.days_hi, 40e12 / (200e6 * 1.5 + 10e6 * 8), 1e-6, "the longest at the lowest WA");
	ok(e.days_lo < e.days && e.days < e.days_hi, "the interval holds the figure");
	is_int(e.first, ENDS_BATTERY, "30 +-2 battery days end long before 83000 device days");
}

static void test_first(void)
{
	struct endurance_in in = {
		.rated_bytes = 1e12, .nparts = 1, .part = { { 10e9, 1, 1, 1.2 } },
		.battery_days = 365, .battery_days_u95 = NAN,
	};
	struct endurance e;

	endurance_compute(&in, &e);
	is_int(e.first, ENDS_DEVICE, "1 TB at 10 GB a day (83 to 100 days) wears out before a year");
	in.battery_days = 90;
	endurance_compute(&in, &e);
	is_int(e.first, ENDS_UNCLEAR, "90 battery days inside 83..100 device days: too close");
	in.part[0].user_bpd = 0;
	endurance_compute(&in, &e);
	ok(e.first == ENDS_NEVER && isinf(e.days), "nothing written: the device never wears out");
}

/* A rating estimated from the device's own wear figure has a range of its own. */
static void test_rated_range(void)
{
	struct endurance_in in = {
		.rated_bytes = 10e12, .rated_lo = 5e12, .rated_hi = INFINITY, .nparts = 1,
		.part = { { 1e9, 2, 2, 2 } }, .battery_days = 100, .battery_days_u95 = 5,
	};
	struct endurance e;

	endurance_compute(&in, &e);
	is_dbl(e.days, 5000, 1e-9, "10 TB at 2 GB a day: 5000 days");
	is_dbl(e.days_lo, 2500, 1e-9, "the lowest rating's 5 TB: 2500 days");
	ok(isinf(e.days_hi) && e.first == ENDS_BATTERY, "no upper bound; the battery ends first");
}

int main(void)
{
	test_days();
	test_first();
	test_rated_range();
	return done_testing();
}
