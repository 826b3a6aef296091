/* SPDX-License-Identifier: MIT */
/* Several result files loaded into the model, each named by its device for charts and tables. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analysis/repeats.h"
#include "analysis/results_read.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/text.h"

#define MOD "results"
/* PCIe link generation from its transfer rate (GT/s): Gen1 2.5, Gen2 5, Gen3 8, Gen4 16, Gen5 32. */
#define GTS_GEN5 32
#define GTS_GEN4 16
#define GTS_GEN3 8
#define GTS_GEN2 5

/*
 * Each loop of a job is reported, so each is charted and compared: a later loop gets its
 * number in its name ("RND4K-Q1T1-write #2"), a later round its round
 * ("RND4K-Q1T1-write r2", "... r2 #2"); the first keeps the plain name, which is also
 * how --job and a plain name in other results refer to it.
 */
static void name_loops(struct rr_result *r)
{
	const struct run_result *rep = &r->rep;
	char round[16];
	size_t i;

	r->names = xcalloc(rep->njobs + 1, sizeof(*r->names));
	for (i = 0; i < rep->njobs; i++) {
		const char *name = rep->jobs[i].jobname ? rep->jobs[i].jobname : "?";

		round[0] = '\0';
		if (rep->jobs[i].round > 1)
			snprintf(round, sizeof(round), " r%u", rep->jobs[i].round);
		if (rep->jobs[i].loop > 1)
			r->names[i] = xasprintf("%s%s #%u", name, round, rep->jobs[i].loop);
		else
			r->names[i] = xasprintf("%s%s", name, round);
	}
}

static double pcie_gen(const struct result_pcie *p)
{
	/* "8.0 GT/s PCIe" from sysfs current_link_speed */
	double gts = atof(p->current_link_speed ? p->current_link_speed : "0");

	return gts >= GTS_GEN5 ? 5 : gts >= GTS_GEN4 ? 4 : gts >= GTS_GEN3 ? 3 : gts >= GTS_GEN2 ? 2
	       : gts > 0 ? 1 : NAN;
}

static void link_name(const struct result_device *dev, char *buf, size_t len)
{
	double gen, width;

	buf[0] = '\0';
	if (!dev)
		return;
	if (dev->usb) {
		snprintf(buf, len, "USB%s%s", dev->usb->speed ? " " : "",
			 dev->usb->speed ? dev->usb->speed : "");
	} else if (dev->pcie) {
		gen = pcie_gen(dev->pcie);
		width = dev->pcie->current_link_width == RESULT_NULL_INT
				? NAN : (double)dev->pcie->current_link_width;
		if (!isnan(gen) && !isnan(width))
			snprintf(buf, len, "PCIe Gen%.0f x%.0f", gen, width);
		else if (!isnan(gen))
			snprintf(buf, len, "PCIe Gen%.0f", gen);
		else
			snprintf(buf, len, "PCIe");
	} else if (dev->mmc) {
		snprintf(buf, len, "%s", dev->mmc->type ? dev->mmc->type : "MMC");
	} else if (dev->transport) {
		snprintf(buf, len, "%s", dev->transport);
	}
}

static const char *or_empty(const char *s)
{
	return s ? s : "";
}

/* The run's --label as the user gave it; else "Vendor Model (link)", the model alone when
 * it starts with the vendor, else the file. */
static void device_label(struct rr_result *r, const struct result_device *dev)
{
	const char *vendor = dev ? or_empty(dev->vendor) : "", *model = dev ? or_empty(dev->model) : "";
	const char *p;
	char name[112];

	if (r->rep.label && *r->rep.label) {
		snprintf(r->label, sizeof(r->label), "%s", r->rep.label);
		text_clean(r->label);
		return;
	}
	if (*vendor && strncasecmp(model, vendor, strlen(vendor)))
		snprintf(name, sizeof(name), "%s %s", vendor, model);
	else
		snprintf(name, sizeof(name), "%s", *model ? model : dev ? or_empty(dev->name) : "");
	if (!*name) {
		p = strrchr(r->path, '/');
		snprintf(name, sizeof(name), "%s", p ? p + 1 : r->path);
	}
	if (*r->link)
		snprintf(r->label, sizeof(r->label), "%s (%s)", name, r->link);
	else
		snprintf(r->label, sizeof(r->label), "%s", name);
	/* A file name is anyone's bytes; a cut may split a character. */
	text_clean(r->label);
}

/* "ext4 noatime": the type and the mount options that change the figures. */
static void filesystem_name(struct rr_result *r, const struct result_filesystem *fs)
{
	static const char *const notable[] = { "noatime", "relatime", "discard", "sync", "data=" };
	const char *opts = fs ? or_empty(fs->mount_options) : "", *p;
	size_t i, len;

	snprintf(r->filesystem, sizeof(r->filesystem), "%s", fs && fs->type ? fs->type : "-");
	for (i = 0; i < ARRAY_SIZE(notable); i++) {
		p = strstr(opts, notable[i]);
		len = strlen(r->filesystem);
		if (p && (p == opts || p[-1] == ',')) {
			size_t n = strcspn(p, ",");

			snprintf(r->filesystem + len, sizeof(r->filesystem) - len, " %.*s", (int)n, p);
		}
	}
}

