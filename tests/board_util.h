/* SPDX-License-Identifier: MIT */
/* Test helpers for board meters: a meter_dev from a spec string, opened as the core would. */
#ifndef IOWATT_TEST_BOARD_UTIL_H
#define IOWATT_TEST_BOARD_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events_util.h"
#include "capture.h"
#include "core/util.h"
#include "meters/meter.h"

/* "drv:conn,key=val,..." -> a device with its driver, not opened (no meter core needed). */
static inline struct meter_dev *tdev_new(const char *spec, const char *root)
{
	struct meter_dev *dev = xcalloc(1, sizeof(*dev));
	char *s = xstrdup(spec), *colon = strchr(s, ':'), *tok, *save = NULL, *eq;

	dev->spec = xstrdup(spec);
	dev->sysfs_root = root;
	*colon = 0;
	dev->drv = meter_driver_find(s);
	tok = strtok_r(colon + 1, ",", &save);
	dev->conn = xstrdup(tok);
	while ((tok = strtok_r(NULL, ",", &save)) && dev->nparams < METER_MAX_PARAMS) {
		eq = strchr(tok, '=');
		if (eq)
			*eq = 0;
		dev->params[dev->nparams].key = xstrdup(tok);
		dev->params[dev->nparams].val = xstrdup(eq ? eq + 1 : "");
		dev->nparams++;
	}
	free(s);
	return dev;
}


/* Open and start through the driver ops, as the meter core would. */
static inline int tdev_open(struct meter_dev *dev)
{
	int ret;

	if (!dev->drv)
		return -2;
	dev->events = test_queue();
	ret = dev->drv->open(dev);
	if (ret < 0)
		return ret;
	ret = dev->drv->start(dev);
	if (ret < 0)
		dev->drv->close(dev);
	return ret;
}

static inline void tdev_close(struct meter_dev *dev)
{
	if (dev->drv->stop)
		dev->drv->stop(dev);
	dev->drv->close(dev);
}

#endif
