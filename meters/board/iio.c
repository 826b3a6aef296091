/* SPDX-License-Identifier: MIT */
/* Linux IIO meter: an ina2xx-adc (or any IIO power monitor) by name or index, buffered or polled. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/files.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/sysfs.h"
#include "meters/board/board.h"
#include "meters/board/board_meters.h"
#include "meters/board/iio_priv.h"
#include "meters/ina-datasheet.h"

#define MOD "iio"
#define IIO_DEVICES "/sys/bus/iio/devices"
#define IIO_ENTRY "iio:device"
#define IIO_INDEX_MAX 255
#define IIO_CHANNEL_MAX 99
#define IIO_DEFAULT_NS (100 * NS_PER_MS)
#define IIO_BUFFER_SCANS_DEF "4096"
#define INA2XX_PREFIX "ina2"
/* The kernel's ina2xx-adc numbers its channels so: in_voltage0 is the shunt drop. */
#define INA2XX_BUS_CH 1
#define INA2XX_POWER_CH 2
#define INA2XX_CURRENT_CH 3
/* Full-scale shunt drop, volts: the INA226's, and the INA219's at PGA /1 (hardwaregain 1). */
#define INA226_SHUNT_FS_V 0.08192
#define INA219_SHUNT_FS_PGA1_V 0.04
#define MILLI 1e-3

static const char *const q_type[IIO_Q_COUNT] = { "voltage", "current", "power" };

struct iio_args {
	unsigned index;
	unsigned ch[IIO_Q_COUNT];
	int mode; /* enum iio_mode */
	char *chardev; /* NULL: /dev/iio:deviceN under the sysfs root */
	uint64_t interval_ns; /* 0: not given */
	unsigned buffer_scans;
	int supply;
};

static const struct opt_choice iio_modes[] = {
	{ "auto", "the buffer where the device has one, else polled reads" },
	{ "buffer", "buffered capture with the kernel's timestamps, or fail" },
	{ "poll", "read the _raw attributes every interval" },
	{ NULL, NULL },
};

#define IIO_KEY(f) offsetof(struct iio_args, f)
#define IIO_CHANNEL_KEY(k, q, what, dflt)                                                    \
	{ .name = k, .type = OPT_UINT, .off = IIO_KEY(ch[q]), .min = 0, .max = IIO_CHANNEL_MAX, \
	  .help = "use in_" what "N for the " k " (default: " dflt ")" }

static const struct opt_desc iio_keys[] = {
	{ .name = "index", .type = OPT_UINT, .off = IIO_KEY(index), .def = "0", .min = 0,
	  .max = IIO_INDEX_MAX, .help = "which of several devices with the same name, 0 first" },
	IIO_CHANNEL_KEY("v", IIO_Q_V, "voltage", "1 on ina2xx, the bus; else the lowest N"),
	IIO_CHANNEL_KEY("a", IIO_Q_A, "current", "3 on ina2xx, else the lowest N"),
	IIO_CHANNEL_KEY("w", IIO_Q_W, "power", "2 on ina2xx, else the lowest N"),
	{ .name = "mode", .type = OPT_ENUM, .off = IIO_KEY(mode), .def = "auto",
	  .choices = iio_modes, .help = "how samples are read" },
	{ .name = "chardev", .type = OPT_STRP, .off = IIO_KEY(chardev), .metavar = "PATH",
	  .complete = "file", .help = "the buffer's char device (default: /dev/iio:deviceN)" },
	{ .name = "buffer", .type = OPT_UINT, .off = IIO_KEY(buffer_scans),
	  .def = IIO_BUFFER_SCANS_DEF, .min = 2, .max = 1u << 20,
	  .help = "the kernel buffer's length in scans" },
	SYSFS_INTERVAL_KEY(IIO_KEY(interval_ns), NULL,
			   "polled mode: time between reads (default: 1/in_sampling_frequency, else 100ms)"),
	METER_SUPPLY_KEY(IIO_KEY(supply), NULL, " (default: drive)"),
};