static void meter_names(struct rr_result *r)
{
	size_t i, len;

	r->emulated = r->rep.emulated;
	r->meter[0] = '\0';
	for (i = 0; i < r->rep.nmeters; i++) {
		const struct result_meter *m = &r->rep.meters[i];
		const char *drv = m->driver ? m->driver : "?";

		len = strlen(r->meter);
		if (!strstr(r->meter, drv))
			snprintf(r->meter + len, sizeof(r->meter) - len, "%s%s", len ? "," : "", drv);
		r->emulated |= m->emulated;
		r->manual |= m->manual;
	}
	if (!r->meter[0])
		snprintf(r->meter, sizeof(r->meter), "none");
}

static void describe(struct rr_result *r)
{
	const struct result_context *ctx = r->rep.context;
	const struct result_device *dev = ctx ? ctx->device : NULL;

	snprintf(r->transport, sizeof(r->transport), "%s", dev ? or_empty(dev->transport) : "");
	link_name(dev, r->link, sizeof(r->link));
	device_label(r, dev);
	filesystem_name(r, ctx ? ctx->filesystem : NULL);
	meter_names(r);
}

static int load_one(struct rr_result *r, const char *path)
{
	size_t i;
	int rc;

	memset(r, 0, sizeof(*r));
	r->path = xstrdup(path);
	rc = result_load(path, &r->rep);
	if (rc)
		return rc;
	for (i = 0; i < r->rep.njobs; i++)
		r->has_power |= rr_has_power(&r->rep.jobs[i]);
	name_loops(r);
	describe(r);
	return 0;
}

/* --label's FILE (up to its '=') names path: the path as given, or its base name. */
static int label_names(const char *label, const char *path)
{
	const char *eq = strchr(label, '='), *base = strrchr(path, '/');
	size_t n = eq ? (size_t)(eq - label) : 0;

	base = base ? base + 1 : path;
	return eq && ((n == strlen(path) && !strncmp(label, path, n)) ||
		      (n == strlen(base) && !strncmp(label, base, n)));
}

/*
 * A label whose FILE names two different results (two quick.json in two directories) would
 * give both one name, and merge two devices into one: refused, naming both. 0 or -EINVAL.
 */
static int labels_unambiguous(char *const *labels, size_t nlabels, char *const *paths,
			      size_t npaths)
{
	size_t l, i, first;

	for (l = 0; l < nlabels; l++) {
		for (first = 0; first < npaths && !label_names(labels[l], paths[first]); first++)
			;
		for (i = first + 1; i < npaths; i++) {
			if (!label_names(labels[l], paths[i]) || !strcmp(paths[i], paths[first]))
				continue;
			log_err(MOD, "--label '%s': %.*s names more than one result (%s and %s): "
				     "give the path as on the command line", labels[l],
				(int)(strchr(labels[l], '=') - labels[l]), labels[l], paths[first],
				paths[i]);
			return -EINVAL;
		}
	}
	return 0;
}

static int apply_label(struct rr_result *r, char *const *labels, size_t nlabels)
{
	size_t i;
	const char *eq;

	for (i = 0; i < nlabels; i++) {
		eq = strchr(labels[i], '=');
		if (eq && label_names(labels[i], r->path)) {
			snprintf(r->label, sizeof(r->label), "%s", eq + 1);
			text_clean(r->label);
			return 1;
		}
	}
	return 0;
}

static void assign_devices(struct rr_set *set)
{
	size_t i, d;

	for (i = 0; i < set->nres; i++) {
		for (d = 0; d < set->ndevices; d++)
			if (!strcmp(set->devices[d], set->res[i].label))
				break;
		if (d == set->ndevices) {
			set->devices = xrealloc(set->devices, (d + 1) * sizeof(*set->devices));
			set->devices[d] = xstrdup(set->res[i].label);
			set->ndevices++;
		}
		set->res[i].device_idx = (int)d;
	}
}

int rr_set_load(struct rr_set *set, char *const *paths, size_t npaths, char *const *labels,
		size_t nlabels)
{
	size_t i;
	int rc;

	memset(set, 0, sizeof(*set));
	for (i = 0; i < nlabels; i++) {
		if (!strchr(labels[i], '=') || labels[i][0] == '=' || !strchr(labels[i], '=')[1]) {
			log_err(MOD, "--label '%s': expected FILE=NAME", labels[i]);
			return -EINVAL;
		}
	}
	if (labels_unambiguous(labels, nlabels, paths, npaths))
		return -EINVAL;
	set->res = xcalloc(npaths ? npaths : 1, sizeof(*set->res));
	for (i = 0; i < npaths; i++) {
		set->nres++;
		rc = load_one(&set->res[i], paths[i]);
		if (rc) {
			rr_set_free(set);
			return rc;
		}
		apply_label(&set->res[i], labels, nlabels);
	}
	assign_devices(set);
	return 0;
}

