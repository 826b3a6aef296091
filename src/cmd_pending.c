/* SPDX-License-Identifier: MIT */
/* Weak fallbacks for commands whose modules are not linked into this build yet. */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "commands.h"
#include "log.h"
#include "meter.h"

#define PENDING(fn, what)                                                            \
	__attribute__((weak)) int fn(int argc, char **argv)                           \
	{                                                                             \
		(void)argc;                                                           \
		(void)argv;                                                           \
		log_err(NULL, "'%s' is not available in this build", what);           \
		return EXIT_USAGE;                                                    \
	}

PENDING(cmd_run, "run")
PENDING(cmd_measure, "measure")
PENDING(cmd_meters, "meters")
PENDING(cmd_probe, "probe")
PENDING(cmd_emulate, "emulate")
PENDING(cmd_plot, "plot")
PENDING(cmd_compare, "compare")
PENDING(cmd_size, "size")

/*
 * Spec helpers used by meter drivers until the meter core (meters/meter.c) is linked;
 * its strong definitions replace these.
 */
__attribute__((weak)) const char *meter_param(const struct meter_dev *dev, const char *key)
{
	unsigned i;

	for (i = 0; i < dev->nparams; i++)
		if (!strcmp(dev->params[i].key, key))
			return dev->params[i].val;
	return NULL;
}

__attribute__((weak)) int meter_check_params(const struct meter_dev *dev, const char *const *known)
{
	unsigned i, k;

	for (i = 0; i < dev->nparams; i++) {
		for (k = 0; known && known[k]; k++)
			if (!strcmp(dev->params[i].key, known[k]))
				break;
		if (!known || !known[k]) {
			log_err("meter", "%s: unknown key '%s'", dev->spec, dev->params[i].key);
			return -EINVAL;
		}
	}
	return 0;
}
