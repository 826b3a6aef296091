/* SPDX-License-Identifier: MIT */
/* A result's text streamed before it is built: what no key reads is dropped, the rest counted. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/input.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/text.h"
#include "result/result.h"
#include "result/result_scan.h"
#include "result/result_schema.h"

#define MOD "result"
/* Deeper than any result; far below jansson's own limit (2048), so jansson never meets it. */
#define SCAN_MAX_DEPTH 256
#define HEX_DIGITS 4
/* Read in pieces of this size: the file is never in memory whole. */
#define SCAN_CHUNK (64 * 1024)
/* The longest look-ahead: a backslash, 'u' and four hex digits, or "false". */
#define SCAN_AHEAD 8

/*
 * The parse is bounded, not only the file: jansson builds every value it reads (about 40
 * bytes for a "0," of two), so 250 MB of zeros under a key iowatt does not know cost
 * 5 GB. Here the file is read in pieces and checked as JSON, and the text handed on to
 * jansson leaves out the value of every unknown key: a 0 stands for it, and only its
 * line breaks are kept, so jansson's line numbers stay the file's. The values that are
 * left are counted against RESULT_MAX_VALUES.
 */
struct scan {
	int fd;			  /* -1: the whole text is in buf */
	const char *buf;	  /* the window: buf[at..have) not yet read */
	char *chunk;		  /* buf's storage when reading fd */
	size_t have, at;
	uint64_t total;		  /* bytes of the file read so far */
	int eof;
	char *out;		  /* what jansson reads */
	size_t out_len, out_cap;
	int dropping;		  /* inside an unknown key's value: only line breaks kept */
	size_t line, col;	  /* where the next byte is, for errors */
	const char *origin;
	size_t values;
	int over_bytes;		  /* what jansson would read passed RESULT_MAX_KEPT_BYTES */
	unsigned depth;
	const char *err;
	int io_err;
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

/* At least n bytes in the window unless the file ends first. */
static void fill(struct scan *s, size_t n)
{
	ssize_t got;

	if (s->fd < 0 || s->eof || s->have - s->at >= n)
		return;
	memmove(s->chunk, s->chunk + s->at, s->have - s->at);
	s->have -= s->at;
	s->at = 0;
	while (s->have < n && !s->eof) {
		got = read(s->fd, s->chunk + s->have, SCAN_CHUNK - s->have);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			s->io_err = -errno;
		if (got <= 0) {
			s->eof = 1;
			break;
		}
		s->have += (size_t)got;
		s->total += (size_t)got;
		/* A file that grows while read is still cut at the cap. */
		if (s->total > RESULT_MAX_BYTES) {
			s->io_err = -EFBIG;
			s->eof = 1;
		}
	}
	s->chunk[s->have] = '\0';
}

/* The byte k ahead, or -1 past the end. */
static int ahead(struct scan *s, size_t k)
{
	fill(s, k + 1);
	return s->at + k < s->have ? (unsigned char)s->buf[s->at + k] : -1;
}

static int peek(struct scan *s)
{
	return ahead(s, 0);
}

static void emit(struct scan *s, char c)
{
	if (s->out_len >= RESULT_MAX_KEPT_BYTES) {
		s->over_bytes = 1;
		return;
	}
	if (s->out_len + 1 >= s->out_cap) {
		s->out_cap = s->out_cap ? 2 * s->out_cap : SCAN_CHUNK;
		s->out = xrealloc(s->out, s->out_cap);
	}
	s->out[s->out_len++] = c;
}

/* Read n bytes (in the window) on into what jansson gets, or past it when dropping. */
static void take(struct scan *s, size_t n)
{
	const char *p = s->buf + s->at;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!s->dropping || p[i] == '\n')
			emit(s, p[i]);
		s->col++;
		if (p[i] == '\n') {
			s->line++;
			s->col = 1;
		}
	}
	s->at += n;
}

static void ws(struct scan *s)
{
	int c;

	while ((c = peek(s)) == ' ' || c == '\t' || c == '\r' || c == '\n')
		take(s, 1);
}

