/* SPDX-License-Identifier: MIT */
/* A run's files: where the JSON goes, and the interval and sample series streamed beside it. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/log.h"
#include "core/mem.h"
#include "core/outfile.h"
#include "result/result.h"
#include "run/output.h"

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
	FILE *fp = output_fopen(path, force);

	if (!fp) {
		log_err(NULL, "%s: %s", path, output_strerror(-errno));
		return NULL;
	}
	fputs(header, fp);
	return fp;
}

/* dir/name with dir resolved ("x.json" -> "/cwd/x.json"), or NULL if dir does not exist. */
static char *canonical(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir, *real, *out = NULL;

	dir = slash ? xasprintf("%.*s", (int)(slash - path) + (slash == path), path)
		    : xstrdup(".");
	real = realpath(dir, NULL);
	if (real)
		out = xasprintf("%s/%s", real, slash ? slash + 1 : path);
	free(real);
	free(dir);
	return out;
}

/* The output path names the --target (the same file, or the same path once resolved). */
static int same_as_target(const char *out, const char *target)
{
	struct stat a, b;
	char *ca, *cb;
	int same;

	if (!stat(out, &a) && !stat(target, &b))
		return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
	ca = canonical(out);
	cb = canonical(target);
	same = ca && cb && !strcmp(ca, cb);
	free(ca);
	free(cb);
	return same;
}

/* The nearest existing directory above path must be one iowatt may create files in. */
static int check_parent(const char *opt, const char *path)
{
	char *dir = xstrdup(path), *slash;
	struct stat st;
	int err = 0;

	for (;;) {
		slash = strrchr(dir, '/');
		if (!slash) {
			snprintf(dir, strlen(dir) + 1, ".");
			break;
		}
		if (slash == dir) {
			dir[1] = '\0';
			break;
		}
		*slash = '\0';
		if (!lstat(dir, &st) || errno != ENOENT)
			break;
	}
	if (stat(dir, &st))
		err = -errno;
	else if (!S_ISDIR(st.st_mode))
		err = -ENOTDIR;
	else if (access(dir, W_OK | X_OK))
		err = -errno;
	if (err)
		log_err(NULL, "option %s: cannot create %s: %s is %s", opt, path, dir,
			err == -ENOTDIR ? "not a directory" : strerror(-err));
	free(dir);
	return err;
}

/* One output: refused as output_open would, refused if it is the target. */
static int check_one(const char *opt, const char *path, const struct run_opts *ro, int run)
{
	int err = check_parent(opt, path);

	if (err)
		return err;
	err = output_check(path, ro->force);
	if (err) {
		log_err(NULL, "option %s: %s: %s", opt, path, output_strerror(err));
		return err;
	}
	if (run && ro->target && *ro->target && same_as_target(path, ro->target)) {
		log_err(NULL, "option %s: %s is the --target: the test file would overwrite "
			      "it, or its removal delete the result", opt, path);
		return -EINVAL;
	}
	return 0;
}

int run_output_check(const struct run_opts *ro, int run)
{
	const char *dir = ro->output_dir ? ro->output_dir : "results";
	char *iv, *sm;
	struct stat st;
	int err;

	if (!ro->json_out) {
		if (!stat(dir, &st) && !S_ISDIR(st.st_mode)) {
			log_err(NULL, "option --output: %s is not a directory", dir);
			return -ENOTDIR;
		}
		return stat(dir, &st) ? check_parent("--output", dir) : 0;
	}
	iv = sibling_path(ro->json_out, ".intervals.csv");
	sm = sibling_path(ro->json_out, ro->samples_mode == SAMPLES_BINARY ? ".samples.bin"
									 : ".samples.csv");
	err = check_one("--json-out", ro->json_out, ro, run);
	if (!err)
		err = check_one("--json-out (its intervals CSV)", iv, ro, run);
	if (!err && ro->nmeters)
		err = check_one("--json-out (its samples file)", sm, ro, run);
	free(iv);
	free(sm);
	return err;
}

/* --json-out FILE: refuse to replace it without --force, create its directory. */
static int exact_path(struct run_output *o, const struct run_opts *ro)
{
	char *slash;
	int err;

	o->json_path = xstrdup(ro->json_out);
	err = output_check(o->json_path, ro->force);
	if (err) {
		log_err(NULL, "option --json-out: %s: %s", o->json_path, output_strerror(err));
		return err;
	}
	slash = strrchr(o->json_path, '/');
	if (!slash || slash == o->json_path)
		return 0;
	*slash = '\0';
	err = mkdir_p(o->json_path, 0755);
	*slash = '/';
	if (err)
		log_err(NULL, "option --json-out: cannot create the directory of %s: %s",
			o->json_path, strerror(-err));
	return err;
}


