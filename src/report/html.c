/* SPDX-License-Identifier: MIT */
/* HTML text from result strings, and the methods section rendered from docs/energy.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_CMARK
#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>
#endif

#include "core/mem.h"
#include "report/html.h"
#include "report/methods.h"

#define DEL_CHAR 0x7f

const char *html_base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

void html_text(FILE *fp, const char *s)
{
	unsigned char c;

	for (; s && *s; s++) {
		c = (unsigned char)*s;
		switch (c) {
		case '&':
			fputs("&amp;", fp);
			break;
		case '<':
			fputs("&lt;", fp);
			break;
		case '>':
			fputs("&gt;", fp);
			break;
		case '"':
			fputs("&quot;", fp);
			break;
		case '\'':
			fputs("&#39;", fp);
			break;
		default:
			if ((c < 0x20 && c != '\t' && c != '\n') || c == DEL_CHAR)
				fputs("&#xFFFD;", fp);
			else
				fputc(c, fp);
		}
	}
}

#ifdef HAVE_CMARK
/* The docs' headings sit two levels under the page's "Methods" (an h2). */
#define HEADING_SHIFT 2
#define HEADING_MAX 6

static void demote_headings(cmark_node *doc)
{
	cmark_iter *it = cmark_iter_new(doc);
	cmark_event_type ev;
	cmark_node *n;
	int level;

	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		n = cmark_iter_get_node(it);
		if (ev != CMARK_EVENT_ENTER || cmark_node_get_type(n) != CMARK_NODE_HEADING)
			continue;
		level = cmark_node_get_heading_level(n) + HEADING_SHIFT;
		cmark_node_set_heading_level(n, level > HEADING_MAX ? HEADING_MAX : level);
	}
	cmark_iter_free(it);
}

/* GitHub-flavoured markdown (tables) through cmark-gfm; raw HTML in it is not passed on. */
static int render_markdown(FILE *fp, const char *md)
{
	cmark_syntax_extension *table;
	cmark_parser *parser;
	cmark_node *doc;
	char *html;

	cmark_gfm_core_extensions_ensure_registered();
	parser = cmark_parser_new(CMARK_OPT_DEFAULT);
	if (!parser)
		return -1;
	table = cmark_find_syntax_extension("table");
	if (table)
		cmark_parser_attach_syntax_extension(parser, table);
	cmark_parser_feed(parser, md, strlen(md));
	doc = cmark_parser_finish(parser);
	if (doc)
		demote_headings(doc);
	html = doc ? cmark_render_html(doc, CMARK_OPT_DEFAULT, cmark_parser_get_syntax_extensions(parser))
		   : NULL;
	if (html)
		fputs(html, fp);
	free(html);
	if (doc)
		cmark_node_free(doc);
	cmark_parser_free(parser);
	return html ? 0 : -1;
}
#else
static int render_markdown(FILE *fp, const char *md)
{
	(void)fp;
	(void)md;
	return -1;
}
#endif

void html_methods(FILE *fp)
{
	/* Without cmark-gfm the same text, as written. */
	if (render_markdown(fp, report_energy_md)) {
		fputs("<pre class=\"methods\">", fp);
		html_text(fp, report_energy_md);
		fputs("</pre>\n", fp);
	}
}
