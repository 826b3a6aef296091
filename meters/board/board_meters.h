/* SPDX-License-Identifier: MIT */
/* Board-level meter drivers (I2C monitors, hwmon, power_supply, RAPL, Pi 5 PMIC) for the registry. */
#ifndef IOWATT_BOARD_METERS_H
#define IOWATT_BOARD_METERS_H

#include "meters/meter.h"

extern const struct meter_driver meter_hwmon;
extern const struct meter_driver meter_power_supply;
extern const struct meter_driver meter_rapl;
extern const struct meter_driver meter_pmic;

/* start() for meters whose dev->priv begins with struct sysfs_poll: restart the ticks. */
int sysfs_poll_start(struct meter_dev *dev);

#endif
