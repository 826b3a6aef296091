/* SPDX-License-Identifier: MIT */
/* The typed result model: round trips over every golden result, docs/results.md vs the keys,
 * and the figure table against the key table, repeats and the docs. */
#include <errno.h>
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/repeats.h"
#include "capture.h"
#include "core/mem.h"
#include "result/result_json.h"
#include "result/result_schema.h"
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

/* The figure table (result/result_figures.h) as data: a row, the struct it is in, its kind. */
enum { IN_JOB, IN_POWER, IN_EFF };

struct figure_row {
	const char *key, *kind;
	int in;
};

#define ROW_JOB(m, kind) { #m, #kind, IN_JOB },
#define ROW_POWER(m, kind) { #m, #kind, IN_POWER },
#define ROW_EFF(m, kind) { #m, #kind, IN_EFF },
static const struct figure_row figure_rows[] = {
	RESULT_JOB_FIGURES(ROW_JOB) RESULT_POWER_FIGURES(ROW_POWER)
		RESULT_EFFICIENCY_FIGURES(ROW_EFF)
};

static int row_u95(const struct figure_row *f)
{
	return strstr(f->kind, "U95") != NULL;
}

static int row_stats(const struct figure_row *f)
{
	return strstr(f->kind, "STATS") != NULL;
}

static const struct result_schema *schema_of(int in)
{
	return in == IN_POWER ? &result_power_schema : &result_efficiency_schema;
}

/* The figure key is (FIGURE or FIGURE_u95 of a row in `in`), or NULL. */
static const struct figure_row *row_of(int in, const char *key)
{
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(figure_rows); i++) {
		const struct figure_row *f = &figure_rows[i];

		n = strlen(f->key);
		if (f->in == in && !strncmp(key, f->key, n) &&
		    (!key[n] || (row_u95(f) && !strcmp(key + n, "_u95"))))
			return f;
	}
	return NULL;
}

/* The number the key table writes under key from obj (a result_power or _efficiency). */
static double schema_value(int in, const void *obj, const char *key)
{
	const struct result_schema *sc = schema_of(in);
	size_t i;

	for (i = 0; i < sc->nfields; i++)
		if (!strcmp(sc->fields[i].key, key))
			return *(const double *)(const void *)((const char *)obj + sc->fields[i].off);
	return NAN;
}

/* The key table writes the rows' numbers in the rows' order, and no other number. */
static void test_figures_schema(void)
{
	static const int ins[] = { IN_POWER, IN_EFF };
	size_t i, k, want_n;
	const char *want[2 * ARRAY_SIZE(figure_rows)];
	char u95[ARRAY_SIZE(figure_rows)][64];

	for (k = 0; k < ARRAY_SIZE(ins); k++) {
		const struct result_schema *sc = schema_of(ins[k]);
		size_t got = 0, bad = 0;

		for (want_n = 0, i = 0; i < ARRAY_SIZE(figure_rows); i++) {
			if (figure_rows[i].in != ins[k])
				continue;
			want[want_n++] = figure_rows[i].key;
			snprintf(u95[i], sizeof(u95[i]), "%s_u95", figure_rows[i].key);
			if (row_u95(&figure_rows[i]))
				want[want_n++] = u95[i];
		}
		for (i = 0; i < sc->nfields; i++) {
			if (sc->fields[i].type != RF_REAL)
				continue;
			if (got >= want_n || strcmp(sc->fields[i].key, want[got])) {
				printf("#   %s: key %s where the figure table has %s\n", sc->name,
				       sc->fields[i].key, got < want_n ? want[got] : "no more rows");
				bad++;
			}
			got++;
		}
		ok(!bad && got == want_n, "%s: its %zu numbers are the figure table's rows, in order",
		   sc->name, want_n);
	}
}

/* An entry of job "F" whose every power and efficiency number is distinct. */
static void figures_entry(struct run_result *r, unsigned round)
{
	struct job_result *j = result_add_job(r);
	size_t i;

	j->jobname = xstrdup("F");
	j->round = round;
	j->status = RESULT_OK;
	j->read = xcalloc(1, sizeof(*j->read));
	j->read->iops = 250;
	j->read->total_ios = 1000;
	j->read->clat.pct[0] = (struct result_pct){ 50, 400000 };
	j->read->clat.pct[1] = (struct result_pct){ 99, 900000 };
	j->read->clat.npct = 2;
	j->read->lat.pct[0] = (struct result_pct){ 50, 410000 };
	j->read->lat.pct[1] = (struct result_pct){ 99, 910000 };
	j->read->lat.npct = 2;
	j->power = xcalloc(1, sizeof(*j->power));
	j->efficiency = xcalloc(1, sizeof(*j->efficiency));
	j->validity = xcalloc(1, sizeof(*j->validity));
	j->validity->valid = 1;
	for (i = 0; i < result_power_schema.nfields; i++)
		if (result_power_schema.fields[i].type == RF_REAL)
			*(double *)(void *)((char *)j->power + result_power_schema.fields[i].off) =
				1.0 + (double)i;
	for (i = 0; i < result_efficiency_schema.nfields; i++)
		*(double *)(void *)((char *)j->efficiency + result_efficiency_schema.fields[i].off) =
			101.0 + (double)i;
}

/* Repeats read each row with statistics from the member the key table writes, and the
 * summary's key table writes what repeats computed; rows without statistics have none. */
