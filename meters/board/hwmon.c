/* SPDX-License-Identifier: MIT */
/* Generic Linux hwmon meter: in/curr/power/energy inputs of one chip, polled at its rate. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/util.h"
#include "meters/board/board_meters.h"
#include "meters/transport/sysfs.h"

#define HWMON_DEFAULT_NS (100 * NS_PER_MS)

enum { CH_IN, CH_CURR, CH_POWER, CH_ENERGY, CH_COUNT };

struct hwmon_priv {
	struct sysfs_poll poll; /* first: sysfs_poll_start() resets it */
	struct sysfs_attr ch[CH_COUNT]; /* fd -1 where the chip has no such input */
};

static void hwmon_close(struct meter_dev *dev);

static const char *const hwmon_keys[] = { "index", "in", "curr", "power", "energy", "interval",
					  NULL };

/*
 * The lowest-numbered `<type>N_<suffix>` in dir, or the one the spec's key names. The
 * ina2xx family puts the shunt drop on in0 and the bus on in1: the bus is what we want.
 */
static int hwmon_pick(const struct meter_dev *dev, const char *dir, const char *type,
		      const char *suffix, int prefer, char *path, size_t len)
{
	const char *want = meter_param(dev, type);
	char **names, fmt[32];
	int n, i, idx, best = -1, got;

	snprintf(fmt, sizeof(fmt), "%s%%d_%s%%n", type, suffix);
	n = sysfs_list("", dir, type, &names);
	for (i = 0; i < n; i++) {
		got = 0;
		if (sscanf(names[i], fmt, &idx, &got) != 1 || names[i][got])
			continue;
		if (want ? idx == atoi(want) : (best < 0 || idx == prefer || (best != prefer && idx < best)))
			best = idx;
	}
	sysfs_list_free(names, n);
	if (best < 0)
		return want ? -ENOENT : 0;
	snprintf(path, len, "%s/%s%d_%s", dir, type, best, suffix);
	return 1;
}

static int hwmon_open_ch(struct meter_dev *dev, struct hwmon_priv *p, const char *dir, int ch,
			 const char *type, int prefer)
{
	char path[512];
	int ret;

	ret = hwmon_pick(dev, dir, type, "input", prefer, path, sizeof(path));
	if (!ret && ch == CH_POWER) /* some chips only export an averaged power */
		ret = hwmon_pick(dev, dir, type, "average", prefer, path, sizeof(path));
	if (ret == -ENOENT) {
		log_err("hwmon", "%s: %s=%s: no such input in %s", dev->spec, type,
			meter_param(dev, type), dir);
		return ret;
	}
	if (ret > 0) {
		ret = sysfs_attr_open(&p->ch[ch], path);
		if (ret < 0) {
			log_err("hwmon", "%s: cannot open %s: %s", dev->spec, path, strerror(-ret));
			return ret;
		}
	}
	return 0;
}

static int hwmon_open(struct meter_dev *dev)
{
	struct hwmon_priv *p;
	char dir[400], path[512], name[64];
	const char *idx = meter_param(dev, "index");
	long index = 0;
	long long v;
	int ret, i, ina;

	ret = meter_check_params(dev, hwmon_keys);
	if (ret < 0)
		return ret;
	if (idx && parse_int(idx, 0, 255, &index) < 0) {
		log_err("hwmon", "%s: index=%s is not a number from 0", dev->spec, idx);
		return -EINVAL;
	}
	ret = sysfs_hwmon_find(dev->sysfs_root, dev->conn, (int)index, dir, sizeof(dir));
	if (ret < 0)
		return ret;
	snprintf(path, sizeof(path), "%s/name", dir);
	if (read_text_file(path, name, sizeof(name)) < 0)
		snprintf(name, sizeof(name), "?");
	ina = !strncmp(name, "ina2", 4);
	p = xcalloc(1, sizeof(*p));
	for (i = 0; i < CH_COUNT; i++)
		p->ch[i].fd = -1;
	ret = hwmon_open_ch(dev, p, dir, CH_IN, "in", ina ? 1 : 0);
	if (!ret)
		ret = hwmon_open_ch(dev, p, dir, CH_CURR, "curr", 1);
	if (!ret)
		ret = hwmon_open_ch(dev, p, dir, CH_POWER, "power", 1);
	if (!ret)
		ret = hwmon_open_ch(dev, p, dir, CH_ENERGY, "energy", 1);
	if (!ret && p->ch[CH_POWER].fd < 0 && p->ch[CH_ENERGY].fd < 0 &&
	    (p->ch[CH_CURR].fd < 0 || p->ch[CH_IN].fd < 0)) {
		log_err("hwmon", "%s: chip '%s' has no power, energy or voltage+current inputs",
			dev->spec, name);
		ret = -ENODEV;
	}
	snprintf(path, sizeof(path), "%s/update_interval", dir);
	if (!ret && !meter_param(dev, "interval") && read_int_file(path, &v) == 0 && v > 0)
		dev->period_ns = (uint64_t)v * NS_PER_MS;
	else if (!ret)
		ret = sysfs_interval(dev->spec, meter_param(dev, "interval"), HWMON_DEFAULT_NS,
				     &dev->period_ns);
	if (ret < 0) {
		dev->priv = p;
		hwmon_close(dev);
		return ret;
	}
	snprintf(path, sizeof(path), "%s/shunt_resistor", dir);
	if (ina && read_int_file(path, &v) == 0 && v == 10000)
		log_warn("hwmon",
			 "%s: shunt_resistor is the driver's 10000 uOhm default; if your board has a 0.1 Ohm shunt, write 100000 to %s or every reading is 10x off",
			 dev->spec, path);
	snprintf(dev->model, sizeof(dev->model), "hwmon %.20s (%.16s)", name,
		 strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir);
	dev->priv = p;
	return 0;
}

