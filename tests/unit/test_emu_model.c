/* SPDX-License-Identifier: MIT */
/* The emulator's per-operation charge: drawn whole under its cap, however short the update that sees it. */
#include <math.h>

#include "meters/emu/emu_model.h"
#include "tap.h"

#define BASE_MA 90.0
#define CAP_MA 900.0

/* Draws owed_uc over updates of dt_s each; the charge drawn (uC), the highest mA into *peak. */
static double drain(double *owed_uc, double first_dt_s, double dt_s, int updates, double *peak)
{
	double uc = 0, ma, dt = first_dt_s;
	int i;

	*peak = 0;
	for (i = 0; i < updates; i++, dt = dt_s) {
		ma = emu_op_draw_ma(owed_uc, dt, BASE_MA, CAP_MA);
		uc += ma * 1e3 * dt;
		*peak = fmax(*peak, BASE_MA + ma);
	}
	return uc;
}

int main(void)
{
	double owed, uc, peak;

	owed = 200;
	uc = drain(&owed, 1e-3, 1e-3, 1, &peak);
	is_dbl(uc, 200, 1e-9, "a read's 200 uC seen over 1 ms: drawn in it (%.1f uC)", uc);
	is_dbl(peak, BASE_MA + 200, 1e-9, "at 200 mA above the base");
	is_dbl(owed, 0, 1e-12, "nothing left owed");

	/* An update 0.2 ms after the last (the loop caught up on its schedule): 600 uC there
	 * is 3 A, beyond the cap and a PPK2's 1 A; a meter drops such samples. */
	owed = 600;
	uc = drain(&owed, 2e-4, 1e-3, 1, &peak);
	ok(peak <= CAP_MA + 1e-9, "a write seen in 0.2 ms stays under the cap (%.0f mA)", peak);
	ok(owed > 0, "what the cap held back is still owed (%.1f uC)", owed);
	uc += drain(&owed, 1e-3, 1e-3, 3, &peak);
	ok(peak <= CAP_MA + 1e-9, "and the next updates stay under it too (%.0f mA)", peak);
	is_dbl(uc, 600, 1e-6, "the write's whole charge is drawn over them (%.3f uC)", uc);
	is_dbl(owed, 0, 1e-12, "nothing left owed");

	/* Two writes in one 1 ms update: 1290 mA with the base */
	owed = 1200;
	uc = drain(&owed, 1e-3, 1e-3, 3, &peak);
	is_dbl(uc, 1200, 1e-6, "two writes in one ms: both charges drawn (%.3f uC)", uc);
	ok(peak <= CAP_MA + 1e-9, "under the cap");

	owed = 0;
	is_dbl(emu_op_draw_ma(&owed, 1e-3, BASE_MA, CAP_MA), 0, 0, "nothing owed: nothing drawn");
	owed = 50;
	is_dbl(emu_op_draw_ma(&owed, 1e-3, CAP_MA + 10, CAP_MA), 0, 0,
	       "a base above the cap leaves no room: nothing drawn");
	is_dbl(owed, 50, 0, "and the charge stays owed");
	return done_testing();
}