static void test_figures_repeats(void)
{
	struct run_result r;
	const struct result_job_summary *s;
	const struct result_stat *st;
	json_t *doc, *figs, *o;
	size_t i, nstats = 0, entry_bad = 0, stat_bad = 0, json_bad = 0;
	double v, u, want, want_u;

	memset(&r, 0, sizeof(r));
	r.schema_version = RESULT_SCHEMA_VERSION;
	figures_entry(&r, 1);
	for (i = 0; i < ARRAY_SIZE(figure_rows); i++) {
		const struct figure_row *f = &figure_rows[i];
		const void *obj = f->in == IN_POWER ? (const void *)r.jobs[0].power
						    : (const void *)r.jobs[0].efficiency;
		char k95[80];

		if (f->in == IN_JOB)
			continue;
		snprintf(k95, sizeof(k95), "%s_u95", f->key);
		v = result_job_figure(&r, &r.jobs[0], f->key, &u);
		want = row_stats(f) ? schema_value(f->in, obj, f->key) : NAN;
		want_u = row_stats(f) ? schema_value(f->in, obj, k95) : NAN;
		if (!(v == want || (isnan(v) && isnan(want))) ||
		    !(u == want_u || (isnan(u) && isnan(want_u)))) {
			printf("#   repeats reads %s as %g +- %g, the key table %g +- %g\n", f->key, v,
			       u, want, want_u);
			entry_bad++;
		}
	}
	ok(!entry_bad, "repeats read every figure with statistics where the key table does");

	figures_entry(&r, 2);
	result_summarize(&r);
	s = result_summary_find(&r, "F");
	doc = result_to_json(&r);
	figs = json_object_get(json_array_get(json_object_get(doc, "summary"), 0), "figures");
	for (i = 0; s && i < ARRAY_SIZE(figure_rows); i++) {
		const struct figure_row *f = &figure_rows[i];

		st = result_summary_stat(s, f->key);
		o = json_object_get(figs, f->key);
		nstats += row_stats(f);
		if (row_stats(f) != (st != NULL) || (st && st->n != 2)) {
			printf("#   %s: %s statistics in repeats\n", f->key, st ? "has" : "no");
			stat_bad++;
		}
		if (row_stats(f) != (o != NULL) ||
		    (st && json_number_value(json_object_get(o, "mean")) != st->mean)) {
			printf("#   %s: summary.figures has %s\n", f->key, o ? "it" : "it not");
			json_bad++;
		}
	}
	ok(s && !stat_bad, "repeats sum up the %zu rows with statistics over 2 rounds, and no other",
	   nstats);
	ok(s && !json_bad && json_object_size(figs) == nstats,
	   "summary.figures holds each of them, as repeats computed it");
	json_decref(doc);
	result_free(&r);
}

/* The row with statistics named key, or NULL. */
static const struct figure_row *stats_row(const char *key)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(figure_rows); i++)
		if (row_stats(&figure_rows[i]) && !strcmp(figure_rows[i].key, key))
			return &figure_rows[i];
	return NULL;
}

/* docs/results.md shows every row (and its _u95) where the document has it, and no other. */
static void test_figures_docs(void)
{
	static const struct {
		const char *path;
		int in; /* IN_JOB: summary[].figures, the rows with statistics */
	} places[] = {
		{ "jobs[].power", IN_POWER },
		{ "jobs[].meters[].power", IN_POWER },
		{ "jobs[].efficiency", IN_EFF },
		{ "jobs[].meters[].efficiency", IN_EFF },
		{ "summary[].figures", IN_JOB },
	};
	json_t *doc = docs_document(), *obj, *v;
	const char *key;
	size_t i, k, missing = 0, extra = 0;
	char k95[80];

	for (k = 0; doc && k < ARRAY_SIZE(places); k++) {
		int in = places[k].in;

		obj = object_at(doc, places[k].path);
		for (i = 0; i < ARRAY_SIZE(figure_rows); i++) {
			const struct figure_row *f = &figure_rows[i];

			if (in == IN_JOB ? !row_stats(f) : f->in != in)
				continue;
			snprintf(k95, sizeof(k95), "%s_u95", f->key);
			if (!json_object_get(obj, f->key) ||
			    (in != IN_JOB && row_u95(f) && !json_object_get(obj, k95))) {
				printf("#   docs/results.md %s has no %s%s\n", places[k].path, f->key,
				       in != IN_JOB && row_u95(f) ? " (or _u95)" : "");
				missing++;
			}
		}
		json_object_foreach(obj, key, v) {
			if (in == IN_JOB ? !stats_row(key)
					 : (json_is_number(v) || json_is_null(v)) && !row_of(in, key)) {
				printf("#   docs/results.md %s.%s is not in the figure table%s\n",
				       places[k].path, key, in == IN_JOB ? " with statistics" : "");
				extra++;
			}
		}
	}
	ok(doc && !missing, "docs/results.md shows every row of the figure table in its %zu places",
	   ARRAY_SIZE(places));
	ok(doc && !extra, "and no figure the table has not");
	json_decref(doc);
}

/* docs/energy.md's table of figures says what each power and efficiency row is. */
static void test_figures_meaning(void)
{
	char *text = slurp("docs/energy.md"), *sec = text ? strstr(text, "\n## Figures\n") : NULL;
	char *end = sec ? strstr(sec + 1, "\n## ") : NULL, name[80];
	size_t i, missing = 0;

	if (end)
		*end = '\0';
	for (i = 0; sec && i < ARRAY_SIZE(figure_rows); i++) {
		if (figure_rows[i].in == IN_JOB)
			continue;
		snprintf(name, sizeof(name), "`%s`", figure_rows[i].key);
		if (!strstr(sec, name)) {
			printf("#   docs/energy.md's Figures table has no %s\n", name);
			missing++;
		}
	}
	ok(sec && !missing, "docs/energy.md's Figures table names every power and efficiency row");
	free(text);
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
	test_figures_schema();
	test_figures_repeats();
	test_figures_docs();
	test_figures_meaning();
	test_errors();
	test_nan_is_null();
	paths_free(&seen);
	rmdir(dir);
	return done_testing();
}
