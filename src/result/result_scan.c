/* SPDX-License-Identifier: MIT */
/* A result's text walked before it is built: what no key reads is blanked, the rest counted. */
#include <errno.h>
#include <string.h>

#include "core/log.h"
#include "core/text.h"
#include "result/result_scan.h"
#include "result/result_schema.h"

#define MOD "result"
/* Deeper than any result; far below jansson's own limit (2048), so jansson never meets it. */
#define SCAN_MAX_DEPTH 256
#define HEX_DIGITS 4

/*
 * The parse is bounded, not only the file: jansson builds every value it reads (about 40
 * bytes for a "0," of two), so 250 MB of zeros under a key iowatt does not know cost
 * 5 GB. Here a value under an unknown key is checked as JSON and then overwritten with
 * 0 and spaces (line breaks kept: jansson's line numbers stay the file's), and the values
 * that are left are counted against RESULT_MAX_VALUES.
 */
struct scan {
	char *text;
	size_t len, pos;
	const char *origin;
	size_t values;
	unsigned depth;
	const char *err;
};

/* What a value is expected to hold. */
struct want {
	const struct result_schema *obj; /* an object of these keys */
	const struct result_schema *arr; /* an array of such objects */
	int skip;			 /* under an unknown key: blanked, not counted */
};

static int fail(struct scan *s, const char *what)
{
	s->err = what;
	return -EINVAL;
}

static void ws(struct scan *s)
{
	while (s->pos < s->len && strchr(" \t\r\n", s->text[s->pos]) && s->text[s->pos])
		s->pos++;
}

static int peek(const struct scan *s)
{
	return s->pos < s->len ? (unsigned char)s->text[s->pos] : -1;
}

