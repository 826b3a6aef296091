/* SPDX-License-Identifier: MIT */
/* The power, efficiency and validity objects of a job in the result document. */
#include <math.h>

#include "energy.h"

/* JSON has no NaN: a figure that cannot be computed is null. */
static json_t *num(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

json_t *energy_power_json(const struct energy_summary *es, const char *meter_spec)
{
	json_t *o = json_object();

	json_object_set_new(o, "meter", json_string(meter_spec ? meter_spec : ""));
	json_object_set_new(o, "idle_w", num(es->idle_w));
	json_object_set_new(o, "active_w", num(es->active_w));
	json_object_set_new(o, "active_ma", num(es->active_ma));
	json_object_set_new(o, "peak_ma", num(es->peak_ma));
	json_object_set_new(o, "active_v", num(es->active_v));
	json_object_set_new(o, "min_v", num(es->min_v));
	json_object_set_new(o, "energy_active_j", num(es->energy_active_j));
	json_object_set_new(o, "energy_active_mwh", num(es->energy_active_j / 3.6));
	json_object_set_new(o, "energy_tail_j", num(es->energy_tail_j));
	json_object_set_new(o, "energy_tail_mwh", num(es->energy_tail_j / 3.6));
	json_object_set_new(o, "energy_net_j", num(es->energy_net_j));
	json_object_set_new(o, "charge_mah", num(es->charge_mah));
	if (!es->has_voltage)
		json_object_set_new(o, "note",
				    json_string("meter reports no voltage: energy unknown, "
						"charge only"));
	return o;
}

json_t *energy_efficiency_json(const struct efficiency *ef)
{
	json_t *o = json_object();

	json_object_set_new(o, "iops_per_ma", num(ef->iops_per_ma));
	json_object_set_new(o, "iops_per_w", num(ef->iops_per_w));
	json_object_set_new(o, "mbps_per_w", num(ef->mbps_per_w));
	json_object_set_new(o, "j_per_gb", num(ef->j_per_gb));
	json_object_set_new(o, "j_per_gb_net", num(ef->j_per_gb_net));
	json_object_set_new(o, "uj_per_io", num(ef->uj_per_io));
	json_object_set_new(o, "uah_per_io", num(ef->uah_per_io));
	json_object_set_new(o, "uah_per_mb", num(ef->uah_per_mb));
	return o;
}

json_t *energy_validity_json(int valid, double coverage, uint64_t samples_active,
			     char reasons[][160], unsigned nreasons)
{
	json_t *o = json_object();
	json_t *r = json_array();
	unsigned i;

	for (i = 0; i < nreasons; i++)
		json_array_append_new(r, json_string(reasons[i]));
	json_object_set_new(o, "valid", json_boolean(valid));
	json_object_set_new(o, "coverage", num(coverage));
	json_object_set_new(o, "samples_active", json_integer((json_int_t)samples_active));
	json_object_set_new(o, "reasons", r);
	return o;
}
