/* SPDX-License-Identifier: MIT */
/* Fuzz target: the SVG allow-list filter of the report page; what it accepts must hold nothing that loads or runs. */
#include <ctype.h>
#include <stdio.h>
#include <strings.h>

#include "fuzz.h"
#include "report/html.h"

/* What html_svg.c lets through, spelt again here on purpose: the check must not trust the
 * filter's own table. */
static const char *const drawing[] = {
	"svg",	   "g",		"defs",	       "title",	    "desc",	  "path",
	"polygon", "polyline",	"line",	       "rect",	    "circle",	  "ellipse",
	"text",	   "tspan",	"use",	       "pattern",   "filter",	  "feFlood",
	"feComposite", "feOffset", "feGaussianBlur", "feMerge", "feMergeNode", "clipPath",
	"marker",  "linearGradient", "radialGradient", "stop", "symbol",
};

static void fail(const char *why)
{
	fprintf(stderr, "fuzz_svg: the filter let through %s\n", why);
	abort();
}

static int has_ci(const char *s, size_t n, const char *needle)
{
	size_t i, k = strlen(needle);

	for (i = 0; i + k <= n; i++)
		if (!strncasecmp(s + i, needle, k))
			return 1;
	return 0;
}

/* One attribute value of n bytes (name: its attribute). */
static void check_value(const char *name, size_t name_n, const char *v, size_t n)
{
	size_t i;

	if (memchr(v, '<', n) || memchr(v, '\\', n))
		fail("a '<' or a backslash in an attribute");
	if (has_ci(v, n, "javascript:") || has_ci(v, n, "expression("))
		fail("script in an attribute");
	for (i = 0; i + 4 <= n; i++)
		if (!strncasecmp(v + i, "url(", 4) && (i + 4 >= n || v[i + 4] != '#'))
			fail("a url( to outside the page");
	for (i = 0; i < n; i++)
		if (v[i] == '&' && strncmp(v + i, "&amp;", 5) && strncmp(v + i, "&lt;", 4) &&
		    strncmp(v + i, "&gt;", 4) && strncmp(v + i, "&quot;", 6) && strncmp(v + i, "&apos;", 6))
			fail("a character reference in an attribute");
	if (name_n >= 4 && !strncasecmp(name + name_n - 4, "href", 4) &&
	    (name_n == 4 || name[name_n - 5] == ':') && (!n || v[0] != '#'))
		fail("an href out of the page");
	for (i = 0; i < n; i++)
		if (v[i] == '(' && !(i >= 3 && (!strncasecmp(v + i - 3, "rgb", 3) ||
						!strncasecmp(v + i - 3, "url", 3))) &&
		    !(i >= 4 && !strncasecmp(v + i - 4, "rgba", 4)) &&
		    !(i >= 5 && !strncasecmp(v + i - 5, "scale", 5)) &&
		    !(i >= 6 && (!strncasecmp(v + i - 6, "rotate", 6) ||
				 !strncasecmp(v + i - 6, "matrix", 6))) &&
		    !(i >= 5 && (!strncasecmp(v + i - 5, "skewX", 5) ||
				 !strncasecmp(v + i - 5, "skewY", 5))) &&
		    !(i >= 9 && !strncasecmp(v + i - 9, "translate", 9)))
			fail("a function that may load something");
}

/* The filter's output: tags it wrote and text with no '<' between them. */
static void check_output(const char *s, size_t n)
{
	const char *p = s, *end = s + n, *name, *q;
	size_t k, len;

	while ((p = memchr(p, '<', (size_t)(end - p)))) {
		p++;
		if (p < end && *p == '/')
			p++;
		name = p;
		while (p < end && (isalnum((unsigned char)*p) || *p == ':' || *p == '-' || *p == '_'))
			p++;
		len = (size_t)(p - name);
		for (k = 0; k < ARRAY_SIZE(drawing); k++)
			if (strlen(drawing[k]) == len && !memcmp(drawing[k], name, len))
				break;
		if (k == ARRAY_SIZE(drawing))
			fail("an element that is not a drawing one");
		/* attributes: NAME=QVALUEQ, until '>' or "/>" */
		for (;;) {
			while (p < end && *p == ' ')
				p++;
			if (p >= end)
				fail("a tag that does not end");
			if (*p == '>' || *p == '/')
				break;
			name = p;
			while (p < end && *p != '=')
				p++;
			if (p + 1 >= end || (p[1] != '"' && p[1] != '\''))
				fail("an attribute the filter did not quote");
			if ((size_t)(p - name) >= 2 && !strncasecmp(name, "on", 2))
				fail("an event handler");
			q = memchr(p + 2, p[1], (size_t)(end - p - 2));
			if (!q)
				fail("an attribute value that does not end");
			check_value(name, (size_t)(p - name), p + 2, (size_t)(q - p - 2));
			p = q + 1;
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	if (!fp)
		return 0;
	if (html_svg_inline(fp, (const char *)data, size, "f") == 0) {
		fflush(fp);
		check_output(buf, len);
	} else {
		fflush(fp);
		if (len)
			fail("output for a chart it refused");
	}
	fclose(fp);
	free(buf);
	return 0;
}
