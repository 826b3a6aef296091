/* SPDX-License-Identifier: MIT */
/* Fuzz target: sizes ("4k", "1.5GiB", "2300") parse without UB and print back. */
#include "core/units.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_str(data, size), buf[32];
	uint64_t v;

	if (!parse_size(s, &v))
		fmt_size(v, buf, sizeof(buf));
	if (!parse_u64(s, &v))
		(void)v;
	free(s);
	return 0;
}
