/* SPDX-License-Identifier: MIT */
/* The result document: job entry shape against docs/results.md, atomic write, load errors,
 * the end-of-run summary. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "core/si_units.h"
#include "report/summary.h"
#include "result/result_json.h"
#include "run/result_from_bench.h"
#include "tap.h"

static struct capture capt;
static char dir[] = "/var/tmp/iowatt-test-result.XXXXXX";

/* The ```json block of docs/results.md: the documented example is the reference shape. */
static json_t *doc_example(void)
{
	char *text = NULL, *start, *end;
	size_t cap = 0;
	json_error_t err;
	json_t *root = NULL;
	FILE *fp = fopen("docs/results.md", "r");

	if (!fp)
		return NULL;
	if (getdelim(&text, &cap, '\0', fp) > 0) {
		start = strstr(text, "```json\n");
		end = start ? strstr(start + 8, "```") : NULL;
		if (end) {
			*end = '\0';
			root = json_loads(start + 8, 0, &err);
			if (!root)
				printf("# docs/results.md example: line %d: %s\n", err.line, err.text);
		}
	}
	free(text);
	fclose(fp);
	return root;
}

static void fill_dir(struct dir_result *d, uint64_t ios, uint64_t bs)
{
	uint64_t i;

	memset(d, 0, sizeof(*d));
	d->total_ios = ios;
	d->io_bytes = ios * bs;
	d->clat.n = ios;
	d->clat.min_ns = 100000;
	d->clat.max_ns = 900000;
	d->clat.mean_ns = 400000.0;
	d->clat.m2 = 1e9 * (double)(ios - 1);
	for (i = 0; i < ios; i++)
		d->clat.hist[100 + i % 3]++;
}

static void make_result(struct job_opts *jo, struct bench_result *br)
{
	memset(jo, 0, sizeof(*jo));
	snprintf(jo->name, sizeof(jo->name), "SEQ1M-Q8T1-read");
	jo->rw = RW_READ;
	jo->bs = 1 << 20;
	jo->size = 256ULL << 20;
	jo->numjobs = 1;
	memset(br, 0, sizeof(*br));
	br->status = BENCH_OK;
	br->t_start_ns = 5000000000ULL;
	br->t_end_ns = br->t_start_ns + 11231000000ULL;
	fill_dir(&br->dir[DDIR_READ], 256, 1 << 20);
}

/* Same keys, same JSON types, recursively, for the parts this module writes. */
static int same_shape(json_t *want, json_t *got, const char *where)
{
	const char *key;
	json_t *w;
	char sub[256];
	int okay = 1;

	if (json_typeof(want) != json_typeof(got) &&
	    !(json_is_number(want) && json_is_number(got))) {
		printf("# %s: type %d, documented %d\n", where, got ? (int)json_typeof(got) : -1,
		       (int)json_typeof(want));
		return 0;
	}
	if (!json_is_object(want))
		return 1;
	json_object_foreach(want, key, w) {
		snprintf(sub, sizeof(sub), "%s.%s", where, key);
		if (!json_object_get(got, key)) {
			printf("# %s missing\n", sub);
			okay = 0;
		} else if (strcmp(key, "percentile") != 0) {
			okay &= same_shape(w, json_object_get(got, key), sub);
		}
	}
	return okay;
}

/* A job filled from the bench, as the result document has it. */
static json_t *job_json(const struct job_opts *jo, unsigned loop, const struct bench_result *br)
{
	struct run_result r;
	json_t *doc, *job;

	memset(&r, 0, sizeof(r));
	result_job_from_bench(result_add_job(&r), jo, loop, br);
	doc = result_to_json(&r);
	job = json_incref(json_array_get(json_object_get(doc, "jobs"), 0));
	json_decref(doc);
	result_free(&r);
	return job;
}

