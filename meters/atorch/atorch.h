/* SPDX-License-Identifier: MIT */
/* ATORCH USB and DC meters: the driver and emulators the registry lists. */
#ifndef IOWATT_ATORCH_H
#define IOWATT_ATORCH_H

struct meter_driver;
struct emu_protocol;

extern const struct meter_driver meter_atorch;
extern const struct emu_protocol emu_atorch, emu_atorch_dc;

#endif
