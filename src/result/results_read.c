/* SPDX-License-Identifier: MIT */
/* Load several result files and pull per device and job metrics for charts and tables. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/log.h"
#include "core/util.h"
#include "result/result.h"
#include "result/results_read.h"

#define MOD "results"

double rr_num(json_t *obj, const char *key)
{
	json_t *v = obj ? json_object_get(obj, key) : NULL;

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static const char *str_or(json_t *obj, const char *key, const char *dflt)
{
	json_t *v = obj ? json_object_get(obj, key) : NULL;

	return json_is_string(v) ? json_string_value(v) : dflt;
}

/* result_load checks the file and its schema_version; charts also need the jobs. */
int rr_load_json(const char *path, json_t **out)
{
	json_t *root;
	int rc;

	rc = result_load(path, &root);
	if (rc)
		return rc;
	if (!json_is_array(json_object_get(root, "jobs"))) {
		log_err(MOD, "%s: no \"jobs\" array", path);
		json_decref(root);
		return -EINVAL;
	}
	*out = root;
	return 0;
}

static void percentiles(json_t *dir, struct rr_job *j)
{
	json_t *pct = json_object_get(json_object_get(dir, "clat_ns"), "percentile");

	j->p50_ns = rr_num(pct, "50.000000");
	j->p99_ns = rr_num(pct, "99.000000");
	j->p999_ns = rr_num(pct, "99.900000");
}

static void append_reason(struct rr_job *j, const char *text)
{
	size_t len = strlen(j->reasons);

	if (strstr(j->reasons, text))
		return;
	snprintf(j->reasons + len, sizeof(j->reasons) - len, "%s%s", len ? "; " : "", text);
}

static void parse_phases(json_t *jj, struct rr_job *j)
{
	static const char *const names[] = { "idle", "active", "tail" };
	json_t *ph = json_object_get(jj, "phases");
	size_t i;

	for (i = 0; i < 3; i++) {
		json_t *p = json_object_get(ph, names[i]);
		double s = rr_num(p, "t_start_ns"), e = rr_num(p, "t_end_ns");

		j->phase_ns[i][0] = isnan(s) ? 0 : (uint64_t)s;
		j->phase_ns[i][1] = isnan(e) ? 0 : (uint64_t)e;
	}
}

/*
 * Each loop of a job is reported, so each is charted and compared: a job that appears
 * more than once gets its loop number in its name ("RND4K-Q1T1-write #2").
 */
static void name_loops(struct rr_result *r)
{
	size_t i, k;

	for (i = 0; i < r->njobs; i++) {
		for (k = 0; k < r->njobs; k++)
			if (k != i && !strcmp(r->jobs[k].jobname, r->jobs[i].jobname))
				break;
		if (k == r->njobs)
			continue;
		r->jobs[i].name_buf = xasprintf("%s #%ld", r->jobs[i].jobname, r->jobs[i].loop);
		r->jobs[i].name = r->jobs[i].name_buf;
	}
}

