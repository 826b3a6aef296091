/* SPDX-License-Identifier: MIT */
/* A run's files: the JSON document, the interval and sample CSVs, the live progress line. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/log.h"
#include "core/util.h"
#include "result/result.h"
#include "run/run.h"

/* "dir/x.json" -> "dir/x" + suffix */
static char *sibling_path(const char *json_path, const char *suffix)
{
	size_t n = strlen(json_path);

	if (n > 5 && !strcmp(json_path + n - 5, ".json"))
		n -= 5;
	return xasprintf("%.*s%s", (int)n, json_path, suffix);
}

static FILE *open_csv(const char *path, const char *header, int force)
{
	FILE *fp = fopen(path, force ? "w" : "wx");

	if (!fp) {
		log_err(NULL, "%s: %s%s", path, strerror(errno),
			errno == EEXIST ? " (use another --json-out, or --force to replace it)" : "");
		return NULL;
	}
	fputs(header, fp);
	return fp;
}

int run_output_open(struct run_ctx *rc, const char *stem)
{
	const struct run_opts *ro = &rc->cfg->run;
	const char *dir = ro->output_dir ? ro->output_dir : "results";
	struct stat st;
	char *slash;
	int err;

	if (ro->json_out) {
		rc->json_path = xstrdup(ro->json_out);
		if (!stat(rc->json_path, &st) && !ro->force) {
			log_err(NULL, "option --json-out: %s already exists (choose another path, "
				      "or --force to replace it)", rc->json_path);
			return -EEXIST;
		}
		slash = strrchr(rc->json_path, '/');
		if (slash && slash != rc->json_path) {
			*slash = '\0';
			err = mkdir_p(rc->json_path, 0755);
			*slash = '/';
			if (err) {
				log_err(NULL, "option --json-out: cannot create the directory of %s: %s",
					rc->json_path, strerror(-err));
				return err;
			}
		}
	} else {
		err = mkdir_p(dir, 0755);
		if (err) {
			log_err(NULL, "option --output: cannot create %s: %s", dir, strerror(-err));
			return err;
		}
		rc->json_path = result_default_path(dir, stem);
	}
	rc->intervals_path = sibling_path(rc->json_path, ".intervals.csv");
	rc->samples_path = sibling_path(rc->json_path, ".samples.csv");
	rc->intervals_csv = open_csv(rc->intervals_path,
				     "job,loop,t_start_ns,t_end_ns,read_iops,read_bw_bytes,"
				     "write_iops,write_bw_bytes\n", ro->force);
	if (!rc->intervals_csv)
		return -EEXIST;
	if (rc->nmeters) {
		rc->samples_csv = open_csv(rc->samples_path, "t_ns,meter,v,a,w,flags\n", ro->force);
		if (!rc->samples_csv)
			return -EEXIST;
	}
	return 0;
}

static void put_num(FILE *fp, const char *fmt, double v)
{
	if (!isnan(v))
		fprintf(fp, fmt, v);
}

void run_output_sample(struct run_ctx *rc, unsigned meter, const struct meter_sample *s)
{
	static const struct {
		uint32_t bit;
		const char *name;
	} flags[] = {
		{ SAMPLE_EMULATED, "emulated" }, { SAMPLE_MANUAL, "manual" },
		{ SAMPLE_AFTER_GAP, "after_gap" }, { SAMPLE_W_COMPUTED, "w_computed" },
		{ SAMPLE_RAIL_SUM, "rail_sum" },
	};
	FILE *fp = rc->samples_csv;
	const char *sep = "";
	size_t i;

	if (!fp)
		return;
	fprintf(fp, "%" PRIu64 ",%u,", s->t_ns, meter);
	put_num(fp, "%.4f", s->v);
	fputc(',', fp);
	put_num(fp, "%.6f", s->a);
	fputc(',', fp);
	put_num(fp, "%.6f", s->w);
	fputc(',', fp);
	for (i = 0; i < ARRAY_SIZE(flags); i++) {
		if (s->flags & flags[i].bit) {
			fprintf(fp, "%s%s", sep, flags[i].name);
			sep = "|";
		}
	}
	fputc('\n', fp);
}

void run_output_interval(struct run_ctx *rc, const char *job, unsigned loop, uint64_t t0,
			 uint64_t t1, const uint64_t ios[DDIR_COUNT],
			 const uint64_t bytes[DDIR_COUNT])
{
	double s = (double)(t1 - t0) / 1e9;

	if (!rc->intervals_csv || t1 <= t0)
		return;
	fprintf(rc->intervals_csv, "%s,%u,%" PRIu64 ",%" PRIu64 ",%.3f,%.0f,%.3f,%.0f\n", job,
		loop, t0, t1, (double)ios[DDIR_READ] / s, (double)bytes[DDIR_READ] / s,
		(double)ios[DDIR_WRITE] / s, (double)bytes[DDIR_WRITE] / s);
}

void run_output_flush(struct run_ctx *rc)
{
	if (rc->samples_csv)
		fflush(rc->samples_csv);
	if (rc->intervals_csv)
		fflush(rc->intervals_csv);
}

void run_output_close(struct run_ctx *rc)
{
	if (rc->samples_csv && fclose(rc->samples_csv))
		log_err(NULL, "%s: %s", rc->samples_path, strerror(errno));
	if (rc->intervals_csv && fclose(rc->intervals_csv))
		log_err(NULL, "%s: %s", rc->intervals_path, strerror(errno));
	rc->samples_csv = rc->intervals_csv = NULL;
}

void run_progress(struct run_ctx *rc, const char *fmt, ...)
{
	static uint64_t last_ns;
	uint64_t now;
	va_list ap;

	if (!rc->progress)
		return;
	now = now_ns();
	if (now - last_ns < 250 * NS_PER_MS)
		return;
	last_ns = now;
	fputs("\r\033[K", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fflush(stderr);
	rc->progress_drawn = 1;
}

void run_progress_clear(struct run_ctx *rc)
{
	if (!rc->progress_drawn)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	rc->progress_drawn = 0;
}

static void meter_fill(struct report_meter *m, const struct meter_dev *dev)
{
	const struct meter_info *in = meter_info(dev);
	struct meter_counters n;

	meter_counters(dev, &n);
	m->spec = xstrdup(in->spec);
	m->driver = xstrdup(in->driver);
	m->model = xstrdup(in->model);
	m->emulated = !!in->emulated;
	m->manual = !!in->manual;
	m->period_ms = (double)in->period_ns / 1e6;
	m->samples = n.samples;
	m->frames_bad = n.frames_bad;
	m->gaps = n.gaps;
	m->reconnects = n.reconnects;
	m->overruns = n.overruns;
}

/* The meters' counters as they are now. */
static void meters_info(struct run_ctx *rc)
{
	struct run_report *r = &rc->rep;
	size_t m;

	for (m = 0; m < r->nmeters; m++) {
		free(r->meters[m].spec);
		free(r->meters[m].driver);
		free(r->meters[m].model);
	}
	free(r->meters);
	r->meters = xcalloc(rc->nmeters + 1, sizeof(*r->meters));
	r->nmeters = rc->nmeters;
	for (m = 0; m < rc->nmeters; m++)
		meter_fill(&r->meters[m], rc->meters[m].dev);
}

int run_write_result(struct run_ctx *rc, int status)
{
	meters_info(rc);
	rc->rep.status = status;
	return report_write(rc->json_path, &rc->rep);
}
