/* SPDX-License-Identifier: MIT */
/* The typed result model: round trips over every golden result, docs/results.md vs the keys. */
#include <errno.h>
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "core/mem.h"
#include "result/result_json.h"
#include "tap.h"

static char dir[] = "/var/tmp/iowatt-test-report.XXXXXX";

/* A set of key paths ("jobs[].power.active_w"), small enough for linear search. */
struct paths {
	char **v;
	size_t n;
};

static int paths_has(const struct paths *ps, const char *p)
{
	size_t i;

	for (i = 0; i < ps->n; i++)
		if (!strcmp(ps->v[i], p))
			return 1;
	return 0;
}

static void paths_add(const char *p, void *arg)
{
	struct paths *ps = arg;

	if (paths_has(ps, p))
		return;
	ps->v = xrealloc(ps->v, (ps->n + 1) * sizeof(*ps->v));
	ps->v[ps->n++] = xstrdup(p);
}

static void paths_free(struct paths *ps)
{
	size_t i;

	for (i = 0; i < ps->n; i++)
		free(ps->v[i]);
	free(ps->v);
	memset(ps, 0, sizeof(*ps));
}

/* Keys under options and percentile are data, not schema: they are "*". */
static int data_keys(const char *parent)
{
	size_t n = strlen(parent);

	return (n >= 7 && !strcmp(parent + n - 7, "options")) ||
	       (n >= 10 && !strcmp(parent + n - 10, "percentile"));
}

static void json_paths(json_t *v, const char *prefix, struct paths *ps)
{
	const char *key, *name;
	json_t *x;
	size_t i;
	char *p;

	if (json_is_object(v)) {
		json_object_foreach(v, key, x) {
			name = data_keys(prefix) ? "*" : key;
			p = *prefix ? xasprintf("%s.%s", prefix, name) : xstrdup(name);
			paths_add(p, ps);
			json_paths(x, p, ps);
			free(p);
		}
	} else if (json_is_array(v)) {
		p = xasprintf("%s[]", prefix);
		json_array_foreach(v, i, x)
			if (json_is_object(x))
				json_paths(x, p, ps);
		free(p);
	}
}

static char *slurp(const char *path)
{
	char *text = NULL;
	size_t cap = 0;
	FILE *fp = fopen(path, "r");

	if (!fp)
		return NULL;
	if (getdelim(&text, &cap, '\0', fp) < 0) {
		free(text);
		text = NULL;
	}
	fclose(fp);
	return text;
}

/* The object at "jobs[].power" (first element of each array) inside doc, or NULL. */
static json_t *object_at(json_t *doc, const char *path)
{
	char *copy = xstrdup(path), *tok, *save = NULL;
	json_t *o = doc;

	for (tok = strtok_r(copy, ".", &save); o && tok; tok = strtok_r(NULL, ".", &save)) {
		size_t n = strlen(tok);
		int arr = n > 2 && !strcmp(tok + n - 2, "[]");

		if (arr)
			tok[n - 2] = '\0';
		o = json_object_get(o, tok);
		if (arr)
			o = json_array_get(o, 0);
	}
	free(copy);
	return json_is_object(o) ? o : NULL;
}

/*
 * docs/results.md: the main ```json block is the document; a block after an
 * "<!-- at: PATH... -->" line is merged in at each PATH. Returns the merged document.
 */
static json_t *docs_document(void)
{
	char *text = slurp("docs/results.md"), *p, *end, *at;
	json_t *doc = NULL, *block, *into;
	json_error_t err;

	for (p = text; p && (p = strstr(p, "```json\n")); p = end + 3) {
		end = strstr(p + 8, "```");
		if (!end)
			break;
		*end = '\0';
		block = json_loads(p + 8, 0, &err);
		if (!block) {
			printf("# docs/results.md: block line %d: %s\n", err.line, err.text);
			json_decref(doc);
			free(text);
			return NULL;
		}
		at = NULL;
		if (p > text) {
			char *prev = p - 1; /* the newline that ends the line before the block */

			while (prev > text && prev[-1] != '\n')
				prev--;
			if (!strncmp(prev, "<!-- at: ", 9))
				at = prev + 9;
		}
		if (!doc) {
			doc = block;
			continue;
		}
		while (at && *at && strncmp(at, "-->", 3)) {
			char path[128];
			size_t n = strcspn(at, " ");

			snprintf(path, sizeof(path), "%.*s", (int)n, at);
			into = object_at(doc, path);
			if (!into)
				printf("# docs/results.md: no object at %s\n", path);
			else
				json_object_update(into, block);
			at += n + strspn(at + n, " ");
		}
		json_decref(block);
	}
	free(text);
	return doc;
}