static void parse_job(json_t *jj, struct rr_job *j)
{
	json_t *rd = json_object_get(jj, "read"), *wr = json_object_get(jj, "write");
	json_t *opt = json_object_get(jj, "options"), *pw = json_object_get(jj, "power");
	json_t *ef = json_object_get(jj, "efficiency"), *va = json_object_get(jj, "validity");
	json_t *ev = json_object_get(jj, "events"), *x;
	double r_ios, w_ios, v;
	size_t i;

	memset(j, 0, sizeof(*j));
	j->name = str_or(jj, "jobname", "?");
	j->jobname = j->name;
	v = rr_num(jj, "loop");
	j->loop = isnan(v) ? 1 : (long)v;
	j->status = str_or(jj, "status", "ok");
	j->options = opt;
	j->rw = str_or(opt, "rw", "?");
	v = rr_num(opt, "bs");
	j->bs = isnan(v) || v < 0 ? 0 : (uint64_t)v;
	v = rr_num(opt, "iodepth");
	j->iodepth = isnan(v) ? 1 : (long)v;
	v = rr_num(opt, "numjobs");
	j->numjobs = isnan(v) ? 1 : (long)v;
	j->writes = strstr(j->rw, "write") || !strcmp(j->rw, "randrw") || !strcmp(j->rw, "rw");
	j->reads = strstr(j->rw, "read") || !strcmp(j->rw, "randrw") || !strcmp(j->rw, "rw");

	r_ios = rr_num(rd, "total_ios");
	w_ios = rr_num(wr, "total_ios");
	r_ios = isnan(r_ios) ? 0 : r_ios;
	w_ios = isnan(w_ios) ? 0 : w_ios;
	j->total_ios = r_ios + w_ios;
	j->bw_bytes = fmax(0, rr_num(rd, "bw_bytes")) + fmax(0, rr_num(wr, "bw_bytes"));
	j->iops = fmax(0, rr_num(rd, "iops")) + fmax(0, rr_num(wr, "iops"));
	j->io_bytes = fmax(0, rr_num(rd, "io_bytes")) + fmax(0, rr_num(wr, "io_bytes"));
	j->runtime_ms = fmax(rr_num(rd, "runtime"), rr_num(wr, "runtime"));
	percentiles(w_ios > r_ios ? wr : rd, j);

	j->has_power = json_is_object(pw) && !isnan(rr_num(pw, "active_w"));
	j->idle_w = rr_num(pw, "idle_w");
	j->active_w = rr_num(pw, "active_w");
	j->active_ma = rr_num(pw, "active_ma");
	j->active_v = rr_num(pw, "active_v");
	j->peak_ma = rr_num(pw, "peak_ma");
	j->energy_active_j = rr_num(pw, "energy_active_j");
	j->energy_tail_j = rr_num(pw, "energy_tail_j");
	j->energy_net_j = rr_num(pw, "energy_net_j");
	j->iops_per_ma = rr_num(ef, "iops_per_ma");
	j->iops_per_w = rr_num(ef, "iops_per_w");
	j->mbps_per_w = rr_num(ef, "mbps_per_w");
	j->j_per_gb = rr_num(ef, "j_per_gb");
	j->j_per_gb_net = rr_num(ef, "j_per_gb_net");
	j->uj_per_io = rr_num(ef, "uj_per_io");
	j->uah_per_io = rr_num(ef, "uah_per_io");
	j->uah_per_mb = rr_num(ef, "uah_per_mb");
	j->meters = json_object_get(jj, "meters");

	x = json_object_get(va, "valid");
	j->valid = json_is_boolean(x) ? json_is_true(x) : -1;
	json_array_foreach(json_object_get(va, "reasons"), i, x)
		if (json_is_string(x))
			append_reason(j, json_string_value(x));
	j->events = json_is_array(ev) ? ev : NULL;
	json_array_foreach(ev, i, x) {
		const char *kind = str_or(x, "kind", "");

		if (!strcmp(kind, "undervoltage") || !strcmp(kind, "usb_disconnect") ||
		    !strcmp(kind, "usb_overcurrent"))
			append_reason(j, kind);
	}
	if (strcmp(j->status, "ok")) {
		append_reason(j, j->status);
		if (j->valid < 0)
			j->valid = 0;
	}
	parse_phases(json_object_get(jj, "phases") ? jj : NULL, j);
}