/* TI's ranges (INA219 0-26 V, INA226 0-36 V); current follows from the shunt at open. */
static const struct meter_model iio_models[] = {
	{ .name = "ina219", .range = { 0, 26, NAN, NAN, NAN },
	  .source = "TI datasheet; A: shunt full scale/in_shunt_resistor" },
	{ .name = "ina226", .range = { 0, 36, NAN, NAN, NAN },
	  .source = "TI datasheet; A: +-81.92 mV/in_shunt_resistor" },
};

static void iio_close(struct meter_dev *dev);

/* The device's directory: "iio:deviceN", a /sys path, or the index-th device of that name. */
static int iio_find(const struct meter_dev *dev, unsigned index, char *dir, size_t len)
{
	char path[300], name[64], **ents;
	unsigned seen = 0;
	int n, i, found = -1;

	if (!strncmp(dev->conn, "/sys/", 5))
		return sysfs_path(dev->sysfs_root, dev->conn, dir, len) ? -ENAMETOOLONG
			: sysfs_exists(dev->sysfs_root, dev->conn) ? 0 : -ENOENT;
	n = sysfs_list(dev->sysfs_root, IIO_DEVICES, IIO_ENTRY, &ents);
	for (i = 0; i < n && found < 0; i++) {
		snprintf(path, sizeof(path), IIO_DEVICES "/%s/name", ents[i]);
		if (!strcmp(dev->conn, ents[i]) ||
		    (sysfs_read_str(dev->sysfs_root, path, name, sizeof(name)) == 0 &&
		     !strcmp(name, dev->conn) && seen++ == index))
			found = i;
	}
	if (found >= 0) {
		snprintf(path, sizeof(path), IIO_DEVICES "/%s", ents[found]);
		sysfs_path(dev->sysfs_root, path, dir, len);
	}
	sysfs_list_free(ents, n);
	if (found < 0)
		log_err(MOD, "%s: no IIO device '%s' (index %u) under %s%s; `iowatt meters` lists them",
			dev->spec, dev->conn, index, dev->sysfs_root ? dev->sysfs_root : "", IIO_DEVICES);
	return found < 0 ? -ENOENT : 0;
}

/* A number from the device's attribute rel: 0, or -ENOENT / -EBADMSG. */
static int read_num(const struct iio_priv *p, const char *rel, double *out)
{
	char path[IIO_DIR_LEN + 64], buf[64], *end;

	snprintf(path, sizeof(path), "%s/%s", p->dir, rel);
	if (read_text_file(path, buf, sizeof(buf)) < 0)
		return -ENOENT;
	*out = strtod(buf, &end);
	return end == buf ? -EBADMSG : 0;
}

/* The channel a key names, the ina2xx-adc's, or the lowest in_<type>N_raw there is. */
static int pick_channel(struct meter_dev *dev, struct iio_priv *p, int q)
{
	const struct iio_args *a = dev->args;
	static const unsigned ina_ch[IIO_Q_COUNT] = { INA2XX_BUS_CH, INA2XX_CURRENT_CH,
						      INA2XX_POWER_CH };
	struct iio_chan *c = &p->q[q];
	char fmt[32], rel[64], **names;
	int n, i, got, best = -1, want = meter_key_given(dev, &a->ch[q]);
	unsigned idx;

	snprintf(fmt, sizeof(fmt), "in_%s%%u_raw%%n", q_type[q]);
	n = sysfs_list("", p->dir, "in_", &names);
	for (i = 0; i < n; i++) {
		got = 0;
		if (sscanf(names[i], fmt, &idx, &got) != 1 || names[i][got])
			continue;
		if (want ? idx == a->ch[q] : p->ina2xx ? idx == ina_ch[q] : (best < 0 || (int)idx < best))
			best = (int)idx;
	}
	sysfs_list_free(names, n);
	if (best < 0 && want) {
		log_err(MOD, "%s: %s=%u: no in_%s%u_raw in %s", dev->spec, q ? q_type[q] : "v",
			a->ch[q], q_type[q], a->ch[q], p->dir);
		return -ENOENT;
	}
	if (best < 0)
		return 0;
	c->present = 1;
	c->ch = (unsigned)best;
	snprintf(rel, sizeof(rel), "in_%s%u_scale", q_type[q], c->ch);
	if (read_num(p, rel, &c->scale)) {
		snprintf(rel, sizeof(rel), "in_%s_scale", q_type[q]); /* shared by the type */
		if (read_num(p, rel, &c->scale))
			c->scale = 1;
	}
	snprintf(rel, sizeof(rel), "in_%s%u_offset", q_type[q], c->ch);
	if (read_num(p, rel, &c->offset))
		c->offset = 0;
	return 0;
}

