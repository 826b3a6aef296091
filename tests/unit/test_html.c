/* SPDX-License-Identifier: MIT */
/* The report page's HTML helpers: text escaping, and SVG charts inlined only as drawings. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/html.h"
#include "report/methods.h"
#include "tap.h"

/* What f wrote for s, in a static buffer. */
static const char *escaped(const char *s)
{
	static char out[512];
	FILE *fp;

	memset(out, 0, sizeof(out));
	fp = fmemopen(out, sizeof(out), "w");
	html_text(fp, s);
	fclose(fp);
	return out;
}

/* html_svg_inline's output and return code. */
static char *inline_svg(const char *svg, int *rc)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *fp = open_memstream(&buf, &size);

	*rc = html_svg_inline(fp, svg, strlen(svg), "c1");
	fclose(fp);
	return buf;
}

#define PROLOG "<?xml version=\"1.0\" encoding=\"utf-8\"  standalone=\"no\"?>\n"

static void test_text(void)
{
	is_str(escaped("<script>alert('x')</script> & \"q\""),
	       "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;",
	       "markup, quotes and ampersands are escaped");
	is_str(escaped("a\x01" "b\x7f" "c\td\n"), "a&#xFFFD;b&#xFFFD;c\td\n",
	       "control characters are shown as U+FFFD, tab and newline kept");
	is_str(escaped("\xc3\xa9 \xe2\x80\x94"), "\xc3\xa9 \xe2\x80\x94", "UTF-8 passes as it is");
	is_str(escaped(NULL), "", "NULL writes nothing");
}

static void test_svg_ok(void)
{
	const char *svg = PROLOG
		"<svg \n viewBox=\"0 0 600 400\"\n xmlns=\"http://www.w3.org/2000/svg\"\n"
		" xmlns:xlink=\"http://www.w3.org/1999/xlink\"\n>\n<!-- a comment -->\n"
		"<title>Gnuplot</title>\n<g id=\"gnuplot_canvas\">\n"
		"<defs><path id='gpPt0' d='M-1,0 h2'/>"
		"<pattern id='gpPat1' patternUnits='userSpaceOnUse' width='8' height='8'>"
		"<path style='fill:none; stroke:rgb(230,159,0)' d='M-4,0 L8,12'/></pattern></defs>\n"
		"<polygon fill = 'url(#gpPat1)' points = '1,2 3,4 5,6 '/>\n"
		"<use xlink:href='#gpPt0' transform='translate(1,2) scale(4)'/>\n"
		"<text>&lt;script>alert(1)&lt;/script> &amp; x</text>\n</g>\n</svg>\n";
	char *out;
	int rc;

	out = inline_svg(svg, &rc);
	is_int(rc, 0, "a gnuplot chart is inlined");
	ok(out && !strstr(out, "<?xml") && !strstr(out, "<!--"), "prolog and comments dropped");
	ok(out && !strncmp(out, "<svg class=\"chart\" role=\"img\"", 29), "the root gets the chart class");
	ok(out && strstr(out, "id='c1-gpPat1'") && strstr(out, "url(#c1-gpPat1)"),
	   "ids and url(#id) references are prefixed");
	ok(out && strstr(out, "xlink:href='#c1-gpPt0'"), "href references are prefixed");
	ok(out && strstr(out, "<text>&lt;script>alert(1)&lt;/script> &amp; x</text>"),
	   "escaped text is copied as it is");
	free(out);
}

static void test_svg_refused(void)
{
	static const struct {
		const char *what, *body;
	} bad[] = {
		{ "a script element", "<script>alert(1)</script>" },
		{ "text with a raw tag", "<text>a <b>bold</b></text>" },
		{ "an event handler", "<g onload='alert(1)'></g>" },
		{ "an event handler in capitals", "<g ONclick=\"x()\"></g>" },
		{ "a link out of the page", "<use xlink:href='http://example.org/x.svg#a'/>" },
		{ "a javascript: link", "<use href='javascript:alert(1)'/>" },
		{ "an image", "<image href='#x'/>" },
		{ "foreignObject", "<foreignObject><div/></foreignObject>" },
		{ "a url() to a file", "<rect style='fill:url(file:///etc/passwd)'/>" },
		{ "CDATA", "<text><![CDATA[<script>x</script>]]></text>" },
		{ "an unquoted attribute", "<rect width=5/>" },
		{ "an unterminated tag", "<rect width='5'" },
		{ "url( spelt with a character reference",
		  "<rect style='fill:&#117;rl(http://example.org/x)'/>" },
		{ "url( spelt with a CSS escape", "<rect style='fill:\\75 rl(http://example.org/x)'/>" },
		{ "javascript: spelt with a character reference", "<use href='#&#x6a;avascript:x'/>" },
		{ "an id that is not a name", "<g id='a:url(http://example.org/x)'></g>" },
		{ "an href in capitals", "<use HREF='https://example.org/x.svg#a'/>" },
		{ "an xlink:href in capitals", "<use xlink:HREF='data:image/svg+xml,x'/>" },
		{ "an href in another namespace", "<use x:href='https://example.org/x.svg#a'/>" },
		{ "an ID in capitals that is not a name", "<rect ID='a b'/>" },
		{ "image-set() loading an image", "<g style=\"background-image:image-set('https://example.org/p.png' 1x)\"></g>" },
		{ "an href to an id that is not a name", "<use href='#a url(x)'/>" },
	};
	char svg[512], *out;
	size_t i;
	int rc;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(svg, sizeof(svg), PROLOG "<svg viewBox=\"0 0 10 10\">%s</svg>\n", bad[i].body);
		out = inline_svg(svg, &rc);
		ok(rc == -EINVAL && out && !*out, "refused, nothing written: %s", bad[i].what);
		free(out);
	}
	out = inline_svg(PROLOG "<html><body/></html>", &rc);
	ok(rc == -EINVAL, "a document that is not an SVG is refused");
	free(out);
	/* A chart is n bytes, not a string: a "<!" at its very end is read within them (ASan
	 * stops this test otherwise; fuzz_svg found it). */
	{
		static const char tail[] = "<svg viewBox='0 0 1 1'></svg><!";
		char *exact = malloc(sizeof(tail) - 1), *buf = NULL;
		size_t size = 0;
		FILE *fp = open_memstream(&buf, &size);

		if (exact)
			memcpy(exact, tail, sizeof(tail) - 1);
		rc = fp && exact ? html_svg_inline(fp, exact, sizeof(tail) - 1, "c1") : 0;
		if (fp)
			fclose(fp);
		ok(rc == -EINVAL, "a chart ending in '<!' is refused without reading past its end");
		free(buf);
		free(exact);
	}
}

