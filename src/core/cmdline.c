/* SPDX-License-Identifier: MIT */
/* The command-line parser: argv through a command's option table into its struct and operands. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/cmdline.h"
#include "core/log.h"
#include "core/mem.h"

/* Longer than any option name; a longer word is reported as unknown, not cut. */
#define NAME_MAX_LEN 64
#define REASON_LEN 400

static const struct opt_desc *table(const struct cmdline_parse *p, size_t *n)
{
	if (p->opts) {
		*n = p->nopts;
		return p->opts;
	}
	*n = p->cmd->nopts;
	return p->cmd->opts;
}

/* A value the parser itself refuses: the message, then how the command is called. */
static int usage_error(const struct cmdline_parse *p)
{
	cmdline_usage(stderr, p->cmd);
	return -EINVAL;
}

static int take(struct cmdline_parse *p, const struct opt_desc *d, const char *value,
		const char *spelled)
{
	char reason[REASON_LEN];

	if (d->type == OPT_HELP) {
		p->help = 1;
		return 0;
	}
	if (p->take)
		return p->take(p, d, value, spelled);
	if (opt_set_reason(d, p->base, value, reason, sizeof(reason))) {
		if (value)
			log_err(p->cmd->name, "--%s '%s': %s", d->name, value, reason);
		else
			log_err(p->cmd->name, "--%s: %s", d->name, reason);
		return -EINVAL;
	}
	return 0;
}

static int unknown_long(const struct cmdline_parse *p, const char *name)
{
	const struct opt_desc *t;
	const char *hint;
	size_t n;

	t = table(p, &n);
	hint = opt_suggest(t, n, name);
	if (hint)
		log_err(p->cmd->name, "unknown option --%s; did you mean --%s?", name, hint);
	else
		log_err(p->cmd->name, "unknown option --%s (iowatt %s --help lists them)", name,
			p->cmd->name);
	return usage_error(p);
}

/* --name, --name=value or --name value; *i advances past a consumed value. */
static int parse_long(struct cmdline_parse *p, int argc, char **argv, int *i)
{
	const char *arg = argv[*i] + 2, *eq = strchr(arg, '='), *value = NULL;
	const struct opt_desc *t, *d;
	char name[NAME_MAX_LEN];
	size_t n = eq ? (size_t)(eq - arg) : strlen(arg), nt;

	if (n >= sizeof(name)) {
		log_err(p->cmd->name, "unknown option --%.*s", (int)n, arg);
		return usage_error(p);
	}
	memcpy(name, arg, n);
	name[n] = '\0';
	t = table(p, &nt);
	d = opt_find(t, nt, name);
	if (!d)
		return unknown_long(p, name);
	if (!opt_takes_value(d)) {
		if (eq) {
			log_err(p->cmd->name, "option --%s takes no value", name);
			return -EINVAL;
		}
	} else if (eq) {
		value = eq + 1;
	} else if (d->bare) {
		value = d->bare;
	} else if (*i + 1 < argc) {
		value = argv[++*i];
	} else {
		log_err(p->cmd->name, "option --%s needs a value", name);
		return usage_error(p);
	}
	return take(p, d, value, name);
}

static const struct opt_desc *find_short(const struct cmdline_parse *p, int c)
{
	const struct opt_desc *t;
	size_t n, k;

	t = table(p, &n);
	for (k = 0; k < n; k++)
		if (t[k].shortopt == c)
			return &t[k];
	return NULL;
}

/* -q, -qv, -o DIR, -oDIR. */
static int parse_short(struct cmdline_parse *p, int argc, char **argv, int *i)
{
	const char *c = argv[*i] + 1, *value;
	const struct opt_desc *d;

	for (; *c; c++) {
		d = find_short(p, *c);
		if (!d) {
			log_err(p->cmd->name, "unknown option -%c (iowatt %s --help lists them)", *c,
				p->cmd->name);
			return usage_error(p);
		}
		if (!opt_takes_value(d)) {
			if (take(p, d, NULL, d->name))
				return -EINVAL;
			continue;
		}
		if (c[1]) {
			value = c + 1;
		} else if (*i + 1 < argc) {
			value = argv[++*i];
		} else {
			log_err(p->cmd->name, "option -%c needs a value", *c);
			return usage_error(p);
		}
		return take(p, d, value, d->name);
	}
	return 0;
}

int cmdline_parse(struct cmdline_parse *p, int argc, char **argv)
{
	int i, rest = argc;

	p->operands = xcalloc((size_t)(argc > 0 ? argc : 1), sizeof(*p->operands));
	p->noperands = 0;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			p->dashdash = 1;
			rest = i + 1;
			break;
		}
		if (a[0] == '-' && a[1] == '-') {
			if (parse_long(p, argc, argv, &i))
				return -EINVAL;
		} else if (a[0] == '-' && a[1]) {
			if (parse_short(p, argc, argv, &i))
				return -EINVAL;
		} else if (p->cmd->operands_end_options) {
			rest = i;
			break;
		} else {
			p->operands[p->noperands++] = argv[i];
		}
	}
	for (i = rest; i < argc; i++)
		p->operands[p->noperands++] = argv[i];
	return 0;
}

void cmdline_parse_free(struct cmdline_parse *p)
{
	free(p->operands);
	p->operands = NULL;
	p->noperands = 0;
}

int cmdline_read(struct cmdline_parse *p, int argc, char **argv)
{
	if (cmdline_parse(p, argc, argv))
		return -EINVAL;
	if (p->help) {
		cmdline_help(stdout, p->cmd);
		return 1;
	}
	if (!p->cmd->operands && p->noperands) {
		log_err(p->cmd->name, "unexpected argument '%s'", p->operands[0]);
		return -EINVAL;
	}
	return 0;
}
