/* SPDX-License-Identifier: MIT */
/* Cleaning untrusted text (control bytes, broken UTF-8) and escaping it for CSV, markdown and the shell. */
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "core/text.h"

#define ASCII_DEL 0x7f
#define UTF8_CONT(b) (((b) & 0xC0) == 0x80)

/*
 * Length of the valid UTF-8 sequence at p (1..4), 0 when p does not start one: overlong
 * forms, surrogates and code points past U+10FFFF are invalid (RFC 3629).
 */
static size_t utf8_len(const unsigned char *p)
{
	unsigned char c = p[0];

	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF)
		return UTF8_CONT(p[1]) ? 2 : 0;
	if (c >= 0xE0 && c <= 0xEF) {
		if ((c == 0xE0 && p[1] < 0xA0) || (c == 0xED && p[1] > 0x9F))
			return 0;
		return UTF8_CONT(p[1]) && UTF8_CONT(p[2]) ? 3 : 0;
	}
	if (c >= 0xF0 && c <= 0xF4) {
		if ((c == 0xF0 && p[1] < 0x90) || (c == 0xF4 && p[1] > 0x8F))
			return 0;
		return UTF8_CONT(p[1]) && UTF8_CONT(p[2]) && UTF8_CONT(p[3]) ? 4 : 0;
	}
	return 0;
}

/*
 * Characters that steer how text is shown rather than being text: C0 and C1 controls,
 * DEL, the bidirectional overrides and isolates (U+202A..U+202E, U+2066..U+2069),
 * which can make a table cell read as something else than it holds, and U+FFFE, U+FFFF.
 */
static int is_control(const unsigned char *p, size_t n)
{
	if (n == 1)
		return p[0] < 0x20 || p[0] == ASCII_DEL;
	if (n == 2)
		return p[0] == 0xC2 && p[1] < 0xA0;
	/* U+FFFE and U+FFFF are no characters at all: XML forbids them, so an SVG chart or
	 * the page holding one would not be well-formed. */
	if (n == 3 && p[0] == 0xEF && p[1] == 0xBF && p[2] >= 0xBE)
		return 1;
	if (n == 3 && p[0] == 0xE2)
		return (p[1] == 0x80 && p[2] >= 0xAA && p[2] <= 0xAE) ||
		       (p[1] == 0x81 && p[2] >= 0xA6 && p[2] <= 0xA9);
	return 0;
}

size_t text_utf8_len(const char *p)
{
	return utf8_len((const unsigned char *)p);
}

char *text_clean(char *s)
{
	unsigned char *p = (unsigned char *)s;
	size_t n;

	while (*p) {
		n = utf8_len(p);
		if (!n) {
			*p++ = '?';
			continue;
		}
		if (is_control(p, n))
			memset(p, ' ', n);
		p += n;
	}
	return s;
}

char *text_escape_invalid(const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	char *out = xmalloc(strlen((const char *)p) * 4 + 1), *o = out;
	size_t n;

	while (*p) {
		n = utf8_len(p);
		if (!n) {
			o += sprintf(o, "\\x%02x", *p++);
			continue;
		}
		memcpy(o, p, n);
		o += n;
		p += n;
	}
	*o = '\0';
	return out;
}

char *text_clean_dup(const char *s)
{
	return text_clean(xstrdup(s ? s : ""));
}

int text_is_clean(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n;

	while (*p) {
		n = utf8_len(p);
		if (!n || is_control(p, n))
			return 0;
		p += n;
	}
	return 1;
}

char *text_fit(const char *s, size_t max, char *buf, size_t len)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t out = 0, n;

	if (max + 4 > len)
		max = len > 4 ? len - 4 : 0;
	while (*p) {
		n = utf8_len(p);
		if (!n)
			n = 1;
		if (out + n > max) {
			memcpy(buf + out, "...", 4);
			return text_clean(buf);
		}
		memcpy(buf + out, p, n);
		out += n;
		p += n;
	}
	buf[out] = '\0';
	return text_clean(buf);
}

void text_csv_field(FILE *fp, const char *s)
{
	char *c = text_clean_dup(s);
	const char *p;

	/* text_clean turned tab and CR into spaces: a leading space is harmless. */
	if (c[0] && strchr("=+-@", c[0])) {
		fputs("\"'", fp);
	} else if (strpbrk(c, ",\"")) {
		fputc('"', fp);
	} else {
		fputs(c, fp);
		free(c);
		return;
	}
	for (p = c; *p; p++) {
		if (*p == '"')
			fputc('"', fp);
		fputc(*p, fp);
	}
	fputc('"', fp);
	free(c);
}

/*
 * A '|' ends a table cell; emphasis, code spans, links and inline HTML start with the
 * others. A backslash escapes each (CommonMark), itself included.
 */
static int md_special(char c)
{
	return c && strchr("|\\`*_[]<>", c) != NULL;
}

char *text_md_escape(const char *s, char *buf, size_t len)
{
	char *c = text_clean_dup(s);
	size_t out = 0, i;

	for (i = 0; c[i] && out + 2 < len; i++) {
		if (md_special(c[i]))
			buf[out++] = '\\';
		buf[out++] = c[i];
	}
	if (len)
		buf[out < len ? out : len - 1] = '\0';
	free(c);
	/* A cut inside a character leaves a broken sequence at the end. */
	return text_clean(buf);
}

size_t text_extra_bytes(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xC0) == 0x80;
	return n;
}

size_t text_split_commas(char *line, char **f, size_t max)
{
	size_t n = 0;
	char *p = line;

	line[strcspn(line, "\r\n")] = '\0';
	while (n < max) {
		f[n++] = p;
		p = strchr(p, ',');
		if (!p)
			break;
		*p++ = '\0';
	}
	return n;
}

void text_shell_word(FILE *fp, const char *w)
{
	const char *p;

	if (*w && strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
			    "_-+=.,/:@%") == strlen(w)) {
		fputs(w, fp);
		return;
	}
	fputc('\'', fp);
	for (p = w; *p; p++)
		if (*p == '\'')
			fputs("'\\''", fp);
		else
			fputc(*p, fp);
	fputc('\'', fp);
}
