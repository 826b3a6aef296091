/* SPDX-License-Identifier: MIT */
/* A push driver's reading thread: calls the driver's step until stop, reports a lost link. */
#include <errno.h>
#include <string.h>

#include "core/log.h"
#include "meters/meter-internal.h"

#define MOD "meter"

static void *pump_thread(void *arg)
{
	struct meter_pump *p = arg;
	int rc;

	pthread_setname_np(pthread_self(), "iowatt-pump");
	while (!atomic_load_explicit(&p->stop, memory_order_relaxed)) {
		rc = p->step(p->dev);
		if (rc < 0) {
			meter_deliver_error(p->dev, rc);
			break;
		}
	}
	return NULL;
}

int meter_pump_start(struct meter_pump *p, struct meter_dev *dev, int (*step)(struct meter_dev *))
{
	int rc;

	p->dev = dev;
	p->step = step;
	atomic_store(&p->stop, 0);
	rc = pthread_create(&p->thread, NULL, pump_thread, p);
	if (rc) {
		log_err(MOD, "%s: cannot start the reading thread: %s", dev->spec, strerror(rc));
		return -rc;
	}
	p->running = 1;
	return 0;
}

void meter_pump_stop(struct meter_pump *p)
{
	if (!p->running)
		return;
	atomic_store(&p->stop, 1);
	pthread_join(p->thread, NULL);
	p->running = 0;
}
