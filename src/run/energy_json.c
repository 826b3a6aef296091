/* SPDX-License-Identifier: MIT */
/* The power, efficiency and validity objects of a job in the result document. */
#include <math.h>

#include "core/util.h"
#include "run/energy.h"

struct num_key {
	const char *key;
	double val;
};

/* JSON has no NaN: a figure that cannot be computed is null. */
static json_t *num(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

static void set_nums(json_t *o, const struct num_key *nk, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		json_object_set_new(o, nk[i].key, num(nk[i].val));
}

json_t *energy_power_json(const struct energy_summary *es, const char *meter_spec)
{
	const struct num_key nk[] = {
		{ "idle_w", es->idle_w },
		{ "active_w", es->active_w },
		{ "active_ma", es->active_ma },
		{ "peak_ma", es->peak_ma },
		{ "active_v", es->active_v },
		{ "min_v", es->min_v },
		{ "energy_active_j", es->energy_active_j },
		{ "energy_active_mwh", es->energy_active_j / 3.6 },
		{ "energy_tail_j", es->energy_tail_j },
		{ "energy_tail_mwh", es->energy_tail_j / 3.6 },
		{ "energy_net_j", es->energy_net_j },
		{ "charge_mah", es->charge_mah },
	};
	json_t *o = json_object();

	json_object_set_new(o, "meter", json_string(meter_spec ? meter_spec : ""));
	set_nums(o, nk, ARRAY_SIZE(nk));
	if (!es->has_voltage)
		json_object_set_new(o, "note",
				    json_string("meter reports no voltage: energy unknown, "
						"charge only"));
	return o;
}

json_t *energy_efficiency_json(const struct efficiency *ef)
{
	const struct num_key nk[] = {
		{ "iops_per_ma", ef->iops_per_ma },
		{ "iops_per_w", ef->iops_per_w },
		{ "mbps_per_w", ef->mbps_per_w },
		{ "j_per_gb", ef->j_per_gb },
		{ "j_per_gb_net", ef->j_per_gb_net },
		{ "uj_per_io", ef->uj_per_io },
		{ "uah_per_io", ef->uah_per_io },
		{ "uah_per_mb", ef->uah_per_mb },
	};
	json_t *o = json_object();

	set_nums(o, nk, ARRAY_SIZE(nk));
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