static int hwmon_read(struct meter_dev *dev, struct meter_sample *out, unsigned max, int timeout_ms)
{
	struct hwmon_priv *p = dev->priv;
	long long raw[CH_COUNT] = { 0 };
	uint64_t t;
	int i, ret;

	if (!max || !sysfs_wait_tick(&p->poll.next_ns, dev->period_ns, timeout_ms))
		return 0;
	t = now_ns();
	for (i = 0; i < CH_COUNT; i++) {
		if (p->ch[i].fd < 0)
			continue;
		ret = sysfs_attr_read_ll(&p->ch[i], &raw[i]);
		if (ret < 0) {
			log_warn("hwmon", "%s: read failed: the device went away", dev->spec);
			return -ENODEV;
		}
	}
	out->t_ns = t;
	out->flags = 0;
	out->v = p->ch[CH_IN].fd >= 0 ? raw[CH_IN] * 1e-3 : NAN;
	out->a = p->ch[CH_CURR].fd >= 0 ? raw[CH_CURR] * 1e-3 : NAN;
	if (p->ch[CH_POWER].fd >= 0) {
		out->w = raw[CH_POWER] * 1e-6;
	} else if (p->ch[CH_CURR].fd >= 0 && p->ch[CH_IN].fd >= 0) {
		out->w = out->v * out->a;
		out->flags |= SAMPLE_W_COMPUTED;
	} else if (!energy_rate_update(&p->poll.rate, t, (double)raw[CH_ENERGY], 0, &out->w,
				       &out->t_ns)) {
		return 0; /* the first energy reading only starts the derivative */
	}
	return 1;
}

static void hwmon_close(struct meter_dev *dev)
{
	struct hwmon_priv *p = dev->priv;

	if (!p)
		return;
	sysfs_attr_close_all(p->ch, CH_COUNT);
	free(p);
	dev->priv = NULL;
}

static void hwmon_scan(const char *root, FILE *out)
{
	static const char *const types[] = { "in", "curr", "power", "energy" };
	char path[300], name[64], other[64], list[200], idx[24];
	char **chips, **files;
	int n, i, nf, j, k;

	n = sysfs_list(root, "/sys/class/hwmon", "hwmon", &chips);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "/sys/class/hwmon/%s/name", chips[i]);
		if (sysfs_read_str(root, path, name, sizeof(name)) < 0)
			continue;
		snprintf(path, sizeof(path), "/sys/class/hwmon/%s", chips[i]);
		nf = sysfs_list(root, path, "", &files);
		list[0] = 0;
		for (j = 0; j < nf; j++)
			for (k = 0; k < 4; k++)
				if (!strncmp(files[j], types[k], strlen(types[k])) &&
				    (strstr(files[j], "_input") || strstr(files[j], "_average")) &&
				    strlen(list) + strlen(files[j]) + 2 < sizeof(list))
					snprintf(list + strlen(list), sizeof(list) - strlen(list),
						 "%s%s", list[0] ? " " : "", files[j]);
		sysfs_list_free(files, nf);
		if (!list[0])
			continue;
		/* a second chip of the same name needs index= in its spec */
		for (j = 0, k = 0; j < i; j++) {
			snprintf(path, sizeof(path), "/sys/class/hwmon/%s/name", chips[j]);
			if (sysfs_read_str(root, path, other, sizeof(other)) == 0 && !strcmp(other, name))
				k++;
		}
		if (k)
			snprintf(idx, sizeof(idx), ",index=%d", k);
		else
			idx[0] = 0;
		fprintf(out, "  hwmon %s (%s): %s\n      --meter hwmon:%s%s\n", chips[i], name, list,
			name, idx);
	}
	sysfs_list_free(chips, n);
}

const struct meter_driver meter_hwmon = {
	.name = "hwmon",
	.desc = "Linux hwmon chip by name or path (ina2xx, SoC monitors): in/curr/power/energy",
	.open = hwmon_open, .start = sysfs_poll_start, .read = hwmon_read,
	.close = hwmon_close, .scan = hwmon_scan,
};
