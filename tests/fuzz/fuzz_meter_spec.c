/* SPDX-License-Identifier: MIT */
/* Fuzz target: meter specs "DRIVER:CONNECTION[,key=value...]" through every driver's table. */
#include "fuzz.h"
#include "meters/meter.h"
#include "meters/registry/registry.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_str(data, size);
	struct meter_dev *dev = NULL;

	if (!meter_parse_spec(meter_registry, s, "/nonexistent-sysfs", &dev))
		meter_free(dev);
	free(s);
	return 0;
}