static int open_polled(struct meter_dev *dev, struct iio_priv *p)
{
	char path[IIO_DIR_LEN + 64];
	int i, ret;

	for (i = 0; i < IIO_Q_COUNT; i++) {
		if (!p->q[i].present)
			continue;
		snprintf(path, sizeof(path), "%s/in_%s%u_raw", p->dir, q_type[i], p->q[i].ch);
		ret = sysfs_attr_open(&p->q[i].raw, path);
		if (ret < 0) {
			log_err(MOD, "%s: cannot use %s: %s", dev->spec, path, sysfs_attr_strerror(ret));
			return ret;
		}
	}
	return 0;
}

/*
 * The kernel driver's shunt: in_shunt_resistor reads ohms ("0.010000") since the driver
 * took fractions, micro-ohms ("10000") before. NAN where absent.
 */
static double shunt_ohm(const struct iio_priv *p)
{
	char path[IIO_DIR_LEN + 32], buf[32];
	double v;

	snprintf(path, sizeof(path), "%s/in_shunt_resistor", p->dir);
	if (read_text_file(path, buf, sizeof(buf)) < 0 || !(v = strtod(buf, NULL)) || v < 0)
		return NAN;
	return strchr(buf, '.') ? v : v * 1e-6;
}

static const struct board_ina_sources iio_ina_sources = {
	.ina219 = "TI INA219 datasheet maxima at the PGA in_voltage0_hardwaregain says; "
		  "noise 1 step assumed",
	.ina226 = "TI INA226 datasheet maxima; noise 1 step assumed",
	.ina260 = "TI INA260 datasheet maxima",
};

/*
 * Range and accuracy: TI's figures for ina219/ina226 with the shunt the driver was given;
 * the steps are the channels' scales (the current's is the shunt register's step over the
 * shunt, finer than hwmon's 1 mA), their noise one step over the averaging's root.
 */
static void iio_describe(const struct meter_dev *dev, const struct iio_priv *p, const char *name,
			 struct meter_info *info)
{
	const struct meter_model *m = meter_driver_model_by_name(dev->drv, name);
	struct meter_accuracy *acc = &info->accuracy;
	double ohm = shunt_ohm(p), gain = NAN, avg = 1, fs_v = NAN, off219;
	int is219 = !strcmp(name, "ina219");

