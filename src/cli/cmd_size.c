/* SPDX-License-Identifier: MIT */
/* iowatt size: battery life per device for a workload, from measured idle power and J/GB. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "analysis/battery.h"
#include "analysis/results_read.h"
#include "analysis/sizing.h"
#include "cli/commands.h"
#include "cli/result_args.h"
#include "core/log.h"
#include "core/units.h"

#define MOD "size"

static void usage(FILE *fp)
{
	fprintf(fp,
		"usage: iowatt size --battery CAPACITY RESULT.json... [workload] [options]\n"
		"  --battery 3000mAh@3.7V | 3Ah@3.7V | 11.1Wh     battery (required)\n"
		"  --write 200MB/day     data written per day (MB = 10^6 B, MiB = 2^20 B; /s /min /h /day /week)\n"
		"  --read 50MB/day       data read per day\n"
		"  --records 4KiB@1/min  small writes: record size @ count per time unit\n"
		"  --duty 2s/60s         drive busy (its job's active power) 2 s of every 60 s\n"
		"  --power-off[=100%%]    drive powered off between bursts: that share of the\n"
		"                        measured idle power (100%%: the meter saw the drive alone)\n"
		"                        is not drawn while no I/O or tail runs\n"
		"  --job NAME            use this job for every workload instead of the closest one\n"
		"  --usable 85%%          usable share of the nominal capacity (cut-off, ageing)\n"
		"  --regulator 90%%       battery -> supply conversion efficiency\n"
		"  --self-discharge 2%%/month   of the nominal capacity\n"
		"  --supply-v V          supply voltage of the measured system (default: meter mean)\n"
		"  --label FILE=NAME     device name for a result file\n");
}

static int parse_frac_opt(const char *opt, const char *arg, double *out, int allow_zero)
{
	if (battery_parse_fraction(arg, out) || (!allow_zero && *out <= 0)) {
		log_err(MOD, "%s '%s': expected a percentage such as 85%%", opt, arg);
		return -EINVAL;
	}
	return 0;
}

/* What the command line asks for. */
struct size_args {
	struct result_args ra; /* labels, the battery and its losses */
	struct size_workload wl;
	double supply_v;
};

static int bad_arg(const char *fmt, const char *arg)
{
	log_err(MOD, fmt, arg);
	return EXIT_USAGE;
}

/* --write/--read: rc from battery_parse_rate(). */
static int rate_arg(const char *opt, const char *arg, int rc)
{
	if (rc == -ERANGE)
		log_err(MOD, "%s '%s': out of range (at most %.0f GB/s)", opt, arg,
			BATTERY_MAX_BYTES_PER_S / 1e9);
	else if (rc)
		log_err(MOD, "%s '%s': expected SIZE/PERIOD, e.g. 200MB/day", opt, arg);
	return rc ? EXIT_USAGE : 0;
}

/* The battery's losses and the supply; 1 if c is not one of those options. */
static int battery_option(struct size_args *a, int c)
{
	switch (c) {
	case 'U':
		return parse_frac_opt("--usable", optarg, &a->ra.bm.usable_frac, 0) ? EXIT_USAGE : 0;
	case 'R':
		return parse_frac_opt("--regulator", optarg, &a->ra.bm.regulator_eff, 0) ? EXIT_USAGE : 0;
	case 'S':
		return parse_frac_opt("--self-discharge", optarg, &a->ra.bm.self_discharge_month, 1)
			       ? EXIT_USAGE : 0;
	case 'V':
		if (parse_double(optarg, &a->supply_v) || a->supply_v <= 0)
			return bad_arg("--supply-v '%s': expected volts, e.g. 5.0", optarg);
		return 0;
	default:
		return 1;
	}
}

/* The workload and the rest; 0 or an exit code. */
static int workload_option(struct size_args *a, int c)
{
	struct size_workload *wl = &a->wl;
	int rc;

	switch (c) {
	case 'w':
		return rate_arg("--write", optarg, battery_parse_rate(optarg, &wl->write_bpd));
	case 'r':
		return rate_arg("--read", optarg, battery_parse_rate(optarg, &wl->read_bpd));
	case 'c':
		rc = battery_parse_records(optarg, &wl->rec_bytes, &wl->rec_per_day);
		if (rc == -ERANGE) {
			log_err(MOD, "--records '%s': out of range (at most %.0f million a second)",
				optarg, BATTERY_MAX_RECORDS_PER_S / 1e6);
			return EXIT_USAGE;
		}
		if (rc)
			return bad_arg("--records '%s': expected SIZE@COUNT/PERIOD, e.g. 4KiB@1/min",
				       optarg);
		return 0;
	case 'd':
		if (battery_parse_duty(optarg, &wl->duty_active_s, &wl->duty_period_s))
			return bad_arg("--duty '%s': expected ACTIVE/PERIOD with ACTIVE <= PERIOD, "
				       "e.g. 2s/60s", optarg);
		return 0;
	case 'j':
		wl->job = optarg;
		return 0;
	case 'P':
		wl->off_share = 1;
		if (optarg && (battery_parse_fraction(optarg, &wl->off_share) ||
			       !(wl->off_share > 0)))
			return bad_arg("--power-off=%s: expected the drive's share of the idle "
				       "power, e.g. 100%% (a meter on the drive alone) or 40%%", optarg);
		return 0;
	default:
		return result_option(&a->ra, c, optarg);
	}
}

static int parse_args(int argc, char **argv, struct size_args *a)
{
	static const struct option opts[] = {
		{ "battery", required_argument, NULL, 'B' }, { "usable", required_argument, NULL, 'U' },
		{ "regulator", required_argument, NULL, 'R' },
		{ "self-discharge", required_argument, NULL, 'S' },
		{ "supply-v", required_argument, NULL, 'V' },	{ "write", required_argument, NULL, 'w' },
		{ "read", required_argument, NULL, 'r' },	{ "records", required_argument, NULL, 'c' },
		{ "duty", required_argument, NULL, 'd' },	{ "job", required_argument, NULL, 'j' },
		{ "power-off", optional_argument, NULL, 'P' },
		{ "label", required_argument, NULL, 'l' },	{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, rc;

	result_args_init(&a->ra, MOD, usage, NULL);
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		rc = battery_option(a, c);
		if (rc == 1)
			rc = workload_option(a, c);
		if (rc)
			return rc;
	}
	if (!a->ra.have_battery)
		return bad_arg("%s", "--battery is required (e.g. --battery 3000mAh@3.7V)");
	return 0;
}

int cmd_size(int argc, char **argv)
{
	struct size_args a;
	struct rr_set set;
	int rc;

	memset(&a, 0, sizeof(a));
	rc = result_args_load(&a.ra, parse_args(argc, argv, &a), argc, argv, &set);
	if (rc)
		return rc == ARGS_HELP ? EXIT_OK : rc;
	rc = sizing_print_results(&set, &a.wl, &a.ra.bm, a.supply_v) ? EXIT_USAGE : EXIT_OK;
	rr_set_free(&set);
	return rc;
}