static int hex(int c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* A string at pos (its opening quote); its raw bytes between the quotes in *at, *n. */
static int scan_string(struct scan *s, const char **at, size_t *n)
{
	size_t start = ++s->pos, k;
	int c;

	for (;;) {
		c = peek(s);
		if (c < 0)
			return fail(s, "unterminated string");
		if (c == '"')
			break;
		if (c < 0x20)
			return fail(s, "control character in a string");
		if (c == '\\') {
			c = s->pos + 1 < s->len ? s->text[s->pos + 1] : 0;
			if (c == 'u') {
				for (k = 2; k < 2 + HEX_DIGITS; k++)
					if (s->pos + k >= s->len || !hex(s->text[s->pos + k]))
						return fail(s, "bad \\u escape");
				s->pos += 2 + HEX_DIGITS;
				continue;
			}
			if (!c || !strchr("\"\\/bfnrt", c))
				return fail(s, "bad escape in a string");
			s->pos += 2;
			continue;
		}
		k = text_utf8_len(s->text + s->pos);
		if (!k)
			return fail(s, "invalid UTF-8 in a string");
		s->pos += k;
	}
	*at = s->text + start;
	*n = s->pos - start;
	s->pos++;
	return 0;
}

static int digits(struct scan *s)
{
	size_t start = s->pos;

	while (peek(s) >= '0' && peek(s) <= '9')
		s->pos++;
	return s->pos > start ? 0 : fail(s, "bad number");
}

static int scan_number(struct scan *s)
{
	if (peek(s) == '-')
		s->pos++;
	if (peek(s) == '0')
		s->pos++;
	else if (digits(s))
		return -EINVAL;
	if (peek(s) == '.') {
		s->pos++;
		if (digits(s))
			return -EINVAL;
	}
	if (peek(s) == 'e' || peek(s) == 'E') {
		s->pos++;
		if (peek(s) == '+' || peek(s) == '-')
			s->pos++;
		if (digits(s))
			return -EINVAL;
	}
	return 0;
}

static int scan_word(struct scan *s, const char *w)
{
	size_t n = strlen(w);

	if (s->len - s->pos < n || memcmp(s->text + s->pos, w, n))
		return fail(s, "expected a value");
	s->pos += n;
	return 0;
}

static const struct result_field *field_of(const struct result_schema *sc, const char *key,
					   size_t n)
{
	size_t i;

	/* A key written with escapes is not one the writer writes: unknown. */
	if (!sc || memchr(key, '\\', n))
		return NULL;
	for (i = 0; i < sc->nfields; i++)
		if (strlen(sc->fields[i].key) == n && !memcmp(sc->fields[i].key, key, n))
			return &sc->fields[i];
	return NULL;
}

static struct want want_of(const struct result_field *f)
{
	struct want w = { 0 };

	if (f->type == RF_OBJ || f->type == RF_PTR)
		w.obj = f->sub;
	else if (f->type == RF_ARRAY)
		w.arr = f->sub;
	return w;
}

/* A value jansson will build: one more against the cap. */
static int count(struct scan *s, const struct want *w)
{
	if (w->skip || ++s->values <= RESULT_MAX_VALUES)
		return 0;
	return fail(s, "more values than any result holds");
}

static int scan_value(struct scan *s, struct want w);

/* Keeps a key's value when its object's table knows the key, else checks and blanks it. */
static int scan_member(struct scan *s, const struct want *w)
{
	const struct result_field *f;
	struct want child = { .skip = w->skip };
	const char *key;
	size_t n, start, i;
	int rc;

	if (peek(s) != '"')
		return fail(s, "expected a key");
	rc = scan_string(s, &key, &n);
	if (rc)
		return rc;
	ws(s);
	if (peek(s) != ':')
		return fail(s, "expected ':'");
	s->pos++;
	ws(s);
	f = w->skip ? NULL : field_of(w->obj, key, n);
	if (f)
		child = want_of(f);
	else if (w->obj)
		child.skip = 1; /* an object of known keys, and not one of them */
	start = s->pos;
	rc = scan_value(s, child);
	if (rc || !child.skip || w->skip)
		return rc;
	s->text[start] = '0';
	for (i = start + 1; i < s->pos; i++)
		if (s->text[i] != '\n')
			s->text[i] = ' ';
	return 0;
}

static int scan_container(struct scan *s, const struct want *w, int close)
{
	struct want elem = { .obj = w->arr, .skip = w->skip };
	int rc;

	if (++s->depth > SCAN_MAX_DEPTH)
		return fail(s, "nested too deep");
	s->pos++;
	ws(s);
	if (peek(s) == close) {
		s->pos++;
		s->depth--;
		return 0;
	}
	for (;;) {
		rc = close == '}' ? scan_member(s, w) : scan_value(s, elem);
		if (rc)
			return rc;
		ws(s);
		if (peek(s) == close)
			break;
		if (peek(s) != ',')
			return fail(s, close == '}' ? "expected ',' or '}'" : "expected ',' or ']'");
		s->pos++;
		ws(s);
	}
	s->pos++;
	s->depth--;
	return 0;
}

static int scan_value(struct scan *s, struct want w)
{
	const char *str;
	size_t n;
	int c = peek(s), rc = count(s, &w);

	if (rc)
		return rc;
	switch (c) {
	case '{':
		w.arr = NULL;
		return scan_container(s, &w, '}');
	case '[':
		w.obj = NULL;
		return scan_container(s, &w, ']');
	case '"':
		return scan_string(s, &str, &n);
	case 't':
		return scan_word(s, "true");
	case 'f':
		return scan_word(s, "false");
	case 'n':
		return scan_word(s, "null");
	default:
		if (c == '-' || (c >= '0' && c <= '9'))
			return scan_number(s);
		return fail(s, "expected a value");
	}
}

/* "file:LINE:COL: what", as jansson's errors read. */
static void report(const struct scan *s)
{
	size_t i, line = 1, col = 1;

	for (i = 0; i < s->pos && i < s->len; i++) {
		col++;
		if (s->text[i] == '\n') {
			line++;
			col = 1;
		}
	}
	if (s->values > RESULT_MAX_VALUES)
		log_err(MOD, "%s:%zu:%zu: more than %u values: no result iowatt writes is this "
			"large; not read", s->origin, line, col, (unsigned)RESULT_MAX_VALUES);
	else
		log_err(MOD, "%s:%zu:%zu: %s", s->origin, line, col, s->err);
}

int result_scan(char *text, size_t len, const char *origin)
{
	struct scan s = { .text = text, .len = len, .origin = origin };
	struct want root = { .obj = &result_run_schema };
	int rc;

	ws(&s);
	rc = scan_value(&s, root);
	if (!rc) {
		ws(&s);
		if (s.pos < s.len)
			rc = fail(&s, "end of file expected");
	}
	if (rc)
		report(&s);
	return rc;
}