	meter_std_range(info, m);
	meter_std_assumed_accuracy(info, p->q[IIO_Q_V].scale * MILLI, p->q[IIO_Q_A].scale * MILLI,
				   p->q[IIO_Q_W].scale * MILLI);
	read_num(p, "in_oversampling_ratio", &avg);
	read_num(p, "in_voltage0_hardwaregain", &gain);
	/* the INA219's PGA: hardwaregain 1, 0.5, 0.25, 0.125 is 40, 80, 160, 320 mV */
	off219 = gain >= 0.99 ? INA219_DS_OFFSET_PGA1_V : gain >= 0.49 ? INA219_DS_OFFSET_PGA2_V
		 : gain >= 0.24 ? INA219_DS_OFFSET_PGA4_V : INA219_DS_OFFSET_PGA8_V;
	if (is219)
		fs_v = INA219_SHUNT_FS_PGA1_V / (gain > 0 ? gain : 0.125);
	else if (!strcmp(name, "ina226"))
		fs_v = INA226_SHUNT_FS_V;
	board_ina_accuracy(name, ohm, off219, &iio_ina_sources, acc);
	if (acc->source && !strncmp(acc->source, "TI", 2)) {
		acc->a.resolution = p->q[IIO_Q_A].present ? p->q[IIO_Q_A].scale * MILLI : 0;
		acc->v.resolution = p->q[IIO_Q_V].present ? p->q[IIO_Q_V].scale * MILLI : 0;
		acc->w.resolution = p->q[IIO_Q_W].present ? p->q[IIO_Q_W].scale * MILLI : 0;
		acc->a.noise = acc->a.resolution / sqrt(avg >= 1 ? avg : 1);
		acc->v.noise = acc->v.resolution / sqrt(avg >= 1 ? avg : 1);
	}
	if (m && ohm > 0 && fs_v > 0) {
		info->range.a_max = fs_v / ohm;
		info->range.a_min = -info->range.a_max;
		info->range.w_max = info->range.v_max * info->range.a_max;
		info->signed_q |= METER_SIGNED_A | METER_SIGNED_W;
	}
}

static int iio_open(struct meter_dev *dev, struct meter_info *info)
{
	const struct iio_args *a = dev->args;
	struct iio_priv *p;
	char name[64], path[IIO_DIR_LEN + 16], *slash;
	double hz = 0, hz_ns;
	int ret, i;

	p = xcalloc(1, sizeof(*p));
	p->fd = -1;
	for (i = 0; i < IIO_Q_COUNT; i++)
		p->q[i].raw.fd = -1;
	dev->priv = p;
	ret = iio_find(dev, a->index, p->dir, sizeof(p->dir));
	snprintf(path, sizeof(path), "%s/name", p->dir);
	if (!ret && read_text_file(path, name, sizeof(name)) < 0)
		snprintf(name, sizeof(name), "?");
	p->ina2xx = !ret && !strncmp(name, INA2XX_PREFIX, strlen(INA2XX_PREFIX));
	for (i = 0; !ret && i < IIO_Q_COUNT; i++)
		ret = pick_channel(dev, p, i);
	if (!ret && !p->q[IIO_Q_W].present && !(p->q[IIO_Q_V].present && p->q[IIO_Q_A].present)) {
		log_err(MOD, "%s: device '%s' has no power or voltage+current channels", dev->spec,
			name);
		ret = -ENODEV;
	}
	if (ret < 0)
		goto err;
	slash = strrchr(p->dir, '/');
	if (a->chardev)
		snprintf(p->chardev, sizeof(p->chardev), "%s", a->chardev);
	else
		snprintf(path, sizeof(path), "/dev/%s", slash ? slash + 1 : p->dir),
			sysfs_path(dev->sysfs_root, path, p->chardev, sizeof(p->chardev));
	p->buffered = a->mode == IIO_MODE_BUFFER ||
		      (a->mode == IIO_MODE_AUTO && iio_buffer_available(p));
	if (a->mode == IIO_MODE_BUFFER && !iio_buffer_available(p)) {
		log_err(MOD, "%s: mode=buffer, but %s has no buffer for these channels or %s is missing",
			dev->spec, p->dir, p->chardev);
		ret = -ENODEV;
		goto err;
	}
	if (!p->buffered && (ret = open_polled(dev, p)) < 0)
		goto err;
	read_num(p, "in_sampling_frequency", &hz);
	/* a period the sysfs interval's range holds, else the default (1e-30 Hz: no uint64_t) */
	hz_ns = hz > 0 ? (double)NS_PER_SEC / hz : 0;
	info->period_ns = a->interval_ns ? a->interval_ns
			  : hz_ns >= 1 && hz_ns <= (double)SYSFS_INTERVAL_MAX_NS ? (uint64_t)hz_ns
										 : IIO_DEFAULT_NS;
	if (!p->buffered && !a->interval_ns && info->period_ns < SYSFS_INTERVAL_MIN_NS)
		info->period_ns = SYSFS_INTERVAL_MIN_NS; /* sysfs reads cannot keep up beyond */
	p->poll.period_ns = info->period_ns;
	iio_describe(dev, p, name, info);
	info->board_level = a->supply == METER_SUPPLY_BOARD;
	snprintf(info->model, sizeof(info->model), "IIO %.12s (%.14s, %s)", name,
		 slash ? slash + 1 : p->dir, p->buffered ? "buffered" : "polled");
	return 0;
err:
	iio_close(dev);
	return ret;
}

