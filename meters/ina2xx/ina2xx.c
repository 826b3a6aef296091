/* SPDX-License-Identifier: MIT */
/* INA219/INA226/INA260 over i2c-dev: parse the spec, identify and program the chip; ops table. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/util.h"
#include "meters/ina2xx/ina2xx_priv.h"
#include "meters/transport/i2c.h"
#include "meters/transport/sysfs.h"

static const char *const ina_keys[] = { "shunt", "max_current", "brng", "pga", "adc",
					"ct", "interval", NULL };

static int ina_parse_conn(struct meter_dev *dev, struct ina_priv *p)
{
	const char *at = strchr(dev->conn, '@');
	size_t n = at ? (size_t)(at - dev->conn) : strlen(dev->conn);
	char *end;
	long addr = 0x40;

	if (at) {
		errno = 0;
		addr = strtol(at + 1, &end, 0);
		if (errno || *end || end == at + 1)
			addr = -1;
	}
	if (!n || n >= sizeof(p->path) || addr < 0x03 || addr > 0x77) {
		log_err("ina2xx", "%s: connection must look like /dev/i2c-1@0x40", dev->spec);
		return -EINVAL;
	}
	memcpy(p->path, dev->conn, n);
	p->path[n] = 0;
	p->addr = (unsigned)addr;
	return 0;
}

static int ina_double_key(const struct meter_dev *dev, const char *key, double *out)
{
	const char *v = meter_param(dev, key);

	*out = 0;
	if (v && (parse_double(v, out) < 0 || !(*out > 0))) {
		log_err("ina2xx", "%s: %s=%s is not a positive number", dev->spec, key, v);
		return -EINVAL;
	}
	return 0;
}

/* Warn when the ID registers say the chip is not what the spec names. */
static void ina_identify(struct meter_dev *dev, struct ina_priv *p)
{
	uint16_t mfr = 0, die = 0;
	const char *seen = NULL;

	if (i2c_read16(p->fd, p->addr, INA_REG_MFR_ID, &mfr) < 0 ||
	    i2c_read16(p->fd, p->addr, INA_REG_DIE_ID, &die) < 0)
		mfr = 0;
	if (mfr == INA_TI_MFR_ID && die == INA226_DIE_ID)
		seen = "INA226";
	else if (mfr == INA_TI_MFR_ID && die >> 4 == INA260_DIE_ID_HI)
		seen = "INA260";
	else if (p->model != INA219)
		seen = "no INA226/INA260 ID";
	if (seen && strcmp(seen, ina_model_name(p->model)))
		log_warn("ina2xx", "%s: the chip at 0x%02x reports %s (ID 0x%04x/0x%04x), not %s",
			 dev->spec, p->addr, seen, mfr, die, ina_model_name(p->model));
}

int ina_program(struct ina_priv *p)
{
	uint16_t back = 0;
	int ret;

	ret = i2c_write16(p->fd, p->addr, INA_REG_CONFIG, p->s.config);
	if (!ret && p->s.cal)
		ret = i2c_write16(p->fd, p->addr, INA_REG_CAL, p->s.cal);
	if (!ret)
		ret = i2c_read16(p->fd, p->addr, INA_REG_CONFIG, &back);
	if (!ret && back != p->s.config)
		ret = -EPROTO;
	return ret;
}

#define INA_XFERS_PER_SAMPLE 4

/* The quickest of a few reads of a harmless register: the bus's own cost per transfer. */
static uint64_t ina_xfer_ns(const struct ina_priv *p)
{
	uint64_t best = UINT64_MAX, t0, dt;
	uint16_t v;
	int i;

	for (i = 0; i < 5; i++) {
		t0 = now_ns();
		if (i2c_read16(p->fd, p->addr, INA_REG_CONFIG, &v) < 0)
			return 0;
		dt = now_ns() - t0;
		if (dt < best)
			best = dt;
	}
	return best;
}

