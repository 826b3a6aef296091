/* SPDX-License-Identifier: MIT */
/* INA219/INA226/INA260 register maths: configuration, calibration and raw-to-unit decoding. */
#ifndef IOWATT_INA2XX_PROTOCOL_H
#define IOWATT_INA2XX_PROTOCOL_H

#include <stddef.h>
#include <stdint.h>

enum ina_model { INA219, INA226, INA260 };

enum ina_reg {
	INA_REG_CONFIG = 0x00,
	INA_REG_SHUNT = 0x01, /* INA260: current */
	INA_REG_BUS = 0x02,
	INA_REG_POWER = 0x03,
	INA_REG_CURRENT = 0x04,
	INA_REG_CAL = 0x05,
	INA_REG_MASK = 0x06, /* INA226/260 Mask/Enable */
	INA_REG_MFR_ID = 0xFE,
	INA_REG_DIE_ID = 0xFF,
};

#define INA219_BUS_CNVR 0x0002u
#define INA219_BUS_OVF 0x0001u
#define INA226_MASK_CVRF 0x0008u
#define INA226_MASK_OVF 0x0004u
#define INA_TI_MFR_ID 0x5449u
#define INA226_DIE_ID 0x2260u
#define INA260_DIE_ID_HI 0x227u /* die ID >> 4; the low nibble is the revision */
#define INA260_SHUNT_OHM 0.002
#define INA226_SHUNT_FS_V 0.08192 /* full-scale shunt drop: 32768 x 2.5 uV */

/* Configuration register fields. INA219: BRNG 13, PG 12-11, BADC 10-7, SADC 6-3;
 * INA226/INA260: AVG 11-9, VBUSCT 8-6, VSHCT (ISHCT) 5-3; all: MODE 2-0. */
#define INA219_CFG_BRNG_SHIFT 13
#define INA219_CFG_PG_SHIFT 11
#define INA219_CFG_BADC_SHIFT 7
#define INA219_CFG_SADC_SHIFT 3
#define INA226_CFG_AVG_SHIFT 9
#define INA226_CFG_VBUSCT_SHIFT 6
#define INA226_CFG_VSHCT_SHIFT 3
#define INA_CFG_MODE_CONTINUOUS 0x7 /* shunt and bus, continuous */
/* Bits that read 1 in the power-on value: 14 on the INA226, 14 and 13 on the INA260. */
#define INA226_CFG_RESERVED 0x4000
#define INA260_CFG_RESERVED 0x6000

/* Register LSBs from the datasheets. */
#define INA219_SHUNT_LSB_V 10e-6
#define INA219_BUS_LSB_V 4e-3
#define INA219_BUS_SHIFT 3 /* the bus value sits above CNVR and OVF */
#define INA226_SHUNT_LSB_V 2.5e-6
#define INA226_BUS_LSB_V 1.25e-3
#define INA260_CURRENT_LSB_A 1.25e-3
#define INA260_POWER_LSB_W 10e-3
#define INA260_BUS_LSB_V 1.25e-3
/* Calibration: Cal = trunc(K / (Current_LSB x R)), Power_LSB = ratio x Current_LSB. */
#define INA219_CAL_K 0.04096
#define INA226_CAL_K 0.00512
#define INA219_POWER_RATIO 20
#define INA226_POWER_RATIO 25
#define INA219_CAL_MAX 0xFFFE /* bit 0 is read-only zero */
#define INA226_CAL_MAX 0x7FFF
#define INA_CURRENT_STEPS 32768.0 /* the signed current register's positive counts */
#define INA226_ADC_BITS 16
#define INA219_PGA_BASE_MV 40 /* PGA /1: the 12-bit ADC's step is one 10 uV LSB */

/* What the user asked for; strings are the spec's values or NULL for the default. */
struct ina_request {
	int model;
	double shunt_ohm;	/* ignored on the INA260 */
	double max_current_a;	/* ignored on the INA260 */
	const char *brng;	/* INA219: "16" | "32" */
	const char *pga;	/* INA219: "40" | "80" | "160" | "320" | "auto" (mV) */
	const char *adc;	/* INA219: 9bit..12bit, avg2..avg128; INA226/260: avg1..avg1024 */
	const char *ct;		/* INA226/260: conversion time per channel, e.g. "1.1ms" */
};

/* What the driver programs and how it decodes. LSBs are the effective ones after Cal
 * truncation, so the reported units stay exact whatever Cal rounding did. */
struct ina_setup {
	int model;
	uint16_t config;
	uint16_t cal;		/* 0: no calibration register (INA260) */
	double shunt_ohm;
	double current_lsb_a;
	double power_lsb_w;
	double shunt_lsb_v;
	double bus_lsb_v;
	int pga_mv;		/* full-scale shunt range */
	int brng_v;		/* INA219 bus range; 0 elsewhere */
	uint64_t conv_ns;	/* time for one fresh bus+shunt pair, averaging included */
	unsigned adc_bits;	/* INA219: 9..12; INA226/INA260: 16 */
	unsigned avg;		/* conversions averaged per reading */
};

const char *ina_model_name(int model);
/*
 * Fill `s` from `req`. Returns 0, or -EINVAL / -ERANGE with a one-line explanation in
 * `err` that says which key to change (the caller prefixes the spec).
 */
int ina_setup_compute(const struct ina_request *req, struct ina_setup *s, char *err, size_t errlen);
/* Current_LSB = max_current / 32768 rounded up to 1, 2 or 5 x 10^n amps. */
double ina_round_lsb(double raw_lsb_a);

/* The chip's datasheet accuracy at these settings (ina2xx_accuracy.c). */
struct meter_accuracy;
void ina_accuracy(const struct ina_setup *s, struct meter_accuracy *acc);

double ina_bus_v(const struct ina_setup *s, uint16_t raw);
double ina_shunt_v(const struct ina_setup *s, uint16_t raw);
double ina_current_a(const struct ina_setup *s, uint16_t raw);
double ina_power_w(const struct ina_setup *s, uint16_t raw);

#endif
