/* SPDX-License-Identifier: MIT */
/* What `measure` knows of its command's I/O: the target's diskstats, or fio's own JSON. */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/log.h"
#include "core/mem.h"
#include "run/measure_io.h"

#define MOD "measure"
#define READ_CHUNK 65536

/* "--output-format=json", "--output-format json+", "normal,json": fio writes JSON. */
static int json_format(const char *v)
{
	return v && strstr(v, "json") != NULL;
}

/* fio with JSON output: to stdout, or to the file its --output names (returned). */
static int fio_json(char *const *argv, const char **output)
{
	const char *base = strrchr(argv[0], '/');
	int json = 0, i;

	*output = NULL;
	if (strcmp(base ? base + 1 : argv[0], "fio"))
		return 0;
	for (i = 1; argv[i]; i++) {
		if (!strncmp(argv[i], "--output-format=", 16))
			json |= json_format(argv[i] + 16);
		else if (!strcmp(argv[i], "--output-format") && argv[i + 1])
			json |= json_format(argv[++i]);
		else if (!strncmp(argv[i], "--output=", 9))
			*output = argv[i] + 9;
		else if (!strcmp(argv[i], "--output") && argv[i + 1])
			*output = argv[++i];
	}
	return json;
}

int measure_io_init(struct measure_io *mi, char *const *argv, const char *disk,
		    const char *root)
{
	int fds[2];

	memset(mi, 0, sizeof(*mi));
	mi->pipe_r = mi->pipe_w = -1;
	snprintf(mi->disk, sizeof(mi->disk), "%s", disk ? disk : "");
	snprintf(mi->diskstats_path, sizeof(mi->diskstats_path), "%s%s", root ? root : "",
		 DISKSTATS_PATH);
	mi->fio = fio_json(argv, &mi->fio_output);
	if (!mi->fio || mi->fio_output)
		return 0;
	if (pipe2(fds, O_CLOEXEC)) {
		log_err(MOD, "pipe for fio's output: %s", strerror(errno));
		return -errno;
	}
	mi->pipe_r = fds[0];
	mi->pipe_w = fds[1];
	return 0;
}

int measure_io_stdout_fd(const struct measure_io *mi)
{
	return mi->pipe_w;
}

/* fio's stdout, passed on as it comes and kept for its JSON. */
static void *reader_main(void *arg)
{
	struct measure_io *mi = arg;
	char buf[READ_CHUNK];
	size_t room;
	ssize_t n;

	for (;;) {
		n = read(mi->pipe_r, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (fwrite(buf, 1, (size_t)n, stdout) != (size_t)n)
			clearerr(stdout);
		fflush(stdout);
		room = MEASURE_FIO_JSON_MAX - mi->json_len;
		if ((size_t)n > room) {
			mi->json_truncated = 1;
			n = (ssize_t)room;
		}
		mi->json = xrealloc(mi->json, mi->json_len + (size_t)n + 1);
		memcpy(mi->json + mi->json_len, buf, (size_t)n);
		mi->json_len += (size_t)n;
		mi->json[mi->json_len] = '\0';
	}
	return NULL;
}

void measure_io_started(struct measure_io *mi)
{
	int rc;

	if (mi->pipe_w < 0)
		return;
	close(mi->pipe_w);
	mi->pipe_w = -1;
	rc = pthread_create(&mi->reader, NULL, reader_main, mi);
	if (rc)
		log_warn(MOD, "cannot read fio's output: %s", strerror(rc));
	else
		mi->reader_started = 1;
}

void measure_io_begin(struct measure_io *mi)
{
	mi->have_start = *mi->disk && !diskstats_read(mi->diskstats_path, mi->disk, &mi->start);
}

void measure_io_end(struct measure_io *mi)
{
	mi->have_end = *mi->disk && !diskstats_read(mi->diskstats_path, mi->disk, &mi->end);
	if (mi->reader_started) {
		pthread_join(mi->reader, NULL);
		mi->reader_started = 0;
	}
}

static struct result_dir *dir_new(uint64_t bytes, uint64_t ios, double secs)
{
	struct result_dir *d = xcalloc(1, sizeof(*d));

	d->io_bytes = bytes;
	d->total_ios = ios;
	if (ios && secs > 0) {
		d->bw_bytes = (uint64_t)((double)bytes / secs + 0.5);
		d->iops = (double)ios / secs;
		d->runtime_ms = (uint64_t)(secs * 1e3 + 0.5);
	}
	return d;
}

/* The device's counters over the active phase: I/Os and bytes, no latencies. */
static int fill_diskstats(struct measure_io *mi, double secs, struct job_result *j)
{
	const struct diskstats *a = &mi->start, *b = &mi->end;

	if (!mi->have_start || !mi->have_end)
		return -ENOENT;
	j->read = dir_new((b->read_sectors - a->read_sectors) * DISKSTATS_SECTOR,
			  b->reads - a->reads, secs);
	j->write = dir_new((b->write_sectors - a->write_sectors) * DISKSTATS_SECTOR,
			   b->writes - a->writes, secs);
	return 0;
}

static uint64_t json_u64(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_integer(v) && json_integer_value(v) > 0 ? (uint64_t)json_integer_value(v)
							      : 0;
}

static double json_num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : 0;
}