/* Which meters are binned: --samples auto and at least 10 samples per bin. */
static void plan_bins(struct run_output *o, const struct run_opts *ro, const struct session *s)
{
	unsigned m;
	uint64_t bin_ns;

	o->nmeters = s->nmeters;
	o->bins = xcalloc(s->nmeters + 1, sizeof(*o->bins));
	for (m = 0; m < s->nmeters; m++) {
		bin_ns = ro->samples_mode == SAMPLES_AUTO &&
					 sample_bins_wanted(session_period_ns(s, m), ro->samples_bin_ns)
				 ? ro->samples_bin_ns
				 : 0;
		sample_binner_init(&o->bins[m], bin_ns);
		o->binned |= bin_ns != 0;
	}
}

static int open_samples(struct run_output *o, const struct run_opts *ro)
{
	static const char magic[] = SAMPLES_BIN_MAGIC;

	if (o->mode != SAMPLES_BINARY) {
		o->samples_csv = open_csv(o->samples_path,
					  o->binned ? SAMPLES_HEADER SAMPLES_BIN_COLUMNS "\n"
						    : SAMPLES_HEADER "\n",
					  ro->force);
		return o->samples_csv ? 0 : -EEXIST;
	}
	o->samples_csv = open_csv(o->samples_path, "", ro->force);
	if (!o->samples_csv)
		return -EEXIST;
	fwrite(magic, 1, sizeof(magic) - 1, o->samples_csv);
	return 0;
}

int run_output_open(struct run_output *o, const struct run_opts *ro, const char *stem,
		    const struct session *s)
{
	const char *dir = ro->output_dir ? ro->output_dir : "results";
	int err;

	if (ro->json_out) {
		err = exact_path(o, ro);
		if (err)
			return err;
	} else {
		err = mkdir_p(dir, 0755);
		if (err) {
			log_err(NULL, "option --output: cannot create %s: %s", dir, strerror(-err));
			return err;
		}
		o->json_path = result_default_path(dir, stem);
	}
	o->mode = ro->samples_mode;
	o->intervals_path = sibling_path(o->json_path, ".intervals.csv");
	o->samples_path = sibling_path(o->json_path, o->mode == SAMPLES_BINARY ? ".samples.bin"
										: ".samples.csv");
	o->intervals_csv = open_csv(o->intervals_path,
				    "job,loop,t_start_ns,t_end_ns,read_iops,read_bw_bytes,"
				    "write_iops,write_bw_bytes\n", ro->force);
	if (!o->intervals_csv)
		return -EEXIST;
	if (!s->nmeters)
		return 0;
	plan_bins(o, ro, s);
	return open_samples(o, ro);
}

static void put_num(FILE *fp, const char *fmt, double v)
{
	if (!isnan(v))
		fprintf(fp, fmt, v);
}

static void put_row(FILE *fp, uint64_t t_ns, unsigned meter, double v, double a, double w,
		    uint32_t flags)
{
	fprintf(fp, "%" PRIu64 ",%u,", t_ns, meter);
	put_num(fp, "%.4f", v);
	fputc(',', fp);
	put_num(fp, "%.6f", a);
	fputc(',', fp);
	put_num(fp, "%.6f", w);
	fputc(',', fp);
	samples_put_flags(fp, flags);
}

static void put_minmax(FILE *fp, const struct bin_stat *x)
{
	fputc(',', fp);
	put_num(fp, "%.6f", x->min);
	fputc(',', fp);
	put_num(fp, "%.6f", x->max);
}

static void put_bin(struct run_output *o, unsigned meter, const struct sample_bin *b)
{
	FILE *fp = o->samples_csv;

	put_row(fp, b->t_ns, meter, b->v.mean, b->a.mean, b->w.mean, b->flags);
	fprintf(fp, ",%" PRIu64, b->n);
	put_minmax(fp, &b->v);
	put_minmax(fp, &b->a);
	put_minmax(fp, &b->w);
	fputc('\n', fp);
}

