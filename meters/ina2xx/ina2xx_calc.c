/* SPDX-License-Identifier: MIT */
/* INA2xx configuration and calibration from shunt and maximum current; unit decoding. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/clock.h"
#include "core/mem.h"
#include "core/units.h"
#include "meters/ina2xx/ina2xx_protocol.h"

#define INA219_BRNG_LOW_V 16
#define INA219_BRNG_HIGH_V 32
/* ct= spellings within 2 % of a datasheet value (1.1ms for 1100 us) are that value. */
#define CT_TOLERANCE 0.02

/* INA219 ADC modes (BADC and SADC share codes) and their conversion times. */
static const struct {
	const char *name;
	unsigned code;
	unsigned us;
	unsigned bits, avg;
} ina219_adc[] = {
	{ "9bit", 0x0, 84, 9, 1 },	    { "10bit", 0x1, 148, 10, 1 },
	{ "11bit", 0x2, 276, 11, 1 },	    { "12bit", 0x3, 532, 12, 1 },
	{ "avg1", 0x3, 532, 12, 1 },	    { "avg2", 0x9, 1060, 12, 2 },
	{ "avg4", 0xA, 2130, 12, 4 },	    { "avg8", 0xB, 4260, 12, 8 },
	{ "avg16", 0xC, 8510, 12, 16 },	    { "avg32", 0xD, 17020, 12, 32 },
	{ "avg64", 0xE, 34050, 12, 64 },    { "avg128", 0xF, 68100, 12, 128 },
};

static const unsigned ina226_avg[8] = { 1, 4, 16, 64, 128, 256, 512, 1024 };
static const unsigned ina226_ct_us[8] = { 140, 204, 332, 588, 1100, 2116, 4156, 8244 };

const char *ina_model_name(int model)
{
	switch (model) {
	case INA219:
		return "INA219";
	case INA226:
		return "INA226";
	default:
		return "INA260";
	}
}

double ina_round_lsb(double raw)
{
	static const double steps[3] = { 1, 2, 5 };
	double decade;
	int i;

	if (!(raw > 0))
		return 0;
	decade = pow(10, floor(log10(raw)));
	for (;;) {
		for (i = 0; i < 3; i++)
			/* relative slack so 1e-4 computed as 0.99999e-4 stays 1e-4 */
			if (steps[i] * decade >= raw * (1 - 1e-9))
				return steps[i] * decade;
		decade *= 10;
	}
}

static int ina219_pga(const struct ina_request *req, double vshunt_mv, int *pga_mv, unsigned *code,
		      char *err, size_t errlen)
{
	static const int ranges[4] = { 40, 80, 160, 320 };
	long v;
	int i;

	if (!req->pga || !strcmp(req->pga, "auto")) {
		for (i = 0; i < 4; i++)
			if (ranges[i] >= vshunt_mv - 1e-6)
				break;
		if (i == 4) {
			snprintf(err, errlen,
				 "shunt x max_current = %.0f mV exceeds the INA219's 320 mV range: use a smaller shunt or lower max_current",
				 vshunt_mv);
			return -ERANGE;
		}
	} else {
		if (parse_int(req->pga, 40, 320, &v) < 0)
			v = 0;
		for (i = 0; i < 4; i++)
			if (ranges[i] == v)
				break;
		if (i == 4) {
			snprintf(err, errlen, "pga=%s: use 40, 80, 160, 320 (mV) or auto", req->pga);
			return -EINVAL;
		}
		if (ranges[i] < vshunt_mv - 1e-6) {
			snprintf(err, errlen,
				 "pga=%s mV is below shunt x max_current = %.0f mV: raise pga or lower max_current",
				 req->pga, vshunt_mv);
			return -ERANGE;
		}
	}
	*pga_mv = ranges[i];
	*code = (unsigned)i;
	return 0;
}

