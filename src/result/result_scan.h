/* SPDX-License-Identifier: MIT */
/* A result's text walked before jansson builds it (result_scan.c). */
#ifndef IOWATT_RESULT_SCAN_H
#define IOWATT_RESULT_SCAN_H

#include <stddef.h>

/*
 * Values jansson may build from one result: a run of a thousand jobs with a day of
 * temperature samples holds a few hundred thousand; jansson spends 40-100 bytes on each.
 */
#define RESULT_MAX_VALUES 2000000u

/*
 * Check text (len bytes, NUL-terminated) as JSON and, in place, blank each value under a
 * key the key tables do not know (0 and spaces; line breaks kept). 0, or -EINVAL logged
 * as "origin:line:col: what" for broken JSON or more than RESULT_MAX_VALUES kept values.
 */
int result_scan(char *text, size_t len, const char *origin);

#endif
