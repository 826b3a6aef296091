/* SPDX-License-Identifier: MIT */
/* RDTech TC66/TC66C replies: AES-256-ECB (from a crypto library), pac blocks, CRC-16, decode. */
#ifndef IOWATT_TC66_PROTOCOL_H
#define IOWATT_TC66_PROTOCOL_H

#include <stddef.h>
#include <stdint.h>

#include "meters/meter-internal.h"

#define TC66_REPLY_LEN 192 /* the answer to "getva": 12 AES blocks */
#define TC66_BLOCK_LEN 64  /* a pac1/pac2/pac3 block of the plaintext */
#define TC66_CMD_GETVA "getva"
#define TC66_CMD_QUERY "query"

extern const struct meter_model tc66_models[2];

/* What one reply says. */
struct tc66_reading {
	char model[5], fw[5];
	uint32_t serial, runs;
	double v, a, w;
	double ohms, temp_c, dp_v, dn_v;
	double mah[2], mwh[2]; /* data groups 0 and 1 */
};

/* CRC-16/MODBUS: poly 0xA001 reflected, init 0xFFFF. */
uint16_t tc66_crc16(const uint8_t *p, size_t n);
/* 192 bytes in place: ciphertext <-> plaintext with the vendor's fixed key. */
void tc66_decrypt(uint8_t buf[TC66_REPLY_LEN]);
void tc66_encrypt(uint8_t buf[TC66_REPLY_LEN]);
/* Checks the three blocks' magics and CRCs and decodes: 0, or -EBADMSG. */
int tc66_decode(const uint8_t plain[TC66_REPLY_LEN], struct tc66_reading *r);
/* A plaintext reply (magics and CRCs set) from a reading (the emulator, tests). */
void tc66_encode(const struct tc66_reading *r, uint8_t plain[TC66_REPLY_LEN]);

#endif
