/* SPDX-License-Identifier: MIT */
/* INA219/INA226/INA260 over i2c-dev: parse the spec, identify and program the chip; ops table. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/log.h"
#include "core/mem.h"
#include "meters/ina2xx/ina2xx.h"
#include "meters/ina2xx/ina2xx_priv.h"
#include "meters/transport/i2c.h"
#include "meters/transport/sysfs.h"

#define MOD "ina2xx"
#define INA_ADDR_DEFAULT 0x40
#define OHM_MIN 1e-6
#define OHM_MAX 1000.0
#define AMP_MIN 1e-6
#define AMP_MAX 1000.0
/* An INA226/INA260 conversion time as the datasheets round it: 140 us to 8.244 ms. */
#define CT_MIN_NS (130 * NS_PER_US)
#define CT_MAX_NS (8500 * NS_PER_US)
#define XFER_PROBES 5
#define MV_PER_V 1000.0

#define CHOICES(...) ((const struct opt_choice[]){ __VA_ARGS__, { NULL, NULL } })

/* The spec's keys: each chip's table below, one struct for the family. */
struct ina_args {
	double shunt_ohm, max_current_a;
	char brng[4], pga[8], adc[8], ct[16]; /* as the user wrote them (ina_setup_compute) */
	uint64_t interval_ns;		      /* 0: not given, every conversion */
	int supply;			      /* enum meter_supply */
};

#define INA_KEY(f) offsetof(struct ina_args, f)
#define INA_STR(f) .type = OPT_STR, .off = INA_KEY(f), .size = sizeof(((struct ina_args *)0)->f)
#define INA_SHUNT_KEYS                                                                     \
	{ .name = "shunt", .type = OPT_DOUBLE, .off = INA_KEY(shunt_ohm), .min = OHM_MIN,  \
	  .max = OHM_MAX, .required = 1,                                                   \
	  .help = "shunt resistance in ohms (0.1 on most INA219 boards)" },                \
	{ .name = "max_current", .type = OPT_DOUBLE, .off = INA_KEY(max_current_a),        \
	  .min = AMP_MIN, .max = AMP_MAX, .required = 1,                                   \
	  .help = "largest current expected, amps: sets the calibration and resolution" }
/* The INA226's and INA260's averaging and conversion time (the datasheets' list). */
#define INA226_ADC_KEYS                                                                    \
	{ .name = "adc", INA_STR(adc), .def = "avg1",                                      \
	  .choices = CHOICES({ "avg1", NULL }, { "avg4", NULL }, { "avg16", NULL },        \
			     { "avg64", NULL }, { "avg128", NULL }, { "avg256", NULL },    \
			     { "avg512", NULL }, { "avg1024", NULL }),                    \
	  .help = "samples averaged per reading" },                                        \
	{ .name = "ct", INA_STR(ct), .def = "1.1ms", .metavar = "DURATION",                    \
	  .help = "conversion time per channel: 140us 204us 332us 588us 1.1ms 2.116ms "    \
		  "4.156ms 8.244ms" }
#define INA_COMMON_KEYS                                                                    \
	{ .name = "interval", .type = OPT_DURATION, .off = INA_KEY(interval_ns),           \
	  .bare_unit_ns = NS_PER_MS, .min = NS_PER_MS, .max = 60 * NS_PER_SEC,             \
	  .help = "time between samples (default: every conversion)" },                    \
	METER_SUPPLY_KEY(INA_KEY(supply), "drive", "")

static const struct opt_desc ina219_keys[] = {
	INA_SHUNT_KEYS,
	{ .name = "brng", INA_STR(brng), .def = "32",
	  .choices = CHOICES({ "16", NULL }, { "32", NULL }), .help = "bus voltage range, volts" },
	{ .name = "pga", INA_STR(pga), .def = "auto",
	  .choices = CHOICES({ "40", NULL }, { "80", NULL }, { "160", NULL }, { "320", NULL },
			     { "auto", NULL }),
	  .help = "shunt range in mV; auto: the smallest that fits" },
	{ .name = "adc", INA_STR(adc), .def = "12bit",
	  .choices = CHOICES({ "9bit", NULL }, { "10bit", NULL }, { "11bit", NULL },
			     { "12bit", NULL }, { "avg1", NULL }, { "avg2", NULL }, { "avg4", NULL },
			     { "avg8", NULL }, { "avg16", NULL }, { "avg32", NULL },
			     { "avg64", NULL }, { "avg128", NULL }),
	  .help = "resolution or averaged samples per conversion" },
	INA_COMMON_KEYS,
};
static const struct opt_desc ina226_keys[] = { INA_SHUNT_KEYS, INA226_ADC_KEYS, INA_COMMON_KEYS };
static const struct opt_desc ina260_keys[] = { INA226_ADC_KEYS, INA_COMMON_KEYS };

/*
 * Bus voltage ratings from TI's datasheets: the INA219 senses buses from 0 to 26 V, the
 * INA226 and INA260 from 0 to 36 V; the INA260's integrated shunt carries 15 A
 * continuously. Shunt-based current limits depend on the shunt: open() computes them.
 */
