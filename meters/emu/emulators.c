/* SPDX-License-Identifier: MIT */
/* The explicit list of emulated meters `iowatt emulate` offers, looked up by name. */
#include <stddef.h>
#include <string.h>

#include "meters/emu/emu.h"

/* Declared here, as the driver registry does: each lives beside its driver. */
extern const struct emu_protocol emu_um24c, emu_um25c, emu_um34c;
extern const struct emu_protocol emu_fnb58, emu_atorch, emu_atorch_dc, emu_ppk2;
#ifdef HAVE_NETTLE
extern const struct emu_protocol emu_tc66c;
#endif

const struct emu_protocol *const emu_protocols[] = {
	&emu_um24c,
	&emu_um25c,
	&emu_um34c,
	&emu_fnb58,
#ifdef HAVE_NETTLE
	&emu_tc66c,
#endif
	&emu_atorch,
	&emu_atorch_dc,
	&emu_ppk2,
	NULL,
};

const struct emu_protocol *emu_protocol_find(const char *name)
{
	size_t i;

	for (i = 0; emu_protocols[i]; i++)
		if (!strcmp(emu_protocols[i]->name, name))
			return emu_protocols[i];
	return NULL;
}
