/* SPDX-License-Identifier: MIT */
/* Timeline chart data: throughput and power over time with phases and events, per result. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/events.h"
#include "core/input.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/phase.h"
#include "core/text.h"
#include "report/plot.h"

#define MOD "plot"
#define TL_MAX_METERS 8
#define TIMELINE_WIDTH_PX 1400
#define TIMELINE_HEIGHT_PX 720
/* With temperatures: a panel of them under the timeline, on the same time axis. */
#define TIMELINE_TEMP_HEIGHT_PX 960
#define SAMPLE_LINE_MAX 512
/* A job shorter than this share of the run gets a marker as well as its line. */
#define SHORT_JOB_SHARE 0.01
/* Event labels closer than this share of the run would overlap. */
#define EVENT_LABEL_GAP 0.015
/*
 * The job labels stand in a strip over the plot, never on the data: across the top of
 * their phase where they fit (~6.5 px a character at 9 pt), else upright; the strip is as
 * deep as the longest upright label, and the chart that much taller, so that the plot
 * keeps its height and each axis fits its data.
 */
#define LABEL_PX_PER_CHAR 6.5
#define LABEL_LINE_PX 14.0
/* The strip for labels across only, and the margin over an upright label. */
#define STRIP_MIN_PX 22.0
#define STRIP_PAD_PX 10.0
/* The title's band over the strip, and the plot's top without a strip (gnuplot's own). */
#define TITLE_PX 50.0
/* The plot area's width in pixels, about (the chart's less its axes and margins). */
#define PLOT_WIDTH_PX 1150.0
/* Headroom over the highest throughput and power. */
#define DATA_HEADROOM 1.08
/* "timeline-" and a result file's name, cut to fit. */
#define STEM_MAX 160
/* Below half the label's last digit: "+0.00", not "-0.00". */
#define TAIL_J_HALF_DIGIT 0.005

static double secs(uint64_t t_ns, uint64_t t0_ns)
{
	return ((double)t_ns - (double)t0_ns) / 1e9;
}

/* Splits a CSV line in place; returns the field count (at most max). */
static size_t split_csv(char *line, char **f, size_t max)
{
	size_t n = 0;
	char *p = line;

	line[strcspn(line, "\r\n")] = '\0';
	while (n < max) {
		f[n++] = p;
		p = strchr(p, ',');
		if (!p)
			break;
		*p++ = '\0';
	}
	return n;
}

/* intervals.csv -> io.dat: a step per interval, a break between jobs. Returns rows. */
static long write_intervals(const char *path, uint64_t t0, FILE *out, double *max_mb)
{
	char line[1024], prev[128] = "", *f[9];
	long rows = 0, lineno = 0;
	int err;
	FILE *fp = path ? input_fopen(path, INPUT_NOFOLLOW, 0, &err) : NULL;
	double a, b, mb;

	if (!fp)
		return path ? err : -EINVAL;
	while (fgets(line, sizeof(line), fp)) {
		lineno++;
		if (lineno == 1 && !strncmp(line, "job,", 4))
			continue;
		if (split_csv(line, f, 9) < 8) {
			log_warn(MOD, "%s:%ld: expected 8 fields, line skipped", path, lineno);
			continue;
		}
		a = secs(strtoull(f[2], NULL, 10), t0);
		b = secs(strtoull(f[3], NULL, 10), t0);
		mb = (atof(f[5]) + atof(f[7])) / 1e6;
		if (strcmp(prev, f[0]))
			fprintf(out, "%s", rows ? "\n" : "");
		snprintf(prev, sizeof(prev), "%s", f[0]);
		fprintf(out, "%.4f %.6g\n%.4f %.6g\n", a, mb, b, mb);
		*max_mb = fmax(*max_mb, mb);
		rows++;
	}
	fclose(fp);
	return rows;
}

