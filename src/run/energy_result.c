/* SPDX-License-Identifier: MIT */
/* A meter's energy summary and efficiency as the result's power and efficiency objects. */
#include <math.h>

#include "core/mem.h"
#include "run/energy.h"

#define J_PER_MWH 3.6

void energy_power_fill(struct result_power *p, const struct energy_summary *es,
		       const char *meter_spec)
{
	p->meter = xstrdup(meter_spec ? meter_spec : "");
	p->idle_w = es->idle_w;
	p->active_w = es->active_w;
	p->active_ma = es->active_ma;
	p->peak_ma = es->peak_ma;
	p->active_v = es->active_v;
	p->min_v = es->min_v;
	p->energy_active_j = es->energy_active_j;
	p->energy_active_mwh = es->energy_active_j / J_PER_MWH;
	p->energy_tail_j = es->energy_tail_j;
	p->energy_tail_mwh = es->energy_tail_j / J_PER_MWH;
	p->energy_tail_net_j = es->energy_tail_net_j;
	p->energy_net_j = es->energy_net_j;
	p->charge_mah = es->charge_mah;
	p->idle_w_u95 = p->active_w_u95 = p->active_ma_u95 = p->active_v_u95 = NAN;
	p->energy_active_j_u95 = p->energy_tail_j_u95 = p->energy_net_j_u95 = NAN;
	p->energy_tail_net_j_u95 = NAN;
	p->charge_mah_u95 = NAN;
	p->out_of_range.idle = es->out_of_range[PHASE_IDLE];
	p->out_of_range.active = es->out_of_range[PHASE_ACTIVE];
	p->out_of_range.tail = es->out_of_range[PHASE_TAIL];
	p->note = es->has_voltage ? NULL
				  : xstrdup("meter reports no voltage: energy unknown, charge only");
}

void energy_efficiency_fill(struct result_efficiency *e, const struct efficiency *ef)
{
	e->iops_per_ma = ef->iops_per_ma;
	e->iops_per_w = ef->iops_per_w;
	e->mbps_per_w = ef->mbps_per_w;
	e->j_per_gb = ef->j_per_gb;
	e->j_per_gb_net = ef->j_per_gb_net;
	e->uj_per_io = ef->uj_per_io;
	e->uah_per_io = ef->uah_per_io;
	e->uah_per_mb = ef->uah_per_mb;
	e->iops_per_ma_u95 = e->iops_per_w_u95 = e->mbps_per_w_u95 = NAN;
	e->j_per_gb_u95 = e->j_per_gb_net_u95 = e->uj_per_io_u95 = NAN;
	e->uah_per_io_u95 = e->uah_per_mb_u95 = NAN;
}
