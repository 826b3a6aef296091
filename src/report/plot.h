/* SPDX-License-Identifier: MIT */
/* Charts: the set `plot` and `report` draw, and what the chart modules share to make one. */
#ifndef IOWATT_PLOT_H
#define IOWATT_PLOT_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "analysis/battery.h"
#include "analysis/results_read.h"
#include "analysis/sleep_figure.h"
#include "core/options.h"
#include "core/sandbox.h"
#include "core/si_units.h"

enum plot_format { PLOT_PNG, PLOT_SVG, PLOT_DUMB };

struct plot_ctx;

/* What a chart draws from (struct plot_chart_desc's needs). */
enum {
	/* Results without power data are named and left out; with none, it is skipped. */
	PLOT_NEEDS_POWER = 1,
	/* One chart per result, from its interval and sample series (NAME-RESULT files). */
	PLOT_PER_RESULT = 2,
};

/* A draw function's answer when its data holds nothing to draw: left out, with its note. */
#define PLOT_EMPTY 1

/*
 * A chart: everything plot, its --help and the report page know of it. plot_table.c holds
 * the one table of them; nothing else names a chart.
 */
struct plot_chart_desc {
	const char *name;	/* --chart NAME, its files' stem and its messages' prefix */
	const char *alias;	/* another --chart NAME for it, or NULL */
	const char *script;	/* its gnuplot template: plots/SCRIPT.gp */
	unsigned needs;		/* PLOT_NEEDS_POWER, PLOT_PER_RESULT */
	const char *question;	/* --help: the question it answers */
	const char *caption;	/* the report page: the question, above it */
	/* Why it is left out when draw returns PLOT_EMPTY ("CHART: skipped: NOTE"). */
	const char *empty_note;
	/*
	 * Draws it through ctx (ctx->chart is this row): r is the result of a per-result
	 * chart, else NULL. 0, PLOT_EMPTY, -ENOENT (no gnuplot) or -errno.
	 */
	int (*draw)(struct plot_ctx *ctx, const struct rr_result *r);
};
extern const struct plot_chart_desc plot_chart_table[];
extern const size_t plot_nchart;
/* A mask of every chart. */
#define PLOT_ALL_CHARTS (-1)
/* A chart's bit in a mask (1 << its row) by its name or alias; 0 for none. */
int plot_chart_bit(const char *name);
/* The names and aliases with their questions: --chart's choices (made on first use). */
const struct opt_choice *plot_chart_choices(void);

/* What `iowatt plot` draws once its results are loaded. */
struct plot_opts {
	int format;		 /* enum plot_format */
	int mask;		 /* plot_chart_bit()s, or PLOT_ALL_CHARTS */
	const char *outdir;	 /* NULL: charts/, or stdout for dumb */
	const char *plots_dir;	 /* --plots-dir, NULL: found as plot_templates_dir says */
	int keep;		 /* --keep-data: keep the data and meta files (path logged) */
	struct battery_model bm; /* the battery chart's battery */
	const struct sleep_figure *sleep; /* its sleep between bursts; NULL: idle */
};

/* A chart file put into the output directory, and which file it is: only that file (the
 * same device, inode, size and modification time, still ours) is ever removed as stale by
 * a later plot. An inode number alone is reused by the next file created. */
struct plot_written {
	char *name;
	dev_t dev;
	ino_t ino;
	off_t size;
	int64_t mtime_ns;
	const struct plot_chart_desc *chart; /* NULL for a file an earlier plot wrote */
};

struct plot_ctx {
	const struct rr_set *set;
	int format;
	const char *outdir;	/* NULL: dumb charts go to stdout */
	int outdir_fd;		/* outdir, opened once (plot_outdir_open); -1 without */
	const char *plots_dir;	/* directory of the gnuplot templates */
	char *datadir;		/* temporary, one subdirectory per chart: priv.path */
	struct private_dir priv;
	struct battery_model bm; /* battery chart */
	const struct sleep_figure *sleep; /* battery chart: asleep between bursts; NULL: idle */
	const struct plot_chart_desc *chart; /* the chart being drawn */
	int failed;		/* gnuplot reported an error */
	char **stems;		/* timeline file stems used so far: same-named results get -2, -3 */
	size_t nstems;
	struct plot_written *written; /* chart files put into outdir */
	size_t nwritten;
	/* Charts left out as they had nothing to draw, with why: the page says so. */
	struct plot_skip {
		const struct plot_chart_desc *chart;
		const char *note; /* static text */
	} *skipped;
	size_t nskipped;
};

