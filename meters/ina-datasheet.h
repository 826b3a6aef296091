/* SPDX-License-Identifier: MIT */
/* TI INA219/INA226/INA260 datasheet accuracy: read over i2c-dev (ina2xx) or via hwmon (board). */
#ifndef IOWATT_INA_DATASHEET_H
#define IOWATT_INA_DATASHEET_H

/*
 * Maxima over temperature from TI's datasheets (INA219 SBOS448, INA226 SBOS547, INA260
 * SBOS656), the worse grade where there are two. Gains are fractions of the reading;
 * offsets volts of shunt drop (INA219, INA226), amps (INA260 current) or volts of bus.
 *   INA219: current 1 %, bus 0.5 %; shunt offset 100/125/150/200 uV at PGA /1 /2 /4 /8.
 *   INA226: shunt and bus gain 0.1 %; shunt offset 10 uV; bus offset 7.5 mV.
 *   INA260: current gain 0.15 %, offset 5 mA; bus gain 0.1 %, offset 7.5 mV.
 */
#define INA219_DS_A_GAIN 0.01
#define INA219_DS_V_GAIN 0.005
#define INA219_DS_OFFSET_PGA1_V 100e-6
#define INA219_DS_OFFSET_PGA2_V 125e-6
#define INA219_DS_OFFSET_PGA4_V 150e-6
#define INA219_DS_OFFSET_PGA8_V 200e-6
#define INA226_DS_GAIN 0.001
#define INA226_DS_SHUNT_OFFSET_V 10e-6
#define INA226_DS_BUS_OFFSET_V 7.5e-3
#define INA260_DS_A_GAIN 0.0015
#define INA260_DS_A_OFFSET 5e-3
#define INA260_DS_V_GAIN INA226_DS_GAIN
#define INA260_DS_V_OFFSET INA226_DS_BUS_OFFSET_V

#endif