/* Accuracy depends on the shunt and the ADC settings: open() computes it (ina_accuracy). */
static const struct meter_model ina219_models[] = {
	{ .name = "INA219", .range = { 0, 26, NAN, NAN, NAN },
	  .source = "TI datasheet; A: +-pga/shunt" },
};
static const struct meter_model ina226_models[] = {
	{ .name = "INA226", .range = { 0, 36, NAN, NAN, NAN },
	  .source = "TI datasheet; A: +-81.92 mV/shunt" },
};
static const struct meter_model ina260_models[] = {
	{ .name = "INA260", .range = { 0, 36, -15, 15, 36 * 15 }, .source = "TI datasheet" },
};

static int ina_parse_conn(const struct meter_dev *dev, char *path, size_t len, unsigned *addr)
{
	const char *at = strchr(dev->conn, '@');
	size_t n = at ? (size_t)(at - dev->conn) : strlen(dev->conn);
	char *end;
	long a = INA_ADDR_DEFAULT;

	if (at) {
		errno = 0;
		a = strtol(at + 1, &end, 0);
		if (errno || *end || end == at + 1)
			a = -1;
	}
	if (!n || n >= len || a < I2C_ADDR_MIN || a > I2C_ADDR_MAX) {
		log_err(MOD, "meter '%s': connection must look like /dev/i2c-1@0x40", dev->spec);
		return -EINVAL;
	}
	memcpy(path, dev->conn, n);
	path[n] = 0;
	*addr = (unsigned)a;
	return 0;
}

static int ina_model_of(const struct meter_dev *dev)
{
	if (!strcmp(dev->drv->name, "ina219"))
		return INA219;
	return !strcmp(dev->drv->name, "ina226") ? INA226 : INA260;
}

/* The chip settings the keys ask for; -EINVAL / -ERANGE after saying which key to change. */
static int ina_setup_of(const struct meter_dev *dev, struct ina_setup *s)
{
	const struct ina_args *a = dev->args;
	struct ina_request req = { .model = ina_model_of(dev) };
	char err[200];
	int ret;

	if (req.model != INA260) {
		req.shunt_ohm = a->shunt_ohm;
		req.max_current_a = a->max_current_a;
	}
	if (req.model == INA219) {
		req.brng = a->brng;
		req.pga = a->pga;
	}
	req.adc = a->adc;
	req.ct = req.model == INA219 ? NULL : a->ct;
	ret = ina_setup_compute(&req, s, err, sizeof(err));
	if (ret < 0)
		log_err(MOD, "meter '%s': %s", dev->spec, err);
	return ret;
}

/* Before open: the connection's form and a calibration that fits, no bus touched. */
static int ina_check(const struct meter_dev *dev)
{
	struct ina_setup s;
	char path[INA_PATH_LEN];
	unsigned addr;
	int ret;

	ret = ina_parse_conn(dev, path, sizeof(path), &addr);
	return ret ? ret : ina_setup_of(dev, &s);
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
		log_warn(MOD, "%s: the chip at 0x%02x reports %s (ID 0x%04x/0x%04x), not %s",
			 dev->spec, p->addr, seen, mfr, die, ina_model_name(p->model));
}

/* A sample costs about this many register transfers: ready flag, bus, current, power. */
#define INA_XFERS_PER_SAMPLE 4

/* The quickest of a few reads of a harmless register: the bus's own cost per transfer. */
static uint64_t ina_xfer_ns(const struct ina_priv *p)
{
	uint64_t best = UINT64_MAX, t0, dt;
	uint16_t v;
	int i;

	for (i = 0; i < XFER_PROBES; i++) {
		t0 = now_ns();
		if (i2c_read16(p->fd, p->addr, INA_REG_CONFIG, &v) < 0)
			return 0;
		dt = now_ns() - t0;
		if (dt < best)
			best = dt;
	}
	return best;
}

/* What the run says about the chip, and the current range its calibration allows. */
static void ina_describe(const struct meter_dev *dev, const struct ina_priv *p,
			 struct meter_info *info)
{
	const struct meter_model *m = meter_driver_model(dev->drv, 0);
	double a_max;

	snprintf(info->model, sizeof(info->model), "%s @0x%02x, %.3g mA/LSB",
		 ina_model_name(p->model), p->addr, p->s.current_lsb_a * MV_PER_V);
	meter_std_range(info, m);
	ina_accuracy(&p->s, &info->accuracy);
	info->board_level = ((const struct ina_args *)dev->args)->supply == METER_SUPPLY_BOARD;
	if (p->model == INA219 && p->s.brng_v < info->range.v_max)
		info->range.v_max = p->s.brng_v;
	if (p->model != INA260) {
		a_max = (p->model == INA219 ? p->s.pga_mv / MV_PER_V : INA226_SHUNT_FS_V) /
			p->s.shunt_ohm;
		info->range.a_min = -a_max;
		info->range.a_max = a_max;
		info->range.w_max = info->range.v_max * a_max;
	}
	log_info(MOD, "%s: config 0x%04x cal %u, %.4g mA / %.4g mW per LSB, %.3g ms per sample",
		 dev->spec, p->s.config, p->s.cal, p->s.current_lsb_a * MV_PER_V,
		 p->s.power_lsb_w * MV_PER_V, (double)p->s.conv_ns / 1e6);
}

