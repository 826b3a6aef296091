/* SPDX-License-Identifier: MIT */
/* FNIRSI FNB48/FNB48S/FNB58/C1 HID reports: models, CRC-8, commands, decoding, encoding. */
#ifndef IOWATT_FNIRSI_PROTOCOL_H
#define IOWATT_FNIRSI_PROTOCOL_H

#include <stddef.h>
#include <stdint.h>

#include "meters/meter-internal.h"

#define FNB_REPORT_LEN 64
#define FNB_MAGIC 0xAA
#define FNB_TYPE_DATA 0x04
#define FNB_SAMPLES_PER_REPORT 4
#define FNB_SAMPLE_LEN 15
#define FNB_PERIOD_NS (10 * 1000 * 1000ULL) /* 100 samples/s */
#define FNB_CMD_INIT1 0x81
#define FNB_CMD_INIT2 0x82
#define FNB_CMD_POLL 0x83

/* One row per USB identity; the two families differ in their start-up sequence. */
struct fnb_model {
	struct meter_model meta;
	uint16_t vid, pid;
	int keepalive_82; /* FNB58/FNB48S: 81, 82, 82 then 83 each second; else 81, 82, 83 */
};

#define FNB_MODEL_COUNT 4
extern const struct fnb_model fnb_models[FNB_MODEL_COUNT];
const struct fnb_model *fnb_model_by_id(uint16_t vid, uint16_t pid);

/* One of the four readings of a data report, with the extra channels the meter sends. */
struct fnb_reading {
	double v, a;	    /* VBUS, IBUS */
	double dp_v, dn_v;  /* D+ and D- */
	double temp_c;
};

/* CRC-8, poly 0x39, init 0x42, over bytes 1..62 of a report or command. */
uint8_t fnb_crc8(const uint8_t *p, size_t n);
/* A 64-byte host command: AA, cmd, zeros, CRC. */
void fnb_command(uint8_t cmd, uint8_t out[FNB_REPORT_LEN]);
/*
 * A report from the meter: 4 readings and 1 for a data report with a good CRC, 0 for a
 * report of another type (skipped, not an error), -EBADMSG for a bad magic or CRC.
 */
int fnb_decode(const uint8_t r[FNB_REPORT_LEN], struct fnb_reading out[FNB_SAMPLES_PER_REPORT]);
/* A data report from four readings (the emulator, tests). */
void fnb_encode(const struct fnb_reading in[FNB_SAMPLES_PER_REPORT], uint8_t r[FNB_REPORT_LEN]);

#endif
