/* SPDX-License-Identifier: MIT */
/* Fuzz target: durations ("30s", "1.5m", "250ms", bare numbers) and numbers. */
#include "core/clock.h"
#include "core/mem.h"
#include "core/units.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint64_t units[] = { 1, NS_PER_MS, NS_PER_SEC };
	char *s = fuzz_str(data, size), buf[64];
	uint64_t ns;
	double d;
	long l;
	int b;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(units); i++)
		if (!parse_duration_ns(s, units[i], &ns))
			fmt_duration(ns, buf, sizeof(buf));
	(void)parse_double(s, &d);
	(void)parse_int(s, -1000, 1000, &l);
	(void)parse_bool(s, &b);
	free(s);
	return 0;
}
