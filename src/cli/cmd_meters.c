/* SPDX-License-Identifier: MIT */
/* `iowatt meters`: what this machine has to measure with, each with a spec to paste. */
#include <glob.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "core/cmdline.h"
#include "core/log.h"
#include "core/mem.h"
#include "meters/emu/emu_live.h"
#include "meters/meter.h"
#include "meters/registry/registry.h"
#include "meters/transport/serial.h"
#include "sources/registry/registry.h"
#include "sources/sources.h"

#define MOD "meters"

/* The drivers, their keys and models: after the options in --help and the man page. */
static void meters_epilog(FILE *fp)
{
	fprintf(fp, "Meter specs are DRIVER:CONNECTION[,key=value...]. The drivers, their keys\n"
		    "(checked before any meter is opened) and the models they read:\n\n");
	meter_drivers_describe(meter_registry, fp);
}

struct meters_args {
	const char *sysfs_root;
};

static const struct opt_desc meters_opts[] = {
	{ .name = "sysfs-root", .type = OPT_STRREF, .off = offsetof(struct meters_args, sysfs_root),
	  .def = "", .metavar = "DIR", .help = "read sysfs under DIR instead of /sys (tests)",
	  .complete = "dir" },
	OPT_HELP_ROW(NULL),
};

static const struct cmdline meters_cmd = {
	.name = "meters",
	.summary = "list meters and flag sources this machine has",
	.synopsis = "[--sysfs-root DIR]",
	.about = "Lists serial ports (USB VID:PID, maker, product), Bluetooth /dev/rfcomm* "
		 "ports, running iowatt emulators, and what each meter driver finds here, with "
		 "a --meter spec to paste for each.",
	CMDLINE_OPTS(meters_opts),
	.epilog = meters_epilog,
};

const struct cmdline *meters_cmdline(void)
{
	return &meters_cmd;
}

/* RFCOMM ports have no USB parent, so libserialport's listing may leave them out. */
static void list_rfcomm(FILE *out)
{
	glob_t g;
	size_t i;

	if (glob("/dev/rfcomm*", 0, NULL, &g)) {
		fprintf(out, "  (none; pair the tester, then 'rfcomm bind 0 MAC', PIN 1234)\n");
		return;
	}
	for (i = 0; i < g.gl_pathc; i++)
		fprintf(out, "  %-16s bluetooth rfcomm\n    spec: um25c:%s   (or um24c, um34c, um)\n",
			g.gl_pathv[i], g.gl_pathv[i]);
	globfree(&g);
}

int cmd_meters(int argc, char **argv)
{
	struct meters_args a;
	struct cmdline_parse p = { .cmd = &meters_cmd, .base = &a };
	int rc;

	opt_apply_defaults(meters_opts, ARRAY_SIZE(meters_opts), &a);
	rc = cmdline_read(&p, argc, argv);
	cmdline_parse_free(&p);
	if (rc)
		return rc > 0 ? EXIT_OK : EXIT_USAGE;
	printf("Serial ports:\n");
	serial_list_ports(stdout);
	printf("Bluetooth serial (RFCOMM):\n");
	list_rfcomm(stdout);
	printf("iowatt emulators (EMULATED, not real meters):\n");
	if (!emu_live_list(stdout))
		printf("  (none; 'iowatt emulate um25c --link PATH' starts one)\n");
	meter_drivers_scan(meter_registry, a.sysfs_root, stdout);
	printf("Event sources (undervoltage, throttling, kernel log, GPIO) and temperatures:\n");
	sources_describe(source_registry, a.sysfs_root, stdout);
	printf("Hand readings of a display-only tester:\n"
	       "    spec: manual:idle_ma=85,active_ma=310,v=5.05[,tail_ma=...]\n");
	printf("Meter drivers and their keys (iowatt meters --help says what each means):\n");
	meter_drivers_summary(meter_registry, stdout);
	fflush(stdout);
	return EXIT_OK;
}