static void link_name(json_t *dev, char *buf, size_t len)
{
	json_t *usb = json_object_get(dev, "usb"), *pcie = json_object_get(dev, "pcie");
	json_t *mmc = json_object_get(dev, "mmc");
	const char *tr = str_or(dev, "transport", "");
	double gts, width;

	buf[0] = '\0';
	if (json_is_object(usb)) {
		snprintf(buf, len, "USB%s%s", json_is_string(json_object_get(usb, "speed")) ? " " : "",
			 str_or(usb, "speed", ""));
	} else if (json_is_object(pcie)) {
		gts = rr_num(pcie, "gen");
		if (isnan(gts)) {
			/* "8.0 GT/s PCIe" from sysfs current_link_speed: Gen from the rate. */
			gts = atof(str_or(pcie, "current_link_speed", str_or(pcie, "link_speed", "0")));
			gts = gts >= 32 ? 5 : gts >= 16 ? 4 : gts >= 8 ? 3 : gts >= 5 ? 2 : gts > 0 ? 1 : NAN;
		}
		width = rr_num(pcie, "current_link_width");
		if (isnan(width))
			width = rr_num(pcie, "link_width");
		if (!isnan(gts) && !isnan(width))
			snprintf(buf, len, "PCIe Gen%.0f x%.0f", gts, width);
		else if (!isnan(gts))
			snprintf(buf, len, "PCIe Gen%.0f", gts);
		else
			snprintf(buf, len, "PCIe");
	} else if (json_is_object(mmc)) {
		snprintf(buf, len, "%s", str_or(mmc, "type", "MMC"));
	} else if (*tr) {
		snprintf(buf, len, "%s", tr);
	}
}

static void describe(struct rr_result *r)
{
	json_t *ctx = json_object_get(r->root, "context"), *dev = json_object_get(ctx, "device");
	json_t *fs = json_object_get(ctx, "filesystem"), *m, *x = json_object_get(r->root, "emulated");
	const char *vendor = str_or(dev, "vendor", ""), *model = str_or(dev, "model", "");
	const char *opts = str_or(fs, "mount_options", ""), *p;
	static const char *const notable[] = { "noatime", "relatime", "discard", "sync", "data=" };
	char name[112];
	size_t i, len;

	snprintf(r->transport, sizeof(r->transport), "%s", str_or(dev, "transport", ""));
	link_name(dev, r->link, sizeof(r->link));
	if (*vendor && strncasecmp(model, vendor, strlen(vendor)))
		snprintf(name, sizeof(name), "%s %s", vendor, model);
	else
		snprintf(name, sizeof(name), "%s", *model ? model : str_or(dev, "name", ""));
	if (!*name) {
		p = strrchr(r->path, '/');
		snprintf(name, sizeof(name), "%s", p ? p + 1 : r->path);
	}
	if (*r->link)
		snprintf(r->label, sizeof(r->label), "%s (%s)", name, r->link);
	else
		snprintf(r->label, sizeof(r->label), "%s", name);

	snprintf(r->filesystem, sizeof(r->filesystem), "%s", str_or(fs, "type", "-"));
	for (i = 0; i < ARRAY_SIZE(notable); i++) {
		p = strstr(opts, notable[i]);
		len = strlen(r->filesystem);
		if (p && (p == opts || p[-1] == ',')) {
			size_t n = strcspn(p, ",");

			snprintf(r->filesystem + len, sizeof(r->filesystem) - len, " %.*s", (int)n, p);
		}
	}

	r->emulated = json_is_true(x);
	r->meter[0] = '\0';
	json_array_foreach(json_object_get(r->root, "meters"), i, m) {
		const char *drv = str_or(m, "driver", "?");

		len = strlen(r->meter);
		if (!strstr(r->meter, drv))
			snprintf(r->meter + len, sizeof(r->meter) - len, "%s%s", len ? "," : "", drv);
		r->emulated |= json_is_true(json_object_get(m, "emulated"));
		r->manual |= json_is_true(json_object_get(m, "manual"));
	}
	if (!r->meter[0])
		snprintf(r->meter, sizeof(r->meter), "none");
	x = json_object_get(r->root, "t0_ns");
	r->t0_ns = json_is_integer(x) ? (uint64_t)json_integer_value(x) : 0;
}

