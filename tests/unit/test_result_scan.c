/* SPDX-License-Identifier: MIT */
/* A result's text before jansson builds it: unknown members dropped, broken JSON and
 * too many values or bytes refused with file:line:col, figures read back checked. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "core/mem.h"
#include "result/result_json.h"
#include "result/result_scan.h"
#include "tap.h"

static const char *const goldens[] = {
	"tests/data/golden/sd-sandisk-ultra.json", "tests/data/golden/usbstick-sandisk-ultra.json",
	"tests/data/golden/usbssd-samsung-t7.json", "tests/data/golden/nvme-netac.json",
};

static char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "r");
	char *text = NULL;
	size_t cap = 0;
	ssize_t n;

	if (!fp)
		return NULL;
	n = getdelim(&text, &cap, '\0', fp);
	fclose(fp);
	*len = n > 0 ? (size_t)n : 0;
	return text;
}

/* scan text; 0 or -EINVAL, what jansson gets in *out (freed by the caller) */
static int scan(const char *text, char **out, const char **msg)
{
	static struct capture c;
	char *got = NULL;
	size_t len;
	int rc;

	capture_begin(&c, 2);
	rc = result_scan_text(text, strlen(text), "t.json", &got, &len);
	*msg = capture_end(&c);
	if (out)
		*out = got;
	else
		free(got);
	return rc;
}

static size_t lines(const char *s)
{
	size_t n = 0;

	while ((s = strchr(s, '\n'))) {
		s++;
		n++;
	}
	return n;
}

/* The model read from a text, as a document again; NULL when it cannot be read. */
static json_t *model_of(const char *text)
{
	struct run_result r;
	json_error_t jerr;
	json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &jerr), *doc = NULL;

	if (root && result_from_json(root, "golden", &r) == 0) {
		doc = result_to_json(&r);
		result_free(&r);
	}
	json_decref(root);
	return doc;
}

/* What the scan blanks no key reads: a golden result reads the same, scanned or not. */
static void test_goldens_same(void)
{
	size_t i, len;

	for (i = 0; i < ARRAY_SIZE(goldens); i++) {
		char *text = slurp(goldens[i], &len), *copy = NULL;
		size_t n;
		json_t *a, *b;

		if (!ok(text != NULL, "%s read", goldens[i]))
			continue;
		ok(result_scan_file(goldens[i], &copy, &n) == 0 && n == strlen(copy) &&
		   lines(copy) == lines(text), "%s: scanned, its lines kept", goldens[i]);
		a = model_of(text);
		b = copy ? model_of(copy) : NULL;
		ok(a && b && json_equal(a, b), "%s: the same result, scanned or not", goldens[i]);
		json_decref(a);
		json_decref(b);
		free(copy);
		free(text);
	}
}

static void test_unknown_blanked(void)
{
	const char *msg;
	char *out;
	const char *doc =
		"{\"schema_version\": 1, \"pad\": [0, {\"a\": \"x\\u00e9\"},\n 1e3, true, null],\n"
		" \"jobs\": [{\"jobname\": \"j\", \"later\": {\"deep\": [[]]},"
		" \"options\": {\"novel\": [1, 2]}}]}";
	json_error_t jerr;
	json_t *root;

	ok(scan(doc, &out, &msg) == 0, "a result with unknown keys is accepted");
	ok(out && !strstr(out, "pad") && !strstr(out, "1e3") && lines(out) == lines(doc),
	   "an unknown member is gone, key and value, its line breaks kept");
	ok(out && !strstr(out, "later") && !strstr(out, "deep"), "in a job too");
	ok(out && strstr(out, "\"novel\": [1, 2]") != NULL,
	   "the job options are anyone's keys: kept, for the reader to judge");
	root = json_loads(out, JSON_REJECT_DUPLICATES, &jerr);
	ok(root && !json_object_get(root, "pad") &&
	   json_is_string(json_object_get(json_array_get(json_object_get(root, "jobs"), 0), "jobname")),
	   "and jansson reads what is left, the known keys as they were");
	json_decref(root);
	free(out);
}

static void test_broken(void)
{
	static const struct {
		const char *doc, *what;
	} cases[] = {
		{ "{\"schema_version\": 1, \"pad\": [1,,2], \"jobs\": []}", "expected a value" },
		{ "{\"schema_version\": 1, \"pad\": \"\\q\", \"jobs\": []}", "bad escape" },
		{ "{\"schema_version\": 1, \"pad\": \"\xff\", \"jobs\": []}", "invalid UTF-8" },
		{ "{\"schema_version\": 1, \"pad\": [01], \"jobs\": []}", "expected ',' or ']'" },
		{ "{\"schema_version\": 1, \"pad\": \"open, \"jobs\": []}", "expected ',' or '}'" },
		{ "{\"schema_version\": 1, \"jobs\": []} x", "end of file expected" },
		{ "{\"schema_version\": 1,\n \"pad\": tru}", "t.json:2:" },
	};
	const char *msg;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		int rc = scan(cases[i].doc, NULL, &msg);

		ok(rc == -EINVAL && strstr(msg, cases[i].what) && strstr(msg, "t.json:"),
		   "broken JSON under an unknown key is refused: %s", cases[i].what);
	}
}

