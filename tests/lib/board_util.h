/* SPDX-License-Identifier: MIT */
/* Test helpers for board meters: a spec parsed and opened as a run would, read by the test. */
#ifndef IOWATT_TEST_BOARD_UTIL_H
#define IOWATT_TEST_BOARD_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "events_util.h"
#include "meters/meter-internal.h"
#include "meters/registry/registry.h"

/*
 * Parse spec as the run does (its keys checked against the driver's table), open it
 * through the core (its description published) and start the driver, without the
 * sampling thread: the test calls dev->drv->read() itself. 0 and *out, or the error of
 * the step that failed.
 */
static inline int tdev_open(const char *spec, const char *root, struct meter_dev **out)
{
	struct meter_dev *dev;
	int ret;

	*out = NULL;
	ret = meter_parse_spec(meter_registry, spec, root, &dev);
	if (ret)
		return ret;
	meter_set_events(dev, test_queue());
	ret = meter_open(dev);
	if (!ret && dev->drv->start)
		ret = dev->drv->start(dev);
	if (ret) {
		meter_free(dev);
		return ret;
	}
	*out = dev;
	return 0;
}

/* Writes val and a newline to the fake tree's file root+rel (sysfs attributes end so). */
static inline void tree_put(const char *root, const char *rel, const char *val)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	f = fopen(path, "w");
	if (f) {
		fprintf(f, "%s\n", val);
		fclose(f);
	}
}

/* stop() as the core would, then close and free. */
static inline void tdev_free(struct meter_dev *dev)
{
	if (!dev)
		return;
	if (dev->drv->stop)
		dev->drv->stop(dev);
	meter_free(dev);
}

#endif
