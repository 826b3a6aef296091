/* SPDX-License-Identifier: MIT */
/* Meters libsigrok drives: the driver the registry lists (built with libsigrok). */
#ifndef IOWATT_SIGROK_H
#define IOWATT_SIGROK_H

struct meter_driver;

extern const struct meter_driver meter_sigrok;

#endif