static int iio_start(struct meter_dev *dev)
{
	struct iio_priv *p = dev->priv;

	sysfs_poll_start(dev);
	return p->buffered ? iio_buffer_start(dev, ((const struct iio_args *)dev->args)->buffer_scans)
			   : 0;
}

static void iio_stop(struct meter_dev *dev)
{
	struct iio_priv *p = dev->priv;

	if (p && p->buffered)
		iio_buffer_stop(dev);
}

static int iio_read_polled(struct meter_dev *dev, struct meter_sample *out, unsigned max,
			   int timeout_ms)
{
	struct iio_priv *p = dev->priv;
	double x[IIO_Q_COUNT];
	long long raw;
	int i, ret;

	if (!max || !sysfs_wait_tick(&p->poll.next_ns, p->poll.period_ns, timeout_ms))
		return 0;
	memset(out, 0, sizeof(*out));
	out->t_ns = now_ns();
	for (i = 0; i < IIO_Q_COUNT; i++) {
		x[i] = NAN;
		if (!p->q[i].present)
			continue;
		ret = sysfs_attr_read_ll(&p->q[i].raw, &raw);
		if (ret == -EBADMSG) {
			METER_COUNT(dev->frames_bad);
			return 0;
		}
		if (ret < 0) {
			log_warn(MOD, "%s: read failed: the device went away", dev->spec);
			return -ENODEV;
		}
		x[i] = iio_chan_value(&p->q[i], raw) * MILLI;
	}
	out->v = x[IIO_Q_V];
	out->a = x[IIO_Q_A];
	out->w = x[IIO_Q_W];
	if (isnan(out->w)) {
		out->w = out->v * out->a;
		out->flags |= SAMPLE_W_COMPUTED;
	}
	return 1;
}

static int iio_read(struct meter_dev *dev, struct meter_sample *out, unsigned max, int timeout_ms)
{
	struct iio_priv *p = dev->priv;

	return p->buffered ? iio_buffer_read(dev, out, max, timeout_ms)
			   : iio_read_polled(dev, out, max, timeout_ms);
}

static void iio_close(struct meter_dev *dev)
{
	struct iio_priv *p = dev->priv;
	int i;

	if (p) {
		iio_stop(dev);
		if (p->fd >= 0)
			close(p->fd);
		for (i = 0; i < IIO_Q_COUNT; i++)
			sysfs_attr_close(&p->q[i].raw);
	}
	meter_std_free_priv(dev);
}

static void iio_show(FILE *out, const char *entry, const char *name)
{
	fprintf(out, "  iio %s (%s)\n      --meter iio:%s\n", entry, name ? name : "?", entry);
}

static void iio_scan(const char *root, FILE *out)
{
	meter_std_scan_sysfs(root, IIO_DEVICES, IIO_ENTRY, "name", out, iio_show);
}

const struct meter_driver meter_iio = {
	.name = "iio",
	.desc = "Linux IIO power monitor (ina2xx-adc: INA219/226...): buffered with timestamps, or polled",
	.conn = "a device's name (ina226), iio:deviceN or its /sys/bus/iio/devices path",
	.conn_rule = METER_CONN_REQUIRED,
	.example = "iio:ina226",
	METER_KEYS(iio_keys, struct iio_args),
	METER_MODELS(iio_models),
	.open = iio_open,
	.start = iio_start,
	.read = iio_read,
	.stop = iio_stop,
	.close = iio_close,
	.scan = iio_scan,
};
