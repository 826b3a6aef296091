/* SPDX-License-Identifier: MIT */
/* Chart plumbing: per-chart data directory, meta.gp with terminal and palette, gnuplot run. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/log.h"
#include "core/mem.h"
#include "core/outfile.h"
#include "core/sandbox.h"
#include "core/text.h"
#include "core/units.h"
#include "report/plot.h"

#define MOD "plot"
/* The dumb terminal's characters for the pixel sizes the charts are drawn at. */
#define DUMB_PX_PER_COL 10
#define DUMB_PX_PER_ROW 18

/* Okabe-Ito: tells devices apart for colour-blind readers too, and prints in grey. */
static const unsigned palette[] = { 0x0072B2, 0xE69F00, 0x009E73, 0xCC79A7,
				    0xD55E00, 0x56B4E9, 0x999999, 0x000000 };

unsigned plot_device_rgb(unsigned i)
{
	return palette[i % ARRAY_SIZE(palette)];
}

/* What chart_text does beyond cleaning and cutting. */
enum { TEXT_SHOWN = 1, TEXT_TIC = 2 };

/*
 * Text as a chart takes it: cleaned and cut (text_fit). TEXT_SHOWN (text drawn, not a
 * path): "]]>" broken up, as an SVG holds gnuplot's text as character data, where that
 * sequence may not appear (gnuplot escapes < and &, not this). TEXT_TIC: % doubled, as
 * gnuplot reads an explicit tic label as a format ("70%read": "Bad format character").
 * xmalloc'd, at most 2 * max + 8 bytes.
 */
static char *chart_text(const char *s, size_t max, int how)
{
	char *cut = xmalloc(max + 4), *out = xmalloc(2 * max + 8), *o = out;
	const char *p;

	text_fit(s, max, cut, max + 4);
	for (p = cut; *p; p++) {
		if ((how & TEXT_TIC) && *p == '%')
			*o++ = '%';
		if ((how & TEXT_SHOWN) && *p == '>' && p - cut >= 2 && p[-1] == ']' && p[-2] == ']')
			*o++ = ' ';
		*o++ = *p;
	}
	*o = '\0';
	free(cut);
	return out;
}

/*
 * The one way text reaches a .gp file: single-quoted literals, in which gnuplot expands
 * neither backquotes nor @ macros. The text is cleaned first (core/text.h: no line break
 * can end the line) and cut to max bytes. A quote in the text is not written as '' inside
 * a literal: gnuplot 5.4's tokenizer and its macro expander disagree on '' (a literal
 * that starts with it, or an empty literal, lets a later @ expand), so the text is split
 * at each quote and joined with APOS (a quote, defined by plot_chart_begin): it's is
 * 'it'.APOS.'s', an empty text is "".
 */
static void gp_literal(FILE *fp, const char *buf)
{
	const char *p = buf, *q;
	int first = 1;

	for (;;) {
		q = strchrnul(p, '\'');
		if (q > p) {
			fprintf(fp, "%s'%.*s'", first ? "" : ".", (int)(q - p), p);
			first = 0;
		}
		if (!*q)
			break;
		fprintf(fp, "%sAPOS", first ? "" : ".");
		first = 0;
		p = q + 1;
	}
	if (first)
		fputs("\"\"", fp);
}

static void gp_quote(FILE *fp, const char *s, size_t max, int how)
{
	char *buf = chart_text(s, max, how);

	gp_literal(fp, buf);
	free(buf);
}

void plot_gp_string(FILE *fp, const char *s)
{
	gp_quote(fp, s, PLOT_TEXT_MAX, TEXT_SHOWN);
}

void plot_gp_set(FILE *meta, const char *var, const char *value)
{
	fprintf(meta, "%s = ", var);
	gp_quote(meta, value, PLOT_TEXT_MAX, TEXT_SHOWN);
	fputc('\n', meta);
}

/* gnuplot reads \\ and \" in a data file's double-quoted string as escapes: both escaped. */
void plot_data_string(FILE *fp, const char *s)
{
	char *buf = chart_text(s, PLOT_TEXT_MAX, TEXT_SHOWN), *p;

	fputc('"', fp);
	for (p = buf; *p; p++) {
		if (*p == '"' || *p == '\\')
			fputc('\\', fp);
		fputc(*p, fp);
	}
	fputc('"', fp);
	free(buf);
}

void plot_job_tics(FILE *meta, const char *const *names, size_t n, unsigned width_px, int dumb)
{
	size_t i, longest = 0;
	/* Characters a job has room for: ~8 px per character at the 12 pt font. */
	double room = (double)width_px * 0.8 / 8.0 / (double)(n ? n : 1);

	fprintf(meta, "NJOBS = %zu\narray TIC[%zu]\n", n, n ? n : 1);
	for (i = 0; i < n; i++) {
		char *tic = chart_text(names[i], PLOT_TEXT_MAX, TEXT_SHOWN | TEXT_TIC);

		fprintf(meta, "TIC[%zu] = ", i + 1);
		gp_literal(meta, tic);
		fputc('\n', meta);
		free(tic);
		if (strlen(names[i]) > longest)
			longest = strlen(names[i]);
	}
	fprintf(meta, "TICROT = %d\n", !dumb && (double)longest > room);
}