static void test_job_shape(void)
{
	struct bench_result br;
	struct job_opts jo;
	json_t *doc = doc_example(), *job, *want, *pct, *read;
	const char *key;
	json_t *v;
	size_t n = 0;
	int fmt_ok = 1;

	make_result(&jo, &br);
	job = job_json(&jo, 1, &br);
	ok(doc != NULL, "docs/results.md has a parseable JSON example");
	want = json_array_get(json_object_get(doc, "jobs"), 0);
	ok(want && same_shape(json_object_get(want, "read"), json_object_get(job, "read"), "read"),
	   "read{} has the documented keys and types");
	ok(want && same_shape(json_object_get(want, "write"), json_object_get(job, "write"), "write"),
	   "write{} has the documented keys and types");
	ok(want && same_shape(json_object_get(json_object_get(want, "phases"), "active"),
			      json_object_get(json_object_get(job, "phases"), "active"), "active"),
	   "phases.active has the documented keys");
	ok(json_is_string(json_object_get(job, "jobname")) &&
		   json_is_integer(json_object_get(job, "loop")) &&
		   json_is_object(json_object_get(job, "options")) &&
		   json_is_null(json_object_get(job, "error")),
	   "jobname, loop, options and a null error");
	is_str(json_string_value(json_object_get(job, "status")), "ok", "status ok");
	read = json_object_get(job, "read");
	is_int(json_integer_value(json_object_get(read, "io_bytes")), 256LL << 20, "io_bytes");
	is_int(json_integer_value(json_object_get(read, "runtime")), 11231, "runtime in ms");
	is_int(json_integer_value(json_object_get(read, "bw_bytes")),
	       llround((double)(256 << 20) / 11.231), "bw_bytes = bytes / seconds");
	is_dbl(json_real_value(json_object_get(read, "iops")), 256 / 11.231, 1e-9, "iops");
	pct = json_object_get(json_object_get(read, "clat_ns"), "percentile");
	json_object_foreach(pct, key, v) {
		char want_key[32];
		double p = atof(key);

		snprintf(want_key, sizeof(want_key), "%f", p);
		fmt_ok &= !strcmp(key, want_key) && strlen(strchr(key, '.')) == 7 &&
			  json_is_integer(v);
		n++;
	}
	is_int(n, lat_default_percentiles_count, "one percentile per default point");
	ok(fmt_ok && json_object_get(pct, "99.000000") && json_object_get(pct, "1.000000") &&
		   json_object_get(pct, "99.990000"),
	   "percentile keys are spelled as fio's \"99.000000\" with integer values");
	is_int(json_object_size(json_object_get(json_object_get(json_object_get(job, "write"),
								  "clat_ns"), "percentile")),
	       0, "a direction without I/O has no percentiles");
	is_int(json_integer_value(json_object_get(json_object_get(job, "write"), "runtime")), 0,
	       "and runtime 0 as fio writes it");
	json_decref(job);

	br.status = BENCH_FAILED;
	snprintf(br.errmsg, sizeof(br.errmsg), "write at offset 4096: No space left on device");
	job = job_json(&jo, 2, &br);
	is_str(json_string_value(json_object_get(job, "status")), "failed", "a failed job");
	is_str(json_string_value(json_object_get(job, "error")), br.errmsg, "keeps its error text");
	json_decref(job);
	br.status = BENCH_INTERRUPTED;
	br.errmsg[0] = '\0';
	job = job_json(&jo, 1, &br);
	is_str(json_string_value(json_object_get(job, "status")), "interrupted", "interrupted");
	json_decref(job);
	json_decref(doc);
}

static int count_tmp_files(const char *where)
{
	struct dirent *de;
	DIR *d = opendir(where);
	int n = 0;

	while (d && (de = readdir(d)))
		n += strstr(de->d_name, ".tmp") != NULL;
	if (d)
		closedir(d);
	return n;
}

