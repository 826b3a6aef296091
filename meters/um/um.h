/* SPDX-License-Identifier: MIT */
/* RDTech UM24C/UM25C/UM34C: the drivers and emulators the registry lists. */
#ifndef IOWATT_UM_H
#define IOWATT_UM_H

struct meter_driver;
struct emu_protocol;

extern const struct meter_driver meter_um, meter_um24c, meter_um25c, meter_um34c;
extern const struct emu_protocol emu_um24c, emu_um25c, emu_um34c;

#endif
