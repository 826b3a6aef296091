/* SPDX-License-Identifier: MIT */
/* `iowatt run` in-process with --mark-gpio on an emulated gpiochip0 whose marker line is wired to a PPK2 emulator's input. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "gpio_emul.h"
#include "tap.h"
#include "umock_asan.h"

/*
 * umockdev's GPIO emulation lives in the process that holds the testbed, so the run is
 * cmd_run() called here. The wire is a file: each level the run drives on line 17 is
 * appended with the chip's CLOCK_MONOTONIC time, and `iowatt emulate ppk2 --logic-wire`
 * (started by tests/cli/t_meters_ppk2_marker.sh, which also sets up the device the
 * emulator follows and checks the result) puts it into the samples' digital inputs.
 *
 * Usage: umock_gpio_ppk2 WIRE|- run ARGS...   (- : the line is wired to nothing)
 */

#define MARK_LINE 17

static struct gemu g;

int main(int argc, char **argv)
{
	UMockdevTestbed *tb;
	int rc;

	if (argc < 3) {
		printf("1..0 # skip driven by tests/cli/t_meters_ppk2_marker.sh\n");
		return 0;
	}
	if (gemu_skip())
		return 0;
	tb = gemu_start(&g);
	if (strcmp(argv[1], "-")) {
		g.wire_fd = open(argv[1], O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
		ok(g.wire_fd >= 0, "the wire's file %s", argv[1]);
		g.wire_line = MARK_LINE;
	}
	rc = cmd_run(argc - 2, argv + 2);
	/* an invalid or uncertain job is a verdict in the result, not a failed run */
	ok(rc == EXIT_OK || rc == EXIT_FAIL || rc == EXIT_UNCERTAIN, "the run completes (exit %d)",
	   rc);
	pthread_mutex_lock(&g.lock);
	ok(g.nlog >= 4, "the run drove the marker line (%d levels)", g.nlog);
	pthread_mutex_unlock(&g.lock);
	if (g.wire_fd >= 0)
		close(g.wire_fd);
	g_object_unref(tb);
	return done_testing();
}
