/* SPDX-License-Identifier: MIT */
/* A result's text streamed before jansson builds it (result_scan.c). */
#ifndef IOWATT_RESULT_SCAN_H
#define IOWATT_RESULT_SCAN_H

#include <stddef.h>

/*
 * Values jansson may build from one result, an object counting four: a run of a thousand
 * jobs with a day of temperature samples holds a few hundred thousand; jansson spends
 * 40-100 bytes on each (at most about 200 MB in all).
 */
#define RESULT_MAX_VALUES 2000000u
/* Longer than every key of the key tables: a longer key is an unknown one. */
#define RESULT_SCAN_KEY_MAX 64

/*
 * Read path (a regular file of at most RESULT_MAX_BYTES) in pieces, check it as JSON and
 * return in *out (xmalloc'd, NUL-terminated, *out_len bytes) the document without the
 * value of any key the key tables do not know: a 0 stands for it, its line breaks kept.
 * 0, or -errno logged: "path:line:col: what" for broken JSON, more than
 * RESULT_MAX_VALUES values left or nesting deeper than 256.
 */
int result_scan_file(const char *path, char **out, size_t *out_len);
/* The same over text in memory (len bytes, NUL-terminated); origin names it in errors. */
int result_scan_text(const char *text, size_t len, const char *origin, char **out,
		     size_t *out_len);

#endif
