/* SPDX-License-Identifier: MIT */
/* RDTech UM24C/UM25C/UM34C wire format: model table, frame check, decode, resync, encode. */
#ifndef IOWATT_UM_PROTOCOL_H
#define IOWATT_UM_PROTOCOL_H

#include <stddef.h>
#include <stdint.h>

#include "meters/meter-internal.h"

#define UM_FRAME_LEN 130
#define UM_CMD_POLL 0xF0

/* One row per model, as libsigrok's rdtech-um keeps them: a new model is a new row. */
struct um_model {
	struct meter_model meta; /* name ("UM25C") and measurable range */
	uint16_t id;
	const char *driver; /* spec prefix, "um25c" */
	double v_lsb;	    /* volts per count at offset 2 */
	double a_lsb;	    /* amps per count at offset 4 */
	int (*check)(const uint8_t *frame);
	void (*seal)(uint8_t *frame); /* writes what check() tests (emulator, tests) */
};

#define UM_MODEL_COUNT 3
extern const struct um_model um_models[UM_MODEL_COUNT];
const struct um_model *um_model_by_id(uint16_t id);
const struct um_model *um_model_by_driver(const char *driver);

/* V, A and W (1 mW register) of a frame that passed its check. */
void um_decode(const struct um_model *m, const uint8_t *frame, struct meter_sample *s);

/*
 * Receive buffer with resync: bytes that cannot start a known model's frame passing
 * its check are dropped one at a time (counted in skipped).
 */
struct um_rx {
	uint8_t buf[2 * UM_FRAME_LEN];
	unsigned len;
	uint64_t skipped;
};

void um_rx_reset(struct um_rx *rx);
void um_rx_push(struct um_rx *rx, const uint8_t *data, size_t n);
/* 1 and the frame (copied, consumed) when one is complete and valid; 0 otherwise. */
int um_rx_next(struct um_rx *rx, uint8_t *frame, const struct um_model **model);

/* What the emulator puts in a reply. */
struct um_fields {
	double v, a, w, temp_c;
	double mah, mwh;     /* data group 0 */
	uint32_t rec_s;	     /* recorded seconds */
	double load_ohms;
};

void um_encode(const struct um_model *m, const struct um_fields *fl, uint8_t *f);

#endif