static int ina219_config(const struct ina_request *req, struct ina_setup *s, double vshunt_mv,
			 char *err, size_t errlen)
{
	const char *adc = req->adc ? req->adc : "12bit";
	unsigned pg, brng, i;
	int ret;

	if (req->ct) {
		snprintf(err, errlen, "ct= is for the INA226/INA260; the INA219 uses adc=9bit..12bit or avg2..avg128");
		return -EINVAL;
	}
	if (!req->brng || !strcmp(req->brng, "32"))
		brng = 1;
	else if (!strcmp(req->brng, "16"))
		brng = 0;
	else {
		snprintf(err, errlen, "brng=%s: use 16 or 32 (V)", req->brng);
		return -EINVAL;
	}
	ret = ina219_pga(req, vshunt_mv, &s->pga_mv, &pg, err, errlen);
	if (ret < 0)
		return ret;
	for (i = 0; i < ARRAY_SIZE(ina219_adc); i++)
		if (!strcmp(ina219_adc[i].name, adc))
			break;
	if (i == ARRAY_SIZE(ina219_adc)) {
		snprintf(err, errlen, "adc=%s: use 9bit, 10bit, 11bit, 12bit or avg2..avg128", adc);
		return -EINVAL;
	}
	s->brng_v = brng ? INA219_BRNG_HIGH_V : INA219_BRNG_LOW_V;
	/* continuous shunt and bus; BADC = SADC */
	s->config = (uint16_t)(brng << INA219_CFG_BRNG_SHIFT | pg << INA219_CFG_PG_SHIFT |
			       ina219_adc[i].code << INA219_CFG_BADC_SHIFT |
			       ina219_adc[i].code << INA219_CFG_SADC_SHIFT | INA_CFG_MODE_CONTINUOUS);
	s->conv_ns = 2ull * ina219_adc[i].us * NS_PER_US;
	s->adc_bits = ina219_adc[i].bits;
	s->avg = ina219_adc[i].avg;
	return 0;
}

static int ina226_config(const struct ina_request *req, struct ina_setup *s, char *err, size_t errlen)
{
	unsigned avg = 0, ct = 4;
	uint64_t ct_ns;
	long n;

	if (req->brng || req->pga) {
		snprintf(err, errlen, "brng= and pga= are INA219 keys; the %s has one range",
			 ina_model_name(req->model));
		return -EINVAL;
	}
	if (req->adc) {
		if (strncmp(req->adc, "avg", 3) || parse_int(req->adc + 3, 1, 1024, &n) < 0)
			n = 0;
		for (avg = 0; avg < 8; avg++)
			if (ina226_avg[avg] == (unsigned)n)
				break;
		if (avg == 8) {
			snprintf(err, errlen, "adc=%s: use avg1, avg4, avg16, avg64, avg128, avg256, avg512 or avg1024",
				 req->adc);
			return -EINVAL;
		}
	}
	if (req->ct) {
		if (parse_duration_ns(req->ct, NS_PER_US, &ct_ns) < 0)
			ct_ns = 0;
		/* accept the datasheet's rounded spellings: 1.1ms, 8.244ms, 140us */
		for (ct = 0; ct < 8; ct++)
			if (fabs((double)ct_ns - ina226_ct_us[ct] * 1e3) <=
			    ina226_ct_us[ct] * 1e3 * CT_TOLERANCE)
				break;
		if (ct == 8) {
			snprintf(err, errlen,
				 "ct=%s: use 140us, 204us, 332us, 588us, 1.1ms, 2.116ms, 4.156ms or 8.244ms",
				 req->ct);
			return -EINVAL;
		}
	}
	s->config = (uint16_t)((req->model == INA260 ? INA260_CFG_RESERVED : INA226_CFG_RESERVED) |
			       avg << INA226_CFG_AVG_SHIFT | ct << INA226_CFG_VBUSCT_SHIFT |
			       ct << INA226_CFG_VSHCT_SHIFT | INA_CFG_MODE_CONTINUOUS);
	s->conv_ns = (uint64_t)ina226_avg[avg] * 2 * ina226_ct_us[ct] * NS_PER_US;
	s->adc_bits = INA226_ADC_BITS;
	s->avg = ina226_avg[avg];
	return 0;
}

/*
 * Calibration (TI datasheets, cross-checked with Adafruit_INA219 and the kernel driver):
 *   INA219: Cal = trunc(0.04096 / (Current_LSB * R)), Power_LSB = 20 * Current_LSB
 *   INA226: Cal = trunc(0.00512 / (Current_LSB * R)), Power_LSB = 25 * Current_LSB
 * The chip computes Current = Shunt * Cal / 4096 (INA219; / 2048 on the INA226), so the
 * LSB it really delivers is K / (Cal * R), not the rounded value we started from.
 */
