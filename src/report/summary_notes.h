/* SPDX-License-Identifier: MIT */
/* The end-of-run summary's notes under its table. */
#ifndef IOWATT_SUMMARY_NOTES_H
#define IOWATT_SUMMARY_NOTES_H

#include <stdio.h>

#include "result/result.h"

/* The notes under the table: size=auto's choices, a board-level meter's share of CPU,
 * floods of events, what measure's command left running. */
void summary_print_notes(FILE *fp, const struct run_result *r);

#endif
