/* SPDX-License-Identifier: MIT */
/* What size's two printers share: figures in their own units, one device's block. */
#ifndef IOWATT_SIZING_PRINT_H
#define IOWATT_SIZING_PRINT_H

#include "analysis/sizing.h"
#include "core/si_units.h"

/* Significant digits of every current, power, energy and charge size prints, at any scale. */
#define SIZE_SIG 4

/*
 * v (in A, W, J or Ah) in the unit its own size chooses, or --units fixes: "5.020 µA",
 * "66.73 mW", "5.766 kJ"; "-" for NAN. The text stays valid for the next 11 calls.
 */
const char *sizing_fig(enum si_quantity q, double v);
/* A figure and its 95 % half width in the figure's unit: "66.70 +-2.000 mW". */
const char *sizing_fig_pm(enum si_quantity q, double v, double u95);
/* Watt-hours take the power's prefix (and its --units): "9.435 Wh", "90.05 mWh". */
const char *sizing_fig_wh(double wh);

/* One result's block: its jobs, the sleep figure, energy, life, interval, warnings; with
 * --endurance it keeps the device's days in sz->dev for the closing table. */
void sizing_print_device(struct sizing *sz, const struct size_workload *wl,
			 const struct battery_model *bm, double supply_v_opt);

/* --endurance (sizing_endurance.c): the device's days at the workload's writes (write
 * amplification included), energy per GB, and which ends first, it or the battery;
 * kept in sz->dev (sz->has_dev). */
void sizing_print_endurance(struct sizing *sz, const struct size_workload *wl);

#endif
