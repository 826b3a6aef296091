/* SPDX-License-Identifier: MIT */
/* RDTech TC66/TC66C: the driver and emulator the registry lists (built with nettle). */
#ifndef IOWATT_TC66_H
#define IOWATT_TC66_H

struct meter_driver;
struct emu_protocol;

extern const struct meter_driver meter_tc66c;
extern const struct emu_protocol emu_tc66c;

#endif
