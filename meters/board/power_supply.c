/* SPDX-License-Identifier: MIT */
/* Linux power_supply class meter (batteries, USB-PD, UPS): voltage, current, power, energy. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "core/clock.h"
#include "core/log.h"
#include "core/mem.h"
#include "meters/board/board.h"
#include "meters/board/board_meters.h"
#include "meters/transport/sysfs.h"

#define MOD "power_supply"
/* power_supply units: uV, uA, uW, uWh */
#define MICRO 1e-6
#define S_PER_H 3600.0

enum { PSY_V, PSY_A, PSY_W, PSY_E, PSY_COUNT };
static const char *const psy_attr[PSY_COUNT] = { "voltage_now", "current_now", "power_now",
						 "energy_now" };

/*
 * Sign: drivers disagree on the direction of battery current (many report discharge as
 * negative, some positive). By default we report the magnitude of the flow, which is the
 * draw for a battery that powers the board. sign=raw keeps the driver's sign, sign=invert
 * flips it (for a charger whose input you meter).
 */
enum { SIGN_ABS, SIGN_RAW, SIGN_INVERT };

struct psy_priv {
	struct sysfs_poll poll; /* first: sysfs_poll_start() resets it */
	struct sysfs_attr at[PSY_COUNT];
	int sign;
};

/* sign=: an index of these; auto and abs are one. */
enum { KEY_AUTO, KEY_ABS, KEY_RAW, KEY_INVERT };
static const struct opt_choice psy_sign_names[] = {
	{ "auto", NULL }, { "abs", NULL }, { "raw", NULL }, { "invert", NULL }, { NULL, NULL },
};

/* The spec's keys (psy_keys). */
struct psy_args {
	int sign;
	uint64_t interval_ns;
};

static const struct opt_desc psy_keys[] = {
	{ .name = "sign", .type = OPT_ENUM, .off = offsetof(struct psy_args, sign), .def = "auto",
	  .choices = psy_sign_names,
	  .help = "auto/abs: the draw's magnitude; raw: the driver's sign; invert: flipped" },
	/* Fuel gauges refresh every few hundred ms to seconds; faster only repeats values. */
	SYSFS_INTERVAL_KEY(offsetof(struct psy_args, interval_ns), "500ms", "time between reads"),
};

static void psy_close(struct meter_dev *dev);

static double psy_signed(const struct psy_priv *p, double x)
{
	if (p->sign == SIGN_ABS)
		return fabs(x);
	return p->sign == SIGN_INVERT ? -x : x;
}

static int psy_open(struct meter_dev *dev, struct meter_info *info)
{
	const struct psy_args *a = dev->args;
	char path[400], type[32];
	struct psy_priv *p;
	int ret = 0, i;

	snprintf(path, sizeof(path), "/sys/class/power_supply/%s/type", dev->conn);
	if (sysfs_read_str(dev->sysfs_root, path, type, sizeof(type)) < 0) {
		log_err(MOD, "%s: no power supply '%s' in /sys/class/power_supply", dev->spec,
			dev->conn);
		return -ENOENT;
	}
	p = xcalloc(1, sizeof(*p));
	dev->priv = p;
	p->sign = a->sign == KEY_RAW ? SIGN_RAW : a->sign == KEY_INVERT ? SIGN_INVERT : SIGN_ABS;
	for (i = 0; i < PSY_COUNT; i++) {
		snprintf(path, sizeof(path), "%s/sys/class/power_supply/%s/%s",
			 dev->sysfs_root ? dev->sysfs_root : "", dev->conn, psy_attr[i]);
		p->at[i].fd = -1;
		/* a missing attribute is normal (the checks below); a broken one is not */
		if (sysfs_attr_open(&p->at[i], path) == -EBADMSG) {
			log_err(MOD, "%s: cannot use %s: %s", dev->spec, path,
				sysfs_attr_strerror(-EBADMSG));
			ret = -EINVAL;
		}
	}
	if (!ret && p->at[PSY_W].fd < 0 && p->at[PSY_E].fd < 0 &&
	    (p->at[PSY_V].fd < 0 || p->at[PSY_A].fd < 0)) {
		log_err(MOD, "%s: '%s' reports no power_now, energy_now or voltage_now+current_now",
			dev->spec, dev->conn);
		ret = -ENODEV;
	}
	if (ret < 0) {
		psy_close(dev);
		return ret;
	}
	p->poll.period_ns = info->period_ns = a->interval_ns;
	snprintf(info->model, sizeof(info->model), "power_supply %.15s (%.15s)", dev->conn, type);
	/* the ABI's units: uV, uA, uW; fuel gauges publish no accuracy iowatt could use */
	meter_std_assumed_accuracy(info, MICRO, MICRO, MICRO);
	info->board_level = 1;
	return 0;
}

