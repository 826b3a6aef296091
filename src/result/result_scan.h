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
/*
 * The text jansson reads, at most: the known keys' values as written and the line breaks of
 * what was dropped. A result of RESULT_MAX_VALUES values written by iowatt is a few tens of
 * MB; a file that would hand on more is refused before jansson copies it.
 */
#define RESULT_MAX_KEPT_BYTES (48u << 20)
/* A key of an object without a key table (a job's options): longer ones are refused. */
#define RESULT_MAX_KEY_BYTES 1024u
/* Longer than every key of the key tables: a longer key is an unknown one. */
#define RESULT_SCAN_KEY_MAX 64

/*
 * Read path (a regular file of at most RESULT_MAX_BYTES) in pieces, check it as JSON and
 * return in *out (xmalloc'd, NUL-terminated, *out_len bytes) the document without the
 * members whose keys the key tables do not know: key and value gone, their line breaks
 * kept. 0, or -errno logged: "path:line:col: what" for broken JSON, more than
 * RESULT_MAX_VALUES values or RESULT_MAX_KEPT_BYTES of text left, a table-less object's
 * key over RESULT_MAX_KEY_BYTES, or nesting deeper than 256.
 */
int result_scan_file(const char *path, char **out, size_t *out_len);
/* The same over text in memory (len bytes, NUL-terminated); origin names it in errors. */
int result_scan_text(const char *text, size_t len, const char *origin, char **out,
		     size_t *out_len);

#endif
