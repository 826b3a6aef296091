/* SPDX-License-Identifier: MIT */
/* Intel/AMD RAPL through powercap: power from the energy_uj counter, wrap-around handled. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/log.h"
#include "core/mem.h"
#include "meters/board/board.h"
#include "meters/board/board_meters.h"
#include "meters/transport/sysfs.h"

#define MOD "rapl"
#define RAPL_DIR "/sys/class/powercap"
#define RAPL_UJ_STEP_J 1e-6

struct rapl_priv {
	struct sysfs_poll poll; /* first: sysfs_poll_start() resets it */
	struct sysfs_attr energy;
	double range_uj;
};

/* The spec's keys (rapl_keys). */
struct rapl_args {
	uint64_t interval_ns;
};

static const struct opt_desc rapl_keys[] = {
	SYSFS_INTERVAL_KEY(offsetof(struct rapl_args, interval_ns), "100ms",
			   "time between reads of the energy counter"),
};

/* A zone by its directory name (intel-rapl:0) or its `name` (package-0, dram, psys). */
static int rapl_find(const char *root, const char *want, char *zone, size_t len)
{
	char path[300], name[64];
	char **z;
	int n, i, ret = -ENOENT;

	n = sysfs_list(root, RAPL_DIR, "intel-rapl:", &z);
	for (i = 0; i < n && ret; i++) {
		snprintf(path, sizeof(path), RAPL_DIR "/%s/name", z[i]);
		if (!strcmp(z[i], want) ||
		    (sysfs_read_str(root, path, name, sizeof(name)) == 0 && !strcmp(name, want))) {
			snprintf(zone, len, "%s", z[i]);
			ret = 0;
		}
	}
	sysfs_list_free(z, n);
	return ret;
}

static int rapl_open(struct meter_dev *dev, struct meter_info *info)
{
	char zone[64], path[400];
	struct rapl_priv *p;
	long long range;
	int ret;

	if (rapl_find(dev->sysfs_root, dev->conn, zone, sizeof(zone)) < 0) {
		log_err(MOD, "%s: no RAPL domain '%s' under %s (x86 only; try package-0)",
			dev->spec, dev->conn, RAPL_DIR);
		return -ENOENT;
	}
	snprintf(path, sizeof(path), RAPL_DIR "/%s/max_energy_range_uj", zone);
	if (sysfs_read_ll(dev->sysfs_root, path, &range) < 0 || range <= 0)
		range = 0;
	p = xcalloc(1, sizeof(*p));
	p->range_uj = (double)range;
	snprintf(path, sizeof(path), "%s" RAPL_DIR "/%s/energy_uj",
		 dev->sysfs_root ? dev->sysfs_root : "", zone);
	ret = sysfs_attr_open(&p->energy, path);
	if (ret == -EACCES)
		log_err(MOD, "%s: %s is readable by root only (since Linux 5.10, CVE-2020-8694)",
			dev->spec, path);
	else if (ret < 0)
		log_err(MOD, "%s: %s: %s", dev->spec, path, sysfs_attr_strerror(ret));
	if (ret < 0) {
		sysfs_attr_close(&p->energy);
		free(p);
		return ret;
	}
	p->poll.period_ns = info->period_ns = ((const struct rapl_args *)dev->args)->interval_ns;
	snprintf(info->model, sizeof(info->model), "RAPL %.24s (%.15s)", dev->conn, zone);
	/* Power is a 1 uJ counter's change over one interval: its step is 1 uJ / interval.
	 * Intel states no accuracy for RAPL. */
	meter_std_assumed_accuracy(info, 0, 0,
				   RAPL_UJ_STEP_J / ((double)info->period_ns / 1e9));
	info->board_level = 1;
	dev->priv = p;
	return 0;
}

static int rapl_read(struct meter_dev *dev, struct meter_sample *out, unsigned max, int timeout_ms)
{
	struct rapl_priv *p = dev->priv;
	long long uj;
	uint64_t t;
	int ret;

	if (!max || !sysfs_wait_tick(&p->poll.next_ns, p->poll.period_ns, timeout_ms))
		return 0;
	t = now_ns();
	ret = sysfs_attr_read_ll(&p->energy, &uj);
	if (ret == -EBADMSG) {
		METER_COUNT(dev->frames_bad);
		return 0;
	}
	if (ret < 0) {
		log_warn(MOD, "%s: energy_uj read failed", dev->spec);
		return -ENODEV;
	}
	if (!energy_rate_update(&p->poll.rate, t, (double)uj, p->range_uj, &out->w, &out->t_ns))
		return 0;
	out->v = NAN;
	out->a = NAN;
	out->flags = 0;
	return 1;
}

static void rapl_close(struct meter_dev *dev)
{
	struct rapl_priv *p = dev->priv;

	if (p)
		sysfs_attr_close(&p->energy);
	meter_std_free_priv(dev);
}

/* A zone without a readable name has no spec to paste: it is left out. */
static void rapl_show(FILE *out, const char *zone, const char *name)
{
	if (name)
		fprintf(out, "  RAPL %s (%s)\n      --meter rapl:%s\n", zone, name, name);
}

static void rapl_scan(const char *root, FILE *out)
{
	meter_std_scan_sysfs(root, RAPL_DIR, "intel-rapl:", "name", out, rapl_show);
}

const struct meter_driver meter_rapl = {
	.name = "rapl",
	.desc = "x86 RAPL energy counters (package-0, dram, psys); root only; no voltage",
	.conn = "a domain's name (package-0, dram, psys) or intel-rapl:N",
	.conn_rule = METER_CONN_REQUIRED,
	.example = "rapl:package-0",
	METER_KEYS(rapl_keys, struct rapl_args),
	.open = rapl_open,
	.start = sysfs_poll_start,
	.read = rapl_read,
	.close = rapl_close,
	.scan = rapl_scan,
};