/* The per-meter files as index blocks 0..n-1 of power.dat; returns n. */
static int join_blocks(struct plot_chart *ch, FILE *blk[TL_MAX_METERS])
{
	FILE *out = plot_chart_file(ch, "power.dat"), *fp;
	char line[SAMPLE_LINE_MAX], *blk_path;
	int i, nm = 0;

	for (i = 0; i < TL_MAX_METERS; i++) {
		if (!blk[i])
			continue;
		fclose(blk[i]);
		blk_path = xasprintf("%s/power%d.dat", ch->dir, i);
		fp = fopen(blk_path, "r");
		while (fp && out && fgets(line, sizeof(line), fp))
			fputs(line, out);
		if (fp)
			fclose(fp);
		unlink(blk_path);
		free(blk_path);
		if (out)
			fprintf(out, "\n\n");
		nm = i + 1;
	}
	if (out)
		fclose(out);
	return nm;
}

/*
 * Half the 95 % band of one reading's power: twice its combined standard uncertainty from
 * the meter's declared accuracy, which for a meter with ranges changes with the current.
 * The reading as it is where the meter declares nothing.
 */
static double band_half(const struct meter_accuracy *acc, char **f, double w)
{
	struct meter_u u;
	int own = !strstr(f[5] ? f[5] : "", "w_computed");

	accuracy_reading_u(acc, *f[2] ? atof(f[2]) : NAN, *f[3] ? atof(f[3]) : NAN, w, own, NULL,
			   NULL, &u);
	return isfinite(u.gain) ? 2 * accuracy_u_combined(&u) : 0;
}

/* samples.csv -> power.dat, one index block per meter: t, W and the band's edges.
 * Returns the meters seen. */
static int write_samples(const char *path, const struct run_result *rep, struct plot_chart *ch,
			 long *rows, double *max_w, int *band)
{
	struct meter_accuracy acc[TL_MAX_METERS];
	char line[SAMPLE_LINE_MAX], *f[7] = { NULL }, name[32];
	uint64_t t0 = rep->t0_ns;
	double half;
	size_t k;
	FILE *fp, *blk[TL_MAX_METERS] = { NULL };
	long lineno = 0;
	int m, err;
	double w;

	*rows = 0;
	if (!path)
		return -EINVAL;
	for (k = 0; k < TL_MAX_METERS; k++)
		result_accuracy_get(k < rep->nmeters ? rep->meters[k].accuracy : NULL, &acc[k]);
	fp = input_fopen(path, INPUT_NOFOLLOW, 0, &err);
	if (!fp)
		return err;
	while (fgets(line, sizeof(line), fp)) {
		lineno++;
		/* --samples binary: the series is not drawn from that file. */
		if (lineno == 1 && strncmp(line, "t_ns,", 5))
			break;
		if (lineno == 1)
			continue;
		f[5] = NULL;
		if (split_csv(line, f, 7) < 5)
			continue;
		m = atoi(f[1]);
		if (m < 0 || m >= TL_MAX_METERS)
			continue;
		w = *f[4] ? atof(f[4]) : (*f[2] && *f[3] ? atof(f[2]) * atof(f[3]) : NAN);
		if (isnan(w))
			continue;
		if (!blk[m]) {
			snprintf(name, sizeof(name), "power%d.dat", m);
			blk[m] = plot_chart_file(ch, name);
			if (!blk[m])
				break;
		}
		half = band_half(&acc[m], f, w);
		*band |= half > 0;
		fprintf(blk[m], "%.4f %.6g %.6g %.6g\n", secs(strtoull(f[0], NULL, 10), t0), w,
			w - half, w + half);
		*max_w = fmax(*max_w, w + half);
		(*rows)++;
	}
	fclose(fp);
	return join_blocks(ch, blk);
}

/* Seconds from t0 to the end of the last phase. */
static double run_span_s(const struct rr_result *r)
{
	double span = 0;
	uint64_t t0, t1;
	size_t i;
	int k;

	for (i = 0; i < r->rep.njobs; i++) {
		for (k = 0; k < PHASE_COUNT; k++) {
			rr_phase(&r->rep.jobs[i], k, &t0, &t1);
			if (t1)
				span = fmax(span, secs(t1, r->rep.t0_ns));
		}
	}
	return span;
}

/*
 * A job far shorter than the run (a fast drive, a long tail) is a sliver of a pixel as a
 * line: it gets a marker at its mean throughput so that it is seen. The markers are point
 * labels of the meta file (numbers only), so no data file can be empty. Returns the count.
 */