static void terminal(FILE *meta, int format, unsigned width_px, unsigned height_px)
{
	switch (format) {
	case PLOT_PNG:
		fprintf(meta, "set terminal pngcairo size %u,%u font 'DejaVu Sans,12' noenhanced "
			      "background '#ffffff'\nDUMB = 0\n", width_px, height_px);
		break;
	case PLOT_SVG:
		fprintf(meta, "set terminal svg size %u,%u dynamic font 'DejaVu Sans,12' noenhanced "
			      "background '#ffffff'\nDUMB = 0\n", width_px, height_px);
		break;
	default:
		/* utf8: a name's characters, not its bytes, fill the character cells. */
		fprintf(meta, "set encoding utf8\nset terminal dumb size %u,%u noenhanced\nDUMB = 1\n",
			width_px / DUMB_PX_PER_COL, height_px / DUMB_PX_PER_ROW);
		break;
	}
}

const char *plot_note(const struct rr_result *res, size_t n)
{
	int emulated = n > 0, manual = n > 0;
	size_t i;

	for (i = 0; i < n; i++) {
		emulated &= res[i].emulated;
		manual &= res[i].manual;
	}
	return emulated && manual ? " - EMULATED meter data - manual meter readings"
	       : emulated	  ? " - EMULATED meter data"
	       : manual		  ? " - manual meter readings"
				  : "";
}

const char *plot_result_mark(const struct rr_set *set, const struct rr_result *r)
{
	if (*plot_note(set->res, set->nres))
		return "";
	return r->emulated ? " (EMULATED)" : r->manual ? " (manual)" : "";
}

/* A device's name in the key, " (EMULATED)" or " (manual)" after it when some of its results
 * are and the title does not say so for all. */
static void device_name(FILE *meta, const struct rr_set *set, size_t d, const char *note)
{
	int emulated = 0, manual = 0;
	char *name;
	size_t i;

	for (i = 0; i < set->nres; i++) {
		if ((size_t)set->res[i].device_idx != d)
			continue;
		emulated |= set->res[i].emulated;
		manual |= set->res[i].manual;
	}
	if (*note)
		emulated = manual = 0;
	name = xasprintf("%s%s%s", set->devices[d], emulated ? " (EMULATED)" : "",
			 manual ? " (manual)" : "");
	plot_gp_string(meta, name);
	free(name);
}

/*
 * DEV[], COL[], NDEV: the same colour per device in every chart; DEVKEY[] the name in the
 * key of a chart of power figures (with its EMULATED mark); NOTE for the titles.
 */
static void palette_meta(FILE *meta, const struct rr_set *set)
{
	const char *note = plot_note(set->res, set->nres);
	size_t i, n = set->ndevices ? set->ndevices : 1;

	fprintf(meta, "NDEV = %zu\narray DEV[%zu]\narray DEVKEY[%zu]\narray COL[%zu]\n",
		set->ndevices, n, n, n);
	for (i = 0; i < set->ndevices; i++) {
		fprintf(meta, "DEV[%zu] = ", i + 1);
		plot_gp_string(meta, set->devices[i]);
		fprintf(meta, "\nDEVKEY[%zu] = ", i + 1);
		device_name(meta, set, i, note);
		fprintf(meta, "\nCOL[%zu] = '#%06X'\n", i + 1, plot_device_rgb((unsigned)i));
	}
	plot_gp_set(meta, "NOTE", note);
}

int plot_chart_begin(struct plot_ctx *ctx, struct plot_chart *ch, const char *out_stem,
		     unsigned width_px, unsigned height_px)
{
	static const char *const ext[] = { "png", "svg", "txt" };

	memset(ch, 0, sizeof(*ch));
	ch->desc = ctx->chart;
	if (!out_stem)
		out_stem = ch->desc->name;
	ch->dir = xasprintf("%s/%s", ctx->datadir, out_stem);
	if (mkdir(ch->dir, 0700) && errno != EEXIST) {
		int err = -errno;

		log_err(MOD, "%s: %s", ch->dir, strerror(-err));
		free(ch->dir);
		return err;
	}
	/* gnuplot draws into iowatt's private directory, never into outdir: it would open
	 * that path itself, following a link or blocking on a FIFO put there. */
	if (ctx->outdir) {
		ch->out = xasprintf("%s.%s", out_stem, ext[ctx->format]);
		ch->render = xasprintf("%s/chart.%s", ch->dir, ext[ctx->format]);
	}
	ch->meta = plot_chart_file(ch, "meta.gp");
	if (!ch->meta) {
		free(ch->dir);
		free(ch->out);
		free(ch->render);
		return -EIO;
	}
	/* gp_quote's quote character: no literal ever holds one. */
	fprintf(ch->meta, "APOS = sprintf('%%c', %d)\n", '\'');
	terminal(ch->meta, ctx->format, width_px, height_px);
	/* '%c' tick labels (1 k, 100 m, 10 µ) write micro as µ, not u */
	fprintf(ch->meta, "set micro\n");
	if (ch->render) {
		fprintf(ch->meta, "set output ");
		gp_quote(ch->meta, ch->render, strlen(ch->render), 0);
		fprintf(ch->meta, "\n");
	}
	palette_meta(ch->meta, ctx->set);
	return 0;
}

