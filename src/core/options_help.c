/* SPDX-License-Identifier: MIT */
/* Options for people: --help text from the tables and "did you mean" for misspellings. */
#include <stdio.h>
#include <string.h>

#include "core/clock.h"
#include "core/mem.h"
#include "core/options.h"

/* Edit distance, capped: names are short and the table is small. */
static unsigned edit_distance(const char *a, const char *b)
{
	unsigned row[64], i, j, prev, tmp, best;
	size_t la = strlen(a), lb = strlen(b);

	if (la >= ARRAY_SIZE(row) || lb >= ARRAY_SIZE(row))
		return 99;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			tmp = row[j];
			best = prev + (a[i - 1] != b[j - 1]);
			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			prev = tmp;
		}
	}
	return row[lb];
}

const char *opt_suggest(const struct opt_desc *table, size_t n, const char *name)
{
	const char *best = NULL;
	unsigned d, best_d = 3; /* two typos at most, or it is a guess */
	char norm[64], tn[64];
	size_t i;

	if (strlen(name) >= sizeof(norm))
		return NULL;
	strcpy(norm, name);
	opt_name_normalize(norm);
	for (i = 0; i < 2 * n; i++) {
		const char *cand = i % 2 ? table[i / 2].alias : table[i / 2].name;

		if (!cand || strlen(cand) >= sizeof(tn))
			continue;
		strcpy(tn, cand);
		opt_name_normalize(tn);
		d = edit_distance(norm, tn);
		if (d < best_d) {
			best_d = d;
			best = cand;
		}
	}
	return best;
}

static const char *metavar(const struct opt_desc *d)
{
	if (d->metavar)
		return d->metavar;
	switch (d->type) {
	case OPT_BOOL:
		return "0|1";
	case OPT_UINT:
	case OPT_U64:
		return "N";
	case OPT_SIZE:
		return "SIZE";
	case OPT_DURATION:
		return "TIME";
	case OPT_DOUBLE:
		return "NUM";
	case OPT_PERCENT:
		return "PCT";
	case OPT_ENUM:
		return "CHOICE";
	case OPT_STRLIST:
		return "SPEC";
	case OPT_STR:
	case OPT_STRP:
	case OPT_STRREF:
		return "STR";
	case OPT_FUNC:
		return "VALUE";
	default:
		return "";
	}
}

/* Default, range and alias in brackets after the help text. */
static void help_extras(const struct opt_desc *d, char *buf, size_t len)
{
	char lo[32], hi[32];
	size_t used = 0;

	buf[0] = '\0';
	if (d->required)
		used += (size_t)snprintf(buf + used, len - used, "required");
	else if (d->def && d->def[0])
		used += (size_t)snprintf(buf + used, len - used, "default %s", d->def);
	else if (d->type == OPT_BOOL)
		used += (size_t)snprintf(buf + used, len - used, "default auto");
	if (d->max && used < len) {
		opt_format_number(d, d->min, lo, sizeof(lo));
		opt_format_number(d, d->max, hi, sizeof(hi));
		used += (size_t)snprintf(buf + used, len - used, "%s%s..%s", used ? "; " : "", lo,
					 hi);
	}
	if (d->type == OPT_DURATION && d->bare_unit_ns && d->bare_unit_ns != NS_PER_SEC &&
	    used < len)
		used += (size_t)snprintf(buf + used, len - used, "%sa bare number is %s",
					 used ? "; " : "", d->bare_unit_ns == NS_PER_MS ? "ms" : "us");
	if (d->bare && used < len)
		used += (size_t)snprintf(buf + used, len - used, "%salone: %s", used ? "; " : "",
					 d->bare);
	if (d->alias && used < len)
		snprintf(buf + used, len - used, "%salso --%s", used ? "; " : "", d->alias);
}

/* "--name VALUE", or "--name[=VALUE]" when the value may be left out. */
static void name_and_value(const struct opt_desc *d, char *buf, size_t len)
{
	if (!opt_takes_value(d))
		snprintf(buf, len, "--%s", d->name);
	else if (d->bare)
		snprintf(buf, len, "--%s[=%s]", d->name, metavar(d));
	else
		snprintf(buf, len, "--%s %s", d->name, metavar(d));
}

/* Options' help wraps here: the text starts at column 32. */
#define HELP_WIDTH 100