static int short_jobs(const struct rr_result *r, FILE *meta, double *max_mb)
{
	double span = run_span_s(r), a, b, mb;
	uint64_t t0, t1;
	size_t i;
	int n = 0;

	for (i = 0; i < r->rep.njobs; i++) {
		const struct job_result *j = &r->rep.jobs[i];

		rr_phase(j, PHASE_ACTIVE, &t0, &t1);
		if (!t0 || !t1 || !(rr_bw_bytes(j) > 0))
			continue;
		a = secs(t0, r->rep.t0_ns);
		b = secs(t1, r->rep.t0_ns);
		if (b - a >= SHORT_JOB_SHARE * span)
			continue;
		mb = rr_bw_bytes(j) / 1e6;
		fprintf(meta, "set label '' at first %.4f, first %.6g point pt 7 ps 1.4 lc rgb '#%06X' front\n",
			(a + b) / 2, mb, plot_device_rgb((unsigned)r->device_idx));
		*max_mb = fmax(*max_mb, mb);
		n++;
	}
	return n;
}

/* A job's label in the strip over the plot: its text, where it goes, how it stands. */
struct tl_label {
	char *name, *tail; /* tail: "" for none */
	double x;	   /* the active phase's middle, s */
	double px0, px1;   /* the room it takes across the strip, px */
	size_t chars;	   /* upright: its longest line; 0 across */
	int upright, shown;
};

/* The job's name and its tail energy (the figure j_per_gb counts: the tail above idle;
 * results before it: the whole tail). 0, or -ENOENT when the job has no active phase. */
static int label_text(const struct rr_result *r, const struct job_result *j, struct tl_label *l,
		      double span_s)
{
	double tail_net_j = rr_power(j)->energy_tail_net_j, tail_j = rr_power(j)->energy_tail_j;
	uint64_t a0, a1, t0, t1;
	double x0, x1, mid_px, len;

	memset(l, 0, sizeof(*l));
	rr_phase(j, PHASE_ACTIVE, &a0, &a1);
	if (!a0 || !a1 || !(span_s > 0))
		return -ENOENT;
	rr_phase(j, PHASE_TAIL, &t0, &t1);
	x0 = secs(a0, r->rep.t0_ns);
	x1 = secs(a1, r->rep.t0_ns);
	l->name = xasprintf("%s%s", rr_job_name(r, j), rr_valid(j) == 0 ? " INVALID" : "");
	if (!isnan(tail_net_j) && t1)
		l->tail = xasprintf("(%+.2f J tail above idle)",
				    fabs(tail_net_j) < TAIL_J_HALF_DIGIT ? 0.0 : tail_net_j);
	else if (!isnan(tail_j) && t1)
		l->tail = xasprintf("(+%.2f J tail)", tail_j);
	else
		l->tail = xstrdup("");
	l->x = (x0 + x1) / 2;
	mid_px = l->x / span_s * PLOT_WIDTH_PX;
	len = (double)(strlen(l->name) + (*l->tail ? 1 + strlen(l->tail) : 0)) * LABEL_PX_PER_CHAR;
	if (len <= (x1 - x0) / span_s * PLOT_WIDTH_PX) {
		l->px0 = mid_px - len / 2;
		l->px1 = mid_px + len / 2;
		return 0;
	}
	/* upright in two lines (name, tail), a line's height wide each */
	l->upright = 1;
	l->chars = strlen(l->name) > strlen(l->tail) ? strlen(l->name) : strlen(l->tail);
	l->px0 = mid_px - LABEL_LINE_PX * (*l->tail ? 1 : 0.5);
	l->px1 = mid_px + LABEL_LINE_PX * (*l->tail ? 1 : 0.5);
	return 0;
}

/*
 * Every job's label, left to right as the jobs ran: one that would cover a label already
 * placed (jobs whose phases overlap, or upright ones closer than a line) is left out, and
 * counted. Returns the labels; *n their count, *longest the longest upright line's chars.
 */
