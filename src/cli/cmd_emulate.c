/* SPDX-License-Identifier: MIT */
/* `iowatt emulate METER --link PATH`: an emulated meter on a pty (meters/emu), exit codes. */
#include <signal.h>
#include <string.h>

#include "cli/commands.h"
#include "meters/emu/emu.h"
#include "meters/registry/registry.h"

static struct emu_signals emu_sig;

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
	struct sigaction sa;
	struct emu *e;
	int rc;

	rc = emu_from_args(meter_registry, argc, argv, &e);
	if (rc)
		return rc > 0 ? EXIT_OK : EXIT_USAGE;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = emu_on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
	rc = emu_run(e, &emu_sig);
	emu_free(e);
	if (rc)
		return EXIT_FAIL;
	if (emu_sig.stop)
		return emu_sig.stop == SIGINT ? EXIT_SIGINT : EXIT_SIGTERM;
	return EXIT_OK;
}
