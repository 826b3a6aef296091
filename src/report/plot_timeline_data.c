/* SPDX-License-Identifier: MIT */
/* Timeline chart data files from a result's CSVs: io.dat, power.dat with its band, temp.dat. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/input.h"
#include "core/log.h"
#include "core/text.h"
#include "core/mem.h"
#include "report/plot_timeline.h"
#include "result/intervals_file.h"

#define MOD "plot"
#define TL_MAX_METERS 8
#define SAMPLE_LINE_MAX 512

struct io_steps {
	FILE *out;
	uint64_t t0;
	char prev[128];
	long rows;
	double *max_mb;
};

static int io_step(const struct interval_row *iv, void *ctx)
{
	struct io_steps *st = ctx;
	double a = timeline_secs(iv->t_start_ns, st->t0), b = timeline_secs(iv->t_end_ns, st->t0);
	double mb = (iv->read_bw_bytes + iv->write_bw_bytes) / 1e6;

	if (strcmp(st->prev, iv->job))
		fprintf(st->out, "%s", st->rows ? "\n" : "");
	snprintf(st->prev, sizeof(st->prev), "%s", iv->job);
	fprintf(st->out, "%.4f %.6g\n%.4f %.6g\n", a, mb, b, mb);
	*st->max_mb = fmax(*st->max_mb, mb);
	st->rows++;
	return 0;
}

/* intervals.csv -> io.dat: a step per interval, a break between jobs. Returns rows. */
static long write_intervals(const char *path, uint64_t t0, FILE *out, double *max_mb)
{
	struct io_steps st = { .out = out, .t0 = t0, .max_mb = max_mb };
	int rc;

	if (!path)
		return -EINVAL;
	if (access(path, F_OK))
		return -errno; /* a result without the series: throughput is left out, not an error */
	rc = intervals_file_read(path, io_step, &st);
	return rc ? rc : st.rows;
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

/* What the first pass over samples.csv learns of each meter: its rows and time span. */
struct meter_span {
	long rows;
	double t_first_s, t_last_s;
};

/* A samples.csv line split into its fields (13 for a bin's row); -1 for one to skip. */
static int sample_fields(char *line, char **f, uint64_t t0, double *t_s)
{
	int m;

	memset(f, 0, 13 * sizeof(*f));
	if (text_split_commas(line, f, 13) < 5)
		return -1;
	m = atoi(f[1]);
	if (m < 0 || m >= TL_MAX_METERS)
		return -1;
	*t_s = timeline_secs(strtoull(f[0], NULL, 10), t0);
	return m;
}

static double sample_w(char **f)
{
	return *f[4] ? atof(f[4]) : (*f[2] && *f[3] ? atof(f[2]) * atof(f[3]) : NAN);
}

/* The samples CSV opened past its header; NULL and *err for a file that cannot be read, or
 * that is not the CSV (--samples binary: the series is not drawn from that file, err 0). */
static FILE *samples_open(const char *path, int *err)
{
	char line[SAMPLE_LINE_MAX];
	FILE *fp = input_fopen(path, INPUT_NOFOLLOW, 0, err);

	if (fp && (!fgets(line, sizeof(line), fp) || strncmp(line, "t_ns,", 5))) {
		fclose(fp);
		fp = NULL;
		*err = 0;
	}
	return fp;
}

/* Each meter's rows and span, for its decimation. 0, or -errno. */
static int scan_samples(const char *path, uint64_t t0, struct meter_span *sp)
{
	char line[SAMPLE_LINE_MAX], *f[13];
	double t;
	int m, err;
	FILE *fp = samples_open(path, &err);

	if (!fp)
		return err;
	while (fgets(line, sizeof(line), fp)) {
		m = sample_fields(line, f, t0, &t);
		if (m < 0 || isnan(sample_w(f)))
			continue;
		if (!sp[m].rows++)
			sp[m].t_first_s = t;
		sp[m].t_last_s = t;
	}
	fclose(fp);
	return 0;
}

/*
 * samples.csv -> power.dat, one index block per meter: t, W and the band's edges, a fast
 * meter's cut to the chart's columns with each column's min and max (timeline_decim).
 * Returns the meters seen.
 */
static int write_samples(const char *path, const struct run_result *rep, struct plot_chart *ch,
			 long *rows, double *max_w, int *band)
{
	struct meter_accuracy acc[TL_MAX_METERS];
	struct meter_span sp[TL_MAX_METERS] = { { 0 } };
	struct timeline_decim dc[TL_MAX_METERS];
	struct timeline_point lo, hi;
	char line[SAMPLE_LINE_MAX], *f[13], name[32];
	uint64_t t0 = rep->t0_ns;
	size_t k;
	FILE *fp, *blk[TL_MAX_METERS] = { NULL };
	int m, err;
	double w, t;

	*rows = 0;
	if (!path)
		return -EINVAL;
	err = scan_samples(path, t0, sp);
	if (err)
		return err;
	for (k = 0; k < TL_MAX_METERS; k++)
		result_accuracy_get(k < rep->nmeters ? rep->meters[k].accuracy : NULL, &acc[k]);
	fp = samples_open(path, &err);
	if (!fp)
		return err ? err : join_blocks(ch, blk);
	while (fgets(line, sizeof(line), fp)) {
		m = sample_fields(line, f, t0, &t);
		w = m < 0 ? NAN : sample_w(f);
		if (isnan(w))
			continue;
		if (!blk[m]) {
			snprintf(name, sizeof(name), "power%d.dat", m);
			blk[m] = plot_chart_file(ch, name);
			if (!blk[m])
				break;
			timeline_decim_init(&dc[m], blk[m], sp[m].t_first_s, sp[m].t_last_s,
					    sp[m].rows, TIMELINE_WIDTH_PX);
		}
		/* a bin's row: its extremes, each with the band of a reading of that power */
		lo.t_s = hi.t_s = t;
		lo.w = f[11] && *f[11] ? atof(f[11]) : w;
		hi.w = f[12] && *f[12] ? atof(f[12]) : w;
		lo.lo = lo.w - band_half(&acc[m], f, lo.w);
		lo.hi = 2 * lo.w - lo.lo;
		hi.lo = hi.w - band_half(&acc[m], f, hi.w);
		hi.hi = 2 * hi.w - hi.lo;
		*band |= lo.hi > lo.w || hi.hi > hi.w;
		timeline_decim_add(&dc[m], &lo, &hi);
		*max_w = fmax(*max_w, hi.hi);
	}
	fclose(fp);
	for (m = 0; m < TL_MAX_METERS; m++)
		if (blk[m]) {
			timeline_decim_flush(&dc[m]);
			*rows += dc[m].rows_out;
		}
	return join_blocks(ch, blk);
}

/* temp.dat from the run's temperature series: t soc_c drive_c, NaN where absent. */
static int write_temps(struct plot_chart *ch, const struct rr_result *r, struct timeline_series *sr)
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

		fprintf(fp, "%.4f", timeline_secs(ts->t_ns, r->rep.t0_ns));
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

int timeline_write_series(struct plot_chart *ch, const struct rr_result *r, struct timeline_series *sr)
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
			log_info(MOD, "%s: %s: %s: power line left out", ch->desc->name,
				 spath ? spath : r->path,
				 spath ? input_strerror(sr->nm) : "its samples file is not beside it");
	} else {
		log_info(MOD, "%s: %s has no power data: throughput only", ch->desc->name, r->path);
	}
	free(ipath);
	free(spath);
	return write_temps(ch, r, sr);
}