static int ina_open(struct meter_dev *dev, int model)
{
	struct ina_request req = { .model = model };
	struct ina_priv *p;
	char err[200];
	uint64_t xfer_ns;
	int ret;

	ret = meter_check_params(dev, ina_keys);
	if (ret < 0)
		return ret;
	p = xcalloc(1, sizeof(*p));
	p->fd = -1;
	p->model = model;
	ret = ina_parse_conn(dev, p);
	if (!ret)
		ret = ina_double_key(dev, "shunt", &req.shunt_ohm);
	if (!ret)
		ret = ina_double_key(dev, "max_current", &req.max_current_a);
	if (!ret && model == INA260 && (req.shunt_ohm > 0 || req.max_current_a > 0)) {
		log_err("ina2xx", "%s: the INA260 has its 2 mOhm shunt inside; drop shunt= and max_current=",
			dev->spec);
		ret = -EINVAL;
	}
	if (!ret)
		ret = sysfs_interval(dev->spec, meter_param(dev, "interval"), 0, &p->interval_ns);
	req.brng = meter_param(dev, "brng");
	req.pga = meter_param(dev, "pga");
	req.adc = meter_param(dev, "adc");
	req.ct = meter_param(dev, "ct");
	if (!ret) {
		ret = ina_setup_compute(&req, &p->s, err, sizeof(err));
		if (ret < 0)
			log_err("ina2xx", "%s: %s", dev->spec, err);
	}
	if (!ret) {
		p->fd = i2c_open(p->path, p->addr, model == INA219 ? "ina219" : "ina2xx");
		ret = p->fd < 0 ? p->fd : 0;
	}
	if (!ret) {
		ina_identify(dev, p);
		ret = ina_program(p);
		if (ret < 0)
			log_err("ina2xx", "%s: programming the chip at 0x%02x failed: %s", dev->spec,
				p->addr, ret == -EPROTO ? "configuration did not read back" : strerror(-ret));
	}
	if (ret < 0) {
		i2c_close(p->fd);
		free(p);
		return ret;
	}
	snprintf(dev->model, sizeof(dev->model), "%s @0x%02x, %.3g mA/LSB", ina_model_name(model),
		 p->addr, p->s.current_lsb_a * 1e3);
	log_info("ina2xx", "%s: config 0x%04x cal %u, %.4g mA / %.4g mW per LSB, %.3g ms per sample",
		 dev->spec, p->s.config, p->s.cal, p->s.current_lsb_a * 1e3, p->s.power_lsb_w * 1e3,
		 (double)p->s.conv_ns / 1e6);
	dev->period_ns = p->interval_ns > p->s.conv_ns ? p->interval_ns : p->s.conv_ns;
	xfer_ns = ina_xfer_ns(p);
	/*
	 * Gap detection must use the period the bus can deliver: a sample costs about four
	 * register transfers (ready flag, bus, current, power), and at 100 kHz those take
	 * longer than the fastest conversions. With the conversion time alone, every
	 * segment of a fast setting would count as a gap.
	 */
	if (INA_XFERS_PER_SAMPLE * xfer_ns > dev->period_ns) {
		dev->period_ns = INA_XFERS_PER_SAMPLE * xfer_ns;
		log_info("ina2xx", "%s: the bus allows a sample every %.3g ms (%.3g ms per register "
			 "read): faster conversions are averaged away", dev->spec,
			 (double)dev->period_ns / 1e6, (double)xfer_ns / 1e6);
	}
	/* a reading averages the whole conversion window: date it at the middle */
	dev->lag_ns = p->s.conv_ns / 2;
	dev->priv = p;
	return 0;
}

static int ina219_open(struct meter_dev *dev) { return ina_open(dev, INA219); }
static int ina226_open(struct meter_dev *dev) { return ina_open(dev, INA226); }
static int ina260_open(struct meter_dev *dev) { return ina_open(dev, INA260); }

static void ina_close(struct meter_dev *dev)
{
	struct ina_priv *p = dev->priv;

	if (!p)
		return;
	i2c_close(p->fd);
	free(p);
	dev->priv = NULL;
}

static void ina_scan(const char *sysfs_root, FILE *out)
{
	char path[128], name[64];
	char **bus;
	int n, i;

	n = sysfs_list(sysfs_root, "/sys/class/i2c-dev", "i2c-", &bus);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "/sys/class/i2c-dev/%s/name", bus[i]);
		if (sysfs_read_str(sysfs_root, path, name, sizeof(name)) < 0)
			snprintf(name, sizeof(name), "?");
		fprintf(out, "  i2c bus /dev/%s (%s): ina219:/dev/%s@0x40,shunt=0.1,max_current=3.2"
			     "  (or ina226:/ina260:; find the address with i2cdetect -y %s)\n",
			bus[i], name, bus[i], bus[i] + 4);
	}
	sysfs_list_free(bus, n);
}

const struct meter_driver meter_ina219 = {
	.name = "ina219",
	.desc = "TI INA219 on /dev/i2c-N (shunt= and max_current= set the calibration)",
	.open = ina219_open, .start = ina_start, .read = ina_read,
	.close = ina_close, .scan = ina_scan,
};

const struct meter_driver meter_ina226 = {
	.name = "ina226",
	.desc = "TI INA226 on /dev/i2c-N (shunt= and max_current= set the calibration)",
	.open = ina226_open, .start = ina_start, .read = ina_read,
	.close = ina_close,
};

const struct meter_driver meter_ina260 = {
	.name = "ina260",
	.desc = "TI INA260 on /dev/i2c-N (2 mOhm shunt inside)",
	.open = ina260_open, .start = ina_start, .read = ina_read,
	.close = ina_close,
};