/* fio's clat_ns / lat_ns object: the same shape as the result's. */
static void lat_from_fio(json_t *o, struct result_lat *l)
{
	json_t *pct = json_object_get(o, "percentile"), *v;
	const char *key;

	l->min_ns = json_u64(o, "min");
	l->max_ns = json_u64(o, "max");
	l->mean_ns = json_num(o, "mean");
	l->stddev_ns = json_num(o, "stddev");
	l->npct = 0;
	json_object_foreach(pct, key, v) {
		if (l->npct >= RESULT_MAX_PCT || !json_is_integer(v))
			continue;
		l->pct[l->npct].pct = atof(key);
		l->pct[l->npct++].ns = (uint64_t)json_integer_value(v);
	}
}

/*
 * One direction over all of fio's jobs: bytes and I/Os summed, rates over fio's window
 * (secs); the latency of the job that did most of them (percentiles do not add up).
 */
static struct result_dir *fio_dir(json_t *jobs, const char *ddir, double secs)
{
	uint64_t bytes = 0, ios = 0, most = 0, n;
	json_t *job, *d, *lat = NULL, *total = NULL;
	struct result_dir *out;
	size_t i;

	json_array_foreach(jobs, i, job) {
		d = json_object_get(job, ddir);
		n = json_u64(d, "total_ios");
		bytes += json_u64(d, "io_bytes");
		ios += n;
		if (n > most) {
			most = n;
			lat = json_object_get(d, "clat_ns");
			total = json_object_get(d, "lat_ns");
		}
	}
	out = dir_new(bytes, ios, secs);
	if (lat)
		lat_from_fio(lat, &out->clat);
	/* fio has percentiles of lat only with lat_percentiles=1; without them the readers
	 * show clat, labelled so. */
	if (total)
		lat_from_fio(total, &out->lat);
	return out;
}

static struct result_sync *fio_sync(json_t *jobs)
{
	struct result_sync *s = xcalloc(1, sizeof(*s));
	uint64_t most = 0, n;
	json_t *job, *d;
	size_t i;

	json_array_foreach(jobs, i, job) {
		d = json_object_get(job, "sync");
		n = json_u64(d, "total_ios");
		s->total_ios += n;
		if (n > most) {
			most = n;
			lat_from_fio(json_object_get(d, "lat_ns"), &s->lat);
		}
	}
	return s;
}

/*
 * fio's own I/O window in ms since the epoch. Where fio stamps each job's start (job_start,
 * taken after the file layout: Debian 13's fio 3.39 has it, Debian 12's 3.33 not), the
 * window runs from the first start to the last start + job_runtime. Older fio stamps only
 * its report (timestamp_ms), written after the jobs end: the window is then the longest
 * job_runtime of each group, groups one after another, before that stamp; it lies late by
 * the report's delay (65 ms in a run of fio 3.39 here), never longer.
 */
