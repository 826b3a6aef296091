/* SPDX-License-Identifier: MIT */
/* Text from files on its way out: cleaned of control bytes, escaped for CSV and markdown. */
#ifndef IOWATT_TEXT_H
#define IOWATT_TEXT_H

#include <stddef.h>
#include <stdio.h>

/*
 * In place: control characters (C0, DEL, C1) become spaces and bytes that are not valid
 * UTF-8 become '?', one byte for one, so a string from a result, the kernel or a file
 * name can neither move a terminal's cursor, break a line of a table or a chart script,
 * nor be rejected as JSON when written back. Returns s.
 */
char *text_clean(char *s);
/*
 * A copy (xmalloc'd) where each byte that is not part of valid UTF-8 is written "\xNN":
 * a kernel log line in another encoding is kept, readable and valid JSON, with nothing
 * of it lost or guessed.
 */
char *text_escape_invalid(const char *s);
/*
 * Length of the valid UTF-8 sequence at p (1..4), 0 when p does not start one (overlong,
 * surrogate, past U+10FFFF). p is NUL-terminated: a cut sequence reads as invalid.
 */
size_t text_utf8_len(const char *p);
/* A cleaned copy (xmalloc'd). */
char *text_clean_dup(const char *s);
/* Whether s is valid UTF-8 without control characters (what text_clean leaves). */
int text_is_clean(const char *s);
/*
 * A cleaned copy of at most max bytes (cut at a character boundary, "..." appended when
 * cut) in buf of len bytes (len > max + 3). Returns buf.
 */
char *text_fit(const char *s, size_t max, char *buf, size_t len);

/* Bytes of s beyond the columns it takes on screen (UTF-8 continuation bytes: "µA" is
 * 1), what a printf width must add to pad it by characters. */
size_t text_extra_bytes(const char *s);

/*
 * One CSV field (RFC 4180): quoted when it holds a comma, quote or line break; a field a
 * spreadsheet would run as a formula (leading = + - @, tab or CR) gets a leading
 * apostrophe. For text fields only: numbers are printed as numbers.
 */
void text_csv_field(FILE *fp, const char *s);
/* A line (its line break dropped) split in place at its commas, without quoting (iowatt's
 * own numeric CSVs): f[] gets the fields, at most max of them; the count. */
size_t text_split_commas(char *line, char **f, size_t max);
/* One shell word: as it is when it is plain, else in single quotes ('\'' for a quote), so
 * a command line written with it can be pasted back into a shell and split as it was. */
void text_shell_word(FILE *fp, const char *w);
/* Markdown text (a table cell) into a buffer: cleaned, and | \ ` * _ [ ] < > escaped by a
 * backslash, cut to len. Returns buf. */
char *text_md_escape(const char *s, char *buf, size_t len);

#endif
