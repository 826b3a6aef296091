/* SPDX-License-Identifier: MIT */
/* Nordic Power Profiler Kit II: the driver and emulator the registry lists. */
#ifndef IOWATT_PPK2_H
#define IOWATT_PPK2_H

struct meter_driver;
struct emu_protocol;

extern const struct meter_driver meter_ppk2;
extern const struct emu_protocol emu_ppk2;

#endif
