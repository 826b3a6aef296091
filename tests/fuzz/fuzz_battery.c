/* SPDX-License-Identifier: MIT */
/* Fuzz target: `size` and `plot` values: battery, rate, records, duty cycle, fractions. */
#include "analysis/battery.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_str(data, size);
	struct battery_spec bat;
	double a, b;
	uint64_t rec;

	(void)battery_parse(s, &bat);
	(void)battery_parse_rate(s, &a);
	(void)battery_parse_records(s, &rec, &a);
	(void)battery_parse_duty(s, &a, &b);
	(void)battery_parse_fraction(s, &a);
	free(s);
	return 0;
}
