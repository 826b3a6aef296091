/* SPDX-License-Identifier: MIT */
/* For umockdev meter tests: the samples a started meter gives, waited for within a bound. */
#ifndef IOWATT_TEST_UMOCK_COLLECT_H
#define IOWATT_TEST_UMOCK_COLLECT_H

#include <stdint.h>

#include "core/clock.h"
#include "meters/meter.h"

/* Up to want samples into out; how many came. The 10 s bound only keeps a broken driver
 * from hanging the test. */
static inline unsigned umock_collect(struct meter_dev *dev, struct meter_sample *out,
				     unsigned want)
{
	uint64_t end = now_ns() + 10 * NS_PER_SEC;
	unsigned n = 0;

	while (n < want && now_ns() < end) {
		n += meter_pop(dev, out + n, want - n, UINT64_MAX);
		if (n < want)
			sleep_ns(20 * NS_PER_MS);
	}
	return n;
}

#endif
