/* SPDX-License-Identifier: MIT */
/* A gnuplot SVG chart checked and inlined in the report page: drawing elements only. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/log.h"
#include "core/mem.h"
#include "report/html.h"

#define MOD "report"
#define NAME_MAX_LEN 32

/* What gnuplot's svg terminal draws with (without its mouse script), nothing that loads,
 * runs or embeds. */
static const char *const allowed[] = {
	"svg",	   "g",		"defs",	       "title",	    "desc",	  "path",
	"polygon", "polyline",	"line",	       "rect",	    "circle",	  "ellipse",
	"text",	   "tspan",	"use",	       "pattern",   "filter",	  "feFlood",
	"feComposite", "feOffset", "feGaussianBlur", "feMerge", "feMergeNode", "clipPath",
	"marker",  "linearGradient", "radialGradient", "stop", "symbol",
};

struct svg_out {
	FILE *fp;
	const char *prefix;
	int root_done;
};

/* needle in the n bytes at hay, case-insensitive. */
static const char *find_ci(const char *hay, size_t n, const char *needle)
{
	size_t i, k = strlen(needle);

	for (i = 0; i + k <= n; i++)
		if (!strncasecmp(hay + i, needle, k))
			return hay + i;
	return NULL;
}

static int element_allowed(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(allowed); i++)
		if (!strcmp(allowed[i], name))
			return 1;
	return 0;
}

static size_t name_len(const char *p, const char *end)
{
	const char *q = p;

	while (q < end && (isalnum((unsigned char)*q) || *q == ':' || *q == '-' || *q == '_'))
		q++;
	return (size_t)(q - p);
}

/*
 * Character references and CSS escapes could spell what the checks below look for
 * ("&#117;rl(", "\\75 rl(" are url( to the browser): a value may hold only the five named
 * references XML has, and no backslash. gnuplot writes neither in attributes.
 */
static int value_plain(const char *v, size_t n)
{
	static const char *const named[] = { "&amp;", "&lt;", "&gt;", "&quot;", "&apos;" };
	size_t i, k;

	if (memchr(v, '\\', n))
		return 0;
	for (i = 0; i < n; i++) {
		if (v[i] != '&')
			continue;
		for (k = 0; k < ARRAY_SIZE(named); k++)
			if (n - i >= strlen(named[k]) && !memcmp(v + i, named[k], strlen(named[k])))
				break;
		if (k == ARRAY_SIZE(named))
			return 0;
	}
	return 1;
}

/*
 * Every '(' in a value opens one of the functions gnuplot writes (colours, transforms,
 * url(#id)): CSS has other ways to load a resource (image-set(), image(), cross-fade(),
 * element()), and anything not on this list is refused rather than chased.
 */
static int functions_known(const char *v, size_t n)
{
	static const char *const known[] = { "rgb", "rgba", "translate", "rotate", "scale",
					     "matrix", "skewX", "skewY", "url" };
	size_t i, k, len;

	for (i = 0; i < n; i++) {
		if (v[i] != '(')
			continue;
		for (k = 0; k < ARRAY_SIZE(known); k++) {
			len = strlen(known[k]);
			if (i >= len && !strncasecmp(v + i - len, known[k], len) &&
			    (i == len || !(isalnum((unsigned char)v[i - len - 1]) ||
					   v[i - len - 1] == '-' || v[i - len - 1] == '_')))
				break;
		}
		if (k == ARRAY_SIZE(known))
			return 0;
	}
	return 1;
}

/* A value's url(#id) references get the prefix; any other url( refuses the chart. */
static int write_value(struct svg_out *o, const char *v, size_t n, int is_id, int is_href)
{
	const char *p = v, *end = v + n, *u;

	if (memchr(v, '<', n) || !value_plain(v, n) || !functions_known(v, n) ||
	    find_ci(v, n, "javascript:") || find_ci(v, n, "expression("))
		return -EINVAL;
	/* an id, and the #id an href names, is a name: nothing else rides along */
	if (is_id) {
		if (!n || name_len(v, end) != n)
			return -EINVAL;
		fprintf(o->fp, "%s-%.*s", o->prefix, (int)n, v);
		return 0;
	}
	if (is_href) {
		if (n < 2 || v[0] != '#' || name_len(v + 1, end) != n - 1)
			return -EINVAL;
		fprintf(o->fp, "#%s-%.*s", o->prefix, (int)n - 1, v + 1);
		return 0;
	}
	while ((u = find_ci(p, (size_t)(end - p), "url("))) {
		if (u + 4 >= end || u[4] != '#')
			return -EINVAL;
		fprintf(o->fp, "%.*s#%s-", (int)(u + 5 - p) - 1, p, o->prefix);
		p = u + 5;
	}
	fprintf(o->fp, "%.*s", (int)(end - p), p);
	return 0;
}