static int psy_read(struct meter_dev *dev, struct meter_sample *out, unsigned max, int timeout_ms)
{
	struct psy_priv *p = dev->priv;
	long long raw[PSY_COUNT] = { 0 };
	uint64_t t;
	int i;

	if (!max || !sysfs_wait_tick(&p->poll.next_ns, p->poll.period_ns, timeout_ms))
		return 0;
	t = now_ns();
	for (i = 0; i < PSY_COUNT; i++) {
		int ret = p->at[i].fd >= 0 ? sysfs_attr_read_ll(&p->at[i], &raw[i]) : 0;

		if (ret == -EBADMSG) {
			METER_COUNT(dev->frames_bad);
			return 0;
		}
		if (ret < 0) {
			log_warn(MOD, "%s: read of %s failed: the supply went away",
				 dev->spec, psy_attr[i]);
			return -ENODEV;
		}
	}
	out->t_ns = t;
	out->flags = 0;
	out->v = p->at[PSY_V].fd >= 0 ? raw[PSY_V] * MICRO : NAN;
	out->a = p->at[PSY_A].fd >= 0 ? psy_signed(p, raw[PSY_A] * MICRO) : NAN;
	if (p->at[PSY_W].fd >= 0) {
		out->w = psy_signed(p, raw[PSY_W] * MICRO);
	} else if (p->at[PSY_A].fd >= 0 && p->at[PSY_V].fd >= 0) {
		out->w = out->v * out->a;
		out->flags |= SAMPLE_W_COMPUTED;
	} else {
		/* energy_now is in uWh and falls while discharging */
		if (!energy_rate_update(&p->poll.rate, t, raw[PSY_E] * S_PER_H, 0, &out->w,
					&out->t_ns))
			return 0;
		out->w = psy_signed(p, out->w);
	}
	return 1;
}

static void psy_close(struct meter_dev *dev)
{
	struct psy_priv *p = dev->priv;

	if (p)
		sysfs_attr_close_all(p->at, PSY_COUNT);
	meter_std_free_priv(dev);
}

static void psy_show(FILE *out, const char *name, const char *type)
{
	fprintf(out, "  power_supply %s (%s)\n      --meter power_supply:%s\n", name,
		type ? type : "?", name);
}

static void psy_scan(const char *root, FILE *out)
{
	meter_std_scan_sysfs(root, "/sys/class/power_supply", "", "type", out, psy_show);
}

const struct meter_driver meter_power_supply = {
	.name = "power_supply",
	.desc = "Linux power_supply (battery, USB-PD): magnitude of the draw; sign=raw|invert",
	.conn = "NAME in /sys/class/power_supply (BAT0, ucsi-source-psy-...)",
	.conn_rule = METER_CONN_REQUIRED,
	.example = "power_supply:BAT0",
	METER_KEYS(psy_keys, struct psy_args),
	.open = psy_open,
	.start = sysfs_poll_start,
	.read = psy_read,
	.close = psy_close,
	.scan = psy_scan,
};