FILE *plot_chart_file(struct plot_chart *ch, const char *file)
{
	char *path = xasprintf("%s/%s", ch->dir, file);
	FILE *fp = output_fopen(path, 0);

	if (!fp)
		log_err(MOD, "%s: %s", path, output_strerror(-errno));
	free(path);
	return fp;
}


void plot_chart_abort(struct plot_chart *ch)
{
	if (ch->meta)
		fclose(ch->meta);
	free(ch->dir);
	free(ch->out);
	free(ch->render);
	memset(ch, 0, sizeof(*ch));
}

/* gnuplot's stderr: warnings become ours, prefixed with the chart's name. */
static int relay_stderr(const char *path, const char *chart, int as_error)
{
	char line[512];
	FILE *fp = fopen(path, "r");
	int n = 0;

	if (!fp)
		return 0;
	while (fgets(line, sizeof(line), fp)) {
		line[strcspn(line, "\n")] = '\0';
		/* gnuplot's caret line points into its echo of the command: useless here. */
		if (!line[strspn(line, " ^")])
			continue;
		n++;
		if (as_error)
			log_err(MOD, "%s: gnuplot: %s", chart, line);
		else
			log_warn(MOD, "%s: gnuplot: %s", chart, line);
	}
	fclose(fp);
	return n;
}

/*
 * gnuplot reads our meta.gp and a template, nothing else: it runs confined (no process
 * creation where the build has seccomp, so no system(), pipe or backquote can run a
 * command even if text slipped through) and dies with iowatt.
 */
static int spawn_gnuplot(char *script, char *dir, const char *errpath, int to_stdout,
			 int *status)
{
	char *argv[5];
	pid_t pid;
	int rc, in, out = -1, err;

	argv[0] = (char *)"gnuplot";
	argv[1] = (char *)"-c";
	argv[2] = script;
	argv[3] = dir;
	argv[4] = NULL;
	in = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (!to_stdout)
		out = open("/dev/null", O_WRONLY | O_CLOEXEC);
	err = output_open(errpath, 0);
	if (in < 0 || (!to_stdout && out < 0) || err < 0) {
		rc = err < 0 ? err : -errno;
		log_err(MOD, "%s: %s", err < 0 ? errpath : "/dev/null", output_strerror(rc));
	} else {
		rc = sandbox_spawn(argv, in, out, err, &pid);
	}
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	if (err >= 0)
		close(err);
	if (rc == -ENOENT) {
		log_err(MOD, "gnuplot not found in PATH; install it with 'apt-get install gnuplot-nox'");
		return -ENOENT;
	}
	if (rc)
		return rc;
	while (waitpid(pid, status, 0) < 0) {
		if (errno != EINTR) {
			log_err(MOD, "waitpid gnuplot: %m");
			return -errno;
		}
	}
	return 0;
}

int plot_chart_run(struct plot_ctx *ctx, struct plot_chart *ch)
{
	char *script = xasprintf("%s/%s.gp", ctx->plots_dir, ch->desc->script);
	char *errpath = xasprintf("%s/gnuplot.err", ch->dir);
	int rc, status = 0;

	rc = fclose(ch->meta) ? -EIO : 0;
	ch->meta = NULL;
	if (rc) {
		log_err(MOD, "%s/meta.gp: write failed", ch->dir);
		goto out;
	}
	rc = spawn_gnuplot(script, ch->dir, errpath, ch->out == NULL, &status);
	if (rc)
		goto out;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		relay_stderr(errpath, ch->desc->name, 1);
		log_err(MOD, "%s: gnuplot failed on %s (status %d)", ch->desc->name, script,
			WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
		rc = -EIO;
		goto out;
	}
	relay_stderr(errpath, ch->desc->name, 0);
	if (ch->out)
		rc = plot_chart_install(ctx, ch);
out:
	if (rc)
		ctx->failed = 1;
	unlink(errpath);
	free(errpath);
	free(script);
	plot_chart_abort(ch);
	return rc;
}

void plot_put_num(FILE *fp, double v)
{
	if (isnan(v) || isinf(v))
		fprintf(fp, " NaN");
	else
		fprintf(fp, " %.9g", v);
}

/*
 * Labels are plotted from text columns, "" where there is nothing to say, at real
 * coordinates: gnuplot 5.4.4 crashes on a "with labels" plot whose points are all NaN.
 */
void plot_put_label(FILE *fp, double v)
{
	char buf[32];

	/* SI, never an exponent: "1.43 k", not "1.43e+03" */
	fprintf(fp, " \"%s\"", fmt_si_label(v, buf, sizeof(buf)));
}

size_t plot_count_powered(const struct rr_set *set)
{
	size_t i, n = 0;

	for (i = 0; i < set->nres; i++)
		n += set->res[i].has_power != 0;
	return n;
}