static int fio_window_ms(json_t *root, json_t *jobs, double *start_ms, double *end_ms)
{
	double group_max[64] = { 0 }, len = 0, first = 0, last = 0, js, rt;
	json_t *job;
	size_t i, stamped = 0;
	int64_t g;

	json_array_foreach(jobs, i, job) {
		g = json_integer_value(json_object_get(job, "groupid"));
		if (g < 0 || g >= (int64_t)ARRAY_SIZE(group_max))
			g = 0;
		rt = json_num(job, "job_runtime");
		group_max[g] = fmax(group_max[g], rt);
		js = json_num(job, "job_start");
		if (!(js > 0))
			continue;
		stamped++;
		first = first > 0 ? fmin(first, js) : js;
		last = fmax(last, js + rt);
	}
	if (stamped && stamped == json_array_size(jobs)) {
		*start_ms = first;
		*end_ms = last;
		return first < last ? 0 : -ENOENT;
	}
	*end_ms = json_num(root, "timestamp_ms");
	if (!(*end_ms > 0))
		return -ENOENT;
	for (i = 0; i < ARRAY_SIZE(group_max); i++)
		len += group_max[i];
	*start_ms = first > 0 ? first : *end_ms - len;
	return *start_ms < *end_ms ? 0 : -ENOENT;
}

static json_t *fio_document(struct measure_io *mi)
{
	json_error_t err;
	const char *brace;
	json_t *root;

	if (mi->fio_output) {
		root = json_load_file(mi->fio_output, 0, &err);
		if (!root)
			log_warn(MOD, "fio's --output %s: %s (line %d)", mi->fio_output, err.text,
				 err.line);
		return root;
	}
	/* Anything fio printed before its JSON (a warning) is not part of it. */
	brace = mi->json ? strchr(mi->json, '{') : NULL;
	root = brace ? json_loads(brace, JSON_DISABLE_EOF_CHECK, &err) : NULL;
	if (!root)
		log_warn(MOD, "fio's output on stdout is not JSON%s%s",
			 mi->json_truncated ? " (more than the 64 MiB kept)" : "",
			 brace ? "" : ": nothing that starts like it");
	return root;
}

/* Realtime ms to CLOCK_MONOTONIC ns, by the two clocks' offset now. */
static uint64_t mono_of_ms(double ms)
{
	struct timespec rt;
	double off;

	clock_gettime(CLOCK_REALTIME, &rt);
	off = (double)now_ns() - ((double)rt.tv_sec * 1e9 + (double)rt.tv_nsec);
	return (uint64_t)(ms * 1e6 + off);
}

/* Whether the "+"-separated list holds name. */
static int has_name(const char *list, const char *name)
{
	size_t n = strlen(name), k;

	while (*list) {
		k = strcspn(list, "+");
		if (k == n && !strncmp(list, name, n))
			return 1;
		list += k + (list[k] == '+');
	}
	return 0;
}

/* fio's name of job as a plain row name (letters, digits, "._-"); "" for none. */
static void plain_name(json_t *job, char *one, size_t len)
{
	const char *name = json_string_value(json_object_get(job, "jobname"));
	char *p;

	snprintf(one, len, "%s", name ? name : "");
	for (p = one; *p; p++)
		if (!strchr("._-", *p) && !(*p >= 'a' && *p <= 'z') && !(*p >= 'A' && *p <= 'Z') &&
		    !(*p >= '0' && *p <= '9'))
			*p = '_';
}

/* fio's job names as one plain row name: each once, in fio's order, "+" between them. */
static void fio_names(json_t *jobs, struct measure_io_window *w)
{
	char one[64];
	size_t i, used = 0;
	json_t *job;

	w->fio_jobs = (unsigned)json_array_size(jobs);
	json_array_foreach(jobs, i, job) {
		plain_name(job, one, sizeof(one));
		if (!*one)
			continue;
		if (has_name(w->name, one)) /* numjobs clones share their name: said once */
			continue;
		if (used + strlen(one) + 1 >= sizeof(w->name))
			break;
		used += (size_t)snprintf(w->name + used, sizeof(w->name) - used, "%s%s",
					 used ? "+" : "", one);
	}
}

/* fio's ms stamps and the clocks' offset are rounded: spans that overlap by less are
 * one after the other. */
#define SPAN_SLACK_MS 2.0
#define FIO_GROUPS 64

/*
 * Where each of fio's groups of jobs began (ms since the epoch) when fio stamps no job's
 * start (fio 3.33): groups run one after another (stonewall), the last one ending at
 * fio's report. fio lays out every job's files before the first group starts (its
 * create_serialize default), so nothing else runs between them. 0, or -ENOENT.
 */