static int hex(int c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/*
 * A string at its opening quote; a key's bytes (up to len - 1, escapes as written) in key.
 * max: the most bytes it may have as written (0: any; the kept text's bound holds anyway).
 */
static int scan_string(struct scan *s, char *key, size_t len, size_t max)
{
	size_t n = 0, k, total = 0;
	int c;

	take(s, 1);
	for (;;) {
		c = peek(s);
		if (c < 0)
			return fail(s, "unterminated string");
		if (c == '"')
			break;
		if (c < 0x20)
			return fail(s, "control character in a string");
		if (c == '\\') {
			c = ahead(s, 1);
			if (c == 'u') {
				for (k = 2; k < 2 + HEX_DIGITS; k++)
					if (!hex(ahead(s, k)))
						return fail(s, "bad \\u escape");
				k = 2 + HEX_DIGITS;
			} else if (c > 0 && strchr("\"\\/bfnrt", c)) {
				k = 2;
			} else {
				return fail(s, "bad escape in a string");
			}
		} else {
			fill(s, SCAN_AHEAD);
			k = text_utf8_len(s->buf + s->at);
			if (!k)
				return fail(s, "invalid UTF-8 in a string");
		}
		total += k;
		if (max && total > max)
			return fail(s, "a key longer than any result's");
		if (key && n + k < len) {
			memcpy(key + n, s->buf + s->at, k);
			n += k;
		} else if (key) {
			len = 0; /* longer than any known key */
		}
		take(s, k);
	}
	if (key)
		key[len ? n : 0] = '\0';
	take(s, 1);
	return 0;
}

static int digits(struct scan *s)
{
	size_t n = 0;

	for (; peek(s) >= '0' && peek(s) <= '9'; n++)
		take(s, 1);
	return n ? 0 : fail(s, "bad number");
}

static int scan_number(struct scan *s)
{
	if (peek(s) == '-')
		take(s, 1);
	if (peek(s) == '0')
		take(s, 1);
	else if (digits(s))
		return -EINVAL;
	if (peek(s) == '.') {
		take(s, 1);
		if (digits(s))
			return -EINVAL;
	}
	if (peek(s) == 'e' || peek(s) == 'E') {
		take(s, 1);
		if (peek(s) == '+' || peek(s) == '-')
			take(s, 1);
		if (digits(s))
			return -EINVAL;
	}
	return 0;
}

static int scan_word(struct scan *s, const char *w)
{
	size_t n = strlen(w);

	fill(s, n);
	if (s->have - s->at < n || memcmp(s->buf + s->at, w, n))
		return fail(s, "expected a value");
	take(s, n);
	return 0;
}

/* A key written with escapes is not one the writer writes: unknown. */
static const struct result_field *field_of(const struct result_schema *sc, const char *key)
{
	size_t i;

	for (i = 0; sc && i < sc->nfields; i++)
		if (!strcmp(sc->fields[i].key, key))
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

/*
 * A value jansson will build, against the cap. An object costs jansson its hash table
 * too: about four times a number or a short string (340 MB for a million {"a": 0}, 90 MB
 * for two million zeros), so it counts four.
 */
#define OBJECT_WEIGHT 4

static int count(struct scan *s, const struct want *w, int c)
{
	if (w->skip)
		return 0;
	s->values += c == '{' ? OBJECT_WEIGHT : 1;
	return s->values <= RESULT_MAX_VALUES ? 0 : fail(s, "more values than any result holds");
}

static int scan_value(struct scan *s, struct want w);

/*
 * Keeps a member when its object's table knows the key (or the object has no table: a
 * job's options, anyone's keys), else checks it and drops it whole, key and value, keeping
 * only its line breaks: an unknown member costs jansson nothing, however many there are.
 * The comma before a kept member is written here, as only now is it known that one
 * precedes (kept: members of this object kept so far); mark is where the text before the
 * member (the space after the comma) began in what jansson reads.
 */
static int scan_member(struct scan *s, const struct want *w, unsigned *kept, size_t mark)
{
	const struct result_field *f;
	struct want child = { .skip = w->skip };
	char key[RESULT_SCAN_KEY_MAX];
	size_t i, nl = 0;
	int rc, known, was;

	if (peek(s) != '"')
		return fail(s, "expected a key");
	if (*kept && !w->skip)
		emit(s, ',');
	/* A key of a table's object goes on only once it is known to be one of the table's:
	 * an unknown one, however long, costs nothing of the bound on what is kept. */
	was = s->dropping;
	s->dropping |= w->obj != NULL;
	rc = scan_string(s, w->skip ? NULL : key, sizeof(key),
			 w->obj || w->skip ? 0 : RESULT_MAX_KEY_BYTES);
	s->dropping = was;
	if (rc)
		return rc;
	f = w->skip || !w->obj || strchr(key, '\\') ? NULL : field_of(w->obj, key);
	if (f) {
		emit(s, '"');
		for (i = 0; key[i]; i++)
			emit(s, key[i]);
		emit(s, '"');
	}
	ws(s);
	if (peek(s) != ':')
		return fail(s, "expected ':'");
	take(s, 1);
	ws(s);
	if (f)
		child = want_of(f);
	known = !w->skip && (f || !w->obj);
	if (known || w->skip) {
		*kept += known;
		/* a key of a table-less object is built too: it counts as a value */
		if (known && !w->obj && (rc = count(s, &child, 0)))
			return rc;
		return scan_value(s, child);
	}
	/* an object of known keys, and not one of them: gone but for its line breaks */
	for (i = mark; i < s->out_len; i++)
		nl += s->out[i] == '\n';
	s->out_len = mark;
	while (nl--)
		emit(s, '\n');
	child.skip = 1;
	s->dropping = 1;
	rc = scan_value(s, child);
	s->dropping = 0;
	return rc;
}

static int scan_container(struct scan *s, const struct want *w, int close)
{
	struct want elem = { .obj = w->arr, .skip = w->skip };
	unsigned kept = 0;
	size_t mark;
	int rc, was;

	if (++s->depth > SCAN_MAX_DEPTH)
		return fail(s, "nested too deep");
	take(s, 1);
	mark = s->out_len;
	ws(s);
	if (peek(s) == close) {
		take(s, 1);
		s->depth--;
		return 0;
	}
	for (;;) {
		rc = close == '}' ? scan_member(s, w, &kept, mark) : scan_value(s, elem);
		if (rc)
			return rc;
		ws(s);
		if (peek(s) == close)
			break;
		if (peek(s) != ',')
			return fail(s, close == '}' ? "expected ',' or '}'" : "expected ',' or ']'");
		/* an object's comma goes out with the next member, if that one is kept */
		was = s->dropping;
		s->dropping |= close == '}';
		take(s, 1);
		s->dropping = was;
		mark = s->out_len;
		ws(s);
	}
	take(s, 1);
	s->depth--;
	return 0;
}

static int scan_value(struct scan *s, struct want w)
{
	int c = peek(s), rc = count(s, &w, c);

	if (rc)
		return rc;
	if (s->over_bytes)
		return -EFBIG;
	switch (c) {
	case '{':
		w.arr = NULL;
		return scan_container(s, &w, '}');
	case '[':
		w.obj = NULL;
		return scan_container(s, &w, ']');
	case '"':
		return scan_string(s, NULL, 0, 0);
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
	if (s->io_err)
		log_err(MOD, "%s: %s", s->origin, input_strerror(s->io_err));
	else if (s->over_bytes)
		log_err(MOD, "%s:%zu:%zu: more than %u MiB of text under the keys iowatt reads: no "
			"result iowatt writes is this large; not read", s->origin, s->line, s->col,
			(unsigned)(RESULT_MAX_KEPT_BYTES >> 20));
	else if (s->values > RESULT_MAX_VALUES)
		log_err(MOD, "%s:%zu:%zu: more than %u values: no result iowatt writes is this "
			"large; not read", s->origin, s->line, s->col, (unsigned)RESULT_MAX_VALUES);
	else
		log_err(MOD, "%s:%zu:%zu: %s", s->origin, s->line, s->col, s->err);
}

static int scan_run(struct scan *s, char **out, size_t *len)
{
	struct want root = { .obj = &result_run_schema };
	int rc;

	s->line = s->col = 1;
	ws(s);
	rc = scan_value(s, root);
	if (!rc) {
		ws(s);
		if (peek(s) >= 0)
			rc = fail(s, "end of file expected");
	}
	if (s->io_err)
		rc = s->io_err;
	else if (s->over_bytes)
		rc = -EFBIG;
	if (rc) {
		report(s);
		free(s->out);
		*out = NULL;
		*len = 0;
		return rc;
	}
	emit(s, '\0');
	*out = s->out;
	*len = s->out_len - 1;
	return 0;
}

int result_scan_text(const char *text, size_t len, const char *origin, char **out,
		     size_t *out_len)
{
	struct scan s = { .fd = -1, .buf = text, .have = len, .eof = 1, .origin = origin };

	return scan_run(&s, out, out_len);
}

int result_scan_file(const char *path, char **out, size_t *out_len)
{
	struct scan s = { .origin = path };
	int rc;

	*out = NULL;
	*out_len = 0;
	s.fd = input_open(path, 0, RESULT_MAX_BYTES);
	if (s.fd < 0) {
		log_err(MOD, "%s: %s", path, input_strerror(s.fd));
		return s.fd;
	}
	s.chunk = xmalloc(SCAN_CHUNK + 1);
	s.buf = s.chunk;
	rc = scan_run(&s, out, out_len);
	free(s.chunk);
	close(s.fd);
	return rc;
}
