/* SPDX-License-Identifier: MIT */
/* iowatt size: battery life per device for a workload, from measured idle power and J/GB. */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/battery.h"
#include "analysis/idle_states.h"
#include "analysis/results_read.h"
#include "analysis/sizing.h"
#include "analysis/sleep_figure.h"
#include "cli/commands.h"
#include "cli/result_args.h"
#include "core/cmdline.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/si_units.h"
#include "core/units.h"

#define MOD "size"

/* What the command line asks for. */
struct size_args {
	struct result_args ra; /* labels, the battery and its losses */
	struct size_workload wl;
	double supply_v;
	const char *sleep_from; /* --sleep-from RESULT[:JOB] */
	int idle_states;	/* --idle-states: the table and break-even instead of a battery */
	const char *states_from; /* --idle-states-from RESULT */
};

#define SOFF(f) offsetof(struct size_args, f)

static double *field_double(const struct opt_desc *d, void *base)
{
	return (double *)(void *)((char *)base + d->off);
}

/* --write/--read: bytes a day. */
static int parse_rate(const struct opt_desc *d, void *base, const char *value, char *err,
		      size_t errlen)
{
	int rc = battery_parse_rate(value, field_double(d, base));

	if (rc == -ERANGE)
		snprintf(err, errlen, "out of range (at most %.0f GB/s)", BATTERY_MAX_BYTES_PER_S / 1e9);
	else if (rc)
		snprintf(err, errlen, "expected SIZE/PERIOD, e.g. 200MB/day");
	return rc;
}

static int parse_records(const struct opt_desc *d, void *base, const char *value, char *err,
			 size_t errlen)
{
	struct size_workload *wl = &((struct size_args *)base)->wl;
	int rc = battery_parse_records(value, &wl->rec_bytes, &wl->rec_per_day);

	(void)d;
	if (rc == -ERANGE)
		snprintf(err, errlen, "out of range (at most %.0f million a second)",
			 BATTERY_MAX_RECORDS_PER_S / 1e6);
	else if (rc)
		snprintf(err, errlen, "expected SIZE@COUNT/PERIOD, e.g. 4KiB@1/min");
	return rc;
}

static int parse_duty(const struct opt_desc *d, void *base, const char *value, char *err,
		      size_t errlen)
{
	struct size_workload *wl = &((struct size_args *)base)->wl;

	(void)d;
	if (!battery_parse_duty(value, &wl->duty_active_s, &wl->duty_period_s))
		return 0;
	snprintf(err, errlen, "expected ACTIVE/PERIOD with ACTIVE <= PERIOD, e.g. 2s/60s");
	return -EINVAL;
}

/* A share of something: "85%", "0.85", "2%/month"; only self-discharge may be 0. */
static int parse_share(const struct opt_desc *d, void *base, const char *value, char *err,
		       size_t errlen)
{
	double *out = field_double(d, base);

	if (!battery_parse_fraction(value, out) && (*out > 0 || !strcmp(d->name, "self-discharge")))
		return 0;
	snprintf(err, errlen, "expected a percentage such as 85%%");
	return -EINVAL;
}

static int parse_power_off(const struct opt_desc *d, void *base, const char *value, char *err,
			   size_t errlen)
{
	double *out = field_double(d, base);

	if (!battery_parse_fraction(value, out) && *out > 0)
		return 0;
	snprintf(err, errlen, "expected the drive's share of the idle power, e.g. 100%% (a meter "
		 "on the drive alone) or 40%%");
	return -EINVAL;
}

static int parse_volts(const struct opt_desc *d, void *base, const char *value, char *err,
		       size_t errlen)
{
	double *out = field_double(d, base);

	if (!parse_double(value, out) && *out > 0)
		return 0;
	snprintf(err, errlen, "expected volts, e.g. 5.0");
	return -EINVAL;
}

/* --endurance: the device's rated bytes written, "40TB" (TB = 10^12 B). */
static int parse_endurance(const struct opt_desc *d, void *base, const char *value, char *err,
			   size_t errlen)
{
	uint64_t bytes;

	if (!strcmp(value, "device")) {
		*field_double(d, base) = -1;
		return 0;
	}
	if (!parse_size(value, &bytes) && bytes > 0) {
		*field_double(d, base) = (double)bytes;
		return 0;
	}
	snprintf(err, errlen, "expected the bytes the device is rated to be written, e.g. 40TB");
	return -EINVAL;
}

