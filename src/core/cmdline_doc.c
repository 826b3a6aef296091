/* SPDX-License-Identifier: MIT */
/* A command for people and shells: --help, its man page section and completion, from its table. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/cmdline.h"
#include "core/mem.h"

/* The text above the options wraps here, as terminals are at least this wide. */
#define ABOUT_WIDTH 80
/* Longer than any option name (completion reads names out of words). */
#define NAME_MAX_LEN 64

/* The synopsis' next line into buf; the rest, or NULL at the end. */
static const char *next_line(const char *p, char *buf, size_t len)
{
	size_t n;

	if (!p || !*p)
		return NULL;
	n = strcspn(p, "\n");
	snprintf(buf, len, "%.*s", (int)n, p);
	return p[n] ? p + n + 1 : p + n;
}

void cmdline_usage(FILE *fp, const struct cmdline *cmd)
{
	const char *p = cmd->synopsis ? cmd->synopsis : "[OPTIONS]";
	char line[512];
	int first = 1;

	while ((p = next_line(p, line, sizeof(line)))) {
		fprintf(fp, "%s iowatt %s %s\n", first ? "usage:" : "      ", cmd->name, line);
		first = 0;
	}
}

/*
 * The next paragraph of about (paragraphs are split by an empty line) as one line: the
 * printer wraps it for a terminal, troff for the page.
 */
static const char *next_paragraph(const char *p, char **out)
{
	const char *end;
	char *s;
	size_t n;

	while (p && *p == '\n')
		p++;
	if (!p || !*p)
		return NULL;
	end = strstr(p, "\n\n");
	n = end ? (size_t)(end - p) : strlen(p);
	s = xasprintf("%.*s", (int)n, p);
	for (*out = s; *s; s++)
		if (*s == '\n')
			*s = ' ';
	return p + n;
}

/* The epilog's text, or NULL. Caller frees. */
static char *epilog_text(const struct cmdline *cmd)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	if (!cmd->epilog)
		return NULL;
	fp = open_memstream(&buf, &len);
	if (!fp)
		return NULL;
	cmd->epilog(fp);
	fclose(fp);
	return buf;
}

/* A table without groups still gets a heading, so the options stand apart. */
static int ungrouped(const struct cmdline *cmd)
{
	return cmd->nopts && !cmd->opts[0].group;
}

void cmdline_help(FILE *fp, const struct cmdline *cmd)
{
	const char *p = cmd->about;
	char *para, *epi;

	cmdline_usage(fp, cmd);
	while ((p = next_paragraph(p, &para))) {
		fputc('\n', fp);
		opt_print_wrapped(fp, para, 0, 0, ABOUT_WIDTH);
		free(para);
	}
	if (ungrouped(cmd))
		fprintf(fp, "\nOptions:\n");
	opt_print_help(fp, cmd->opts, cmd->nopts);
	epi = epilog_text(cmd);
	if (epi) {
		fprintf(fp, "\n%s", epi);
		free(epi);
	}
}

/* Text for troff in a preformatted block: every line as it is. */
static void man_lines(FILE *fp, const char *text)
{
	const char *p = text;
	char line[1024];

	while ((p = next_line(p, line, sizeof(line)))) {
		opt_man_text(fp, line[0] ? line : " ");
		fputc('\n', fp);
	}
}

void cmdline_man(FILE *fp, const struct cmdline *cmd)
{
	const char *p = cmd->synopsis ? cmd->synopsis : "[OPTIONS]";
	char line[512], *para, *epi;
	const char *c;

	fputs(".SH \"IOWATT ", fp);
	for (c = cmd->name; *c; c++)
		fputc(toupper((unsigned char)*c), fp);
	fputs("\"\n", fp);
	while ((p = next_line(p, line, sizeof(line)))) {
		fputs(".B iowatt ", fp);
		opt_man_text(fp, cmd->name);
		fputc('\n', fp);
		opt_man_text(fp, line);
		fputs("\n.br\n", fp);
	}
	p = cmd->about;
	while ((p = next_paragraph(p, &para))) {
		fputs(".PP\n", fp);
		opt_man_text(fp, para);
		fputc('\n', fp);
		free(para);
	}
	if (ungrouped(cmd))
		fputs(".SS Options\n", fp);
	opt_print_man(fp, cmd->opts, cmd->nopts);
	epi = epilog_text(cmd);
	if (epi) {
		fputs(".PP\n.nf\n", fp);
		man_lines(fp, epi);
		fputs(".fi\n", fp);
		free(epi);
	}
}