static int same_file(const char *a, const char *b)
{
	char *x = slurp(a), *y = slurp(b);
	int same = x && y && !strcmp(x, y);

	free(x);
	free(y);
	return same;
}

/* Every value of want is in got, numbers compared as numbers; counts the leaves. */
static int contains(json_t *want, json_t *got, const char *where, size_t *leaves)
{
	const char *key;
	json_t *w;
	size_t i;
	int okay = 1;
	char sub[256];

	if (json_is_number(want) && json_is_number(got)) {
		(*leaves)++;
		if (json_number_value(want) != json_number_value(got)) {
			printf("#   %s: %.17g, read back %.17g\n", where, json_number_value(want),
			       json_number_value(got));
			return 0;
		}
		return 1;
	}
	if (json_is_object(want) && json_is_object(got)) {
		json_object_foreach(want, key, w) {
			snprintf(sub, sizeof(sub), "%s.%s", where, key);
			if (!strcmp(sub, ".context.device.mmc.timing"))
				continue; /* invented by gen_golden.py: iowatt has no such key */
			okay &= contains(w, json_object_get(got, key), sub, leaves);
		}
		return okay;
	}
	if (json_is_array(want) && json_is_array(got) && json_array_size(want) == json_array_size(got)) {
		json_array_foreach(want, i, w) {
			snprintf(sub, sizeof(sub), "%s[%zu]", where, i);
			okay &= contains(w, json_array_get(got, i), sub, leaves);
		}
		return okay;
	}
	(*leaves)++;
	if (!json_equal(want, got)) {
		printf("#   %s differs after reading\n", where);
		return 0;
	}
	return 1;
}

/* file -> report -> file -> report -> file: the two files are byte-identical. */
static void round_trip(json_t *doc, const char *name, struct paths *seen)
{
	char a[300], b[300];
	struct run_result r1, r2;
	json_t *back;
	size_t leaves = 0;
	int same;
	const char *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;

	snprintf(a, sizeof(a), "%s/%s.a", dir, base);
	snprintf(b, sizeof(b), "%s/%s.b", dir, base);
	if (!ok(result_from_json(doc, name, &r1) == 0, "%s reads into the model", name))
		return;
	back = result_to_json(&r1);
	same = back && contains(doc, back, "", &leaves);
	ok(same, "%s: all %zu values survive the model", name, leaves);
	json_paths(back, "", seen);
	json_decref(back);
	ok(result_write(a, &r1) == 0 && result_load(a, &r2) == 0 && result_write(b, &r2) == 0,
	   "%s: written, read back, written again", name);
	ok(same_file(a, b), "%s: the two writes are byte-identical", name);
	result_free(&r1);
	result_free(&r2);
	unlink(a);
	unlink(b);
}

static void test_round_trips(struct paths *seen)
{
	static const char *const pats[] = { "tests/data/golden/*.json", "docs/demo/*.json" };
	json_error_t err;
	glob_t g;
	size_t i, k, nfiles = 0;

	for (k = 0; k < ARRAY_SIZE(pats); k++) {
		if (glob(pats[k], 0, NULL, &g))
			continue;
		for (i = 0; i < g.gl_pathc; i++) {
			json_t *doc = json_load_file(g.gl_pathv[i], 0, &err);

			if (!ok(doc != NULL, "%s parses", g.gl_pathv[i]))
				continue;
			round_trip(doc, g.gl_pathv[i], seen);
			json_decref(doc);
			nfiles++;
		}
		globfree(&g);
	}
	ok(nfiles >= 6, "round trip over %zu golden and demo results", nfiles);
}

