/* SPDX-License-Identifier: MIT */
/* The end-of-run table: one aligned row per job and loop. */
#ifndef IOWATT_SUMMARY_H
#define IOWATT_SUMMARY_H

#include <stdio.h>

#include "result/report.h"

void report_print_summary(FILE *fp, const struct run_report *r);

#endif
