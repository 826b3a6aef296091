/* SPDX-License-Identifier: MIT */
/* Generic Linux hwmon meter: in/curr/power/energy inputs of one chip, polled at its rate. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/files.h"
#include "core/log.h"
#include "core/mem.h"
#include "meters/board/board.h"
#include "meters/board/board_meters.h"
#include "meters/ina-datasheet.h"
#include "meters/transport/sysfs.h"

#define MOD "hwmon"
#define HWMON_DEFAULT_NS (100 * NS_PER_MS)
#define HWMON_INDEX_MAX 255
#define HWMON_CHANNEL_MAX 999
/* hwmon units: mV, mA, uW */
#define MILLI 1e-3
#define MICRO 1e-6
#define UOHM_PER_OHM 1e6
/* Chips of the kernel's ina2xx driver: ina219, ina226, ina260... */
#define INA2XX_PREFIX "ina2"
/* The ina2xx driver's default shunt when none is configured, in uOhm. */
#define INA2XX_DEFAULT_SHUNT_UOHM 10000
/* Full-scale shunt drop the kernel's ina2xx driver leaves each chip at, volts. */
#define INA219_SHUNT_FS_V 0.32
#define INA226_SHUNT_FS_V 0.08192

enum { CH_IN, CH_CURR, CH_POWER, CH_ENERGY, CH_COUNT };

struct hwmon_priv {
	struct sysfs_poll poll; /* first: sysfs_poll_start() resets it */
	struct sysfs_attr ch[CH_COUNT]; /* fd -1 where the chip has no such input */
};

static void hwmon_close(struct meter_dev *dev);

/* The spec's keys (hwmon_keys): ch[] by enum, each meter_key_given() or not. */
struct hwmon_args {
	unsigned index;
	unsigned ch[CH_COUNT];
	uint64_t interval_ns; /* 0: not given */
	int supply;	      /* enum meter_supply, -1: not given */
};

#define HWMON_KEY(f) offsetof(struct hwmon_args, f)
#define HWMON_CHANNEL_KEY(k, c, what, dflt)                                               \
	{ .name = k, .type = OPT_UINT, .off = HWMON_KEY(ch[c]), .min = 0,                 \
	  .max = HWMON_CHANNEL_MAX, .help = "use " k "N_input for " what " (default: " dflt ")" }

static const struct opt_desc hwmon_keys[] = {
	{ .name = "index", .type = OPT_UINT, .off = HWMON_KEY(index), .def = "0", .min = 0,
	  .max = HWMON_INDEX_MAX, .help = "which of several chips with the same name, 0 first" },
	HWMON_CHANNEL_KEY("in", CH_IN, "volts", "in1 on ina2xx chips, else the lowest N"),
	HWMON_CHANNEL_KEY("curr", CH_CURR, "amps", "N=1 if present, else the lowest"),
	HWMON_CHANNEL_KEY("power", CH_POWER, "watts", "N=1 if present, else the lowest"),
	HWMON_CHANNEL_KEY("energy", CH_ENERGY, "energy", "N=1 if present, else the lowest"),
	SYSFS_INTERVAL_KEY(HWMON_KEY(interval_ns), NULL,
			   "time between reads (default: the chip's update_interval, else 100ms)"),
	METER_SUPPLY_KEY(HWMON_KEY(supply), NULL,
			 " (default: drive on ina2xx chips, board on others)"),
};

/*
 * Chips hwmon names whose datasheets give limits (TI: the INA219 senses 0-26 V, the
 * INA226 and INA260 0-36 V, the INA260 carries 15 A); the current of shunt-based chips
 * follows from the shunt_resistor attribute at open. Other chips: no limits known.
 */
static const struct meter_model hwmon_models[] = {
	{ .name = "ina219", .range = { 0, 26, NAN, NAN, NAN },
	  .source = "TI datasheet; A: +-320 mV/shunt_resistor" },
	{ .name = "ina226", .range = { 0, 36, NAN, NAN, NAN },
	  .source = "TI datasheet; A: +-81.92 mV/shunt_resistor" },
	{ .name = "ina260", .range = { 0, 36, -15, 15, 36 * 15 }, .source = "TI datasheet" },
};

/*
 * The lowest-numbered `<type>N_<suffix>` in dir, or the one the spec's key names. The
 * ina2xx family puts the shunt drop on in0 and the bus on in1: the bus is what we want.
 */
