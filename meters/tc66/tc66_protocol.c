/* SPDX-License-Identifier: MIT */
/* RDTech TC66/TC66C replies: AES-256-ECB through nettle, pac blocks with CRC-16, decode. */
#include <errno.h>
#include <math.h>
#include <nettle/aes.h>
#include <string.h>

#include "meters/tc66/tc66_protocol.h"

/* The fixed key of the vendor's application (sigrok rdtech-tc, TheHWcave, jedie). */
static const uint8_t tc66_key[AES256_KEY_SIZE] = {
	0x58, 0x21, 0xFA, 0x56, 0x01, 0xB2, 0xF0, 0x26, 0x87, 0xFF, 0x12,
	0x04, 0x62, 0x2A, 0x4F, 0xB0, 0x86, 0xF4, 0x02, 0x60, 0x81, 0x6F,
	0x9A, 0x0B, 0xA7, 0xF1, 0x06, 0x61, 0x9A, 0xB8, 0x72, 0x88,
};

#define CRC_INIT 0xFFFF
#define CRC_POLY_REFLECTED 0xA001
#define MAGIC_LEN 4
#define CRC_AT 60 /* in each block: u32 LE, CRC in the low half */
#define NBLOCKS 3
/* Absolute offsets in the plaintext. */
#define O_MODEL 4
#define O_FW 8
#define O_SERIAL 12
#define O_RUNS 44
#define O_V 48
#define O_I 52
#define O_P 56
#define O_OHMS 68
#define O_GROUP0 72 /* mAh, mWh; group 1 follows */
#define GROUP_LEN 8
#define O_TEMP_SIGN 88
#define O_TEMP 92
#define O_DP 96
#define O_DN 100
#define V_LSB 1e-4    /* 100 uV */
#define I_LSB 1e-5    /* 10 uA */
#define P_LSB 1e-4    /* 100 uW */
#define OHM_LSB 0.1
#define DATA_LSB 0.01 /* 10 mV */

/*
 * Ranges: the maker's listing gives the TC66C 3.5-24 V; its current limit is quoted as 3 A
 * and as 5 A in different listings, so none is declared.
 */
#define TC66_RANGE { 3.5, 24.0, 0.0, NAN, NAN }
#define TC66_SRC "V: maker's listing; A: sources disagree"
/* No accuracy statement was found in a public source: none is declared (unknown). */
#define NO_ACCURACY .accuracy = { .source = NULL }

const struct meter_model tc66_models[2] = {
	{ "TC66C", TC66_RANGE, TC66_SRC, NO_ACCURACY },
	{ "TC66", TC66_RANGE, TC66_SRC, NO_ACCURACY },
};

static const char *const magics[NBLOCKS] = { "pac1", "pac2", "pac3" };

uint16_t tc66_crc16(const uint8_t *p, size_t n)
{
	uint16_t crc = CRC_INIT;
	size_t i;
	int b;

	for (i = 0; i < n; i++) {
		crc ^= p[i];
		for (b = 0; b < 8; b++)
			crc = crc & 1 ? (uint16_t)((crc >> 1) ^ CRC_POLY_REFLECTED) : crc >> 1;
	}
	return crc;
}

/* ECB: nettle's block functions take a run of blocks and treat each alone. */
void tc66_decrypt(uint8_t buf[TC66_REPLY_LEN])
{
	struct aes256_ctx ctx;

	aes256_set_decrypt_key(&ctx, tc66_key);
	aes256_decrypt(&ctx, TC66_REPLY_LEN, buf, buf);
}

void tc66_encrypt(uint8_t buf[TC66_REPLY_LEN])
{
	struct aes256_ctx ctx;

	aes256_set_encrypt_key(&ctx, tc66_key);
	aes256_encrypt(&ctx, TC66_REPLY_LEN, buf, buf);
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static uint32_t counts(double x, double lsb)
{
	double c = round(x / lsb);

	return c <= 0 ? 0 : c >= 4294967295.0 ? 0xFFFFFFFFu : (uint32_t)c;
}

static void text4(char out[5], const uint8_t *p)
{
	memcpy(out, p, 4);
	out[4] = '\0';
}

int tc66_decode(const uint8_t plain[TC66_REPLY_LEN], struct tc66_reading *r)
{
	const uint8_t *blk;
	int i;

	for (i = 0; i < NBLOCKS; i++) {
		blk = plain + i * TC66_BLOCK_LEN;
		if (memcmp(blk, magics[i], MAGIC_LEN) ||
		    le32(blk + CRC_AT) != tc66_crc16(blk, CRC_AT))
			return -EBADMSG;
	}
	text4(r->model, plain + O_MODEL);
	text4(r->fw, plain + O_FW);
	r->serial = le32(plain + O_SERIAL);
	r->runs = le32(plain + O_RUNS);
	r->v = le32(plain + O_V) * V_LSB;
	r->a = le32(plain + O_I) * I_LSB;
	r->w = le32(plain + O_P) * P_LSB;
	r->ohms = le32(plain + O_OHMS) * OHM_LSB;
	for (i = 0; i < 2; i++) {
		r->mah[i] = le32(plain + O_GROUP0 + i * GROUP_LEN);
		r->mwh[i] = le32(plain + O_GROUP0 + i * GROUP_LEN + 4);
	}
	r->temp_c = le32(plain + O_TEMP) * (le32(plain + O_TEMP_SIGN) == 1 ? -1.0 : 1.0);
	r->dp_v = le32(plain + O_DP) * DATA_LSB;
	r->dn_v = le32(plain + O_DN) * DATA_LSB;
	return 0;
}

void tc66_encode(const struct tc66_reading *r, uint8_t plain[TC66_REPLY_LEN])
{
	uint8_t *blk;
	int i;

	memset(plain, 0, TC66_REPLY_LEN);
	memcpy(plain + O_MODEL, r->model, 4);
	memcpy(plain + O_FW, r->fw, 4);
	put32(plain + O_SERIAL, r->serial);
	put32(plain + O_RUNS, r->runs);
	put32(plain + O_V, counts(r->v, V_LSB));
	put32(plain + O_I, counts(r->a, I_LSB));
	put32(plain + O_P, counts(r->w, P_LSB));
	put32(plain + O_OHMS, counts(r->ohms, OHM_LSB));
	for (i = 0; i < 2; i++) {
		put32(plain + O_GROUP0 + i * GROUP_LEN, counts(r->mah[i], 1));
		put32(plain + O_GROUP0 + i * GROUP_LEN + 4, counts(r->mwh[i], 1));
	}
	put32(plain + O_TEMP_SIGN, r->temp_c < 0);
	put32(plain + O_TEMP, counts(fabs(r->temp_c), 1));
	put32(plain + O_DP, counts(r->dp_v, DATA_LSB));
	put32(plain + O_DN, counts(r->dn_v, DATA_LSB));
	for (i = 0; i < NBLOCKS; i++) {
		blk = plain + i * TC66_BLOCK_LEN;
		memcpy(blk, magics[i], MAGIC_LEN);
		put32(blk + CRC_AT, tc66_crc16(blk, CRC_AT));
	}
}
