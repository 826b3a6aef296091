/* SPDX-License-Identifier: MIT */
/* FNIRSI USB testers: the driver and emulator the registry lists. */
#ifndef IOWATT_FNIRSI_H
#define IOWATT_FNIRSI_H

struct meter_driver;
struct emu_protocol;

extern const struct meter_driver meter_fnb58;
extern const struct emu_protocol emu_fnb58;

#endif
