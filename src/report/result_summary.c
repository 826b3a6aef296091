/* SPDX-License-Identifier: MIT */
/* The end-of-run table: one aligned row per job and loop, read back from the document. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "result/result.h"

/* A number from the document, NAN when absent or null (printed as "-"). */
static double num(json_t *o, const char *k1, const char *k2)
{
	json_t *v = json_object_get(o, k1);

	if (k2)
		v = json_object_get(v, k2);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

static const char *str_or(json_t *o, const char *key, const char *def)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : def;
}

static const char *fmt_num(double v, int decimals, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.*f", decimals, v);
	return buf;
}

static const char *fmt_lat(double ns, char *buf, size_t len)
{
	if (isnan(ns) || ns <= 0)
		snprintf(buf, len, "-");
	else if (ns < 1e3)
		snprintf(buf, len, "%.0f ns", ns);
	else if (ns < 1e4)
		snprintf(buf, len, "%.1f us", ns / 1e3);
	else if (ns < 1e6)
		snprintf(buf, len, "%.0f us", ns / 1e3);
	else if (ns < 1e9)
		snprintf(buf, len, "%.1f ms", ns / 1e6);
	else
		snprintf(buf, len, "%.2f s", ns / 1e9);
	return buf;
}

/* Latency of the direction that did most of the I/Os (reads for a 70/30 mix). */
static json_t *busier_dir(json_t *job)
{
	json_t *r = json_object_get(job, "read"), *w = json_object_get(job, "write");

	return num(w, "total_ios", NULL) > num(r, "total_ios", NULL) ? w : r;
}

static double pct(json_t *dir, const char *key)
{
	json_t *p = json_object_get(json_object_get(dir, "clat_ns"), "percentile");

	return num(p, key, NULL);
}

/* valid, INVALID: first reason; reasons may be strings or objects with a text. */
static void verdict(json_t *job, char *buf, size_t len)
{
	json_t *val = json_object_get(job, "validity"), *r;

	if (!json_is_object(val)) {
		snprintf(buf, len, "-");
		return;
	}
	if (json_is_true(json_object_get(val, "valid"))) {
		/* Valid sampling of hand readings or of an emulator is not a measurement. */
		if (json_is_true(json_object_get(val, "manual")))
			snprintf(buf, len, "valid (MANUAL readings)");
		else if (json_is_true(json_object_get(val, "emulated")))
			snprintf(buf, len, "valid (EMULATED)");
		else
			snprintf(buf, len, "valid");
		return;
	}
	r = json_array_get(json_object_get(val, "reasons"), 0);
	if (json_is_object(r))
		r = json_object_get(r, "text") ? json_object_get(r, "text") :
						 json_object_get(r, "reason");
	snprintf(buf, len, "INVALID%s%s", json_is_string(r) ? ": " : "",
		 json_is_string(r) ? json_string_value(r) : "");
}

static int name_width(json_t *jobs)
{
	json_t *job;
	size_t i;
	int w = 3, n;

	json_array_foreach(jobs, i, job) {
		n = (int)strlen(str_or(job, "jobname", ""));
		if (n > w)
			w = n;
	}
	return w;
}

static void print_row(FILE *fp, json_t *job, int nw, int power)
{
	json_t *r = json_object_get(job, "read"), *w = json_object_get(job, "write"), *dir;
	char c[8][32], v[160];
	double iops;

	dir = busier_dir(job);
	iops = num(r, "iops", NULL) + num(w, "iops", NULL);
	fprintf(fp, "%-*s %4lld  %-11s %8s %9s %9s %9s", nw,
		str_or(job, "jobname", "?"), (long long)json_integer_value(json_object_get(job, "loop")),
		str_or(job, "status", "?"),
		fmt_num((num(r, "bw_bytes", NULL) + num(w, "bw_bytes", NULL)) / 1e6, 1, c[0], 32),
		fmt_num(iops, iops < 100 ? 1 : 0, c[1], 32),
		fmt_lat(pct(dir, "50.000000"), c[2], 32), fmt_lat(pct(dir, "99.000000"), c[3], 32));
	if (power) {
		verdict(job, v, sizeof(v));
		fprintf(fp, " %7s %7s %8s %8s  %s",
			fmt_num(num(job, "power", "active_w"), 3, c[4], 32),
			fmt_num(num(job, "power", "active_ma"), 1, c[5], 32),
			fmt_num(num(job, "efficiency", "j_per_gb"), 1, c[6], 32),
			fmt_num(num(job, "efficiency", "iops_per_ma"), 2, c[7], 32), v);
	}
	fputc('\n', fp);
}

void result_print_summary(FILE *fp, json_t *root)
{
	json_t *jobs = json_object_get(root, "jobs"), *job, *err;
	int power = 0, nw;
	size_t i;

	if (!json_is_array(jobs) || !json_array_size(jobs))
		return;
	json_array_foreach(jobs, i, job)
		if (json_is_object(json_object_get(job, "power")))
			power = 1;
	nw = name_width(jobs);
	fputc('\n', fp);
	if (json_is_true(json_object_get(root, "emulated")))
		fprintf(fp, "figures from an EMULATED meter: they describe no real hardware\n");
	if (json_is_true(json_object_get(root, "manual")))
		fprintf(fp, "figures from MANUAL readings typed in from a display, not sampled\n");
	fprintf(fp, "MB = 10^6 bytes; latency: completion, p50/p99 of the busier direction\n");
	fprintf(fp, "%-*s %4s  %-11s %8s %9s %9s %9s", nw, "job", "loop", "status", "MB/s", "IOPS",
		"p50 lat", "p99 lat");
	if (power)
		fprintf(fp, " %7s %7s %8s %8s  %s", "W", "mA", "J/GB", "IOPS/mA", "verdict");
	fputc('\n', fp);
	json_array_foreach(jobs, i, job)
		print_row(fp, job, nw, power);
	json_array_foreach(jobs, i, job) {
		err = json_object_get(job, "error");
		if (json_is_string(err))
			fprintf(fp, "%s loop %lld: %s\n", str_or(job, "jobname", "?"),
				(long long)json_integer_value(json_object_get(job, "loop")),
				json_string_value(err));
	}
}