static int ina_calibrate(const struct ina_request *req, struct ina_setup *s, char *err, size_t errlen)
{
	double k = req->model == INA219 ? INA219_CAL_K : INA226_CAL_K;
	double lsb, cal_d;
	unsigned cal_max = req->model == INA219 ? INA219_CAL_MAX : INA226_CAL_MAX;
	unsigned cal;

	lsb = ina_round_lsb(req->max_current_a / INA_CURRENT_STEPS);
	cal_d = floor(k / (lsb * req->shunt_ohm));
	if (cal_d > cal_max) {
		snprintf(err, errlen,
			 "calibration %.0f exceeds %u: raise max_current (now %g A) or use a larger shunt",
			 cal_d, cal_max, req->max_current_a);
		return -ERANGE;
	}
	cal = (unsigned)cal_d;
	if (req->model == INA219)
		cal &= INA219_CAL_MAX; /* bit 0 is read-only zero */
	if (cal < 1) {
		snprintf(err, errlen,
			 "calibration rounds to 0: lower max_current (now %g A) or use a smaller shunt",
			 req->max_current_a);
		return -ERANGE;
	}
	s->cal = (uint16_t)cal;
	s->current_lsb_a = k / (cal * req->shunt_ohm);
	s->power_lsb_w = (req->model == INA219 ? INA219_POWER_RATIO : INA226_POWER_RATIO) *
			 s->current_lsb_a;
	return 0;
}

int ina_setup_compute(const struct ina_request *req, struct ina_setup *s, char *err, size_t errlen)
{
	int ret;

	memset(s, 0, sizeof(*s));
	s->model = req->model;
	err[0] = 0;
	if (req->model == INA260) {
		s->shunt_ohm = INA260_SHUNT_OHM;
		s->current_lsb_a = INA260_CURRENT_LSB_A;
		s->power_lsb_w = INA260_POWER_LSB_W;
		/* register 0x01 is current */
		s->shunt_lsb_v = INA260_CURRENT_LSB_A * INA260_SHUNT_OHM;
		s->bus_lsb_v = INA260_BUS_LSB_V;
		s->pga_mv = 0;
		return ina226_config(req, s, err, errlen);
	}
	if (!(req->shunt_ohm > 0) || !(req->max_current_a > 0)) {
		snprintf(err, errlen, "needs shunt=OHMS and max_current=AMPS (e.g. shunt=0.1,max_current=3.2)");
		return -EINVAL;
	}
	s->shunt_ohm = req->shunt_ohm;
	if (req->model == INA219) {
		s->shunt_lsb_v = INA219_SHUNT_LSB_V;
		s->bus_lsb_v = INA219_BUS_LSB_V;
		ret = ina219_config(req, s, req->shunt_ohm * req->max_current_a * 1e3, err, errlen);
	} else {
		s->shunt_lsb_v = INA226_SHUNT_LSB_V;
		s->bus_lsb_v = INA226_BUS_LSB_V;
		s->pga_mv = 82;
		if (req->shunt_ohm * req->max_current_a > INA226_SHUNT_FS_V + 1e-12) {
			snprintf(err, errlen,
				 "shunt x max_current = %.1f mV exceeds the INA226's 81.92 mV range: use a smaller shunt or lower max_current",
				 req->shunt_ohm * req->max_current_a * 1e3);
			return -ERANGE;
		}
		ret = ina226_config(req, s, err, errlen);
	}
	if (ret < 0)
		return ret;
	return ina_calibrate(req, s, err, errlen);
}

double ina_bus_v(const struct ina_setup *s, uint16_t raw)
{
	if (s->model == INA219)
		return (raw >> INA219_BUS_SHIFT) * s->bus_lsb_v;
	return raw * s->bus_lsb_v;
}

double ina_shunt_v(const struct ina_setup *s, uint16_t raw)
{
	return (int16_t)raw * s->shunt_lsb_v;
}

double ina_current_a(const struct ina_setup *s, uint16_t raw)
{
	return (int16_t)raw * s->current_lsb_a;
}

double ina_power_w(const struct ina_setup *s, uint16_t raw)
{
	return raw * s->power_lsb_w;
}
