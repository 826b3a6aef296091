/* SPDX-License-Identifier: MIT */
/* `iowatt meters`: what this machine has to measure with, each with a spec to paste. */
#include <getopt.h>
#include <glob.h>
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "core/log.h"
#include "meters/emu/emu_registry.h"
#include "meters/meter.h"
#include "meters/registry/registry.h"
#include "meters/transport/serial.h"
#include "sources/sources.h"

#define MOD "meters"

static void meters_usage(FILE *fp)
{
	fprintf(fp, "usage: iowatt meters [--sysfs-root DIR]\n\n"
		    "Lists serial ports (USB VID:PID, maker, product), Bluetooth /dev/rfcomm*\n"
		    "ports, running iowatt emulators, and what each meter driver finds here,\n"
		    "with a --meter spec to paste for each.\n\n"
		    "Meter specs are DRIVER:CONNECTION[,key=value...]. The drivers, their keys\n"
		    "(checked before any meter is opened) and the models they read:\n\n");
	meter_drivers_describe(meter_registry, fp);
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
	static const struct option opts[] = {
		{ "sysfs-root", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *sysfs_root = "";
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			sysfs_root = optarg;
			break;
		case 'h':
			meters_usage(stdout);
			return EXIT_OK;
		default:
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		log_err(MOD, "unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	printf("Serial ports:\n");
	serial_list_ports(stdout);
	printf("Bluetooth serial (RFCOMM):\n");
	list_rfcomm(stdout);
	printf("iowatt emulators (EMULATED, not real meters):\n");
	if (!emureg_list(stdout))
		printf("  (none; 'iowatt emulate um25c --link PATH' starts one)\n");
	meter_drivers_scan(meter_registry, sysfs_root, stdout);
	printf("Event sources (undervoltage, throttling, kernel log, GPIO) and temperatures:\n");
	sources_describe(sysfs_root, stdout);
	printf("Hand readings of a display-only tester:\n"
	       "    spec: manual:idle_ma=85,active_ma=310,v=5.05[,tail_ma=...]\n");
	printf("Meter drivers and their keys (iowatt meters --help says what each means):\n");
	meter_drivers_summary(meter_registry, stdout);
	fflush(stdout);
	return EXIT_OK;
}
