/* SPDX-License-Identifier: MIT */
/* Hand readings of a display-only tester: the driver the registry lists. */
#ifndef IOWATT_MANUAL_H
#define IOWATT_MANUAL_H

struct meter_driver;

extern const struct meter_driver meter_manual;

#endif