static struct tl_label *place_labels(const struct rr_result *r, size_t *n, size_t *longest,
				     size_t *dropped)
{
	struct tl_label *l = xcalloc(r->rep.njobs + 1, sizeof(*l));
	double span_s = run_span_s(r), right = -INFINITY;
	size_t i;

	*n = *longest = *dropped = 0;
	for (i = 0; i < r->rep.njobs; i++) {
		struct tl_label *c = &l[*n];

		if (label_text(r, &r->rep.jobs[i], c, span_s))
			continue;
		(*n)++;
		/* phases run in order: a label clear of the rightmost one is clear of all */
		if (c->px0 < right) {
			(*dropped)++;
			continue;
		}
		c->shown = 1;
		right = c->px1;
		if (c->chars > *longest)
			*longest = c->chars;
	}
	return l;
}

/* The strip over the plot: as deep as the longest upright label, one line for the rest. */
static double strip_px(size_t longest)
{
	return fmax(STRIP_MIN_PX, (double)longest * LABEL_PX_PER_CHAR + STRIP_PAD_PX);
}

static void write_labels(FILE *meta, struct tl_label *l, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (l[i].shown) {
			fprintf(meta, "set label ");
			plot_gp_string(meta, l[i].name);
			if (*l[i].tail) {
				fputs(l[i].upright ? ".\"\\n\"." : ".' '.", meta);
				plot_gp_string(meta, l[i].tail);
			}
			if (l[i].upright)
				fprintf(meta, " at %.4f, graph 1 offset 0,0.5 rotate by 90 left front "
					      "font ',9' textcolor rgb '#333333'\n", l[i].x);
			else
				fprintf(meta, " at %.4f, graph 1 offset 0,0.8 center front font ',9' "
					      "textcolor rgb '#333333'\n", l[i].x);
		}
		free(l[i].name);
		free(l[i].tail);
	}
	free(l);
}

/* Phase shading. */
static void phase_rects(FILE *meta, const struct rr_result *r)
{
	static const unsigned fill[PHASE_COUNT] = { 0xEBEBEB, 0xDDEBF7, 0xFBE2C5 };
	uint64_t t0, t1;
	size_t i;
	int p;

	for (i = 0; i < r->rep.njobs; i++) {
		for (p = 0; p < PHASE_COUNT; p++) {
			rr_phase(&r->rep.jobs[i], p, &t0, &t1);
			if (!t0 || !t1)
				continue;
			fprintf(meta, "set object rect from %.4f, graph 0 to %.4f, graph 1 fc rgb '#%06X' "
				      "fs solid 1.0 noborder behind\n", secs(t0, r->rep.t0_ns),
				secs(t1, r->rep.t0_ns), fill[p]);
		}
	}
}

/* Events closer together than a label is wide: one label naming each kind. */
struct event_cluster {
	double t;
	int bad;	/* an invalidating kind is among them */
	char text[128];
};

/* "usb_overcurrent" as a reader writes it: "USB over-current". */
static void display_name(int kind, char *buf, size_t len)
{
	const char *name = event_kind_name(kind);
	size_t i;

	if (kind == EV_USB_OVERCURRENT) {
		snprintf(buf, len, "USB over-current");
		return;
	}
	snprintf(buf, len, "%s%s", strncmp(name, "usb_", 4) ? "" : "USB ",
		 strncmp(name, "usb_", 4) ? name : name + 4);
	for (i = 0; buf[i]; i++)
		if (buf[i] == '_')
			buf[i] = ' ';
}

static void cluster_add(struct event_cluster *c, const struct result_event *ev)
{
	char name[48];
	size_t len = strlen(c->text);

	display_name(ev->kind, name, sizeof(name));
	if (strstr(c->text, name))
		return;
	/* The kinds that invalidate a job are named first: they are the ones to see. */
	if (event_invalidates(ev->kind) && len) {
		size_t head = strlen(name) + 3;

		if (head + len >= sizeof(c->text))
			return;
		memmove(c->text + head, c->text, len + 1);
		memcpy(c->text, name, head - 3);
		memcpy(c->text + head - 3, " + ", 3);
	} else {
		snprintf(c->text + len, sizeof(c->text) - len, "%s%s", len ? " + " : "", name);
	}
	c->bad |= event_invalidates(ev->kind);
}

