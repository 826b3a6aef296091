/* SPDX-License-Identifier: MIT */
/* The end-of-run tables: one aligned row per job and loop, then each job over its rounds. */
#ifndef IOWATT_SUMMARY_H
#define IOWATT_SUMMARY_H

#include <stdio.h>

#include "result/result.h"

void summary_print_summary(FILE *fp, const struct run_result *r);
/* The notes under the table: size=auto's choices, a board-level meter's share of CPU,
 * floods of events, what measure's command left running. */
void summary_print_notes(FILE *fp, const struct run_result *r);
/* Each job over its rounds (r->summary), names padded to nw; nothing without rounds. */
void summary_print_rounds(FILE *fp, const struct run_result *r, int nw);

#endif
