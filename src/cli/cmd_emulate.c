/* SPDX-License-Identifier: MIT */
/* `iowatt emulate METER --link PATH`: an emulated meter on a pty (meters/emu), exit codes. */
#include <signal.h>
#include <stdio.h>

#include "cli/commands.h"
#include "core/cmdline.h"
#include "core/mem.h"
#include "core/signals.h"
#include "meters/emu/emu.h"
#include "meters/registry/registry.h"

static struct emu_signals emu_sig;

/* The meters an emulator speaks, one a line: after the options in --help and the man page. */
static void emulate_epilog(FILE *fp)
{
	const struct emu_protocol *p;
	size_t i;

	fprintf(fp, "Meters (METER):\n");
	for (i = 0; (p = meter_emulator(meter_registry, i)); i++)
		fprintf(fp, "  %-10s %s\n", p->name, p->summary);
	fprintf(fp,
		"\n"
		"Default figures: a 2.5\" SATA SSD in a USB 3 enclosure. SATA SSD datasheets give\n"
		"~0.3-0.5 W idle and 2-4 W active; with the bridge that is ~80 mA idle and\n"
		"~600-700 mA at 400 MB/s on 5 V, so 1.5 mA per MB/s. Small random I/O costs\n"
		"controller and flash work beyond its bytes: 15 mA per kIOPS puts a USB SSD\n"
		"at ~10 kIOPS of 4 KiB near 1.5 W. Rounded, typical figures, not a measurement\n"
		"of any one device.\n");
}

const struct cmdline *emulate_cmdline(void)
{
	static struct cmdline line = {
		.name = "emulate",
		.summary = "emulate a USB tester on a pseudo-terminal",
		.synopsis = "METER --link PATH [OPTIONS]",
		.about = "An EMULATED meter on a pseudo-terminal, speaking its protocol as the real "
			 "meter does. Every iowatt output that reads it says EMULATED. Point a meter "
			 "spec at PATH, e.g. --meter um25c:PATH.",
		.operands = "METER",
		.operands_complete = "emulators",
		.epilog = emulate_epilog,
	};

	if (!line.opts)
		line.opts = emu_options(&line.nopts);
	return &line;
}

/* SIGUSR1 and SIGUSR2 start a stall and a hang-up (the --stall/--hangup help). */
static void emu_on_signal(int sig)
{
	if (sig == SIGUSR1)
		emu_sig.stall = 1;
	else if (sig == SIGUSR2)
		emu_sig.hangup = 1;
	else
		emu_sig.stop = sig;
}

int cmd_emulate(int argc, char **argv)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGUSR1, SIGUSR2 };
	struct emu *e;
	int rc;

	rc = emu_from_args(meter_registry, emulate_cmdline(), argc, argv, &e);
	if (rc)
		return rc > 0 ? EXIT_OK : EXIT_USAGE;
	signals_set(emu_on_signal, sigs, ARRAY_SIZE(sigs));
	rc = emu_run(e, &emu_sig);
	emu_free(e);
	if (rc)
		return EXIT_FAIL;
	if (emu_sig.stop)
		return emu_sig.stop == SIGINT ? EXIT_SIGINT : EXIT_SIGTERM;
	return EXIT_OK;
}
