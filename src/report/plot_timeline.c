/* SPDX-License-Identifier: MIT */
/* Timeline chart, one per result: its file stem, its size and meta.gp, drawn from its series. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/input.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/text.h"
#include "report/plot_timeline.h"

#define MOD "plot"
#define TIMELINE_HEIGHT_PX 720
/* With temperatures: a panel of them under the timeline, on the same time axis. */
#define TIMELINE_TEMP_HEIGHT_PX 960
/* The title's band over the strip, and the plot's top without a strip (gnuplot's own). */
#define TITLE_PX 50.0
/* Headroom over the highest throughput and power. */
#define DATA_HEADROOM 1.08
/* The chart's name, '-' and a result file's name, cut to fit. */
#define STEM_MAX 160

/* "CHART-RESULT", "CHART-RESULT-2" when results from two directories share a name. */
static void unique_stem(struct plot_ctx *ctx, char *stem, size_t size, const char *base, size_t len)
{
	const char *chart = ctx->chart->name;
	unsigned n = 1;
	size_t i;

	snprintf(stem, size, "%s-%.*s", chart, (int)len, base);
	/* The file name is iowatt's choice: a line break or stray byte in the result's name
	 * becomes a space or '?', so the name written, logged and recorded is one name. */
	text_clean(stem);
	for (i = 0; i < ctx->nstems; i++) {
		if (!strcmp(ctx->stems[i], stem)) {
			snprintf(stem, size, "%s-%.*s-%u", chart, (int)len, base, ++n);
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

/* The job labels' strip and the title over it, in the chart's height_px. */
struct timeline_layout {
	struct timeline_label *labels;
	size_t nlabels;
	double strip_px;
	unsigned height_px;
};

static void timeline_meta(FILE *meta, const struct rr_result *r, const struct timeline_series *sr,
			  struct timeline_layout *lay)
{
	double max_mb = sr->max_mb, y2max;
	int nshort, lead;
	/* the power axis in the unit its highest reading chooses (mW for a card's 300 mW) */
	struct si_unit pw = si_unit_of(SI_POWER, sr->max_w > 0 ? sr->max_w : NAN);

	lead = timeline_phase_rects(meta, r);
	fprintf(meta, "HASPREP = %d\nHASCALIB = %d\nHASRETAKEN = %d\nPREPCOL = '#%06X'\n"
		      "CALIBCOL = '#%06X'\nRETAKENCOL = '#%06X'\n", !!(lead & TIMELINE_PREPARE),
		!!(lead & TIMELINE_CALIBRATION), !!(lead & TIMELINE_RETAKEN), TIMELINE_PREP_RGB,
		TIMELINE_CALIB_RGB, TIMELINE_RETAKEN_RGB);
	timeline_labels_write(meta, lay->labels, lay->nlabels);
	lay->labels = NULL;
	nshort = timeline_short_jobs(r, meta, &max_mb);
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
	timeline_event_marks(meta, r);
	/* Whole degrees around the readings, at least 10 degrees tall. */
	fprintf(meta, "HASBAND = %d\n", sr->band);
	fprintf(meta, "HASTEMP = %d\nHASSOC = %d\nHASDRIVE = %d\n", sr->has_soc || sr->has_drive,
		sr->has_soc, sr->has_drive);
	if (sr->has_soc || sr->has_drive)
		fprintf(meta, "TMIN = %g\nTMAX = %g\n", floor(fmin(sr->tmin - 2, sr->tmax - 10)),
			ceil(sr->tmax + 2));
}

/* Labels placed, the strip over the plot sized and the chart grown by it. */
static void layout_make(const char *chart, const struct rr_result *r,
			struct timeline_layout *lay)
{
	size_t longest, dropped;

	lay->labels = timeline_labels_place(r, &lay->nlabels, &longest, &dropped);
	if (dropped)
		log_info(MOD, "%s: %s: %zu job label%s left out: %s", chart, r->path, dropped,
			 dropped == 1 ? "" : "s", "its job ran beside another, whose label is there");
	lay->strip_px = timeline_strip_px(longest);
	lay->height_px = (unsigned)lrint((r->rep.ntemp_series ? TIMELINE_TEMP_HEIGHT_PX
							       : TIMELINE_HEIGHT_PX) +
					 lay->strip_px);
}

int plot_timeline(struct plot_ctx *ctx, const struct rr_result *r)
{
	const char *base = strrchr(r->path, '/');
	struct timeline_series sr = { 0 };
	struct timeline_layout lay = { 0 };
	struct plot_chart ch;
	char stem[STEM_MAX];
	size_t len;
	int rc;

	base = base ? base + 1 : r->path;
	len = strlen(base);
	if (len > 5 && !strcmp(base + len - 5, ".json"))
		len -= 5;
	unique_stem(ctx, stem, sizeof(stem), base, len);
	layout_make(ctx->chart->name, r, &lay);
	rc = plot_chart_begin(ctx, &ch, stem, TIMELINE_WIDTH_PX, lay.height_px);
	if (rc) {
		timeline_labels_free(lay.labels, lay.nlabels);
		return rc;
	}
	rc = timeline_write_series(&ch, r, &sr);
	if (rc) {
		timeline_labels_free(lay.labels, lay.nlabels);
		plot_chart_abort(&ch);
		return rc;
	}
	if (sr.io_rows <= 0 && sr.pw_rows <= 0) {
		/* one of several: the note names its result, and why */
		log_info(MOD, "%s: skipped for %s: %s (%s)", ch.desc->name, r->path,
			 ch.desc->empty_note, sr.io_rows < 0 ? input_strerror((int)sr.io_rows) : "empty");
		timeline_labels_free(lay.labels, lay.nlabels);
		plot_chart_abort(&ch);
		return 0;
	}
	timeline_meta(ch.meta, r, &sr, &lay);
	return plot_chart_run(ctx, &ch);
}
