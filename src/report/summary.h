/* SPDX-License-Identifier: MIT */
/* The end-of-run tables: one aligned row per job and loop, then each job over its rounds. */
#ifndef IOWATT_SUMMARY_H
#define IOWATT_SUMMARY_H

#include <stdio.h>

#include "result/report.h"

void report_print_summary(FILE *fp, const struct run_report *r);
/* The notes under the table: size=auto's choices, a board-level meter's share of CPU. */
void report_print_notes(FILE *fp, const struct run_report *r);
/* Each job over its rounds (r->summary), names padded to nw; nothing without rounds. */
void report_print_rounds(FILE *fp, const struct run_report *r, int nw);

#endif