static int fio_group_starts(json_t *root, json_t *jobs, double *start_ms)
{
	double group_max[FIO_GROUPS] = { 0 }, t = json_num(root, "timestamp_ms");
	json_t *job;
	size_t i;
	int g;

	if (!(t > 0))
		return -ENOENT;
	json_array_foreach(jobs, i, job) {
		g = (int)json_integer_value(json_object_get(job, "groupid"));
		g = g < 0 || g >= FIO_GROUPS ? 0 : g;
		group_max[g] = fmax(group_max[g], json_num(job, "job_runtime"));
	}
	for (g = FIO_GROUPS - 1; g >= 0; g--) {
		t -= group_max[g];
		start_ms[g] = t;
	}
	return 0;
}

/* Whether every job of fio's has its own start stamp (job_start: fio 3.39, not 3.33). */
static int fio_stamped(json_t *jobs)
{
	json_t *job;
	size_t i;

	json_array_foreach(jobs, i, job)
		if (!(json_num(job, "job_start") > 0))
			return 0;
	return json_array_size(jobs) > 0;
}

/* A row's span in ms: from its first clone's start to its last clone's end. */
static void row_span_ms(json_t *mine, const double *group_start_ms, double *a, double *b)
{
	double s, rt;
	json_t *job;
	size_t i;
	int g;

	*a = *b = 0;
	json_array_foreach(mine, i, job) {
		rt = json_num(job, "job_runtime");
		s = json_num(job, "job_start");
		if (!(s > 0) && group_start_ms) {
			g = (int)json_integer_value(json_object_get(job, "groupid"));
			s = group_start_ms[g < 0 || g >= FIO_GROUPS ? 0 : g];
		}
		*a = i ? fmin(*a, s) : s;
		*b = i ? fmax(*b, s + rt) : s + rt;
	}
}

/*
 * Each row's own span, on the clock of fio's window w (s_ms..e_ms in fio's stamps), and
 * whether it overlapped another row's (shared: the meters saw them together). Rows
 * without a span keep 0.
 */
static void fio_row_spans(json_t *root, json_t *jobs, double s_ms, double e_ms,
			  struct measure_io_window *w)
{
	double group_start_ms[FIO_GROUPS], *gs = NULL, a, b, span_ns;
	struct measure_fio_row *r, *o;
	char one[64];
	json_t *job, *mine;
	size_t i, k, n;

	w->spans_stamped = fio_stamped(jobs);
	if (!w->spans_stamped && !fio_group_starts(root, jobs, group_start_ms))
		gs = group_start_ms;
	if ((!w->spans_stamped && !gs) || !(e_ms > s_ms))
		return;
	span_ns = (double)(w->t_end_ns - w->t_start_ns);
	for (k = 0; k < w->nrows; k++) {
		r = &w->rows[k];
		mine = json_array();
		json_array_foreach(jobs, i, job) {
			plain_name(job, one, sizeof(one));
			if (!strcmp(one, r->name))
				json_array_append(mine, job);
		}
		row_span_ms(mine, gs, &r->a_ms, &r->b_ms);
		json_decref(mine);
		/* on the window's clock, inside it */
		a = fmin(fmax((r->a_ms - s_ms) / (e_ms - s_ms), 0), 1) * span_ns;
		b = fmin(fmax((r->b_ms - s_ms) / (e_ms - s_ms), 0), 1) * span_ns;
		if (b > a) {
			r->t_start_ns = w->t_start_ns + (uint64_t)a;
			r->t_end_ns = w->t_start_ns + (uint64_t)b;
		}
	}
	for (k = 0; k < w->nrows; k++)
		for (n = k + 1; n < w->nrows; n++) {
			r = &w->rows[k];
			o = &w->rows[n];
			if (fmin(r->b_ms, o->b_ms) - fmax(r->a_ms, o->a_ms) <= SPAN_SLACK_MS)
				continue;
			if (!r->shared_with[0])
				snprintf(r->shared_with, sizeof(r->shared_with), "%s", o->name);
			if (!o->shared_with[0])
				snprintf(o->shared_with, sizeof(o->shared_with), "%s", r->name);
		}
}