void opt_print_wrapped(FILE *fp, const char *text, int col, int indent, int width)
{
	const char *p = text;

	while (*p) {
		int n = (int)strcspn(p, " ");

		if (col > indent && col + 1 + n > width) {
			fprintf(fp, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', fp);
			col++;
		}
		fprintf(fp, "%.*s", n, p);
		col += n;
		p += n;
		while (*p == ' ')
			p++;
	}
	fputc('\n', fp);
}

/* The column of the choices' names: 11, or wider for a long one (metrics). */
static int choice_width(const struct opt_choice *c)
{
	int w = 11;

	for (; c && c->name; c++)
		if ((int)strlen(c->name) > w)
			w = (int)strlen(c->name);
	return w;
}

void opt_print_help(FILE *fp, const struct opt_desc *table, size_t n)
{
	const char *group = NULL;
	const struct opt_choice *c;
	char left[96], extras[160], text[512];
	size_t i;
	int w;

	for (i = 0; i < n; i++) {
		const struct opt_desc *d = &table[i];

		if (d->group && (!group || strcmp(group, d->group))) {
			group = d->group;
			fprintf(fp, "\n%s:\n", group);
		}
		if (d->shortopt)
			w = snprintf(left, sizeof(left), "  -%c, ", d->shortopt);
		else
			w = snprintf(left, sizeof(left), "      ");
		name_and_value(d, left + w, sizeof(left) - (size_t)w);
		help_extras(d, extras, sizeof(extras));
		snprintf(text, sizeof(text), "%s%s%s%s", d->help ? d->help : "",
			 extras[0] ? " [" : "", extras, extras[0] ? "]" : "");
		if (strlen(left) > 30)
			fprintf(fp, "%s\n%32s", left, "");
		else
			fprintf(fp, "%-32s", left);
		opt_print_wrapped(fp, text, 32, 32, HELP_WIDTH);
		w = choice_width(d->choices);
		for (c = d->choices; c && c->name; c++) {
			fprintf(fp, "%34s%-*s ", "", w, c->name);
			opt_print_wrapped(fp, c->help ? c->help : "", 35 + w, 35 + w, HELP_WIDTH);
		}
	}
}

/*
 * A key's value as a key list shows it: its choices ("16|32"), its metavar, or its type
 * in the words key lists have always used ("interval=DURATION", "shunt=X").
 */
static const char *key_value(const struct opt_desc *d, char *buf, size_t len)
{
	const struct opt_choice *c;
	size_t used = 0;

	if (!d->choices && !d->metavar && d->type == OPT_DURATION)
		return "DURATION";
	if (!d->choices && !d->metavar && d->type == OPT_DOUBLE)
		return "X";
	if (!d->choices && !d->metavar && (d->type == OPT_STR || d->type == OPT_STRP))
		return "TEXT";
	if (!d->choices)
		return metavar(d);
	buf[0] = '\0';
	for (c = d->choices; c->name && used < len; c++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? "|" : "", c->name);
	return buf;
}

/* The key column of opt_print_keys: "interval=DURATION" fits; a longer key has its own line. */
#define KEY_WIDTH 22

void opt_print_keys(FILE *fp, const struct opt_desc *table, size_t n, int indent)
{
	char kv[192], val[160], extras[160], text[512];
	size_t i;

	for (i = 0; i < n; i++) {
		const struct opt_desc *d = &table[i];

		snprintf(kv, sizeof(kv), "%s=%s", d->name, key_value(d, val, sizeof(val)));
		help_extras(d, extras, sizeof(extras));
		snprintf(text, sizeof(text), "%s%s%s%s", d->help ? d->help : "",
			 extras[0] ? " (" : "", extras, extras[0] ? ")" : "");
		if ((int)strlen(kv) > KEY_WIDTH)
			fprintf(fp, "%*s%s\n%*s", indent, "", kv, indent + KEY_WIDTH + 1, "");
		else
			fprintf(fp, "%*s%-*s ", indent, "", KEY_WIDTH, kv);
		/* one line a key: a listing greps as "key=... (default ...)" */
		fprintf(fp, "%s\n", text);
	}
}

/* Text for troff: a leading dot or quote would be a request, a backslash an escape. */
void opt_man_text(FILE *fp, const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", fp);
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", fp);
		else if (*s == '-')
			fputs("\\-", fp);
		else
			fputc(*s, fp);
	}
}

void opt_print_man(FILE *fp, const struct opt_desc *table, size_t n)
{
	const char *group = NULL;
	const struct opt_choice *c;
	char extras[160];
	size_t i;

	for (i = 0; i < n; i++) {
		const struct opt_desc *d = &table[i];

		if (d->group && (!group || strcmp(group, d->group))) {
			group = d->group;
			fputs(".SS \"", fp);
			opt_man_text(fp, group);
			fputs("\"\n", fp);
		}
		fputs(".TP\n", fp);
		if (d->shortopt)
			fprintf(fp, "\\fB\\-%c\\fR, ", d->shortopt);
		fputs("\\fB\\-\\-", fp);
		opt_man_text(fp, d->name);
		fputs("\\fR", fp);
		if (opt_takes_value(d)) {
			fputs(d->bare ? "[=\\fI" : " \\fI", fp);
			opt_man_text(fp, metavar(d));
			fputs(d->bare ? "\\fR]" : "\\fR", fp);
		}
		fputc('\n', fp);
		opt_man_text(fp, d->help ? d->help : "");
		help_extras(d, extras, sizeof(extras));
		if (extras[0]) {
			fputs(" [", fp);
			opt_man_text(fp, extras);
			fputc(']', fp);
		}
		fputc('\n', fp);
		for (c = d->choices; c && c->name; c++) {
			fputs(".RS\n.TP\n.B ", fp);
			opt_man_text(fp, c->name);
			fputc('\n', fp);
			opt_man_text(fp, c->help ? c->help : "");
			fputs("\n.RE\n", fp);
		}
	}
}