static int parse_wa(const struct opt_desc *d, void *base, const char *value, char *err,
		    size_t errlen)
{
	double *out = field_double(d, base);

	if (!parse_double(value, out) && *out >= 1 && *out <= 1000)
		return 0;
	snprintf(err, errlen, "expected device bytes per byte written, 1 to 1000, e.g. 2.5");
	return -EINVAL;
}

#define G_BATTERY "The battery"
#define G_LOAD "The workload (none: idle only)"
#define G_FILES "The results"
#define G_DEVICE "The device's wear"

static const struct opt_desc size_opts[] = {
	RESULT_BATTERY_ROW(SOFF(ra), NULL, "the battery (required): 3000mAh@3.7V, 3Ah@3.7V or "
					   "11.1Wh", G_BATTERY),
	{ .name = "usable", .type = OPT_FUNC, .parse = parse_share, .off = SOFF(ra.bm.usable_frac),
	  .def = "85%", .metavar = "PCT",
	  .help = "usable share of the nominal capacity (cut-off, ageing)", .group = G_BATTERY },
	{ .name = "regulator", .type = OPT_FUNC, .parse = parse_share,
	  .off = SOFF(ra.bm.regulator_eff), .def = "90%", .metavar = "PCT",
	  .help = "battery -> supply conversion efficiency", .group = G_BATTERY },
	{ .name = "self-discharge", .type = OPT_FUNC, .parse = parse_share,
	  .off = SOFF(ra.bm.self_discharge_month), .def = "2%/month", .metavar = "PCT/month",
	  .help = "of the nominal capacity", .group = G_BATTERY },
	{ .name = "supply-v", .type = OPT_FUNC, .parse = parse_volts, .off = SOFF(supply_v),
	  .metavar = "V",
	  .help = "supply voltage of the measured system (default: the meter's mean)",
	  .group = G_BATTERY },
	{ .name = "write", .type = OPT_FUNC, .parse = parse_rate, .off = SOFF(wl.write_bpd),
	  .metavar = "SIZE/PERIOD",
	  .help = "data written, e.g. 200MB/day (MB = 10^6 B, MiB = 2^20 B; per /s /min /h /day "
		  "/week)",
	  .group = G_LOAD },
	{ .name = "read", .type = OPT_FUNC, .parse = parse_rate, .off = SOFF(wl.read_bpd),
	  .metavar = "SIZE/PERIOD", .help = "data read, e.g. 50MB/day", .group = G_LOAD },
	{ .name = "records", .type = OPT_FUNC, .parse = parse_records,
	  .metavar = "SIZE@COUNT/PERIOD",
	  .help = "small writes: record size @ count per time unit, e.g. 4KiB@1/min",
	  .group = G_LOAD },
	{ .name = "duty", .type = OPT_FUNC, .parse = parse_duty, .metavar = "ACTIVE/PERIOD",
	  .help = "drive busy (its job's active power), e.g. 2s/60s: 2 s of every 60 s",
	  .group = G_LOAD },
	{ .name = "power-off", .type = OPT_FUNC, .parse = parse_power_off,
	  .off = SOFF(wl.off_share), .bare = "100%", .metavar = "SHARE",
	  .help = "drive powered off between bursts: that share of the measured idle power "
		  "(100%: the meter saw the drive alone) is not drawn while no I/O or tail runs",
	  .group = G_LOAD },
	{ .name = "job", .type = OPT_STRREF, .off = SOFF(wl.job), .metavar = "NAME",
	  .help = "use this job for every workload instead of the closest one", .group = G_LOAD },
	RESULT_SLEEP_ROW(SOFF(sleep_from), "between bursts the system sleeps at the power of "
		"this run (a measured command's active phase, e.g. measure --idle 0 -- sleep 600; "
		"a benchmark job's idle phase), not the idle power; its supply within 5 % of the "
		"result's", G_LOAD),
	RESULT_MIX_ROW(SOFF(wl.mix_emulated), G_LOAD),
	{ .name = "endurance", .type = OPT_FUNC, .parse = parse_endurance,
	  .off = SOFF(wl.endurance_bytes), .metavar = "TBW|device",
	  .help = "the device's rated bytes written (TBW), e.g. 40TB, or `device`: its own wear "
		  "figure extrapolated from the run; its days at the workload's writes times the "
		  "write amplification, and whether it or the battery ends first",
	  .group = G_DEVICE },
	{ .name = "write-amplification", .type = OPT_FUNC, .parse = parse_wa,
	  .off = SOFF(wl.wa_given), .metavar = "X",
	  .help = "device bytes per byte the workload writes (default 1)",
	  .group = G_DEVICE },
	{ .name = "idle-states", .type = OPT_FLAG, .off = SOFF(idle_states),
	  .help = "from a configs/idle-states.ini run: idle power after each pause, the first "
		  "I/O's cost, the break-even pause (no --battery needed; with --records, "
		  "whether their pauses pay)",
	  .group = G_DEVICE },
	{ .name = "idle-states-from", .type = OPT_STRREF, .off = SOFF(states_from),
	  .metavar = "RESULT", .complete = RESULT_FILES,
	  .help = "with --records: a configs/idle-states.ini run of the device; between records it "
		  "draws the idle power of the state each pause reaches and each record pays the "
		  "wake from it, instead of the idle baseline all day",
	  .group = G_LOAD },
	RESULT_LABEL_ROW(SOFF(ra), G_FILES),
	SI_UNITS_OPTION(G_FILES),
	OPT_HELP_ROW(G_FILES),
};