/* The completion of a value by its kinds ("file:*.ini profiles"), see opt_desc.complete. */
static void complete_kinds(FILE *fp, const char *kinds, const char *cur,
			   void (*list)(FILE *fp, const char *name, const char *cur))
{
	char *copy = xstrdup(kinds), *tok, *save = NULL;

	for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		if (!strcmp(tok, "file") || !strcmp(tok, "dir") || !strcmp(tok, "command"))
			fprintf(fp, "@%s\n", tok);
		else if (!strncmp(tok, "file:", 5))
			fprintf(fp, "@file %s\n", tok + 5);
		else if (list)
			list(fp, tok, cur);
	}
	free(copy);
}

static void complete_value(FILE *fp, const struct opt_desc *d, const char *cur,
			   void (*list)(FILE *fp, const char *name, const char *cur))
{
	/* a list's next item goes after what is already there */
	const char *last = d->list ? strrchr(cur, ',') : NULL;
	int keep = last ? (int)(last + 1 - cur) : 0;
	const struct opt_choice *c;

	for (c = d->choices; c && c->name; c++)
		fprintf(fp, "%.*s%s\n", keep, cur, c->name);
	if (d->type == OPT_BOOL)
		fprintf(fp, "0\n1\n");
	if (d->complete)
		complete_kinds(fp, d->complete, cur, list);
}

static const struct opt_desc *find_word(const struct cmdline *cmd, const char *w)
{
	char name[NAME_MAX_LEN];
	size_t n, k;

	if (w[0] != '-' || !w[1])
		return NULL;
	if (w[1] != '-') {
		/* -o, or -qo: the last letter is the one that may take the next word */
		for (k = 0; k < cmd->nopts; k++)
			if (cmd->opts[k].shortopt == w[strlen(w) - 1])
				return &cmd->opts[k];
		return NULL;
	}
	n = strcspn(w + 2, "=");
	if (n >= sizeof(name))
		return NULL;
	memcpy(name, w + 2, n);
	name[n] = '\0';
	return opt_find(cmd->opts, cmd->nopts, name);
}

/* Whether the word w (an option) leaves its value to the next word. */
static int value_follows(const struct opt_desc *d, const char *w)
{
	if (!d || !opt_takes_value(d) || d->bare)
		return 0;
	if (w[1] == '-')
		return !strchr(w, '=');
	return 1;
}

/*
 * An option as a command line spells it, with dashes, unless the word so far has an
 * underscore (a job option typed as its profile key): both spellings are accepted.
 */
static void complete_name(FILE *fp, const char *name, int underscores)
{
	const char *c;

	fputs("--", fp);
	for (c = name; *c; c++)
		fputc(*c == '_' && !underscores ? '-' : *c == '-' && underscores ? '_' : *c, fp);
	fputc('\n', fp);
}

void cmdline_complete(FILE *fp, const struct cmdline *cmd, int cword, char **words, int nwords,
		      void (*list)(FILE *fp, const char *name, const char *cur))
{
	const char *cur = cword < nwords ? words[cword] : "";
	const struct opt_desc *d, *pending = NULL;
	int i, ended = 0, noperands = 0;
	size_t k;

	for (i = 2; i < cword && i < nwords; i++) {
		const char *w = words[i];

		if (pending) {
			/* bash splits "--opt=value" at '=' into three words */
			if (!strcmp(w, "=") && i + 1 < cword) {
				i++;
			}
			pending = NULL;
			continue;
		}
		if (ended || w[0] != '-' || !w[1]) {
			noperands++;
			ended |= cmd->operands_end_options;
			continue;
		}
		if (!strcmp(w, "--")) {
			ended = 1;
			continue;
		}
		d = find_word(cmd, w);
		if (value_follows(d, w))
			pending = d;
	}
	if (!pending && cword >= 3 && cword - 1 < nwords && !strcmp(words[cword - 1], "=")) {
		d = find_word(cmd, words[cword - 2]);
		if (d && opt_takes_value(d))
			pending = d;
	}
	if (pending) {
		complete_value(fp, pending, cur, list);
		return;
	}
	if (!ended && cur[0] == '-') {
		for (k = 0; k < cmd->nopts; k++)
			complete_name(fp, cmd->opts[k].name, strchr(cur, '_') != NULL);
		return;
	}
	if (!cmd->operands)
		return;
	if (cmd->operands_end_options && noperands > 0)
		fprintf(fp, "@file\n"); /* the command's own arguments */
	else if (cmd->operands_complete)
		complete_kinds(fp, cmd->operands_complete, cur, list);
}