static int hwmon_pick(const struct meter_dev *dev, const char *dir, int ch, const char *type,
		      const char *suffix, int prefer, char *path, size_t len)
{
	const unsigned *field = &((const struct hwmon_args *)dev->args)->ch[ch];
	int want = meter_key_given(dev, field);
	long want_idx = want ? (long)*field : -1;
	char **names, fmt[32];
	int n, i, idx, best = -1, got;

	snprintf(fmt, sizeof(fmt), "%s%%d_%s%%n", type, suffix);
	n = sysfs_list("", dir, type, &names);
	for (i = 0; i < n; i++) {
		got = 0;
		if (sscanf(names[i], fmt, &idx, &got) != 1 || names[i][got])
			continue;
		if (want ? idx == want_idx : (best < 0 || idx == prefer || (best != prefer && idx < best)))
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

	ret = hwmon_pick(dev, dir, ch, type, "input", prefer, path, sizeof(path));
	if (!ret && ch == CH_POWER) /* some chips only export an averaged power */
		ret = hwmon_pick(dev, dir, ch, type, "average", prefer, path, sizeof(path));
	if (ret == -ENOENT) {
		log_err(MOD, "%s: %s=%u: no such input in %s", dev->spec, type,
			((const struct hwmon_args *)dev->args)->ch[ch], dir);
		return ret;
	}
	if (ret > 0) {
		ret = sysfs_attr_open(&p->ch[ch], path);
		if (ret < 0) {
			log_err(MOD, "%s: cannot use %s: %s", dev->spec, path,
				sysfs_attr_strerror(ret));
			return ret;
		}
	}
	return 0;
}

static int hwmon_open_all(struct meter_dev *dev, struct hwmon_priv *p, const char *dir,
			  const char *name)
{
	int ina = !strncmp(name, INA2XX_PREFIX, strlen(INA2XX_PREFIX)), ret;

	ret = hwmon_open_ch(dev, p, dir, CH_IN, "in", ina ? 1 : 0);
	if (!ret)
		ret = hwmon_open_ch(dev, p, dir, CH_CURR, "curr", 1);
	if (!ret)
		ret = hwmon_open_ch(dev, p, dir, CH_POWER, "power", 1);
	if (!ret)
		ret = hwmon_open_ch(dev, p, dir, CH_ENERGY, "energy", 1);
	if (!ret && p->ch[CH_POWER].fd < 0 && p->ch[CH_ENERGY].fd < 0 &&
	    (p->ch[CH_CURR].fd < 0 || p->ch[CH_IN].fd < 0)) {
		log_err(MOD, "%s: chip '%s' has no power, energy or voltage+current inputs",
			dev->spec, name);
		ret = -ENODEV;
	}
	return ret;
}

/* The chip's own update_interval unless the spec sets one. */
static uint64_t hwmon_period(const struct meter_dev *dev, const char *dir)
{
	uint64_t given_ns = ((const struct hwmon_args *)dev->args)->interval_ns;
	char path[512];
	long long v;

	snprintf(path, sizeof(path), "%s/update_interval", dir);
	if (!given_ns && read_int_file(path, &v) == 0 && v > 0)
		return (uint64_t)v * NS_PER_MS;
	return given_ns ? given_ns : HWMON_DEFAULT_NS;
}

/* hwmon's integer units (1 mV, 1 mA, 1 uW) are coarser than the chips' own steps on most
 * shunts and add nothing iowatt can see; the kernel's hwmon driver leaves an INA219 at
 * PGA /8. */
static const struct board_ina_sources hwmon_ina_sources = {
	.ina219 = "TI INA219 datasheet maxima at PGA /8, hwmon units",
	.ina226 = "TI INA226 datasheet maxima, hwmon units",
	.ina260 = "TI INA260 datasheet maxima, hwmon units",
};

/* The chip's datasheet range, the current limit from its shunt; a warning for the
 * driver's default shunt, which is 10x off on most INA219 boards. */
static void hwmon_range(const struct meter_dev *dev, const char *dir, const char *name,
			struct meter_info *info)
{
	const struct meter_model *m = meter_driver_model_by_name(dev->drv, name);
	char path[512];
	long long uohm;
	double fs_v = !strcmp(name, "ina219") ? INA219_SHUNT_FS_V :
		      !strcmp(name, "ina226") ? INA226_SHUNT_FS_V : 0;

	meter_std_range(info, m);
	meter_std_assumed_accuracy(info, MILLI, MILLI, MICRO);
	snprintf(path, sizeof(path), "%s/shunt_resistor", dir);
	if (read_int_file(path, &uohm) || uohm <= 0) {
		board_ina_accuracy(name, NAN, INA219_DS_OFFSET_PGA8_V, &hwmon_ina_sources,
				   &info->accuracy); /* the INA260 has its shunt inside */
		return;
	}
	board_ina_accuracy(name, (double)uohm / UOHM_PER_OHM, INA219_DS_OFFSET_PGA8_V,
			   &hwmon_ina_sources, &info->accuracy);
	if (uohm == INA2XX_DEFAULT_SHUNT_UOHM && !strncmp(name, INA2XX_PREFIX, strlen(INA2XX_PREFIX)))
		log_warn(MOD,
			 "%s: shunt_resistor is the driver's 10000 uOhm default; if your board has a 0.1 Ohm shunt, write 100000 to %s or every reading is 10x off",
			 dev->spec, path);
	if (m && fs_v > 0) {
		info->range.a_max = fs_v / ((double)uohm / UOHM_PER_OHM);
		info->range.a_min = -info->range.a_max;
		info->range.w_max = info->range.v_max * info->range.a_max;
	}
}

static int hwmon_open(struct meter_dev *dev, struct meter_info *info)
{
	const struct hwmon_args *a = dev->args;
	struct hwmon_priv *p;
	char dir[400], path[512], name[64];
	int ret, i;

	ret = sysfs_hwmon_find(dev->sysfs_root, dev->conn, (int)a->index, dir, sizeof(dir));
	if (ret < 0)
		return ret;
	snprintf(path, sizeof(path), "%s/name", dir);
	if (read_text_file(path, name, sizeof(name)) < 0)
		snprintf(name, sizeof(name), "?");
	p = xcalloc(1, sizeof(*p));
	for (i = 0; i < CH_COUNT; i++)
		p->ch[i].fd = -1;
	dev->priv = p;
	ret = hwmon_open_all(dev, p, dir, name);
	if (ret < 0) {
		hwmon_close(dev);
		return ret;
	}
	p->poll.period_ns = info->period_ns = hwmon_period(dev, dir);
	hwmon_range(dev, dir, name, info);
	/* an ina2xx sits on whatever rail it was wired to (supply= says which, the drive's
	 * unless told); other chips watch the board */
	info->board_level = a->supply >= 0
				    ? a->supply == METER_SUPPLY_BOARD
				    : strncmp(name, INA2XX_PREFIX, strlen(INA2XX_PREFIX)) != 0;
	snprintf(info->model, sizeof(info->model), "hwmon %.20s (%.16s)", name,
		 strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir);
	return 0;
}

static int hwmon_read(struct meter_dev *dev, struct meter_sample *out, unsigned max, int timeout_ms)
{
	struct hwmon_priv *p = dev->priv;
	long long raw[CH_COUNT] = { 0 };
	uint64_t t;
	int i, ret;

	if (!max || !sysfs_wait_tick(&p->poll.next_ns, p->poll.period_ns, timeout_ms))
		return 0;
	t = now_ns();
	for (i = 0; i < CH_COUNT; i++) {
		if (p->ch[i].fd < 0)
			continue;
		ret = sysfs_attr_read_ll(&p->ch[i], &raw[i]);
		if (ret == -EBADMSG) {
			METER_COUNT(dev->frames_bad);
			return 0;
		}
		if (ret < 0) {
			log_warn(MOD, "%s: read failed: the device went away", dev->spec);
			return -ENODEV;
		}
	}
	out->t_ns = t;
	out->flags = 0;
	out->v = p->ch[CH_IN].fd >= 0 ? raw[CH_IN] * MILLI : NAN;
	out->a = p->ch[CH_CURR].fd >= 0 ? raw[CH_CURR] * MILLI : NAN;
	if (p->ch[CH_POWER].fd >= 0) {
		out->w = raw[CH_POWER] * MICRO;
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

	if (p)
		sysfs_attr_close_all(p->ch, CH_COUNT);
	meter_std_free_priv(dev);
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
	.conn = "a chip's name (ina226) or /sys/class/hwmon/hwmonN",
	.conn_rule = METER_CONN_REQUIRED,
	.example = "hwmon:ina226",
	METER_KEYS(hwmon_keys, struct hwmon_args),
	METER_MODELS(hwmon_models),
	.open = hwmon_open,
	.start = sysfs_poll_start,
	.read = hwmon_read,
	.close = hwmon_close,
	.scan = hwmon_scan,
};
