/* SPDX-License-Identifier: MIT */
/* FNIRSI HID reports: models, CRC-8, commands, decoding of the 4 readings, encoding. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "meters/fnirsi/fnirsi_protocol.h"

#define CRC_POLY 0x39
#define CRC_INIT 0x42
/* The CRC covers bytes 1..62: not the magic, not itself. */
#define CRC_FIRST 1
#define CRC_AT (FNB_REPORT_LEN - 1)
#define SAMPLES_AT 2
/* Offsets inside one 15-byte reading. */
#define R_VBUS 0
#define R_IBUS 4
#define R_DP 8
#define R_DN 10
#define R_UNKNOWN 12 /* always 1 in the captures; written as 1 */
#define R_TEMP 13
#define VBUS_LSB 1e-5	/* 10 uV */
#define IBUS_LSB 1e-5	/* 10 uA */
#define DATA_LSB 1e-3	/* 1 mV */
#define TEMP_LSB 0.1	/* 0.1 C */

/*
 * Ranges: the vendor's listings quote 4-28 V for these testers, 7 A for the FNB58 and
 * 6.5 A for the FNB48/FNB48S; the C1's limits were not found in a public source.
 */
#define FNB_SRC "vendor listing, unverified"
/* No accuracy statement was found in a public source: none is declared (unknown). */
#define NO_ACCURACY .accuracy = { .source = NULL }
#define FNB_RANGE(amps) { 4.0, 28.0, 0.0, (amps), 28.0 * (amps) }
#define FNB_UNKNOWN { NAN, NAN, 0.0, NAN, NAN }

const struct fnb_model fnb_models[FNB_MODEL_COUNT] = {
	{ { "FNB58", FNB_RANGE(7.0), FNB_SRC, NO_ACCURACY }, 0x2E3C, 0x5558, 1 },
	{ { "FNB48S", FNB_RANGE(6.5), FNB_SRC, NO_ACCURACY }, 0x2E3C, 0x0049, 1 },
	{ { "FNB48", FNB_RANGE(6.5), FNB_SRC, NO_ACCURACY }, 0x0483, 0x003A, 0 },
	{ { "C1", FNB_UNKNOWN, "no public source", NO_ACCURACY }, 0x0483, 0x003B, 0 },
};

const struct fnb_model *fnb_model_by_id(uint16_t vid, uint16_t pid)
{
	size_t i;

	for (i = 0; i < FNB_MODEL_COUNT; i++)
		if (fnb_models[i].vid == vid && fnb_models[i].pid == pid)
			return &fnb_models[i];
	return NULL;
}

uint8_t fnb_crc8(const uint8_t *p, size_t n)
{
	uint8_t crc = CRC_INIT;
	size_t i;
	int b;

	for (i = 0; i < n; i++) {
		crc ^= p[i];
		for (b = 0; b < 8; b++)
			crc = (uint8_t)(crc & 0x80 ? (crc << 1) ^ CRC_POLY : crc << 1);
	}
	return crc;
}

static uint8_t report_crc(const uint8_t *r)
{
	return fnb_crc8(r + CRC_FIRST, CRC_AT - CRC_FIRST);
}

void fnb_command(uint8_t cmd, uint8_t out[FNB_REPORT_LEN])
{
	memset(out, 0, FNB_REPORT_LEN);
	out[0] = FNB_MAGIC;
	out[1] = cmd;
	out[CRC_AT] = report_crc(out);
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static void put32(uint8_t *p, double x)
{
	uint32_t v = x <= 0 ? 0 : x >= 4294967295.0 ? 0xFFFFFFFFu : (uint32_t)lround(x);

	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static void put16(uint8_t *p, double x)
{
	uint16_t v = x <= 0 ? 0 : x >= 65535.0 ? 0xFFFF : (uint16_t)lround(x);

	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

int fnb_decode(const uint8_t r[FNB_REPORT_LEN], struct fnb_reading out[FNB_SAMPLES_PER_REPORT])
{
	const uint8_t *p;
	int i;

	if (r[0] != FNB_MAGIC || report_crc(r) != r[CRC_AT])
		return -EBADMSG;
	if (r[1] != FNB_TYPE_DATA)
		return 0;
	for (i = 0; i < FNB_SAMPLES_PER_REPORT; i++) {
		p = r + SAMPLES_AT + i * FNB_SAMPLE_LEN;
		out[i].v = le32(p + R_VBUS) * VBUS_LSB;
		out[i].a = le32(p + R_IBUS) * IBUS_LSB;
		out[i].dp_v = le16(p + R_DP) * DATA_LSB;
		out[i].dn_v = le16(p + R_DN) * DATA_LSB;
		out[i].temp_c = le16(p + R_TEMP) * TEMP_LSB;
	}
	return 1;
}

void fnb_encode(const struct fnb_reading in[FNB_SAMPLES_PER_REPORT], uint8_t r[FNB_REPORT_LEN])
{
	uint8_t *p;
	int i;

	memset(r, 0, FNB_REPORT_LEN);
	r[0] = FNB_MAGIC;
	r[1] = FNB_TYPE_DATA;
	for (i = 0; i < FNB_SAMPLES_PER_REPORT; i++) {
		p = r + SAMPLES_AT + i * FNB_SAMPLE_LEN;
		put32(p + R_VBUS, in[i].v / VBUS_LSB);
		put32(p + R_IBUS, in[i].a / IBUS_LSB);
		put16(p + R_DP, in[i].dp_v / DATA_LSB);
		put16(p + R_DN, in[i].dn_v / DATA_LSB);
		p[R_UNKNOWN] = 1;
		put16(p + R_TEMP, in[i].temp_c / TEMP_LSB);
	}
	r[CRC_AT] = report_crc(r);
}
