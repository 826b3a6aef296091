/* SPDX-License-Identifier: MIT */
/* TI INA219/INA226/INA260 over i2c-dev: the drivers the registry lists. */
#ifndef IOWATT_INA2XX_H
#define IOWATT_INA2XX_H

struct meter_driver;

extern const struct meter_driver meter_ina219, meter_ina226, meter_ina260;

#endif