/* "href", "xlink:href", "HREF", "x:Href": what a browser takes for a link. */
static int is_href_name(const char *name)
{
	const char *colon = strrchr(name, ':');

	return !strcasecmp(colon ? colon + 1 : name, "href");
}

/* Attributes of a start tag from p to its '>'; returns where the tag ends, NULL if refused. */
static const char *attributes(struct svg_out *o, const char *p, const char *end)
{
	char name[NAME_MAX_LEN + 1];
	const char *v;
	size_t n;
	char q;

	for (;;) {
		while (p < end && isspace((unsigned char)*p))
			p++;
		if (p >= end)
			return NULL;
		if (*p == '>' || (*p == '/' && p + 1 < end && p[1] == '>'))
			return p;
		n = name_len(p, end);
		if (!n || n > NAME_MAX_LEN)
			return NULL;
		memcpy(name, p, n);
		name[n] = '\0';
		p += n;
		/* Event handlers run script, whatever the element. */
		if (!strncasecmp(name, "on", 2))
			return NULL;
		while (p < end && isspace((unsigned char)*p))
			p++;
		if (p >= end || *p != '=')
			return NULL;
		p++;
		while (p < end && isspace((unsigned char)*p))
			p++;
		if (p >= end || (*p != '"' && *p != '\''))
			return NULL;
		q = *p++;
		v = memchr(p, q, (size_t)(end - p));
		if (!v)
			return NULL;
		fprintf(o->fp, " %s=%c", name, q);
		/* the browser reads attribute names in any case, and href in any namespace */
		if (write_value(o, p, (size_t)(v - p), !strcasecmp(name, "id"), is_href_name(name)))
			return NULL;
		fputc(q, o->fp);
		p = v + 1;
	}
}

/* One tag at p ('<'); returns the position after it, NULL when the chart is refused. */
static const char *tag(struct svg_out *o, const char *p, const char *end)
{
	char name[NAME_MAX_LEN + 1];
	const char *q;
	size_t n;

	if (p + 4 <= end && !strncmp(p, "<!--", 4)) {
		q = find_ci(p, (size_t)(end - p), "-->");
		return q ? q + 3 : NULL;
	}
	/* within the n bytes only: the chart need not end with a NUL (fuzz_svg found a read
	 * past a chart ending in "<!") */
	if (p + 2 <= end && (p[1] == '?' || (p[1] == '!' && !(end - p >= 9 &&
							      !memcmp(p, "<![CDATA[", 9))))) {
		q = memchr(p, '>', (size_t)(end - p)); /* the XML prolog, the doctype */
		return q ? q + 1 : NULL;
	}
	if (p + 2 <= end && p[1] == '/') {
		n = name_len(p + 2, end);
		if (!n || n > NAME_MAX_LEN || p + 2 + n >= end || p[2 + n] != '>')
			return NULL;
		memcpy(name, p + 2, n);
		name[n] = '\0';
		if (!element_allowed(name))
			return NULL;
		fprintf(o->fp, "</%s>", name);
		return p + 3 + n;
	}
	n = name_len(p + 1, end);
	if (!n || n > NAME_MAX_LEN)
		return NULL;
	memcpy(name, p + 1, n);
	name[n] = '\0';
	if (!element_allowed(name))
		return NULL;
	fprintf(o->fp, "<%s", name);
	if (!strcmp(name, "svg") && !o->root_done) {
		fprintf(o->fp, " class=\"chart\" role=\"img\"");
		o->root_done = 1;
	}
	q = attributes(o, p + 1 + n, end);
	if (!q)
		return NULL;
	if (*q == '/') {
		fprintf(o->fp, "/>");
		return q + 2;
	}
	fputc('>', o->fp);
	return q + 1;
}

int html_svg_inline(FILE *out, const char *svg, size_t len, const char *id_prefix)
{
	const char *p = svg, *end = svg + len, *lt;
	struct svg_out o = { .prefix = id_prefix };
	char *buf = NULL;
	size_t size = 0;
	int rc = 0;

	o.fp = open_memstream(&buf, &size);
	if (!o.fp)
		return -ENOMEM;
	while (p < end) {
		lt = memchr(p, '<', (size_t)(end - p));
		if (!lt)
			lt = end;
		/* Text between tags: gnuplot escapes & and <, so it is copied as it is. */
		if (o.root_done)
			fwrite(p, 1, (size_t)(lt - p), o.fp);
		if (lt == end)
			break;
		p = tag(&o, lt, end);
		if (!p) {
			rc = -EINVAL;
			break;
		}
	}
	if (!o.root_done)
		rc = -EINVAL;
	fclose(o.fp);
	if (!rc)
		fwrite(buf, 1, size, out);
	free(buf);
	return rc;
}
