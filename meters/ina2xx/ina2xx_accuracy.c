/* SPDX-License-Identifier: MIT */
/* INA219/INA226/INA260 accuracy from TI's datasheet maxima at the programmed settings. */
#include <math.h>
#include <string.h>

#include "meters/ina-datasheet.h"
#include "meters/ina2xx/ina2xx_protocol.h"
#include "meters/meter.h"

/* TI states no noise per reading: iowatt takes one ADC step, divided by the square root
 * of the conversions averaged into the reading (docs/energy.md). */
#define INA219_ADC_FULL_BITS 12

static double ina219_offset_v(int pga_mv)
{
	switch (pga_mv) {
	case 40:
		return INA219_DS_OFFSET_PGA1_V;
	case 80:
		return INA219_DS_OFFSET_PGA2_V;
	case 160:
		return INA219_DS_OFFSET_PGA4_V;
	default:
		return INA219_DS_OFFSET_PGA8_V;
	}
}

/*
 * The INA219's shunt register counts 10 uV whatever the PGA, but its 12-bit ADC spans
 * the PGA's range: at /8 (320 mV) a conversion moves in steps of 8 LSB, and fewer bits
 * double the step per bit.
 */
static double ina219_shunt_step_v(const struct ina_setup *s)
{
	double pga_factor = (double)s->pga_mv / INA219_PGA_BASE_MV;

	return INA219_SHUNT_LSB_V * pga_factor * ldexp(1.0, INA219_ADC_FULL_BITS - (int)s->adc_bits);
}

void ina_accuracy(const struct ina_setup *s, struct meter_accuracy *acc)
{
	double step_a, shunt_step_v, avg_root = sqrt(s->avg ? (double)s->avg : 1.0);

	memset(acc, 0, sizeof(*acc));
	acc->w.gain = acc->w.offset = NAN;
	acc->w.resolution = s->power_lsb_w;
	acc->v.resolution = s->bus_lsb_v;
	acc->v.noise = s->bus_lsb_v / avg_root;
	switch (s->model) {
	case INA219:
		shunt_step_v = ina219_shunt_step_v(s);
		step_a = fmax(s->current_lsb_a, shunt_step_v / s->shunt_ohm);
		acc->a = (struct meter_acc_q){ INA219_DS_A_GAIN, ina219_offset_v(s->pga_mv) / s->shunt_ohm,
					       step_a, step_a / avg_root };
		acc->v.gain = INA219_DS_V_GAIN;
		acc->v.offset = 0;
		acc->source = "TI INA219 datasheet maxima: A 1 %, V 0.5 %, shunt offset by PGA; "
			      "noise 1 ADC step assumed";
		break;
	case INA226:
		step_a = fmax(s->current_lsb_a, INA226_SHUNT_LSB_V / s->shunt_ohm);
		acc->a = (struct meter_acc_q){ INA226_DS_GAIN, INA226_DS_SHUNT_OFFSET_V / s->shunt_ohm,
					       step_a, step_a / avg_root };
		acc->v.gain = INA226_DS_GAIN;
		acc->v.offset = INA226_DS_BUS_OFFSET_V;
		acc->source = "TI INA226 datasheet maxima: gain 0.1 %, shunt offset 10 uV, bus "
			      "offset 7.5 mV; noise 1 ADC step assumed";
		break;
	default:
		acc->a = (struct meter_acc_q){ INA260_DS_A_GAIN, INA260_DS_A_OFFSET, s->current_lsb_a,
					       s->current_lsb_a / avg_root };
		acc->v.gain = INA260_DS_V_GAIN;
		acc->v.offset = INA260_DS_V_OFFSET;
		acc->source = "TI INA260 datasheet maxima: A 0.15 % + 5 mA, V 0.1 % + 7.5 mV; "
			      "noise 1 ADC step assumed";
		break;
	}
}
