/* SPDX-License-Identifier: MIT */
/* ATORCH USB and DC meters' pushed reports: checksum, layouts, resync, commands, encoding. */
#ifndef IOWATT_ATORCH_PROTOCOL_H
#define IOWATT_ATORCH_PROTOCOL_H

#include <stddef.h>
#include <stdint.h>

#include "meters/meter-internal.h"

#define ATORCH_REPORT_LEN 36
#define ATORCH_CMD_LEN 10
#define ATORCH_MAGIC0 0xFF
#define ATORCH_MAGIC1 0x55
#define ATORCH_MSG_REPORT 0x01
#define ATORCH_MSG_REPLY 0x02
#define ATORCH_MSG_CMD 0x11
#define ATORCH_DEV_AC 0x01
#define ATORCH_DEV_DC 0x02
#define ATORCH_DEV_USB 0x03
#define ATORCH_CMD_RESET_ALL 0x05
#define ATORCH_PERIOD_NS 1000000000ULL /* about one report a second */

extern const struct meter_model atorch_models[2];

struct atorch_reading {
	int dev_type;  /* ATORCH_DEV_USB or ATORCH_DEV_DC */
	double v, a;
	double mah, wh;
	double dp_v, dn_v; /* USB only, else NAN */
	double temp_c;
	uint32_t seconds; /* the meter's run time */
};

/* Sum of bytes 2..len-2, low 8 bits, XOR 0x44. */
uint8_t atorch_checksum(const uint8_t *frame, size_t len);
/* A host command: FF 55 11 dev cmd <u32 BE value> ck. */
void atorch_command(uint8_t dev_type, uint8_t cmd, uint32_t value, uint8_t out[ATORCH_CMD_LEN]);
/* A 36-byte report whose magic and type fit: 0, -EBADMSG (bad checksum), -ENOTSUP
 * (an AC meter or an unknown type). check 0 skips the checksum (J7-C firmware). */
int atorch_decode(const uint8_t r[ATORCH_REPORT_LEN], int check, struct atorch_reading *out);
void atorch_encode(const struct atorch_reading *in, uint8_t r[ATORCH_REPORT_LEN]);

/*
 * Receive buffer: bytes that cannot start FF 55 01 are dropped (counted in skipped); a
 * report is taken once 36 bytes from a magic are in.
 */
struct atorch_rx {
	uint8_t buf[8 * ATORCH_REPORT_LEN];
	unsigned len;
	uint64_t skipped;
};

void atorch_rx_push(struct atorch_rx *rx, const uint8_t *data, size_t n);
/* 1 and a candidate report (consumed) once one is complete; 0 otherwise. */
int atorch_rx_next(struct atorch_rx *rx, uint8_t r[ATORCH_REPORT_LEN]);
/* After a report failed its check: drop its first byte so the search goes on inside it. */
void atorch_rx_reject(struct atorch_rx *rx, const uint8_t r[ATORCH_REPORT_LEN]);

#endif