/*
 * Gap detection must use the period the bus can deliver: a sample costs about four
 * register transfers, and at 100 kHz those take longer than the fastest conversions.
 * With the conversion time alone, every segment of a fast setting would count as a gap.
 */
static uint64_t ina_period(const struct meter_dev *dev, const struct ina_priv *p)
{
	uint64_t period = p->interval_ns > p->s.conv_ns ? p->interval_ns : p->s.conv_ns;
	uint64_t xfer_ns = ina_xfer_ns(p);

	if (INA_XFERS_PER_SAMPLE * xfer_ns > period) {
		period = INA_XFERS_PER_SAMPLE * xfer_ns;
		log_info(MOD, "%s: the bus allows a sample every %.3g ms (%.3g ms per register "
			 "read): faster conversions are averaged away", dev->spec,
			 (double)period / 1e6, (double)xfer_ns / 1e6);
	}
	return period;
}

static int ina_open(struct meter_dev *dev, struct meter_info *info)
{
	struct ina_priv *p = xcalloc(1, sizeof(*p));
	int ret;

	p->fd = -1;
	p->model = ina_model_of(dev);
	p->interval_ns = ((const struct ina_args *)dev->args)->interval_ns;
	ret = ina_parse_conn(dev, p->path, sizeof(p->path), &p->addr);
	if (!ret)
		ret = ina_setup_of(dev, &p->s);
	if (!ret) {
		p->fd = i2c_open(p->path, p->addr, p->model == INA219 ? "ina219" : "ina2xx");
		ret = p->fd < 0 ? p->fd : 0;
	}
	if (!ret) {
		ina_identify(dev, p);
		ret = ina_program(p);
		if (ret < 0)
			log_err(MOD, "%s: programming the chip at 0x%02x failed: %s", dev->spec,
				p->addr, ret == -EPROTO ? "configuration did not read back" : strerror(-ret));
	}
	if (ret < 0) {
		i2c_close(p->fd);
		free(p);
		return ret;
	}
	ina_describe(dev, p, info);
	info->period_ns = ina_period(dev, p);
	/* a reading averages the whole conversion window: date it at the middle */
	info->lag_ns = p->s.conv_ns / 2;
	p->lag_ns = info->lag_ns;
	dev->priv = p;
	return 0;
}

static void ina_close(struct meter_dev *dev)
{
	struct ina_priv *p = dev->priv;

	if (p)
		i2c_close(p->fd);
	meter_std_free_priv(dev);
}

/* bus is "i2c-N": i2cdetect wants the N. */
static void ina_show(FILE *out, const char *bus, const char *name)
{
	fprintf(out, "  i2c bus /dev/%s (%s): ina219:/dev/%s@0x40,shunt=0.1,max_current=3.2"
		     "  (or ina226:/ina260:; find the address with i2cdetect -y %s)\n",
		bus, name ? name : "?", bus, bus + 4);
}

static void ina_scan(const char *sysfs_root, FILE *out)
{
	meter_std_scan_sysfs(sysfs_root, "/sys/class/i2c-dev", "i2c-", "name", out, ina_show);
}

#define INA_DRIVER(chip, text, models, spec_example, scan_fn)                             \
	const struct meter_driver meter_##chip = {                                          \
		.name = #chip,                                                              \
		.desc = text,                                                               \
		.conn = "/dev/i2c-N[@ADDR], ADDR 0x40 by default",                          \
		.conn_rule = METER_CONN_REQUIRED,                                           \
		.example = spec_example,                                                    \
		METER_KEYS(chip##_keys, struct ina_args),                                   \
		METER_MODELS(models),                                                       \
		.check = ina_check,                                                         \
		.open = ina_open,                                                           \
		.start = ina_start,                                                         \
		.read = ina_read,                                                           \
		.close = ina_close,                                                         \
		.scan = scan_fn,                                                            \
	}

INA_DRIVER(ina219, "TI INA219 on /dev/i2c-N (shunt= and max_current= set the calibration)",
	   ina219_models, "ina219:/dev/i2c-1@0x40,shunt=0.1,max_current=3.2", ina_scan);
INA_DRIVER(ina226, "TI INA226 on /dev/i2c-N (shunt= and max_current= set the calibration)",
	   ina226_models, "ina226:/dev/i2c-1@0x40,shunt=0.002,max_current=20", NULL);
INA_DRIVER(ina260, "TI INA260 on /dev/i2c-N (2 mOhm shunt inside: no shunt= or max_current=)",
	   ina260_models, "ina260:/dev/i2c-1@0x40,adc=avg4", NULL);
