/* SPDX-License-Identifier: MIT */
/* Board-level meter drivers (I2C monitors, hwmon, power_supply, RAPL, Pi 5 PMIC) for the registry. */
#ifndef IOWATT_BOARD_METERS_H
#define IOWATT_BOARD_METERS_H

#include "meter.h"

extern const struct meter_driver meter_ina219;
extern const struct meter_driver meter_ina226;
extern const struct meter_driver meter_ina260;
extern const struct meter_driver meter_hwmon;
extern const struct meter_driver meter_power_supply;
extern const struct meter_driver meter_rapl;
extern const struct meter_driver meter_pmic;

/* stop() for meters that sample only when read() asks (nothing runs between reads). */
void board_meter_stop(struct meter_dev *dev);

#endif