static void cluster_flush(FILE *meta, const struct event_cluster *c)
{
	if (!c->text[0])
		return;
	fprintf(meta, "set label ");
	plot_gp_string(meta, c->text);
	fprintf(meta, " at %.4f, graph 0.03 rotate by 90 left front boxed font ',10' "
		      "textcolor rgb '#%06X'\n", c->t, c->bad ? 0xC00000u : 0x505050u);
}

static void event_mark(FILE *meta, const struct result_event *ev, const struct rr_result *r,
		       double span, struct event_cluster *c)
{
	double t = secs(ev->t_ns, r->rep.t0_ns);

	fprintf(meta, "set arrow from %.4f, graph 0 to %.4f, graph 1 nohead back lw 2 dt 2 lc rgb '#%06X'\n",
		t, t, event_invalidates(ev->kind) ? 0xC00000u : 0x707070u);
	if (t - c->t >= EVENT_LABEL_GAP * span) {
		cluster_flush(meta, c);
		memset(c, 0, sizeof(*c));
		c->t = t;
	}
	cluster_add(c, ev);
}

static int event_cmp(const void *a, const void *b)
{
	const struct result_event *x = *(const struct result_event *const *)a;
	const struct result_event *y = *(const struct result_event *const *)b;

	return x->t_ns < y->t_ns ? -1 : x->t_ns > y->t_ns;
}

/* An event a job already listed (jobs list those overlapping their windows). */
static int event_seen(const struct result_event *ev, const struct result_event *const *seen,
		      size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (ev->t_ns == seen[i]->t_ns && ev->kind == seen[i]->kind)
			return 1;
	return 0;
}

/*
 * Events as vertical lines: the run's own list when it has one, else the union of the
 * jobs' lists (an event near a boundary belongs to two jobs: drawn once). Labels of
 * events too close to tell apart are merged, so that none hides another.
 */
static void event_marks(FILE *meta, const struct rr_result *r)
{
	const struct result_event **seen = NULL;
	struct event_cluster c = { .t = -INFINITY };
	double span = run_span_s(r);
	size_t i, k, nseen = 0;

	for (k = 0; r->rep.events && k < r->rep.nevents; k++) {
		seen = xrealloc(seen, (nseen + 1) * sizeof(*seen));
		seen[nseen++] = &r->rep.events[k];
	}
	for (i = 0; !r->rep.events && i < r->rep.njobs; i++) {
		for (k = 0; k < r->rep.jobs[i].nevents; k++) {
			const struct result_event *ev = &r->rep.jobs[i].events[k];

			if (event_seen(ev, seen, nseen))
				continue;
			seen = xrealloc(seen, (nseen + 1) * sizeof(*seen));
			seen[nseen++] = ev;
		}
	}
	if (nseen)
		qsort(seen, nseen, sizeof(*seen), event_cmp);
	for (k = 0; k < nseen; k++)
		event_mark(meta, seen[k], r, span, &c);
	cluster_flush(meta, &c);
	free(seen);
}

/* "timeline-NAME", "timeline-NAME-2" when results from two directories share a name. */
static void unique_stem(struct plot_ctx *ctx, char *stem, size_t size, const char *base, size_t len)
{
	unsigned n = 1;
	size_t i;

	snprintf(stem, size, "timeline-%.*s", (int)len, base);
	/* The file name is iowatt's choice: a line break or stray byte in the result's name
	 * becomes a space or '?', so the name written, logged and recorded is one name. */
	text_clean(stem);
	for (i = 0; i < ctx->nstems; i++) {
		if (!strcmp(ctx->stems[i], stem)) {
			snprintf(stem, size, "timeline-%.*s-%u", (int)len, base, ++n);
			text_clean(stem);
			i = (size_t)-1; /* check the new name against all again */
		}
	}
	ctx->stems = xrealloc(ctx->stems, (ctx->nstems + 1) * sizeof(*ctx->stems));
	ctx->stems[ctx->nstems++] = xstrdup(stem);
}

static void meter_names(FILE *meta, const struct rr_result *r, int nm)
{
	char name[RR_LABEL_MAX];
	size_t i;

	for (i = 0; i < r->rep.nmeters && (int)i < nm; i++) {
		rr_meter_name(&r->rep.meters[i], name, sizeof(name));
		fprintf(meta, "MNAME[%zu] = ", i + 1);
		plot_gp_string(meta, name);
		fprintf(meta, "\n");
	}
}

