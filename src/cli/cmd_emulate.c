/* SPDX-License-Identifier: MIT */
/* `iowatt emulate METER --link PATH`: an emulated meter on a pty (meters/emu), exit codes. */
#include <signal.h>
#include <string.h>

#include "cli/commands.h"
#include "meters/emu/emu.h"

static volatile sig_atomic_t emu_signal;

static void emu_on_signal(int sig)
{
	emu_signal = sig;
}

int cmd_emulate(int argc, char **argv)
{
	struct sigaction sa;
	struct emu *e;
	int rc;

	rc = emu_from_args(argc, argv, &e);
	if (rc)
		return rc > 0 ? EXIT_OK : EXIT_USAGE;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = emu_on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	rc = emu_run(e, &emu_signal);
	emu_free(e);
	if (rc)
		return EXIT_FAIL;
	if (emu_signal)
		return emu_signal == SIGINT ? EXIT_SIGINT : EXIT_SIGTERM;
	return EXIT_OK;
}