static const struct cmdline size_cmd = {
	.name = "size",
	.summary = "size a battery for a workload from measured results",
	.synopsis = "--battery CAPACITY RESULT.json... [WORKLOAD] [OPTIONS]",
	.about = "Battery life per device for a workload, from each result's measured idle "
		 "power and energy per gigabyte and per I/O.",
	CMDLINE_OPTS(size_opts),
	RESULT_OPERANDS,
};

const struct cmdline *size_cmdline(void)
{
	return &size_cmd;
}

/* What the table cannot say: the battery is required, one model of what sleep draws. */
static int check_args(const void *base)
{
	const struct size_args *a = base;

	if (!a->ra.have_battery && !a->idle_states) {
		log_err(MOD, "--battery is required (e.g. --battery 3000mAh@3.7V)");
		return -EINVAL;
	}
	if (a->sleep_from && a->wl.off_share > 0) {
		log_err(MOD, "--sleep-from and --power-off both say what is drawn between bursts: "
			"give one (a sleep run with the drive off measures --power-off's case)");
		return -EINVAL;
	}
	if (a->states_from && !(a->wl.rec_per_day > 0)) {
		log_err(MOD, "--idle-states-from prices the pauses between records: give --records");
		return -EINVAL;
	}
	if (a->states_from && (a->sleep_from || a->wl.off_share > 0)) {
		log_err(MOD, "--idle-states-from and %s both say what is drawn between records: "
			"give one", a->sleep_from ? "--sleep-from" : "--power-off");
		return -EINVAL;
	}
	return 0;
}

/* --idle-states-from RESULT: its idle states, or -EINVAL (logged) when it has none. */
static int load_states(const char *path, struct rr_set *sset, struct idle_states *is)
{
	char *p = xstrdup(path);
	int rc = rr_set_load(sset, &p, 1, NULL, 0);

	free(p);
	if (rc)
		return -EINVAL;
	if (idle_states_from(&sset->res[0], is) || !is->awake) {
		log_err(MOD, "--idle-states-from %s: fewer than two valid jobs with power figures "
			"after an idle phase (run configs/idle-states.ini)", path);
		idle_states_free(is);
		rr_set_free(sset);
		return -EINVAL;
	}
	return 0;
}

int cmd_size(int argc, char **argv)
{
	struct size_args a;
	struct sleep_figure sleep;
	struct rr_set set, sset;
	struct idle_states is;
	int rc;

	memset(&a, 0, sizeof(a));
	rc = result_args_parse(&a.ra, &size_cmd, &a, argc, argv, check_args, &set);
	if (rc)
		return rc == ARGS_HELP ? EXIT_OK : rc;
	if (a.idle_states) {
		rc = idle_states_print(&set, a.wl.rec_per_day > 0 ? 86400.0 / a.wl.rec_per_day : NAN)
			     ? EXIT_USAGE
			     : EXIT_OK;
		rr_set_free(&set);
		return rc;
	}
	/* Checked per result as it is sized, at the supply of the job it sizes with. */
	if (a.states_from) {
		if (load_states(a.states_from, &sset, &is)) {
			rr_set_free(&set);
			return EXIT_USAGE;
		}
		a.wl.states = &is;
	}
	rc = result_args_sleep(a.sleep_from, a.wl.mix_emulated, &set, 0, &sleep, &a.wl.sleep);
	if (rc)
		return rc;
	rc = sizing_print_results(&set, &a.wl, &a.ra.bm, a.supply_v) ? EXIT_USAGE : EXIT_OK;
	if (a.wl.states) {
		idle_states_free(&is);
		rr_set_free(&sset);
	}
	if (a.wl.sleep)
		sleep_figure_free(&sleep);
	rr_set_free(&set);
	return rc;
}