/* What the timeline's data files hold, for its meta. */
struct series {
	long io_rows, pw_rows;
	double max_mb, max_w;
	int nm;
	double tmin, tmax;  /* over the temperature series */
	int has_soc, has_drive;
	int band; /* some reading has an uncertainty band */
};

/* temp.dat from the run's temperature series: t soc_c drive_c, NaN where absent. */
static int write_temps(struct plot_chart *ch, const struct rr_result *r, struct series *sr)
{
	FILE *fp;
	size_t i;

	sr->tmin = INFINITY;
	sr->tmax = -INFINITY;
	if (!r->rep.ntemp_series)
		return 0;
	fp = plot_chart_file(ch, "temp.dat");
	if (!fp)
		return -EIO;
	fprintf(fp, "# t soc_c drive_c\n");
	for (i = 0; i < r->rep.ntemp_series; i++) {
		const struct result_temp_sample *ts = &r->rep.temp_series[i];

		fprintf(fp, "%.4f", secs(ts->t_ns, r->rep.t0_ns));
		plot_put_num(fp, ts->soc_c);
		plot_put_num(fp, ts->drive_c);
		fputc('\n', fp);
		sr->has_soc |= !isnan(ts->soc_c);
		sr->has_drive |= !isnan(ts->drive_c);
		if (!isnan(ts->soc_c)) {
			sr->tmin = fmin(sr->tmin, ts->soc_c);
			sr->tmax = fmax(sr->tmax, ts->soc_c);
		}
		if (!isnan(ts->drive_c)) {
			sr->tmin = fmin(sr->tmin, ts->drive_c);
			sr->tmax = fmax(sr->tmax, ts->drive_c);
		}
	}
	fclose(fp);
	return 0;
}

/* io.dat and power.dat from the result's CSVs. -errno when none can be made. */
static int write_series(struct plot_chart *ch, const struct rr_result *r, struct series *sr)
{
	char *ipath = rr_companion_path(r, "intervals"), *spath = rr_companion_path(r, "samples");
	FILE *io = plot_chart_file(ch, "io.dat");

	if (!io) {
		free(ipath);
		free(spath);
		return -EIO;
	}
	sr->io_rows = write_intervals(ipath, r->rep.t0_ns, io, &sr->max_mb);
	fclose(io);
	if (r->has_power) {
		sr->nm = write_samples(spath, &r->rep, ch, &sr->pw_rows, &sr->max_w, &sr->band);
		if (sr->nm < 0)
			log_info(MOD, "timeline: %s: %s: power line left out", spath ? spath : r->path,
				 spath ? input_strerror(sr->nm) : "its samples file is not beside it");
	} else {
		log_info(MOD, "timeline: %s has no power data: throughput only", r->path);
	}
	free(ipath);
	free(spath);
	return write_temps(ch, r, sr);
}

/* The job labels' strip and the title over it, in the chart's height_px. */
struct tl_layout {
	struct tl_label *labels;
	size_t nlabels;
	double strip_px;
	unsigned height_px;
};

static void timeline_meta(FILE *meta, const struct rr_result *r, const struct series *sr,
			  struct tl_layout *lay)
{
	double max_mb = sr->max_mb, y2max;
	int nshort;
	/* the power axis in the unit its highest reading chooses (mW for a card's 300 mW) */
	struct si_unit pw = si_unit_of(SI_POWER, sr->max_w > 0 ? sr->max_w : NAN);