static void test_write_load(void)
{
	char path[256], bad[256];
	json_t *a = json_pack("{s:i, s:s, s:[]}", "schema_version", 1, "status", "ok", "jobs");
	json_t *b = json_pack("{s:i, s:s, s:[]}", "schema_version", 1, "status", "failed", "jobs");
	json_t *notdoc = json_integer(5);
	struct run_result loaded;
	const char *msg;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/sub/r.json", dir);
	is_int(result_file_write(path, a), 0, "result_file_write creates the directory and the file");
	is_int(result_load(path, &loaded), 0, "and it loads back");
	is_int(loaded.status, RESULT_OK, "with its content");
	result_free(&loaded);
	is_int(result_file_write(path, b), 0, "a second write replaces it");
	result_load(path, &loaded);
	is_int(loaded.status, RESULT_FAILED, "with the new content");
	result_free(&loaded);
	snprintf(bad, sizeof(bad), "%s/sub", dir);
	capture_begin(&capt, 2);
	ok(result_file_write(path, notdoc) < 0, "a write that fails reports it");
	capture_end(&capt);
	result_load(path, &loaded);
	is_int(loaded.status, RESULT_FAILED, "and the old file is left as it was");
	result_free(&loaded);
	is_int(count_tmp_files(bad), 0, "no temporary file is left behind");

	snprintf(bad, sizeof(bad), "%s/bad.json", dir);
	fp = fopen(bad, "w");
	fputs("{\n  \"schema_version\": 1,\n  \"jobs\": [1, 2,]\n}\n", fp);
	fclose(fp);
	capture_begin(&capt, 2);
	ok(result_load(bad, &loaded) == -EINVAL && !loaded.jobs, "malformed JSON is refused");
	msg = capture_end(&capt);
	ok(strstr(msg, bad) && strstr(msg, ":3:"), "the error names file:line:column");
	fp = fopen(bad, "w");
	fputs("{\"schema_version\": 99, \"jobs\": []}\n", fp);
	fclose(fp);
	capture_begin(&capt, 2);
	is_int(result_load(bad, &loaded), -EPROTONOSUPPORT, "a future schema_version is refused");
	msg = capture_end(&capt);
	ok(strstr(msg, "99") && strstr(msg, "newer"), "saying it is newer than this iowatt");
	fp = fopen(bad, "w");
	fputs("{\"jobs\": []}\n", fp);
	fclose(fp);
	capture_begin(&capt, 2);
	ok(result_load(bad, &loaded) < 0, "a JSON file without schema_version is refused");
	capture_end(&capt);
	fp = fopen(bad, "w");
	fputs("{\"schema_version\": 1}\n", fp);
	fclose(fp);
	capture_begin(&capt, 2);
	ok(result_load(bad, &loaded) == -EINVAL, "a result without a jobs array is refused");
	msg = capture_end(&capt);
	ok(strstr(msg, "no \"jobs\" array") != NULL, "saying so");
	unlink(bad);
	unlink(path);
	snprintf(bad, sizeof(bad), "%s/sub", dir);
	rmdir(bad);
	json_decref(a);
	json_decref(b);
	json_decref(notdoc);
}

static void test_default_path(void)
{
	char *p = result_default_path("results", "configs/quick.ini");
	unsigned y, mo, d, h, mi, s;
	char stem[64] = "";

	ok(sscanf(p, "results/iowatt-%4u%2u%2u-%2u%2u%2u-%63[^.].json", &y, &mo, &d, &h, &mi, &s,
		  stem) == 7 && y >= 2024 && mo >= 1 && mo <= 12,
	   "default path results/iowatt-YYYYmmdd-HHMMSS-quick.json (%s)", p);
	is_str(stem, "quick", "the profile's stem without directory and .ini");
	free(p);
	p = result_default_path(NULL, "my job/x");
	ok(strncmp(p, "results/", 8) == 0 && strstr(p, "-x.json"), "no dir -> results/ (%s)", p);
	free(p);
}

