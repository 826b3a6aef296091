/* SPDX-License-Identifier: MIT */
/* The command-line parser and its documents: spellings, operands, errors, help, completion. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "core/cmdline.h"
#include "core/options.h"
#include "tap.h"

struct args {
	const char *out, *title;
	double share;
	int keep, verbose, fmt;
	unsigned count;
	char *names[4];
	unsigned nnames;
};

static const struct opt_choice fmt_choices[] = {
	{ "table", "aligned columns" }, { "md", "Markdown" }, { "markdown", "the same as md" },
	{ NULL, NULL },
};

/* A callback option: the markdown alias folds into md. */
static int parse_fmt(const struct opt_desc *d, void *base, const char *value, char *err,
		     size_t errlen)
{
	(void)err;
	(void)errlen;
	*(int *)(void *)((char *)base + d->off) = !strcmp(value, "table") ? 0 : 1;
	return 0;
}

static int parse_share(const struct opt_desc *d, void *base, const char *value, char *err,
		       size_t errlen)
{
	double *p = (double *)(void *)((char *)base + d->off);

	if (!strcmp(value, "all")) {
		*p = 1;
		return 0;
	}
	snprintf(err, errlen, "expected all");
	return -EINVAL;
}

#define AOFF(f) offsetof(struct args, f)
static const struct opt_desc opts[] = {
	{ .name = "output", .type = OPT_STRREF, .off = AOFF(out), .shortopt = 'o',
	  .metavar = "DIR", .help = "where", .complete = "dir" },
	{ .name = "title", .type = OPT_STRREF, .off = AOFF(title), .def = "none", .help = "t" },
	{ .name = "keep", .type = OPT_FLAG, .off = AOFF(keep), .shortopt = 'k', .help = "k" },
	{ .name = "verbose", .type = OPT_COUNT, .off = AOFF(verbose), .shortopt = 'v',
	  .help = "v" },
	{ .name = "format", .type = OPT_FUNC, .parse = parse_fmt, .off = AOFF(fmt),
	  .choices = fmt_choices, .metavar = "FMT", .help = "f" },
	{ .name = "power-off", .type = OPT_FUNC, .parse = parse_share, .off = AOFF(share),
	  .bare = "all", .metavar = "SHARE", .help = "p" },
	{ .name = "count", .type = OPT_UINT, .off = AOFF(count), .min = 1, .max = 9, .help = "c" },
	{ .name = "name", .type = OPT_STRLIST, .off = AOFF(names), .size = 4,
	  .count_off = AOFF(nnames), .help = "n" },
	{ .name = "help", .type = OPT_HELP, .shortopt = 'h', .help = "show this help" },
};

static const struct cmdline cmd = {
	.name = "demo",
	.summary = "a demo",
	.synopsis = "FILE... [OPTIONS]\n--help",
	.about = "First paragraph\nstill the first.\n\nSecond.",
	.opts = opts,
	.nopts = sizeof(opts) / sizeof(opts[0]),
	.operands = "FILE...",
	.operands_complete = "file:*.json",
};

static char err_text[16384];

/* Parses the words (NULL-terminated) into a; stderr into err_text. */
static int parse(struct cmdline_parse *p, const struct cmdline *c, struct args *a, ...)
{
	char *argv[32];
	struct capture cap;
	const char *w;
	va_list ap;
	char *nl;
	int argc = 0, rc;

	memset(a, 0, sizeof(*a));
	opt_apply_defaults(c->opts, c->nopts, a);
	memset(p, 0, sizeof(*p));
	p->cmd = c;
	p->base = a;
	argv[argc++] = (char *)(uintptr_t)c->name;
	va_start(ap, a);
	while ((w = va_arg(ap, const char *)) && argc < 31)
		argv[argc++] = (char *)(uintptr_t)w;
	va_end(ap);
	argv[argc] = NULL;
	capture_begin(&cap, 2);
	rc = cmdline_parse(p, argc, argv);
	snprintf(err_text, sizeof(err_text), "%s", capture_end(&cap));
	for (nl = err_text; (nl = strchr(nl, '\n'));) /* one TAP line each */
		*nl = '|';
	return rc;
}

