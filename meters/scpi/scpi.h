/* SPDX-License-Identifier: MIT */
/* SCPI bench supplies and DMMs: the driver and emulator the registry lists. */
#ifndef IOWATT_SCPI_H
#define IOWATT_SCPI_H

struct meter_driver;
struct emu_protocol;

extern const struct meter_driver meter_scpi;
extern const struct emu_protocol emu_scpi;

#endif