static int load_one(struct rr_result *r, const char *path)
{
	json_t *jobs, *jj;
	size_t i;
	int rc;

	memset(r, 0, sizeof(*r));
	r->path = xstrdup(path);
	rc = rr_load_json(path, &r->root);
	if (rc)
		return rc;
	jobs = json_object_get(r->root, "jobs");
	r->njobs = json_array_size(jobs);
	r->jobs = xcalloc(r->njobs ? r->njobs : 1, sizeof(*r->jobs));
	json_array_foreach(jobs, i, jj) {
		parse_job(jj, &r->jobs[i]);
		r->has_power |= r->jobs[i].has_power;
	}
	name_loops(r);
	describe(r);
	return 0;
}

static int apply_label(struct rr_result *r, char *const *labels, size_t nlabels)
{
	size_t i, n;
	const char *eq, *base;

	base = strrchr(r->path, '/');
	base = base ? base + 1 : r->path;
	for (i = 0; i < nlabels; i++) {
		eq = strchr(labels[i], '=');
		if (!eq)
			continue;
		n = (size_t)(eq - labels[i]);
		if ((n == strlen(r->path) && !strncmp(labels[i], r->path, n)) ||
		    (n == strlen(base) && !strncmp(labels[i], base, n))) {
			snprintf(r->label, sizeof(r->label), "%s", eq + 1);
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
		for (j = 0; j < set->res[i].njobs; j++)
			free(set->res[i].jobs[j].name_buf);
		free(set->res[i].path);
		free(set->res[i].jobs);
		json_decref(set->res[i].root);
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
		for (j = 0; j < set->res[i].njobs; j++) {
			const char *nm = set->res[i].jobs[j].name;

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

const struct rr_job *rr_find_job(const struct rr_result *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->njobs; i++)
		if (!strcmp(r->jobs[i].name, name))
			return &r->jobs[i];
	for (i = 0; i < r->njobs; i++)
		if (!strcmp(r->jobs[i].jobname, name))
			return &r->jobs[i];
	return NULL;
}

char *rr_companion_path(const struct rr_result *r, const char *kind)
{
	json_t *files = json_object_get(r->root, "files");
	const char *name = str_or(files, kind, NULL), *slash;
	size_t stem;

	slash = strrchr(r->path, '/');
	if (name && name[0] == '/')
		return xstrdup(name);
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

double rr_net_j_per_gb(const struct rr_job *j)
{
	if (!isnan(j->j_per_gb_net))
		return j->j_per_gb_net;
	if (!isnan(j->energy_net_j) && j->io_bytes > 0)
		return j->energy_net_j / (j->io_bytes / 1e9);
	return NAN;
}

double rr_net_j_per_io(const struct rr_job *j)
{
	if (!isnan(j->energy_net_j) && j->total_ios > 0)
		return j->energy_net_j / j->total_ios;
	return NAN;
}

/*
 * The job that models a direction: one that moves data that way, has power figures,
 * finished; valid before invalid; then the block size closest (in ratio) to want_bs;
 * then pure direction before mixed (randrw).
 */
const struct rr_job *rr_pick_job(const struct rr_result *r, int writes, uint64_t want_bs,
				 const char *force)
{
	const struct rr_job *best = NULL;
	double best_score = INFINITY;
	size_t i;

	for (i = 0; i < r->njobs; i++) {
		const struct rr_job *j = &r->jobs[i];
		double score;

		if (force) {
			/* "NAME #2" picks a loop; a plain NAME its first */
			if (!strcmp(j->name, force) || !strcmp(j->jobname, force))
				return j->has_power ? j : NULL;
			continue;
		}
		if (!j->has_power || strcmp(j->status, "ok") || !j->bs)
			continue;
		if (writes ? !j->writes : !j->reads)
			continue;
		score = fabs(log2((double)j->bs / (double)want_bs));
		if (j->valid == 0)
			score += 1000;
		if (j->reads && j->writes)
			score += 0.5;
		if (score < best_score) {
			best_score = score;
			best = j;
		}
	}
	return best;
}