static void done(struct cmdline_parse *p, struct args *a)
{
	cmdline_parse_free(p);
	opt_free_strings(opts, cmd.nopts, a);
}

static void test_spellings(void)
{
	struct cmdline_parse p;
	struct args a;

	is_int(parse(&p, &cmd, &a, "a.json", "--output=out", "-kvv", "b.json", "--format", "markdown",
		     "--count", "3", "--name", "x", "--name=y", "--power-off", "--", "-c.json",
		     NULL),
	       0, "a mixed command line parses");
	is_str(a.out, "out", "--output=VALUE");
	ok(a.keep == 1 && a.verbose == 2, "-kvv: a flag and a count, clustered");
	is_int(a.fmt, 1, "--format markdown through its callback");
	is_int(a.count, 3, "--count 3");
	ok(a.nnames == 2 && !strcmp(a.names[0], "x") && !strcmp(a.names[1], "y"),
	   "--name twice: a list in order");
	ok(a.share == 1, "--power-off alone takes its bare value");
	is_str(a.title, "none", "an option not given keeps its default");
	ok(p.noperands == 3 && !strcmp(p.operands[0], "a.json") &&
		   !strcmp(p.operands[1], "b.json") && !strcmp(p.operands[2], "-c.json"),
	   "operands in order, and after -- even one that looks like an option");
	ok(p.dashdash && !p.help, "-- noted; no help");
	done(&p, &a);

	is_int(parse(&p, &cmd, &a, "-oDIR", "--power_off=all", "--Title", "T", "-h", NULL), 0,
	       "-oVALUE, underscores, case");
	ok(!strcmp(a.out, "DIR") && a.share == 1 && !strcmp(a.title, "T") && p.help,
	   "values and --help noted");
	done(&p, &a);
}

static void test_errors(void)
{
	struct cmdline_parse p;
	struct args a;

	is_int(parse(&p, &cmd, &a, "--outptu", "x", NULL), -EINVAL, "a misspelt option");
	ok(strstr(err_text, "demo: unknown option --outptu; did you mean --output?") &&
		   strstr(err_text, "usage: iowatt demo FILE... [OPTIONS]|       iowatt demo --help"),
	   "suggests, then the usage lines: %s", err_text);
	done(&p, &a);
	is_int(parse(&p, &cmd, &a, "-x", NULL), -EINVAL, "an unknown letter");
	ok(strstr(err_text, "unknown option -x (iowatt demo --help lists them)") != NULL, "%s",
	   err_text);
	done(&p, &a);
	is_int(parse(&p, &cmd, &a, "--output", NULL), -EINVAL, "a missing value");
	ok(strstr(err_text, "option --output needs a value") != NULL, "%s", err_text);
	done(&p, &a);
	is_int(parse(&p, &cmd, &a, "--keep=1", NULL), -EINVAL, "a flag with a value");
	ok(strstr(err_text, "option --keep takes no value") != NULL, "%s", err_text);
	done(&p, &a);
	is_int(parse(&p, &cmd, &a, "--count", "12", NULL), -EINVAL, "out of range");
	ok(strstr(err_text, "demo: --count '12': out of range 1..9") != NULL, "%s", err_text);
	done(&p, &a);
	is_int(parse(&p, &cmd, &a, "--format", "xml", NULL), -EINVAL, "not a choice");
	ok(strstr(err_text, "demo: --format 'xml': expected one of table, md, markdown") != NULL,
	   "a callback option's choices are checked first: %s", err_text);
	done(&p, &a);
	is_int(parse(&p, &cmd, &a, "--power-off=half", NULL), -EINVAL, "a callback refuses");
	ok(strstr(err_text, "demo: --power-off 'half': expected all") != NULL, "%s", err_text);
	done(&p, &a);
	is_int(parse(&p, &cmd, &a, "--name", "1", "--name", "2", "--name", "3", "--name", "4",
		     "--name", "5", NULL),
	       -EINVAL, "a list past its room");
	ok(strstr(err_text, "--name '5': given more than 4 times") != NULL, "%s", err_text);
	done(&p, &a);
}

