/* SPDX-License-Identifier: MIT */
/* The registry: one row per meter, its driver and its emulators, from each family's header. */
#include <stddef.h>

#include "meters/atorch/atorch.h"
#include "meters/board/board.h"
#include "meters/fnirsi/fnirsi.h"
#include "meters/ina2xx/ina2xx.h"
#include "meters/manual/manual.h"
#include "meters/ppk2/ppk2.h"
#include "meters/registry/registry.h"
#include "meters/scpi/scpi.h"
#include "meters/sigrok/sigrok.h"
#include "meters/tc66/tc66.h"
#include "meters/um/um.h"

/* A family whose library is missing is not built (the Makefile's METER_DIRS): its rows go. */
const struct meter_entry meter_registry[] = {
	{ &meter_um25c, { &emu_um25c } },
	{ &meter_um24c, { &emu_um24c } },
	{ &meter_um34c, { &emu_um34c } },
	{ &meter_um, { NULL } }, /* reads whichever model answers: its emulators are above */
	{ &meter_fnb58, { &emu_fnb58 } },
#ifdef HAVE_NETTLE
	{ &meter_tc66c, { &emu_tc66c } },
#endif
	{ &meter_atorch, { &emu_atorch, &emu_atorch_dc } },
	{ &meter_ppk2, { &emu_ppk2 } },
	{ &meter_scpi, { &emu_scpi } },
#ifdef HAVE_SIGROK
	{ &meter_sigrok, { NULL } },
#endif
	{ &meter_manual, { NULL } },
	{ &meter_ina219, { NULL } },
	{ &meter_ina226, { NULL } },
	{ &meter_ina260, { NULL } },
	{ &meter_hwmon, { NULL } },
	{ &meter_iio, { NULL } },
	{ &meter_power_supply, { NULL } },
	{ &meter_rapl, { NULL } },
	{ &meter_pmic, { NULL } },
	{ NULL, { NULL } },
};