static void test_docs_keys(struct paths *seen)
{
	struct paths doc_paths = { 0 }, ser = { 0 };
	json_t *doc = docs_document();
	size_t i, missing = 0, extra = 0, unseen = 0;

	result_key_paths(paths_add, &ser);
	ok(doc != NULL, "docs/results.md examples parse");
	if (!doc)
		return;
	json_paths(doc, "", &doc_paths);
	for (i = 0; i < ser.n; i++) {
		if (!paths_has(&doc_paths, ser.v[i])) {
			printf("#   written but not documented: %s\n", ser.v[i]);
			missing++;
		}
	}
	ok(!missing, "every one of the serialiser's %zu key paths is in docs/results.md", ser.n);
	for (i = 0; i < doc_paths.n; i++) {
		if (!paths_has(&ser, doc_paths.v[i])) {
			printf("#   documented but never written: %s\n", doc_paths.v[i]);
			extra++;
		}
	}
	ok(!extra, "every documented key path is one the serialiser writes");
	round_trip(doc, "docs/results.md", seen);
	for (i = 0; i < ser.n; i++)
		unseen += !paths_has(seen, ser.v[i]);
	ok(!unseen, "the round trips exercised all %zu key paths", ser.n);
	json_decref(doc);
	paths_free(&doc_paths);
	paths_free(&ser);
}

static void test_errors(void)
{
	struct capture c;
	struct run_result r;
	json_t *doc = json_pack("{s:i,s:[{s:s,s:{s:s}}]}", "schema_version", 1, "jobs", "jobname",
				"x", "power", "active_w", "high");
	const char *msg;
	int rc;

	capture_begin(&c, 2);
	rc = result_from_json(doc, "bad.json", &r);
	msg = capture_end(&c);
	ok(rc == -EINVAL && strstr(msg, "bad.json: jobs[0].power.active_w: expected a number"),
	   "a wrong type is refused, naming file and key");
	ok(r.njobs == 0 && r.jobs == NULL, "and leaves the report empty");
	json_decref(doc);

	doc = json_pack("{s:i,s:[{s:s,s:[{s:s}]}]}", "schema_version", 1, "jobs", "jobname", "x",
			"events", "kind", "volcano");
	capture_begin(&c, 2);
	rc = result_from_json(doc, "ev.json", &r);
	msg = capture_end(&c);
	ok(rc == -EINVAL && strstr(msg, "jobs[0].events[0].kind"), "an unknown event kind is named");
	json_decref(doc);
}

/* A figure that cannot be computed is null, wherever it is. */
static void test_nan_is_null(void)
{
	struct run_result r;
	struct job_result *j;
	json_t *doc, *val;

	memset(&r, 0, sizeof(r));
	r.schema_version = RESULT_SCHEMA_VERSION;
	j = result_add_job(&r);
	j->jobname = xstrdup("j");
	j->validity = xcalloc(1, sizeof(*j->validity));
	j->validity->coverage = NAN;
	j->power = xcalloc(1, sizeof(*j->power));
	j->power->active_w = INFINITY;
	doc = result_to_json(&r);
	val = json_object_get(json_array_get(json_object_get(doc, "jobs"), 0), "validity");
	ok(json_is_null(json_object_get(val, "coverage")), "NaN coverage is written null");
	ok(json_is_array(json_object_get(val, "reasons")), "an empty reasons list is written []");
	ok(json_is_null(json_object_get(json_object_get(json_array_get(json_object_get(doc, "jobs"),
									   0), "power"), "active_w")),
	   "an infinite figure is written null");
	ok(!json_object_get(doc, "events") && !json_object_get(doc, "profile"),
	   "keys the run has not got yet are left out");
	ok(json_is_object(json_object_get(doc, "context")) &&
		   !json_object_size(json_object_get(doc, "context")),
	   "a run without a target has an empty context");
	json_decref(doc);
	result_free(&r);
}

int main(void)
{
	struct paths seen = { 0 };

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_round_trips(&seen);
	test_docs_keys(&seen);
	test_errors();
	test_nan_is_null();
	paths_free(&seen);
	rmdir(dir);
	return done_testing();
}
