/* SPDX-License-Identifier: MIT */
/* Timeline chart marks in meta.gp: phase bands, the job labels' strip, short jobs, events. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/events.h"
#include "core/mem.h"
#include "core/phase.h"
#include "report/plot_timeline.h"

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
/* The plot area's width in pixels, about (the chart's less its axes and margins). */
#define PLOT_WIDTH_PX 1150.0
/* Below half the label's last digit: "+0.00", not "-0.00". */
#define TAIL_J_HALF_DIGIT 0.005

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
				span = fmax(span, timeline_secs(t1, r->rep.t0_ns));
		}
	}
	return span;
}

/*
 * A job far shorter than the run (a fast drive, a long tail) is a sliver of a pixel as a
 * line: it gets a marker at its mean throughput so that it is seen. The markers are point
 * labels of the meta file (numbers only), so no data file can be empty. Returns the count.
 */
int timeline_short_jobs(const struct rr_result *r, FILE *meta, double *max_mb)
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
		a = timeline_secs(t0, r->rep.t0_ns);
		b = timeline_secs(t1, r->rep.t0_ns);
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
struct timeline_label {
	char *name, *tail; /* tail: "" for none */
	double x;	   /* the active phase's middle, s */
	double px0, px1;   /* the room it takes across the strip, px */
	size_t chars;	   /* upright: its longest line; 0 across */
	int upright, shown;
};

/* The job's name and its tail energy (the figure j_per_gb counts: the tail above idle;
 * results before it: the whole tail). 0, or -ENOENT when the job has no active phase. */
static int label_text(const struct rr_result *r, const struct job_result *j, struct timeline_label *l,
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
	x0 = timeline_secs(a0, r->rep.t0_ns);
	x1 = timeline_secs(a1, r->rep.t0_ns);
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

struct timeline_label *timeline_labels_place(const struct rr_result *r, size_t *n,
					     size_t *longest, size_t *dropped)
{
	struct timeline_label *l = xcalloc(r->rep.njobs + 1, sizeof(*l));
	double span_s = run_span_s(r), right = -INFINITY;
	size_t i;

	*n = *longest = *dropped = 0;
	for (i = 0; i < r->rep.njobs; i++) {
		struct timeline_label *c = &l[*n];

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

double timeline_strip_px(size_t longest)
{
	return fmax(STRIP_MIN_PX, (double)longest * LABEL_PX_PER_CHAR + STRIP_PAD_PX);
}

void timeline_labels_free(struct timeline_label *l, size_t n)
{
	size_t i;

	if (!l)
		return;
	for (i = 0; i < n; i++) {
		free(l[i].name);
		free(l[i].tail);
	}
	free(l);
}

void timeline_labels_write(FILE *meta, struct timeline_label *l, size_t n)
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
	}
	timeline_labels_free(l, n);
}

/*
 * What ran outside the phases, a job's size=auto calibration, its file layout and a run
 * too short for the meter that was run again: shaded in their own colours and named in
 * their band where the name fits, so that their I/O does not read as measurement. The
 * layout of a calibration's file lies inside it, and is drawn over it, its name a line
 * lower (y, in graph units). Returns the TIMELINE_* of those drawn.
 */
static int lead_in_rect(FILE *meta, const struct rr_result *r, const struct result_span *sp,
			unsigned fill, const char *name, double y, double span_s)
{
	double a, b;

	if (!sp || !(sp->t_end_ns > sp->t_start_ns) || !(span_s > 0))
		return 0;
	a = timeline_secs(sp->t_start_ns, r->rep.t0_ns);
	b = timeline_secs(sp->t_end_ns, r->rep.t0_ns);
	fprintf(meta, "set object rect from %.4f, graph 0 to %.4f, graph 1 fc rgb '#%06X' "
		      "fs solid 1.0 noborder behind\n", a, b, fill);
	if ((b - a) / span_s * PLOT_WIDTH_PX >= (double)strlen(name) * LABEL_PX_PER_CHAR + STRIP_PAD_PX) {
		fprintf(meta, "set label ");
		plot_gp_string(meta, name);
		fprintf(meta, " at %.4f, graph %.2f center front font ',9' textcolor rgb '#555555'\n",
			(a + b) / 2, y);
	}
	return 1;
}

int timeline_phase_rects(FILE *meta, const struct rr_result *r)
{
	static const unsigned fill[PHASE_COUNT] = { 0xEBEBEB, 0xDDEBF7, 0xFBE2C5 };
	double span_s = run_span_s(r);
	uint64_t t0, t1;
	size_t i;
	int p, drawn = 0;

	for (i = 0; i < r->rep.njobs; i++) {
		const struct result_phases *ph = r->rep.jobs[i].phases;

		if (!ph)
			continue;
		if (lead_in_rect(meta, r, ph->calibration, TIMELINE_CALIB_RGB, "calibration", 0.97, span_s))
			drawn |= TIMELINE_CALIBRATION;
		if (lead_in_rect(meta, r, ph->prepare, TIMELINE_PREP_RGB, "layout", 0.93, span_s))
			drawn |= TIMELINE_PREPARE;
		if (lead_in_rect(meta, r, ph->retaken, TIMELINE_RETAKEN_RGB, "left out", 0.97, span_s))
			drawn |= TIMELINE_RETAKEN;
	}
	for (i = 0; i < r->rep.njobs; i++) {
		for (p = 0; p < PHASE_COUNT; p++) {
			rr_phase(&r->rep.jobs[i], p, &t0, &t1);
			if (!t0 || !t1)
				continue;
			fprintf(meta, "set object rect from %.4f, graph 0 to %.4f, graph 1 fc rgb '#%06X' "
				      "fs solid 1.0 noborder behind\n", timeline_secs(t0, r->rep.t0_ns),
				timeline_secs(t1, r->rep.t0_ns), fill[p]);
		}
	}
	return drawn;
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
	double t = timeline_secs(ev->t_ns, r->rep.t0_ns);

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
void timeline_event_marks(FILE *meta, const struct rr_result *r)
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