/* depth levels of [ then ] */
static char *nested(size_t depth)
{
	char *s = xmalloc(2 * depth + 64), *p = s;
	size_t i;

	p += sprintf(p, "{\"schema_version\": 1, \"jobs\": [], \"pad\": ");
	for (i = 0; i < depth; i++)
		*p++ = '[';
	for (i = 0; i < depth; i++)
		*p++ = ']';
	strcpy(p, "}");
	return s;
}

/* n zeros in an array under key, in a result */
static char *zeros(const char *key, size_t n)
{
	char *s = xmalloc(2 * n + 128), *p = s;
	size_t i;

	p += sprintf(p, "{\"schema_version\": 1, \"jobs\": [{\"options\": {\"x\": 1}}], \"%s\": [0", key);
	for (i = 1; i < n; i++) {
		*p++ = ',';
		*p++ = '0';
	}
	strcpy(p, "]}");
	return s;
}

static void test_bounds(void)
{
	const char *msg;
	char *doc = nested(300);

	ok(scan(doc, NULL, &msg) == -EINVAL && strstr(msg, "nested too deep"),
	   "300 levels of nesting are refused");
	free(doc);
	doc = nested(100);
	ok(scan(doc, NULL, &msg) == 0, "100 levels are read");
	free(doc);
	/* Under an unknown key any number of values cost nothing: blanked, not built. */
	doc = zeros("pad", RESULT_MAX_VALUES + 10);
	ok(scan(doc, NULL, &msg) == 0, "%u zeros under an unknown key are skipped",
	   RESULT_MAX_VALUES + 10);
	free(doc);
	/* Under a key the reader reads (the run's events), they would be built: refused. */
	doc = zeros("events", RESULT_MAX_VALUES + 10);
	ok(scan(doc, NULL, &msg) == -EINVAL && strstr(msg, "more than 2000000 values"),
	   "as many under a known key are refused before jansson builds them");
	free(doc);
}

/* The read-back checks a measurement has: what cannot be measured is not known. */
static void test_figures_checked(void)
{
	struct capture c;
	struct run_result r;
	json_t *doc = json_pack("{s:i,s:[{s:s,s:{s:f},s:{s:f,s:f},s:{s:f,s:f},"
				"s:{s:{s:{s:i,s:i}}}}]}",
				"schema_version", 1, "jobs", "jobname", "x", "read", "iops", 1e308,
				"power", "idle_w", -5.0, "energy_net_j", -0.5, "efficiency",
				"j_per_gb", 12.0, "iops_per_w", -1.0, "write", "clat_ns",
				"percentile", "50.000000", 0, "99.000000", 1000);
	const char *msg;
	int rc;

	capture_begin(&c, 2);
	rc = result_from_json(doc, "odd.json", &r);
	msg = capture_end(&c);
	ok(rc == 0, "a result with impossible figures is read");
	ok(r.jobs[0].read && isnan(r.jobs[0].read->iops) && strstr(msg, "odd.json: jobs[0].read.iops: 1e+308"),
	   "iops 1e308 is not known, and named");
	ok(r.jobs[0].power && isnan(r.jobs[0].power->idle_w) &&
	   r.jobs[0].power->energy_net_j == -0.5, "a negative idle power is not known; a net "
	   "energy below zero is a difference and stays");
	ok(r.jobs[0].efficiency && isnan(r.jobs[0].efficiency->iops_per_w) && r.jobs[0].efficiency->j_per_gb == 12.0,
	   "a negative efficiency is not known, the rest stays");
	ok(r.jobs[0].write && r.jobs[0].write->clat.npct == 1 && r.jobs[0].write->clat.pct[0].ns == 1000 &&
	   strstr(msg, "percentile.50.000000: a latency of 0 ns"),
	   "a 0 ns percentile is left out, named");
	ok(strstr(msg, "1 more figures cannot be measured") != NULL,
	   "after three named, the rest are counted");
	result_free(&r);
	json_decref(doc);
}

/*
 * Read in 64 KiB pieces, a file says the same as its text in memory wherever a piece
 * ends: in an escape, a character of several bytes, a key, a dropped value.
 */
static void test_pieces(void)
{
	char path[] = "/var/tmp/iowatt-test-scan.XXXXXX", *text = xmalloc(1 << 20), *p = text;
	char *a = NULL, *b = NULL;
	size_t i, na = 0, nb = 0;
	int fd = mkstemp(path);
	FILE *fp = fd >= 0 ? fdopen(fd, "w") : NULL;

	p += sprintf(p, "{\"schema_version\": 1, \"jobs\": [], \"events\": [");
	for (i = 0; i < 3000; i++)
		p += sprintf(p, "%s{\"kind\": \"info\", \"text\": \"caf\u00e9 \xc3\xa9\\u00e9%zu\", "
			     "\"x%zu\": [%zu, {\"a\": \"\xe2\x9c\x93\"}]}", i ? ", " : "", i, i, i);
	strcpy(p, "]}\n");
	if (!ok(fp && fputs(text, fp) >= 0 && fclose(fp) == 0, "a 300 kB result written"))
		goto out;
	ok(result_scan_file(path, &a, &na) == 0 &&
	   result_scan_text(text, strlen(text), path, &b, &nb) == 0 && na == nb && !memcmp(a, b, na),
	   "read in pieces, it gives jansson the same text as read whole (%zu bytes)", na);
	ok(a && !strstr(a, "\"x2999\"") && strstr(a, "\"kind\": \"info\"") &&
	   strstr(a, "caf\xc3\xa9 \xc3\xa9\\u00e92999"), "the unknown keys dropped, the known kept");
out:
	unlink(path);
	free(a);
	free(b);
	free(text);
}

