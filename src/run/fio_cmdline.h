/* SPDX-License-Identifier: MIT */
/* --explain fio: the fio command line of each job. */
#ifndef IOWATT_FIO_CMDLINE_H
#define IOWATT_FIO_CMDLINE_H

#include <stdio.h>

#include "io/job.h"

/* Per job of cfg, a shell-quoted fio command that runs the same I/O on cfg's target;
 * nothing is opened or written. 0 or -EIO. */
int fio_cmdline_print(FILE *fp, const struct run_config *cfg);

#endif