static void test_operands_end_options(void)
{
	struct cmdline env = cmd;
	struct cmdline_parse p;
	struct args a;

	env.operands_end_options = 1;
	is_int(parse(&p, &env, &a, "-k", "sleep", "-k", "1", NULL), 0, "env(1)-like");
	ok(a.keep == 1 && p.noperands == 3 && !strcmp(p.operands[1], "-k"),
	   "options end at the first operand");
	done(&p, &a);
}

static char *print(void (*fn)(FILE *, const struct cmdline *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	fn(fp, &cmd);
	fclose(fp);
	return buf;
}

static void test_documents(void)
{
	char *help = print(cmdline_help), *man = print(cmdline_man);

	ok(strstr(help, "usage: iowatt demo FILE... [OPTIONS]\n       iowatt demo --help\n"),
	   "help: the usage lines");
	ok(strstr(help, "\nFirst paragraph still the first.\n\nSecond.\n"),
	   "help: paragraphs wrapped, lines joined");
	ok(strstr(help, "\nOptions:\n  -o, --output DIR "), "help: a heading for ungrouped options");
	ok(strstr(help, "--power-off[=SHARE]") && strstr(help, "alone: all"),
	   "help: an optional value and what it is alone");
	ok(strstr(help, "markdown") && strstr(help, "the same as md"), "help: a callback's choices");
	ok(strstr(man, ".SH \"IOWATT DEMO\"\n.B iowatt demo\nFILE... [OPTIONS]\n.br\n"),
	   "man: the section and the synopsis");
	ok(strstr(man, ".SS Options\n") && strstr(man, "\\fB\\-o\\fR, \\fB\\-\\-output\\fR \\fIDIR\\fR"),
	   "man: the options");
	ok(strstr(man, "\\fB\\-\\-power\\-off\\fR[=\\fISHARE\\fR]") != NULL,
	   "man: an optional value");
	free(help);
	free(man);
}

static void lists(FILE *fp, const char *name, const char *cur)
{
	fprintf(fp, "list:%s:%s\n", name, cur);
}

static char *complete(int cword, char **words, int nwords)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	cmdline_complete(fp, &cmd, cword, words, nwords, lists);
	fclose(fp);
	return buf;
}

/* What completion answers for the last word of a line. */
static const struct {
	const char *words[6];
	const char *want; /* NULL: see the check below */
	const char *what;
} completions[] = {
	{ { "iowatt", "demo", "--format", "m" }, "table\nmd\nmarkdown\n", "a value: its choices" },
	{ { "iowatt", "demo", "-o", "" }, "@dir\n", "a short option's value: a directory" },
	{ { "iowatt", "demo", "--format", "=", "" }, "table\nmd\nmarkdown\n",
	  "after bash split --format= at '=': its choices" },
	{ { "iowatt", "demo", "--keep", "x" }, "@file *.json\n", "an operand after a flag" },
	{ { "iowatt", "demo", "--power-off", "" }, "@file *.json\n",
	  "an optional value is never the next word" },
};

static void test_completion(void)
{
	char *w1[] = { "iowatt", "demo", "--" }, *w2[] = { "iowatt", "demo", "--count_" };
	char *out, *words[6];
	size_t i;
	int n;

	out = complete(2, w1, 3);
	ok(strstr(out, "--output\n") && strstr(out, "--power-off\n") && strstr(out, "--help\n"),
	   "options, with dashes");
	free(out);
	out = complete(2, w2, 3);
	ok(strstr(out, "--power_off\n") != NULL, "with underscores when the word has one");
	free(out);
	for (i = 0; i < sizeof(completions) / sizeof(completions[0]); i++) {
		for (n = 0; completions[i].words[n]; n++)
			words[n] = (char *)(uintptr_t)completions[i].words[n];
		out = complete(n - 1, words, n);
		is_str(out, completions[i].want, "%s", completions[i].what);
		free(out);
	}
}

int main(void)
{
	test_spellings();
	test_errors();
	test_operands_end_options();
	test_documents();
	test_completion();
	return done_testing();
}