static void put_record(FILE *fp, unsigned meter, const struct meter_sample *s)
{
	/* the digital inputs stay out of the file (their flag too): the run reads them */
	struct samples_record r = {
		.t_ns = s->t_ns, .meter = meter, .flags = s->flags & ~SAMPLE_LOGIC, .v = s->v,
		.a = s->a, .w = s->w,
	};

	fwrite(&r, sizeof(r), 1, fp);
}

static void output_sample(void *arg, unsigned meter, const struct meter_sample *s)
{
	struct run_output *o = arg;
	FILE *fp = o->samples_csv;
	struct sample_bin b;
	struct bin_stat one;

	if (!fp || meter >= o->nmeters)
		return;
	if (o->mode == SAMPLES_BINARY) {
		put_record(fp, meter, s);
		return;
	}
	if (o->bins[meter].bin_ns) {
		if (sample_binner_add(&o->bins[meter], s, &b))
			put_bin(o, meter, &b);
		return;
	}
	put_row(fp, s->t_ns, meter, s->v, s->a, s->w, s->flags);
	if (o->binned) {
		/* A slow meter beside a binned one: a bin of one sample. */
		fputs(",1", fp);
		one = (struct bin_stat){ s->v, s->v, s->v };
		put_minmax(fp, &one);
		one = (struct bin_stat){ s->a, s->a, s->a };
		put_minmax(fp, &one);
		one = (struct bin_stat){ s->w, s->w, s->w };
		put_minmax(fp, &one);
	}
	fputc('\n', fp);
}

void run_output_interval(struct run_output *o, const char *job, unsigned loop, uint64_t t0,
			 uint64_t t1, const uint64_t ios[DDIR_COUNT], const uint64_t bytes[DDIR_COUNT])
{
	double s = (double)(t1 - t0) / 1e9;

	if (!o->intervals_csv || t1 <= t0)
		return;
	fprintf(o->intervals_csv, "%s,%u,%" PRIu64 ",%" PRIu64 ",%.3f,%.0f,%.3f,%.0f\n", job,
		loop, t0, t1, (double)ios[DDIR_READ] / s, (double)bytes[DDIR_READ] / s,
		(double)ios[DDIR_WRITE] / s, (double)bytes[DDIR_WRITE] / s);
}

/* Both series reach the disk as the run goes: an interrupted run keeps them. */
static void output_flush(void *arg, uint64_t pump_ns)
{
	struct run_output *o = arg;

	(void)pump_ns;
	if (o->samples_csv)
		fflush(o->samples_csv);
	if (o->intervals_csv)
		fflush(o->intervals_csv);
}

const struct session_sink_ops run_output_sink_ops = {
	.sample = output_sample,
	.flush = output_flush,
};

struct replay {
	void (*feed)(void *feed_arg, const struct meter_sample *s);
	void *feed_arg;
};

static int replay_row(const struct samples_row *r, void *ctx)
{
	const struct replay *rp = ctx;
	struct meter_sample x = { .t_ns = r->t_ns, .v = r->v, .a = r->a, .w = r->w,
				  .flags = r->flags };

	rp->feed(rp->feed_arg, &x);
	return 0;
}

int run_output_replay(void *arg, unsigned meter,
		      void (*feed)(void *feed_arg, const struct meter_sample *s), void *feed_arg)
{
	struct run_output *o = arg;
	struct replay rp = { feed, feed_arg };

	if (!o->samples_csv)
		return -ENOENT;
	fflush(o->samples_csv);
	return samples_file_read(o->samples_path, (int)meter, replay_row, &rp);
}

void run_output_close(struct run_output *o)
{
	struct sample_bin b;
	unsigned m;

	for (m = 0; m < o->nmeters && o->samples_csv; m++)
		if (o->bins[m].bin_ns && sample_binner_flush(&o->bins[m], &b))
			put_bin(o, m, &b);
	output_flush(o, 0);
	if (o->samples_csv && fclose(o->samples_csv))
		log_err(NULL, "%s: %s", o->samples_path, strerror(errno));
	if (o->intervals_csv && fclose(o->intervals_csv))
		log_err(NULL, "%s: %s", o->intervals_path, strerror(errno));
	o->samples_csv = o->intervals_csv = NULL;
	free(o->json_path);
	free(o->intervals_path);
	free(o->samples_path);
	free(o->bins);
	o->bins = NULL;
	o->nmeters = 0;
	o->json_path = o->intervals_path = o->samples_path = NULL;
}
