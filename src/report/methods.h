/* SPDX-License-Identifier: MIT */
/* docs/energy.md as a C string: the Makefile embeds it, so the report's methods are the docs. */
#ifndef IOWATT_METHODS_H
#define IOWATT_METHODS_H

extern const char report_energy_md[];

#endif
