/* SPDX-License-Identifier: MIT */
/* The end-of-run tables: one aligned row per job and loop, then each job over its rounds. */
#ifndef IOWATT_SUMMARY_H
#define IOWATT_SUMMARY_H

#include <stdio.h>

#include "result/result.h"

void summary_print_summary(FILE *fp, const struct run_result *r);

#endif