/*
 * Unknown members go whole, wherever they stand: first, between, last, all; what is left
 * is JSON with the known members as they were, and unknown members are not values.
 */
static void test_members_dropped(void)
{
	static const char *const docs[] = {
		"{\"u1\": 1, \"schema_version\": 1, \"jobs\": []}",
		"{\"schema_version\": 1, \"u1\": [1], \"u2\": {}, \"jobs\": []}",
		"{\"schema_version\": 1, \"jobs\": [], \"u1\": \"x\"}",
		"{\"u1\": 1,\n\"u2\": 2,\n\"schema_version\": 1,\n\"jobs\": [{\"jobname\": \"j\", \"u3\": 3}],\n\"u4\": 4}",
	};
	const char *msg;
	json_error_t jerr;
	json_t *root;
	size_t i, n = RESULT_MAX_VALUES + 10, k;
	char *out, *doc, *p;

	for (i = 0; i < sizeof(docs) / sizeof(docs[0]); i++) {
		out = NULL;
		root = scan(docs[i], &out, &msg) == 0 ? json_loads(out, JSON_REJECT_DUPLICATES, &jerr)
						      : NULL;
		if (!root)
			printf("# %s\n", out ? jerr.text : msg);
		ok(root && json_object_size(root) == 2 && json_is_array(json_object_get(root, "jobs")) &&
		   !strstr(out, "u1") && !strstr(out, "u3") && lines(out) == lines(docs[i]),
		   "unknown members dropped whole in case %zu: '%s'", i, out ? out : msg);
		json_decref(root);
		free(out);
	}
	/* more unknown members than values may be built: none of them counts */
	doc = p = xmalloc(n * 16 + 64);
	p += sprintf(p, "{\"schema_version\": 1");
	for (k = 0; k < n; k++)
		p += sprintf(p, ", \"u%zu\": 0", k);
	strcpy(p, ", \"jobs\": []}");
	out = NULL;
	k = scan(doc, &out, &msg) == 0 && out ? strlen(out) : SIZE_MAX;
	ok(k < 64, "%zu unknown members are read and hand on nothing (%zu bytes)", n, k);
	free(out);
	free(doc);
}

/* What jansson would copy is bounded too: text under known keys, keys of table-less objects. */
static void test_kept_bounds(void)
{
	size_t n = RESULT_MAX_KEPT_BYTES + 16;
	char *doc = xmalloc(n + 128), *p = doc;
	const char *msg = NULL;
	int rc;

	p += sprintf(p, "{\"schema_version\": 1, \"jobs\": [{\"jobname\": \"");
	memset(p, 'x', n);
	strcpy(p + n, "\"}]}");
	rc = scan(doc, NULL, &msg);
	ok(rc == -EFBIG && msg && strstr(msg, "MiB of text under the keys iowatt reads"),
	   "a %zu MiB string under a known key is refused: %s", n >> 20, msg ? msg : "-");
	p = doc + sprintf(doc, "{\"schema_version\": 1, \"jobs\": [{\"options\": {\"");
	memset(p, 'k', RESULT_MAX_KEY_BYTES + 1);
	strcpy(p + RESULT_MAX_KEY_BYTES + 1, "\": 1}}]}");
	ok(scan(doc, NULL, &msg) == -EINVAL && strstr(msg, "a key longer than any result's"),
	   "a job option's key of %u bytes is refused", RESULT_MAX_KEY_BYTES + 1);
	p[RESULT_MAX_KEY_BYTES] = '"';
	strcpy(p + RESULT_MAX_KEY_BYTES, "\": 1}}]}");
	ok(scan(doc, NULL, &msg) == 0, "one of %u bytes is read", RESULT_MAX_KEY_BYTES);
	/* a key longer than all that may be kept, where no table knows it, is only skipped:
	 * it never counts against the bound */
	p = doc + sprintf(doc, "{\"schema_version\": 1, \"jobs\": [], \"");
	memset(p, 'k', n);
	strcpy(p + n, "\": 1}");
	ok(scan(doc, NULL, &msg) == 0, "an unknown member's %zu MiB key is dropped, not refused",
	   n >> 20);
	free(doc);
}

int main(void)
{
	test_goldens_same();
	test_unknown_blanked();
	test_broken();
	test_bounds();
	test_members_dropped();
	test_kept_bounds();
	test_figures_checked();
	test_pieces();
	return done_testing();
}
