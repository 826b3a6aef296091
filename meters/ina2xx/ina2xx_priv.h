/* SPDX-License-Identifier: MIT */
/* State shared by the INA2xx driver's set-up (ina2xx.c) and sampling (ina2xx_read.c) halves. */
#ifndef IOWATT_INA2XX_PRIV_H
#define IOWATT_INA2XX_PRIV_H

#include <stdint.h>

#include "core/clock.h"
#include "meters/ina2xx/ina2xx_protocol.h"
#include "meters/meter-internal.h"

#define CAL_CHECK_NS NS_PER_SEC
#define INA_PATH_LEN 64

struct ina_priv {
	int fd;
	unsigned addr;
	char path[INA_PATH_LEN];
	struct ina_setup s;
	uint64_t interval_ns;
	uint64_t next_ns;	/* earliest time worth asking for the next conversion */
	uint64_t checked_ns;	/* last calibration / configuration read-back */
	uint64_t not_ready_ns;	/* last poll that found no fresh conversion (0: none) */
	uint64_t lag_ns;	/* half a conversion window */
	int model;
};

/* Write configuration and calibration, read the configuration back: 0 or -errno. */
int ina_program(struct ina_priv *p);
int ina_start(struct meter_dev *dev);
int ina_read(struct meter_dev *dev, struct meter_sample *out, unsigned max, int timeout_ms);

#endif