/* The summary table of a document, as text; caller frees. */
static char *summary_of(json_t *doc)
{
	struct run_result r;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	if (result_from_json(doc, "docs/results.md", &r))
		return strdup("");
	fp = open_memstream(&buf, &len);
	summary_print_summary(fp, &r);
	fclose(fp);
	result_free(&r);
	return buf;
}

/* The jobs' energy per operation under the table: the documented example's model and
 * event-locked figures, then costs a reader must not take at face value. */
static void test_summary_per_op(void)
{
	json_t *doc = doc_example(), *job, *m, *v, *u;
	char *buf;

	job = json_array_get(json_object_get(doc, "jobs"), 0);
	m = json_object_get(json_object_get(job, "power"), "energy_model");
	buf = summary_of(doc);
	ok(strstr(buf, "energy per operation") && strstr(buf, "power model: read 201 \u00b138 \u00b5J, "
							"write 598 \u00b181 \u00b5J"),
	   "the model's costs on screen, with their U95");
	ok(strstr(buf, "event-locked on the meter's trace: read 1000 \u00b1148 \u00b5J") != NULL,
	   "event-locked costs too");
	ok(!strstr(buf, "does not balance"), "balanced: nothing said of it");
	free(buf);
	json_object_set_new(json_object_get(json_object_get(job, "power"), "event_locked"),
			    "agrees_with_trace", json_false());
	buf = summary_of(doc);
	ok(strstr(buf, "(the ops' energy does not balance the trace's)") != NULL,
	   "event-locked figures whose energy does not balance the trace's are said to be so");
	free(buf);
	json_object_set_new(m, "write_uj_per_op", json_real(12));
	json_object_set_new(m, "write_uj_per_op_u95", json_real(155));
	json_object_set_new(m, "read_uj_per_op", json_real(-16117));
	json_object_set_new(m, "read_uj_per_op_u95", json_real(5009));
	json_object_set_new(m, "verdict", json_string("poor fit"));
	json_object_set_new(m, "why", json_string("residuals 3.6 x the meter's noise"));
	v = json_object_get(job, "validity");
	u = json_object_get(v, "uncertainty");
	json_object_set_new(u, "figure", json_string("write_uj_per_op"));
	buf = summary_of(doc);
	ok(strstr(buf, "write 12.0 \u00b1155 \u00b5J (not told from 0)") != NULL,
	   "a cost within its U95 of zero is said to be so");
	ok(strstr(buf, "read not known (the fit gives -16117 \u00b15009 \u00b5J, below zero)") != NULL,
	   "a cost below zero is no figure");
	ok(strstr(buf, "(poor fit: residuals 3.6 x the meter's noise)") != NULL, "a poor fit is said");
	ok(strstr(buf, "%*") != NULL && strstr(buf, "*: not J/GB's"),
	   "the U95 of another figure than J/GB is marked beside J/GB");
	free(buf);
	json_decref(doc);
}

static void test_summary(void)
{
	json_t *doc = doc_example(), *job;
	char *buf;

	job = json_array_get(json_object_get(doc, "jobs"), 0);
	json_object_set_new(doc, "emulated", json_true());
	buf = summary_of(doc);
	ok(strstr(buf, "EMULATED") != NULL, "an emulated run says so above the table");
	ok(strstr(buf, "MB = 10^6 bytes") != NULL, "the header says what MB means");
	ok(strstr(buf, "SEQ1M-Q8T1-read") && strstr(buf, "23.9") && strstr(buf, "valid"),
	   "the row holds job, MB/s and verdict");
	ok(strstr(buf, "J/GB") && strstr(buf, "84.9") && strstr(buf, "378.0"),
	   "power columns from the job's power/efficiency");
	free(buf);
	json_object_set_new(json_object_get(job, "validity"), "valid", json_false());
	json_array_append_new(json_object_get(json_object_get(job, "validity"), "reasons"),
			      json_string("undervoltage during the job"));
	json_object_set_new(doc, "emulated", json_false());
	buf = summary_of(doc);
	ok(strstr(buf, "INVALID: undervoltage during the job") && !strstr(buf, "EMULATED"),
	   "an invalid job shows its first reason; a real meter run no EMULATED line");
	free(buf);
	json_object_del(job, "power");
	json_object_del(job, "efficiency");
	json_object_del(job, "validity");
	buf = summary_of(doc);
	ok(!strstr(buf, "J/GB") && strstr(buf, "IOPS"), "without a meter: no power columns");
	free(buf);
	json_decref(doc);
}