void rr_set_free(struct rr_set *set)
{
	size_t i, j;

	for (i = 0; i < set->nres; i++) {
		for (j = 0; set->res[i].names && j < set->res[i].rep.njobs; j++)
			free(set->res[i].names[j]);
		free(set->res[i].names);
		free(set->res[i].path);
		result_free(&set->res[i].rep);
	}
	for (i = 0; i < set->ndevices; i++)
		free(set->devices[i]);
	free(set->devices);
	free(set->res);
	memset(set, 0, sizeof(*set));
}

size_t rr_job_names(const struct rr_set *set, const char ***names)
{
	const char **out = NULL;
	size_t n = 0, i, j, k;

	for (i = 0; i < set->nres; i++) {
		for (j = 0; j < set->res[i].rep.njobs; j++) {
			const struct job_result *jr = &set->res[i].rep.jobs[j];
			const char *nm = set->res[i].names[j];

			/* A job with rounds is summed up over them: its first entry stands
			 * for all, so later rounds get no name of their own. */
			if (jr->jobname && result_summary_find(&set->res[i].rep, jr->jobname) &&
			    rr_find_job(&set->res[i], jr->jobname) != jr)
				continue;
			for (k = 0; k < n; k++)
				if (!strcmp(out[k], nm))
					break;
			if (k < n)
				continue;
			out = xrealloc(out, (n + 1) * sizeof(*out));
			out[n++] = nm;
		}
	}
	*names = out;
	return n;
}

const char *rr_job_name(const struct rr_result *r, const struct job_result *j)
{
	return r->names[j - r->rep.jobs];
}

static const char *jobname(const struct job_result *j)
{
	return j->jobname ? j->jobname : "?";
}

const struct job_result *rr_find_job(const struct rr_result *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->rep.njobs; i++)
		if (!strcmp(r->names[i], name))
			return &r->rep.jobs[i];
	for (i = 0; i < r->rep.njobs; i++)
		if (!strcmp(jobname(&r->rep.jobs[i]), name))
			return &r->rep.jobs[i];
	return NULL;
}

void rr_meter_name(const struct result_meter *m, char *buf, size_t len)
{
	const char *model = m->model && *m->model ? m->model : m->driver ? m->driver : "meter";
	const char *conn = m->spec ? strchr(m->spec, ':') : NULL, *base, *end, *slash;

	if (!conn || !conn[1]) {
		snprintf(buf, len, "%s", model);
		return;
	}
	conn++;
	end = conn + strcspn(conn, ",");
	/* The device's own name: /dev/rfcomm0 is rfcomm0, /dev/i2c-1@0x40 is i2c-1@0x40. */
	base = conn;
	while ((slash = memchr(base, '/', (size_t)(end - base))))
		base = slash + 1;
	snprintf(buf, len, "%s on %.*s", model, (int)(end - base), base);
}

/*
 * A result names its CSVs; it may only name files beside it (the writer stores a bare
 * name). A path elsewhere (/dev/zero, ../../etc) is refused: reading it could hang or
 * show another file's content in a chart.
 */
char *rr_companion_path(const struct rr_result *r, const char *kind)
{
	const char *name = !strcmp(kind, "intervals") ? r->rep.files.intervals
			   : !strcmp(kind, "samples") ? r->rep.files.samples : NULL;
	const char *slash = strrchr(r->path, '/');
	size_t stem;

	if (name && (!*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))) {
		log_warn(MOD, "%s: files.%s '%s' is not a file name beside the result: not read",
			 r->path, kind, name);
		return NULL;
	}
	if (name) {
		if (!slash)
			return xstrdup(name);
		return xasprintf("%.*s/%s", (int)(slash - r->path), r->path, name);
	}
	stem = strlen(r->path);
	if (stem > 5 && !strcmp(r->path + stem - 5, ".json"))
		stem -= 5;
	return xasprintf("%.*s.%s.csv", (int)stem, r->path, kind);
}

/*
 * The job that models a direction: one that moves data that way, has power figures,
 * finished; valid before invalid; then the block size closest (in ratio) to want_bs;
 * then pure direction before mixed (randrw).
 */
const struct job_result *rr_pick_job(const struct rr_result *r, int writes, uint64_t want_bs,
				     const char *force)
{
	const struct job_result *best = NULL;
	double best_score = INFINITY, score;
	size_t i;

	for (i = 0; i < r->rep.njobs; i++) {
		const struct job_result *j = &r->rep.jobs[i];

		if (force) {
			/* "NAME #2" picks a loop; a plain NAME its first */
			if (!strcmp(r->names[i], force) || !strcmp(jobname(j), force))
				return rr_has_power(j) ? j : NULL;
			continue;
		}
		if (!rr_has_power(j) || j->status != RESULT_OK || !rr_bs(j))
			continue;
		if (writes ? !rr_writes(j) : !rr_reads(j))
			continue;
		score = fabs(log2((double)rr_bs(j) / (double)want_bs));
		if (rr_valid(j) == 0)
			score += 1000;
		if (rr_reads(j) && rr_writes(j))
			score += 0.5;
		if (score < best_score) {
			best_score = score;
			best = j;
		}
	}
	return best;
}
