/* SPDX-License-Identifier: MIT */
/* The emulators of a table of meters, in its order: by position and by name. */
#include <stddef.h>
#include <string.h>

#include "meters/emu/emu.h"
#include "meters/meter-internal.h"

const struct emu_protocol *meter_emulator(const struct meter_entry *meters, size_t i)
{
	size_t r, j;

	for (r = 0; meters[r].driver; r++)
		for (j = 0; j < METER_EMULATORS_MAX && meters[r].emulators[j]; j++)
			if (!i--)
				return meters[r].emulators[j];
	return NULL;
}

const struct emu_protocol *emu_protocol_find(const struct meter_entry *meters, const char *name)
{
	const struct emu_protocol *p;
	size_t i;

	for (i = 0; (p = meter_emulator(meters, i)); i++)
		if (!strcmp(p->name, name))
			break;
	return p; /* NULL past the last */
}
