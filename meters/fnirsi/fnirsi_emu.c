/* SPDX-License-Identifier: MIT */
/* The FNB58 side of `iowatt emulate`: hidraw bytes on a pty, a report every 40 ms once started. */
#include <string.h>

#include "core/clock.h"
#include "meters/emu/emu.h"
#include "meters/fnirsi/fnirsi.h"
#include "meters/fnirsi/fnirsi_protocol.h"

#define REPORT_NS (40 * NS_PER_MS)
/* The firmware stops streaming without a poll (OpenFNB58 calls it a watchdog); the real
 * timeout is unpublished. */
#define KEEPALIVE_TIMEOUT_NS (3 * NS_PER_SEC)
#define EMU_TEMP_C 28.5
#define EMU_DATA_V 0.6
#define BREAK_CRC 0.7 /* share of broken reports with a bad CRC; the rest a bad magic */
#define CRC_FLIP_AT 20
#define FLIP 0x5A

struct fnb_emu {
	uint8_t cmd[FNB_REPORT_LEN + 1]; /* report ID 0 in front, as hidraw writes it */
	size_t have;
	int inits;	  /* start-up commands seen */
	int streaming;
	uint64_t poll_ns; /* last keep-alive */
};

static void command(struct fnb_emu *st, const uint8_t *c, uint64_t now)
{
	if (c[0] != FNB_MAGIC || fnb_crc8(c + 1, FNB_REPORT_LEN - 2) != c[FNB_REPORT_LEN - 1])
		return; /* the meter ignores what it cannot read */
	if (c[1] == FNB_CMD_INIT1) {
		st->inits = 1;
		st->streaming = 0;
	} else if (st->inits && (c[1] == FNB_CMD_INIT2 || c[1] == FNB_CMD_POLL)) {
		st->streaming = ++st->inits >= 3 || st->streaming;
	}
	if (st->streaming)
		st->poll_ns = now;
}

static void fnb_input(struct emu *e, const uint8_t *buf, size_t n, uint64_t now)
{
	struct fnb_emu *st = emu_priv(e, sizeof(*st));
	size_t take;

	while (n) {
		take = sizeof(st->cmd) - st->have < n ? sizeof(st->cmd) - st->have : n;
		memcpy(st->cmd + st->have, buf, take);
		st->have += take;
		buf += take;
		n -= take;
		if (st->have == sizeof(st->cmd)) {
			command(st, st->cmd + 1, now);
			st->have = 0;
		}
	}
}

static void fnb_push(struct emu *e, uint64_t now)
{
	struct fnb_emu *st = emu_priv(e, sizeof(*st));
	struct fnb_reading rd[FNB_SAMPLES_PER_REPORT], back[FNB_SAMPLES_PER_REPORT];
	struct emu_reading r;
	uint8_t rep[FNB_REPORT_LEN];
	const char *kind = "reply";
	int i;

	if (!st->streaming)
		return;
	if (now - st->poll_ns > KEEPALIVE_TIMEOUT_NS) {
		st->streaming = 0;
		emu_truth(e, now, 0, 0, 0, "stopped");
		return;
	}
	emu_reading(e, now, &r);
	for (i = 0; i < FNB_SAMPLES_PER_REPORT; i++)
		rd[i] = (struct fnb_reading){ r.v, r.a, EMU_DATA_V, EMU_DATA_V, EMU_TEMP_C };
	fnb_encode(rd, rep);
	fnb_decode(rep, back);
	if (emu_corrupt(e)) {
		kind = "corrupt";
		if (emu_rand(e) < BREAK_CRC)
			rep[CRC_FLIP_AT] ^= FLIP;
		else
			rep[0] ^= FLIP;
	}
	emu_write(e, rep, sizeof(rep));
	emu_truth(e, now_ns(), back[0].v, back[0].a, back[0].v * back[0].a, kind);
}

const struct emu_protocol emu_fnb58 = {
	.name = "fnb58",
	.title = "FNB58",
	.summary = "FNIRSI FNB58: HID reports as hidraw gives them, 100 S/s once started",
	.push_ns = REPORT_NS,
	.input = fnb_input,
	.push = fnb_push,
	.data = &fnb_models[0],
};
