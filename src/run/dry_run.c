/* SPDX-License-Identifier: MIT */
/* --dry-run: the plan and the meter fit alone, the target looked at and the meters' specs read, nothing opened. */
#include <limits.h>
#include <stdio.h>

#include "core/log.h"
#include "meters/registry/registry.h"
#include "plan/meter_fit.h"
#include "plan/model_forecast.h"
#include "plan/rate_basis.h"
#include "plan/run_plan.h"
#include "run/dry_run.h"
#include "run/session.h"

/*
 * The slowest meter's period among the run's specs, from their interval parameters,
 * without opening them (--dry-run); its spec in meter, and in *acc the accuracy its
 * driver declares for the model it names (*have 0: known only once open). 0 when none says.
 */
static uint64_t spec_period(const struct run_opts *ro, char *meter, size_t len,
			    struct meter_accuracy *acc, int *have)
{
	struct meter_dev *dev;
	uint64_t best = 0, p;
	int level = log_get_level();
	unsigned i;

	meter[0] = '\0';
	*have = 0;
	/* a spec that does not parse is the run's to refuse, with its message, not the plan's */
	log_set_level(LOG_ERR - 1);
	for (i = 0; i < ro->nmeters; i++) {
		if (meter_parse_spec(meter_registry, ro->meters[i],
				     ro->sysfs_root ? ro->sysfs_root : "", &dev))
			continue;
		p = meter_spec_interval_ns(dev);
		if (p > best) {
			best = p;
			snprintf(meter, len, "%s", ro->meters[i]);
			*have = !meter_spec_accuracy(dev, acc);
		}
		meter_free(dev);
	}
	log_set_level(level);
	return best;
}

int run_dry(const struct run_config *cfg)
{
	char disk[64], name[PATH_MAX + 64], meter[256];
	struct rate_basis b;
	struct rate_basis costs = { .have = 0 };
	struct plan_basis in = { .metered = cfg->run.nmeters > 0, .name = name,
				 .period_known = !cfg->run.nmeters,
				 .feed_lag_ns = SESSION_FEED_LAG_NS };
	int err = run_plan_open_basis(&b, &cfg->run, disk, sizeof(disk));
	struct meter_accuracy acc;
	uint64_t period;
	int have_acc;

	if (err)
		return err;
	if (cfg->run.costs_from)
		err = rate_basis_load(&costs, cfg->run.costs_from, "--costs-from");
	if (err) {
		rate_basis_close(&b);
		return err;
	}
	if (b.have) {
		in.rep = &b.rep;
		snprintf(name, sizeof(name), "the earlier result %s", b.path);
	}
	run_plan_print(stdout, cfg, disk, &in);
	period = spec_period(&cfg->run, meter, sizeof(meter), &acc, &have_acc);
	meter_fit_plan(stdout, cfg, period, meter);
	/* not opened: the accuracy its driver declares for the model named, as the run will */
	model_forecast_plan(stdout, cfg, period, have_acc ? &acc : NULL, &costs);
	rate_basis_close(&b);
	rate_basis_close(&costs);
	return 0;
}
