/* SPDX-License-Identifier: MIT */
/* The end-of-run summary's table of each job over its rounds. */
#ifndef IOWATT_SUMMARY_ROUNDS_H
#define IOWATT_SUMMARY_ROUNDS_H

#include <stdio.h>

#include "result/result.h"

/* Each job over its rounds (r->summary), names padded to nw; nothing without rounds. */
void summary_print_rounds(FILE *fp, const struct run_result *r, int nw);

#endif
