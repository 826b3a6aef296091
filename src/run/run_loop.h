/* SPDX-License-Identifier: MIT */
/* A whole `iowatt run` or `iowatt measure`, once its configuration is known. */
#ifndef IOWATT_RUN_LOOP_H
#define IOWATT_RUN_LOOP_H

#include "io/job.h"

/* How a run ended: what the caller's exit status is made of. */
struct run_outcome {
	int ran;	  /* the set-up went through and the jobs ran (or were stopped) */
	int signal;	  /* the signal that stopped the run (SIGINT, SIGTERM, ...), 0 if none */
	int undervoltage; /* --stop-on-undervoltage stopped it */
	int any_failed;	  /* a job failed */
	/* Jobs that finished with figures nobody should publish (--strict): INVALID, or valid
	 * with a headline uncertainty over its limit (UNCERTAIN). */
	int any_invalid, any_uncertain;
};

/*
 * --dry-run: the plan only (the target is looked at, never opened). Otherwise the target,
 * meters, event sources and outputs are opened, the plan printed, every job run in rounds
 * (measure: cfg->cmd_argv in one job), the result written and the summary printed.
 * command is the command line as the result records it. Returns 0, or the -errno (logged)
 * that stopped the set-up (out->ran 0) or the writing of the final result (out->ran 1).
 */
int run_execute(const struct run_config *cfg, const char *command, int measure,
		struct run_outcome *out);

#endif