/* report --redact: what a published page may say of paths and hosts. */
static void test_redact(void)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "iowatt run quick --target /mnt/test", "iowatt run quick --target test" },
		{ "cmd -o/home/alice/out.json", "cmd -oout.json" },
		{ "(/home/carol/x)", "(x)" },
		{ "/", "/" },
		{ "/mnt/sd/", "sd" },
		{ "um25c:rfc2217://lab-host:4001,interval=100ms", "um25c:rfc2217://HOST:4001,interval=100ms" },
		{ "um25c:/home/a/dev/um,interval=100ms", "um25c:um,interval=100ms" },
		{ "size --records 4KiB@1/min at 10 MB/s", "size --records 4KiB@1/min at 10 MB/s" },
		/* a quoted word is one path, however odd its characters; its quotes stay balanced */
		{ "run --target '/home/alice/my disk/scratch (2)' -o x", "run --target 'scratch (2)' -o x" },
		{ "run '--target=/home/alice/a b' x", "run '--target=a b' x" },
		{ "run --target \"/home/a/it's here/d\" x", "run --target \"d\" x" },
		{ "run --target '/home/a/it'\\''s/d x' y", "run --target 'd x' y" },
		{ "run --target /home/alice/my\\ disk/s\\ 1 -q", "run --target s\\ 1 -q" },
		{ "run --target /home/alice/'my disk'/x y", "run --target x y" },
		{ "run --target '/home/alice/my disk/' y", "run --target 'my disk' y" },
		{ "run -m 'um25c:/home/a/my port,interval=100ms' z", "run -m 'um25c:my port,interval=100ms' z" },
	};
	/* an unquoted command (results before quoting): the result's own paths say where each
	 * path ends */
	static const char *const known[] = { "/home/alice/my disk/iowatt-1.tmp", NULL,
					     "/home/alice/dev/my um" };
	static const struct {
		const char *in, *out;
	} unquoted[] = {
		{ "run --target /home/alice/my disk --meter um25c:/home/alice/dev/my um,interval=100ms",
		  "run --target my disk --meter um25c:my um,interval=100ms" },
		{ "/home/alice/my disk/iowatt-1.tmp", "iowatt-1.tmp" },
		{ "-o /home/alice/my disk/r.json", "-o r.json" },
		/* a known path's folder matches whole names only: not "my diskette" */
		{ "/home/alice/my diskette/x", "my diskette/x" },
	};
	size_t i;
	char *r;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		r = html_redact_paths(cases[i].in, NULL, 0);
		is_str(r, cases[i].out, "redacted: '%s'", cases[i].in);
		free(r);
	}
	for (i = 0; i < sizeof(unquoted) / sizeof(unquoted[0]); i++) {
		r = html_redact_paths(unquoted[i].in, known, 3);
		is_str(r, unquoted[i].out, "redacted with the result's paths: '%s'", unquoted[i].in);
		free(r);
	}
	ok(html_redact_paths(NULL, known, 3) == NULL, "NULL stays NULL");
}

static void test_methods(void)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *fp = open_memstream(&buf, &size);

	html_methods(fp);
	fclose(fp);
	ok(strstr(report_energy_md, "# How iowatt turns meter samples into energy figures") != NULL,
	   "the methods text is docs/energy.md, embedded by the Makefile");
	ok(buf && strstr(buf, "How iowatt turns meter samples into energy figures") &&
	   strstr(buf, "energy_tail_net_j"), "html_methods renders it");
#ifdef HAVE_CMARK
	ok(buf && strstr(buf, "<table>") && strstr(buf, "<h3>"),
	   "with cmark-gfm: its tables are tables, its headings under the page's h2");
#else
	ok(buf && strstr(buf, "<pre class=\"methods\">"), "without cmark-gfm: the text as written");
#endif
	free(buf);
}

int main(void)
{
	test_text();
	test_svg_ok();
	test_svg_refused();
	test_redact();
	test_methods();
	return done_testing();
}