/*
 * plot_set.c. `iowatt plot` after its options: the templates found, o->outdir made, every
 * chart of o->mask drawn through a private data directory; a complete set replaces the
 * charts an earlier plot wrote there. 0, -ENOENT (no templates, or no gnuplot) or -EIO
 * (gnuplot failed), logged.
 */
int plot_charts(const struct rr_set *set, const struct plot_opts *o);
/* The gnuplot templates' directory (override, IOWATT_PLOTS, next to iowatt, installed);
 * NULL when it has none (logged). */
char *plot_templates_dir(const char *override);
/* A private data directory for the charts (ctx->datadir), and its removal (keep: left,
 * its path logged). 0 or -errno. */
int plot_datadir_make(struct plot_ctx *ctx);
void plot_datadir_remove(struct plot_ctx *ctx, int keep);
/* The charts of mask into ctx->outdir, each drawn or left out with its note: 0, -ENOENT
 * (no gnuplot: stops at the first chart) or -EIO (gnuplot reported an error). */
int plot_draw(struct plot_ctx *ctx, int mask);
/* Frees the file stems and the list of charts written. */
void plot_ctx_free(struct plot_ctx *ctx);

/* A chart being prepared: its data directory and the open meta.gp. */
struct plot_chart {
	char *dir;	/* ctx->datadir/STEM */
	char *out;	/* output file name in ctx->outdir, or NULL for stdout */
	char *render;	/* where gnuplot draws it: dir/chart.EXT, iowatt's private directory */
	FILE *meta;
	const struct plot_chart_desc *desc; /* its row: ctx->chart when it began */
};

/*
 * Create the chart ctx->chart's data directory and meta.gp: terminal, output, the device
 * palette (DEV[], COL[] and NDEV, the same colour per device in every chart) and NOTE (a
 * title suffix such as " - EMULATED meter"). out_stem: its files' stem, NULL for its
 * name. Size in pixels; dumb scales it to characters.
 */
int plot_chart_begin(struct plot_ctx *ctx, struct plot_chart *ch, const char *out_stem,
		     unsigned width_px, unsigned height_px);
/* Open a data file in the chart's directory for writing. */
FILE *plot_chart_file(struct plot_chart *ch, const char *file);
/* Close meta.gp, run the chart's template on the directory, free the chart. 0 or -errno. */
int plot_chart_run(struct plot_ctx *ctx, struct plot_chart *ch);
void plot_chart_abort(struct plot_chart *ch);

/*
 * plot_dir.c. An output directory (-o of plot and report) made and opened: an empty
 * name, or one with a control character or bytes that are not UTF-8, is refused. An fd
 * or -errno (logged).
 */
int plot_outdir_make(const char *outdir);
/* The same, kept in ctx (ctx->outdir, ctx->outdir_fd). 0 or -errno (logged). */
int plot_outdir_open(struct plot_ctx *ctx, const char *outdir);
void plot_outdir_close(struct plot_ctx *ctx);
/*
 * The chart gnuplot drew into the private directory (ch->render) copied into a new file
 * in the output directory and renamed over ch->out (never through a link, never into a
 * FIFO; core/outfile.h), and recorded as written. 0 or -errno (logged).
 */
int plot_chart_install(struct plot_ctx *ctx, const struct plot_chart *ch);
/*
 * After every chart, remove the charts of mask's rows of charts[0..n) that an earlier plot
 * by this user wrote into outdir and this one did not, and record what the directory now
 * holds. The table is passed in: the directory code sits below the charts that call it.
 * 0 or -errno.
 */
int plot_dir_sync(struct plot_ctx *ctx, const struct plot_chart_desc *charts, size_t n,
		  int mask);

/* Labels and titles longer than this are cut: a 10 kB job name would cover the chart. */
#define PLOT_TEXT_MAX 240
/*
 * Text from results, profiles, meters, the kernel or file names enters a .gp file only
 * through these: a gnuplot single-quoted string literal ('' escapes a quote), cleaned
 * and cut to PLOT_TEXT_MAX; never through sprintf into code or an @ macro.
 */