/*
 * A row per fio job when there are two or more (w->name holds their names, "+" between):
 * its clones (numjobs) summed, rates over its own job_runtime (the longest clone's), else
 * over fio's window of secs.
 */
static void fio_rows(json_t *jobs, double secs, struct measure_io_window *w)
{
	const char *list = w->name;
	struct measure_fio_row *row;
	char one[64];
	json_t *job, *mine;
	double run_s;
	size_t i, k;

	if (!strchr(list, '+'))
		return;
	for (; *list; list += k + (list[k] == '+')) {
		k = strcspn(list, "+");
		w->rows = xrealloc(w->rows, (w->nrows + 1) * sizeof(*w->rows));
		row = &w->rows[w->nrows++];
		memset(row, 0, sizeof(*row));
		snprintf(row->name, sizeof(row->name), "%.*s", (int)k, list);
		mine = json_array();
		run_s = 0;
		json_array_foreach(jobs, i, job) {
			plain_name(job, one, sizeof(one));
			if (strcmp(one, row->name))
				continue;
			json_array_append(mine, job);
			run_s = fmax(run_s, json_num(job, "job_runtime") / 1e3);
		}
		row->read = fio_dir(mine, "read", run_s > 0 ? run_s : secs);
		row->write = fio_dir(mine, "write", run_s > 0 ? run_s : secs);
		row->sync = fio_sync(mine);
		json_decref(mine);
	}
}

static int fill_fio(struct measure_io *mi, uint64_t t0, uint64_t t1, struct job_result *j,
		    struct measure_io_window *w)
{
	json_t *root = fio_document(mi), *jobs;
	double s_ms, e_ms;
	int rc = -ENOENT;

	jobs = json_object_get(root, "jobs");
	if (json_is_array(jobs) && json_array_size(jobs) && !fio_window_ms(root, jobs, &s_ms, &e_ms)) {
		w->t_end_ns = mono_of_ms(e_ms);
		w->t_start_ns = mono_of_ms(s_ms);
		/* Clock offsets and fio's ms stamps are rounded: keep it inside the command. */
		if (w->t_end_ns > t1 || w->t_end_ns < t0)
			w->t_end_ns = t1;
		if (w->t_start_ns < t0 || w->t_start_ns >= w->t_end_ns)
			w->t_start_ns = t0;
		j->read = fio_dir(jobs, "read", (double)(w->t_end_ns - w->t_start_ns) / 1e9);
		j->write = fio_dir(jobs, "write", (double)(w->t_end_ns - w->t_start_ns) / 1e9);
		j->sync = fio_sync(jobs);
		fio_names(jobs, w);
		fio_rows(jobs, (double)(w->t_end_ns - w->t_start_ns) / 1e9, w);
		fio_row_spans(root, jobs, s_ms, e_ms, w);
		rc = 0;
	}
	json_decref(root);
	return rc;
}

int measure_io_fill(struct measure_io *mi, uint64_t t0, uint64_t t1, struct job_result *j,
		    struct measure_io_window *w)
{
	memset(w, 0, sizeof(*w));
	if (mi->fio && !fill_fio(mi, t0, t1, j, w)) {
		w->source = "fio";
	} else if (!fill_diskstats(mi, (double)(t1 - t0) / 1e9, j)) {
		w->source = "diskstats";
		w->t_start_ns = t0;
		w->t_end_ns = t1;
	} else {
		return -ENOENT;
	}
	j->io_source = xstrdup(w->source);
	return 0;
}

void measure_io_free(struct measure_io *mi)
{
	if (mi->reader_started)
		pthread_join(mi->reader, NULL);
	if (mi->pipe_r >= 0)
		close(mi->pipe_r);
	if (mi->pipe_w >= 0)
		close(mi->pipe_w);
	free(mi->json);
	memset(mi, 0, sizeof(*mi));
	mi->pipe_r = mi->pipe_w = -1;
}

void measure_io_window_free(struct measure_io_window *w)
{
	size_t i;

	for (i = 0; i < w->nrows; i++) {
		free(w->rows[i].read);
		free(w->rows[i].write);
		free(w->rows[i].sync);
	}
	free(w->rows);
	w->rows = NULL;
	w->nrows = 0;
}