	phase_rects(meta, r);
	write_labels(meta, lay->labels, lay->nlabels);
	lay->labels = NULL;
	nshort = short_jobs(r, meta, &max_mb);
	y2max = (sr->max_w > 0 ? sr->max_w * DATA_HEADROOM : 1) * pw.per_base;
	/* the plot's top under the title and the labels' strip */
	fprintf(meta, "TMARGIN = %.5f\nTITLEY = %.5f\n",
		1 - (TITLE_PX + lay->strip_px) / lay->height_px, 1 - TITLE_PX / 2 / lay->height_px);
	fprintf(meta, "HASSHORT = %d\nHASIO = %d\nNMETERS = %d\nYMAX = %g\nY2MAX = %g\nPWS = %g\n"
		      "Y2STEP = %.10g\nPWUNIT = ", nshort > 0, sr->io_rows > 0,
		sr->pw_rows > 0 ? sr->nm : 0, max_mb > 0 ? max_mb * DATA_HEADROOM : 1, y2max,
		pw.per_base, plot_axis_step(y2max, 4 * (double)lay->height_px));
	plot_gp_string(meta, pw.text);
	fprintf(meta, "\nTITLE = ");
	plot_gp_string(meta, r->label);
	fputc('\n', meta);
	/* its own result's note, not the set's */
	plot_gp_set(meta, "NOTE", plot_note(r, 1));
	fprintf(meta, "IOCOL = '#%06X'\narray MNAME[%d]\n", plot_device_rgb((unsigned)r->device_idx),
		sr->nm > 0 ? sr->nm : 1);
	meter_names(meta, r, sr->nm);
	event_marks(meta, r);
	/* Whole degrees around the readings, at least 10 degrees tall. */
	fprintf(meta, "HASBAND = %d\n", sr->band);
	fprintf(meta, "HASTEMP = %d\nHASSOC = %d\nHASDRIVE = %d\n", sr->has_soc || sr->has_drive,
		sr->has_soc, sr->has_drive);
	if (sr->has_soc || sr->has_drive)
		fprintf(meta, "TMIN = %g\nTMAX = %g\n", floor(fmin(sr->tmin - 2, sr->tmax - 10)),
			ceil(sr->tmax + 2));
}

/* Labels placed, the strip over the plot sized and the chart grown by it. */
static void timeline_layout(const struct rr_result *r, struct tl_layout *lay)
{
	size_t longest, dropped;

	lay->labels = place_labels(r, &lay->nlabels, &longest, &dropped);
	if (dropped)
		log_info(MOD, "timeline: %s: %zu job label%s left out: %s", r->path, dropped,
			 dropped == 1 ? "" : "s", "its job ran beside another, whose label is there");
	lay->strip_px = strip_px(longest);
	lay->height_px = (unsigned)lrint((r->rep.ntemp_series ? TIMELINE_TEMP_HEIGHT_PX
							       : TIMELINE_HEIGHT_PX) +
					 lay->strip_px);
}

static void labels_free(struct tl_layout *lay)
{
	size_t i;

	if (!lay->labels)
		return;
	for (i = 0; i < lay->nlabels; i++) {
		free(lay->labels[i].name);
		free(lay->labels[i].tail);
	}
	free(lay->labels);
	lay->labels = NULL;
}

int plot_timeline(struct plot_ctx *ctx, const struct rr_result *r)
{
	const char *base = strrchr(r->path, '/');
	struct series sr = { 0 };
	struct tl_layout lay = { 0 };
	struct plot_chart ch;
	char stem[STEM_MAX];
	size_t len;
	int rc;

	base = base ? base + 1 : r->path;
	len = strlen(base);
	if (len > 5 && !strcmp(base + len - 5, ".json"))
		len -= 5;
	unique_stem(ctx, stem, sizeof(stem), base, len);
	timeline_layout(r, &lay);
	rc = plot_chart_begin(ctx, &ch, "timeline", stem, TIMELINE_WIDTH_PX, lay.height_px);
	if (rc) {
		labels_free(&lay);
		return rc;
	}
	rc = write_series(&ch, r, &sr);
	if (rc) {
		labels_free(&lay);
		plot_chart_abort(&ch);
		return rc;
	}
	if (sr.io_rows <= 0 && sr.pw_rows <= 0) {
		log_info(MOD, "timeline: skipped for %s: no interval or sample series (%s)", r->path,
			 sr.io_rows < 0 ? input_strerror((int)sr.io_rows) : "empty");
		labels_free(&lay);
		plot_chart_abort(&ch);
		return 0;
	}
	timeline_meta(ch.meta, r, &sr, &lay);
	return plot_chart_run(ctx, &ch, "timeline");
}