void plot_gp_string(FILE *fp, const char *s);
/* "VAR = 'value'" and a newline, value quoted as plot_gp_string. */
void plot_gp_set(FILE *meta, const char *var, const char *value);
/* A double-quoted data-file string: cleaned, cut, backslash and double quote escaped. */
void plot_data_string(FILE *fp, const char *s);
/* A number column (NaN for none) and a label column ("" for none: gnuplot 5.4.4 crashes on
 * a "with labels" plot whose points are all NaN). */
void plot_put_num(FILE *fp, double v);
void plot_put_label(FILE *fp, double v);
/* Results that carry power: a chart that needs power draws those alone. */
size_t plot_count_powered(const struct rr_set *set);
/* 0xRRGGBB of device index i (0-based). */
unsigned plot_device_rgb(unsigned i);
/*
 * The charts' title note for results res[0..n): " - EMULATED meter data" when every one is
 * emulated (" - manual meter readings" when every one is manual), else "": a mixed set
 * marks its emulated and manual devices in the key instead, and a timeline (one result)
 * says it of its own result.
 */
const char *plot_note(const struct rr_result *res, size_t n);
/* " (EMULATED)" or " (manual)" for a series of result r when the title does not say it of
 * every result of set; else "". */
const char *plot_result_mark(const struct rr_set *set, const struct rr_result *r);
/*
 * NJOBS, TIC[1..n] (the job names, for x = 1..n) and TICROT (1 when they would collide
 * side by side): the templates set their tics from these; the dumb terminal cannot rotate
 * text, so there every other name goes one line lower.
 */
void plot_job_tics(FILE *meta, const char *const *names, size_t n, unsigned width_px, int dumb);

/* plot_facets.c: a bar chart's jobs wrapped into rows, so that no chart is a strip. */
struct plot_facets {
	size_t per_row;		/* jobs a row holds */
	size_t iops_rows;	/* rows of the per-record-size panels */
	size_t all_rows;	/* rows of the panel of every job, and its jobs per row */
	size_t all_per_row;
	unsigned width_px, height_px;
};
/* The rows for npanels panels of panel_jobs[] jobs each, then every job's panel wrapped. */
void plot_facets(struct plot_facets *f, const size_t *panel_jobs, size_t npanels, size_t njobs,
		 size_t bars_per_job);
/* A job's width across, in px, in the IOPS panels' rows and in the rows of every job. */
void plot_facets_job_px(const struct plot_facets *f, const size_t *panel_jobs, size_t npanels,
			double *iops_px, double *all_px);
/*
 * The layout into meta.gp, in screen fractions: RH a row's height; PXO[p], PYO[p], PW[p]
 * each panel's origin and width; NJROW rows of every job, JFIRST[r] (1-based) and JN[r]
 * its jobs, JYO[r] and JW[r] its origin and width (a short last row keeps the bar width).
 */
void plot_facets_meta(FILE *meta, const struct plot_facets *f, const size_t *panel_jobs,
		      size_t npanels, size_t njobs);

/* plot_axis.c. The unit of an axis of J/GB, and of active power, over every powered job of the set:
 * the tables' choice (core/si_units: the largest figure at least 1, or --units). */
struct si_unit plot_jpg_unit(const struct rr_set *set);
struct si_unit plot_power_unit(const struct rr_set *set);
/*
 * The step of a linear axis from 0 to max, axis_px long: 1, 2 or 5 times a power of ten,
 * about ten ticks or as few as keep their labels ('%.10g': 500000 under --units uW) from
 * running into each other.
 */
double plot_axis_step(double max, double axis_px);

/* The charts' draw functions (struct plot_chart_desc's draw), one module each. */
int plot_efficiency(struct plot_ctx *ctx, const struct rr_result *r);
int plot_perf_power(struct plot_ctx *ctx, const struct rr_result *r);
int plot_latency(struct plot_ctx *ctx, const struct rr_result *r);
int plot_battery(struct plot_ctx *ctx, const struct rr_result *r);
int plot_timeline(struct plot_ctx *ctx, const struct rr_result *r);
int plot_sweep(struct plot_ctx *ctx, const struct rr_result *r);
int plot_wsat(struct plot_ctx *ctx, const struct rr_result *r);

#endif
