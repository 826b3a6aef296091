/* SPDX-License-Identifier: MIT */
/* Exit codes: the one place where a -errno that stopped a command becomes its status. */
#include <errno.h>

#include "cli/commands.h"

/*
 * A failure before any work was done: 2 when the command line or a file it names is wrong,
 * 3 when the system refused what was asked (a read-only or full disk, a file that
 * exists, a device in use, no permission), 1 for anything else.
 */
int exit_code_for_errno(int err)
{
	switch (err) {
	case -EINVAL:
	case -ERANGE:
	case -ENOENT:
	case -ENODEV:
	case -ENOTSUP:
	case -EISDIR:
	case -ENOTDIR:
		return EXIT_USAGE;
	case -EPERM:
	case -EACCES:
	case -EEXIST:
	case -EBUSY:
	case -EROFS:
	case -ENOSPC:
		return EXIT_REFUSED;
	default:
		return EXIT_FAIL;
	}
}