/* Where the token `tok` ends in the line starting at `line` (column), -1 if absent. */
static int end_col(const char *line, const char *tok)
{
	const char *eol = strchr(line, '\n'), *p = strstr(line, tok);

	return p && (!eol || p < eol) ? (int)(p - line + strlen(tok)) : -1;
}

/*
 * A unit fixed far from the figures (nA and nW on a 1.5 A job, A and W on a sleep current
 * of 14 nA): the figures keep their significant digits, the columns widen to them, and
 * every cell still ends under its head; the columns after them move along.
 */
static void summary_fixed_case(const char *units, double ma, double w, const char *want_w,
			       const char *want_a)
{
	json_t *doc = doc_example(), *job, *pw;
	char err[160], cw[32], ca[32], hw[8], ha[8], *buf;
	const char *head, *row;

	job = json_array_get(json_object_get(doc, "jobs"), 0);
	json_object_del(job, "meters");
	pw = json_object_get(job, "power");
	json_object_set_new(pw, "active_ma", json_real(ma));
	json_object_set_new(pw, "active_w", json_real(w));
	ok(!si_units_set(units, err, sizeof(err)), "--units %s", units);
	buf = summary_of(doc);
	si_units_reset();
	snprintf(cw, sizeof(cw), " %s", want_w);
	snprintf(ca, sizeof(ca), " %s", want_a);
	snprintf(hw, sizeof(hw), " %.*s", (int)strcspn(units, ","), strchr(units, ',') + 1);
	snprintf(ha, sizeof(ha), " %.*s", (int)strcspn(units, ","), units);
	head = strstr(buf, "\njob ");
	row = head ? strstr(head + 1, "\nSEQ1M-Q8T1-read") : NULL;
	if (!ok(head && row, "the table's head and the job's row are there"))
		printf("# %s\n", buf);
	if (head && row) {
		ok(end_col(row + 1, cw) > 0 && end_col(row + 1, cw) == end_col(head + 1, hw) &&
			   end_col(row + 1, ca) > 0 && end_col(row + 1, ca) == end_col(head + 1, ha),
		   "%g W reads%s%s and %g mA%s%s, each ending under its head (%d %d, %d %d)", w,
		   cw, hw, ma, ca, ha, end_col(row + 1, cw), end_col(head + 1, hw),
		   end_col(row + 1, ca), end_col(head + 1, ha));
		ok(end_col(row + 1, " valid") > 0 &&
			   end_col(row + 1, " valid") - (int)strlen("valid") ==
				   end_col(head + 1, " verdict") - (int)strlen("verdict"),
		   "the verdict still starts under its head");
	}
	free(buf);
	json_decref(doc);
}

static void test_summary_fixed_units(void)
{
	summary_fixed_case("nA,nW", 1500.0, 7.5, "7.50e9", "1.500e9");
	summary_fixed_case("A,W", 1.411e-5, 5.02e-8, "5.02e-8", "1.411e-8");
}

