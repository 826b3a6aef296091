/* SPDX-License-Identifier: MIT */
/* A page to publish (report --redact): the paths in a text cut to their last parts, host names out. */
#include <ctype.h>
#include <string.h>

#include "core/mem.h"
#include "report/html.h"

/* Ends a path outside quotes: what separates words in a command line or a spec. */
#define PATH_END " ,;\"'()[]{}"
/* Ends a path inside quotes, where a space or a bracket is part of the name. */
#define QUOTED_PATH_END ",;"

/* The "host" of "rfc2217://host:port" and "tcp://host:port": a lab's name, not a path. */
static const char *skip_host(const char *p, char **o)
{
	static const char *const schemes[] = { "rfc2217://", "tcp://", "ssh://" };
	size_t k, len;

	for (k = 0; k < ARRAY_SIZE(schemes); k++) {
		len = strlen(schemes[k]);
		if (strncmp(p, schemes[k], len))
			continue;
		memcpy(*o, schemes[k], len);
		*o += len;
		memcpy(*o, "HOST", 4);
		*o += 4;
		p += len;
		return p + strcspn(p, ":/" PATH_END);
	}
	return NULL;
}

/* "/home/...", "/tmp/...": a path, even glued to a flag ("-o/home/a/x"). */
static int root_dir(const char *p)
{
	static const char *const roots[] = { "home/", "root/", "tmp/", "var/", "mnt/", "media/",
					     "srv/", "run/", "dev/", "opt/", "usr/", "etc/" };
	size_t k;

	for (k = 0; k < ARRAY_SIZE(roots); k++)
		if (!strncmp(p + 1, roots[k], strlen(roots[k])))
			return 1;
	return 0;
}

/* A '/' that starts a path: after a separator, or before a root folder's name ("1/min"
 * and "MB/s" are not paths). */
static int path_start(const char *s, const char *p)
{
	return *p == '/' && (p == s || root_dir(p) ||
			     (!isalnum((unsigned char)p[-1]) && p[-1] != '/' && p[-1] != '.'));
}

/*
 * How far p runs into a path the result names (known): the longest one, or its longest
 * leading folders, that p starts with and that ends where p's word may end. An unquoted
 * command from before quoting ("--target /mnt/my disk") cannot say where its path ends;
 * the result's own paths can. 0 when none matches.
 */
static size_t known_prefix(const char *p, const char *const *known, size_t nknown)
{
	size_t k, len, best = 0;

	for (k = 0; k < nknown; k++) {
		if (!known[k] || known[k][0] != '/')
			continue;
		for (len = strlen(known[k]); len > best; len--) {
			if (len < strlen(known[k]) && known[k][len] != '/')
				continue;
			if (!strncmp(p, known[k], len) &&
			    (!p[len] || p[len] == '/' || strchr(PATH_END, p[len]))) {
				best = len;
				break;
			}
		}
	}
	return best;
}

/* A path's extent: where it ends, where its last part starts (after its last '/' that a name
 * follows: trailing ones are not a part) and the quotes in force there and at its end: a
 * path runs through quotes ("/mnt/'my disk'/x" is one path). */
struct path_span {
	const char *end, *last, *name_end;
	char quote_at_last, quote_at_end;
};

/* The path at p, quoted by quote; it may end only from `from` on (past a known prefix). */
static void path_scan(const char *p, const char *from, char quote, struct path_span *sp)
{
	const char *q, *slash = NULL;
	char slash_quote = quote;

	sp->last = sp->name_end = NULL;
	sp->quote_at_last = quote;
	for (q = p; *q; q++) {
		if (q >= from && strchr(quote ? QUOTED_PATH_END : PATH_END, *q) && *q != '\'' &&
		    *q != '"')
			break;
		/* a path the result names is taken as it is written: its quotes are names */
		if (q >= from && (*q == '\'' || *q == '"')) {
			if (!quote)
				quote = *q;
			else if (quote == *q)
				quote = 0;
			continue;
		}
		if (*q == '/') {
			slash = q + 1;
			slash_quote = quote;
			continue;
		}
		if (slash) {
			sp->last = slash;
			sp->quote_at_last = slash_quote;
			slash = NULL;
		}
		if (q >= from && *q == '\\' && quote != '\'' && q[1])
			q++; /* an escaped character is part of the name */
		sp->name_end = q + 1;
	}
	sp->end = q;
	sp->quote_at_end = quote;
}

/* What turns the quote in force at a path's start into the one at its last part. */
static void requote(char **o, char from, char to)
{
	if (from == to)
		return;
	if (from)
		*(*o)++ = from;
	if (to)
		*(*o)++ = to;
}

char *html_redact_paths(const char *s, const char *const *known, size_t nknown)
{
	struct path_span sp;
	char *out, *o, quote = 0;
	const char *p, *h, *q;

	if (!s)
		return NULL;
	/* "HOST" may be longer than a one-letter host it stands for; a requote adds 2 */
	out = o = xmalloc(4 * strlen(s) + 3);
	for (p = s; *p;) {
		if (!quote && (h = skip_host(p, &o))) {
			p = h;
			continue;
		}
		if (path_start(s, p)) {
			path_scan(p, p + known_prefix(p, known, nknown), quote, &sp);
			if (!sp.last) { /* "/" itself */
				*o++ = '/';
				sp.last = sp.end;
			} else {
				requote(&o, quote, sp.quote_at_last);
			}
			for (q = sp.last; q < sp.end; q++)
				if (q < sp.name_end || *q != '/')
					*o++ = *q;
			quote = sp.quote_at_end;
			p = sp.end;
			continue;
		}
		if (*p == '\\' && quote != '\'' && p[1]) {
			*o++ = *p++;
		} else if (*p == '\'' || *p == '"') {
			if (!quote)
				quote = *p;
			else if (quote == *p)
				quote = 0;
		}
		*o++ = *p++;
	}
	*o = '\0';
	return out;
}
