/* SPDX-License-Identifier: MIT */
/* `iowatt probe --meter SPEC`: its options; the probing is run/probe.c. */
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "core/clock.h"
#include "core/cmdline.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/outfile.h"
#include "core/si_units.h"
#include "core/units.h"
#include "run/probe.h"

#define MOD "probe"
/* Beyond a year the end time no longer fits the clock's nanoseconds comfortably; nobody
 * means it. */
#define PROBE_NS_MAX (366.0 * 86400.0 * 1e9)

/* What the command line asks for. */
struct probe_args {
	const char *spec, *sysfs_root, *csv_path;
	uint64_t seconds_ns; /* 0: until a signal */
	int force;
};

#define POFF(f) offsetof(struct probe_args, f)

static const struct opt_desc probe_opts[] = {
	{ .name = "meter", .type = OPT_STRREF, .off = POFF(spec), .shortopt = 'm',
	  .metavar = "SPEC",
	  .help = "the meter (required), e.g. um25c:/dev/rfcomm0, um:/dev/ttyUSB0,interval=500ms, "
		  "manual:idle_ma=85,active_ma=310,v=5.05 (`iowatt meters` lists them)",
	  .complete = "meters" },
	{ .name = "seconds", .type = OPT_DURATION, .off = POFF(seconds_ns), .min = 1,
	  .max = PROBE_NS_MAX, .shortopt = 's', .metavar = "N",
	  .help = "stop after N seconds, or a time with a unit (default: until Ctrl-C)" },
	{ .name = "csv", .type = OPT_STRREF, .off = POFF(csv_path), .metavar = "FILE",
	  .help = "also write every sample: t_ns,v,a,w,flags (a new file; never through a "
		  "symbolic link)",
	  .complete = "file" },
	{ .name = "force", .type = OPT_FLAG, .off = POFF(force),
	  .help = "replace an existing --csv file" },
	{ .name = "sysfs-root", .type = OPT_STRREF, .off = POFF(sysfs_root), .def = "",
	  .metavar = "DIR", .help = "read sysfs meters under DIR (tests)", .complete = "dir" },
	SI_UNITS_OPTION(NULL),
	OPT_HELP_ROW(NULL),
};

static const struct cmdline probe_cmd = {
	.name = "probe",
	.summary = "show live readings of a meter to check the wiring",
	.synopsis = "--meter SPEC [--seconds N] [--csv FILE [--force]] [--sysfs-root DIR]",
	.about = "Live readings of one meter, one line per second (per sample for meters slower "
		 "than that): volts, mA, W, running mWh, samples per second, bad frames, gaps "
		 "and reconnects. Ctrl-C ends it.",
	CMDLINE_OPTS(probe_opts),
};

const struct cmdline *probe_cmdline(void)
{
	return &probe_cmd;
}

/* 0, 1 after printing --help, or -EINVAL after naming what is wrong. */
static int probe_parse(int argc, char **argv, struct probe_args *a)
{
	struct cmdline_parse p = { .cmd = &probe_cmd, .base = a };
	int rc;

	memset(a, 0, sizeof(*a));
	opt_apply_defaults(probe_opts, ARRAY_SIZE(probe_opts), a);
	rc = cmdline_read(&p, argc, argv);
	cmdline_parse_free(&p);
	if (rc)
		return rc;
	if (!a->spec) {
		log_err(MOD, "--meter SPEC is required (see 'iowatt meters' for specs)");
		return -EINVAL;
	}
	rc = a->csv_path ? output_check(a->csv_path, a->force) : 0;
	if (rc) {
		log_err(MOD, "option --csv: %s: %s", a->csv_path, output_strerror(rc));
		return rc == -EEXIST || rc == -ELOOP || rc == -EISDIR || rc == -EINVAL ? -EINVAL : rc;
	}
	return 0;
}

int cmd_probe(int argc, char **argv)
{
	struct probe_args a;
	struct probe_opts o;
	int rc, sig;

	rc = probe_parse(argc, argv, &a);
	if (rc)
		return rc > 0 ? EXIT_OK : EXIT_USAGE;
	o = (struct probe_opts){ .spec = a.spec, .sysfs_root = a.sysfs_root,
				 .csv_path = a.csv_path, .seconds = (double)a.seconds_ns / NS_PER_SEC, .force = a.force };
	rc = probe_meter(&o, &sig);
	if (sig)
		return sig == SIGINT ? EXIT_SIGINT : 128 + sig;
	return !rc ? EXIT_OK : exit_code_for_errno(rc);
}
