/* SPDX-License-Identifier: MIT */
/* Board-level meters (hwmon, IIO, power_supply, RAPL, Pi 5 PMIC): the drivers the registry lists. */
#ifndef IOWATT_BOARD_H
#define IOWATT_BOARD_H

struct meter_driver;

extern const struct meter_driver meter_hwmon, meter_power_supply, meter_rapl, meter_pmic, meter_iio;

#endif