/* The row of the summary that starts with `lead` (after blanks), or NULL. */
static const char *row_of(const char *buf, const char *lead)
{
	const char *p = buf;

	while (p && *p) {
		const char *q = p + strspn(p, " ");

		if (!strncmp(q, lead, strlen(lead)))
			return p;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

static int row_has(const char *buf, const char *lead, const char *text)
{
	const char *row = row_of(buf, lead);
	char *line;
	int has;

	if (!row)
		return 0;
	line = strndup(row, strcspn(row, "\n"));
	has = strstr(line, text) != NULL;
	free(line);
	return has;
}

/* Two meters, a randrw job with syncs, temperatures, a 16 MiB record's tiny IOPS/mA. */
static void test_summary_rows(void)
{
	json_t *doc = doc_example(), *job, *m2, *run_m2;
	char *buf;

	job = json_array_get(json_object_get(doc, "jobs"), 0);
	run_m2 = json_deep_copy(json_array_get(json_object_get(doc, "meters"), 0));
	json_object_set_new(run_m2, "spec", json_string("ina219:/dev/i2c-1@0x40,shunt=0.1"));
	json_object_set_new(run_m2, "model", json_string("INA219"));
	json_array_append_new(json_object_get(doc, "meters"), run_m2);
	m2 = json_deep_copy(json_array_get(json_object_get(job, "meters"), 0));
	json_object_set_new(m2, "spec", json_string("ina219:/dev/i2c-1@0x40,shunt=0.1"));
	json_object_set_new(json_object_get(m2, "power"), "active_w", json_real(3.217));
	json_object_set_new(json_object_get(m2, "efficiency"), "iops_per_ma",
			    json_real(0.00129));
	json_array_append_new(json_object_get(job, "meters"), m2);
	json_object_set_new(json_object_get(job, "write"), "total_ios", json_integer(100));
	json_object_set_new(json_object_get(job, "write"), "iops", json_real(8.9));
	json_object_set_new(json_object_get(job, "write"), "runtime", json_integer(11231));
	json_object_set_new(json_object_get(job, "sync"), "total_ios", json_integer(50));
	json_object_set_new(json_object_get(job, "options"), "fdatasync", json_integer(2));
	json_object_set_new(json_object_get(json_object_get(json_object_get(job, "sync"), "lat_ns"),
					    "percentile"),
			    "50.000000", json_integer(3460000));
	json_object_set_new(json_object_get(json_object_get(job, "temperatures"), "soc_c"), "max",
			    json_real(79.6));
	buf = summary_of(doc);
	ok(strstr(buf, "meter um25c:rfcomm0: UM25C") && strstr(buf, "meter ina219:i2c-1@0x40: INA219"),
	   "each meter is named above the table with its model and spec");
	ok(row_has(buf, "SEQ1M-Q8T1-read", "um25c:rfcomm0") && row_has(buf, "SEQ1M-Q8T1-read", "1.92"),
	   "the job's row carries the first meter, named");
	ok(row_has(buf, "ina219:i2c-1@0x40", "3.22") && row_has(buf, "ina219:i2c-1@0x40", "valid"),
	   "a row of its own for the second meter, with its figures and verdict");
	ok(row_has(buf, "ina219:i2c-1@0x40", "0.00129"),
	   "IOPS/mA of 0.00129 prints with its digits, not 0.00");
	ok(row_has(buf, "read", "22.8") && row_has(buf, "write", "8.90"),
	   "a job that reads and writes: a row per direction with its IOPS");
	ok(row_has(buf, "sync", "3.5 ms"), "a job that syncs: its sync latency (3.5 ms p50)");
	ok(strstr(buf, "SoC C") && row_has(buf, "SEQ1M-Q8T1-read", "79.6"),
	   "the highest SoC temperature of the job in its own column");
	free(buf);
	json_object_set_new(json_object_get(job, "options"), "fdatasync", json_integer(0));
	buf = summary_of(doc);
	ok(!row_of(buf, "sync"), "the final end_fsync alone is no sync row");
	free(buf);
	json_decref(doc);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_job_shape();
	test_write_load();
	test_default_path();
	test_summary();
	test_summary_per_op();
	test_summary_fixed_units();
	test_summary_rows();
	rmdir(dir);
	return done_testing();
}
