/* SPDX-License-Identifier: MIT */
/* The ATORCH side of `iowatt emulate`: a 36-byte report pushed every second, commands answered. */
#include <string.h>

#include "core/clock.h"
#include "meters/atorch/atorch.h"
#include "meters/atorch/atorch_protocol.h"
#include "meters/emu/emu.h"

#define EMU_TEMP_C 26
#define EMU_DATA_V 0.6
#define BREAK_FLIP 0.5 /* share of broken reports with a flipped byte; the rest cut short */
#define FLIP_AT 9
#define FLIP 0x22
#define STRAY_LEN 2
#define REPLY_LEN 8
#define REPLY_OK 0x01

struct atorch_emu {
	uint8_t cmd[ATORCH_CMD_LEN];
	size_t have;
};

static void report(struct emu *e, uint64_t now)
{
	const int *type = emu_proto(e)->data;
	struct atorch_reading in = { .dev_type = *type, .temp_c = EMU_TEMP_C }, back;
	struct emu_reading r;
	uint8_t rep[ATORCH_REPORT_LEN + STRAY_LEN];
	static const uint8_t stray[STRAY_LEN] = { 0x55, 0xFF };
	size_t len = ATORCH_REPORT_LEN;
	const char *kind = "reply";

	emu_reading(e, now, &r);
	in.v = r.v;
	in.a = r.a;
	in.mah = r.mah;
	in.wh = r.mwh / 1000.0;
	in.dp_v = in.dn_v = in.dev_type == ATORCH_DEV_USB ? EMU_DATA_V : 0;
	in.seconds = (uint32_t)r.elapsed_s;
	atorch_encode(&in, rep);
	atorch_decode(rep, 1, &back);
	if (emu_corrupt(e)) {
		kind = "corrupt";
		if (emu_rand(e) < BREAK_FLIP) {
			rep[FLIP_AT] ^= FLIP;
		} else {
			memcpy(rep + ATORCH_REPORT_LEN / 2, stray, STRAY_LEN);
			len = ATORCH_REPORT_LEN / 2 + STRAY_LEN;
		}
	}
	emu_write(e, rep, len);
	emu_truth(e, now_ns(), back.v, back.a, back.v * back.a, kind);
}

/* A command with a good checksum gets "OK"; the counters are the emulator's own. */
static void atorch_input(struct emu *e, const uint8_t *buf, size_t n, uint64_t now)
{
	struct atorch_emu *st = emu_priv(e, sizeof(*st));
	uint8_t ok[REPLY_LEN] = { ATORCH_MAGIC0, ATORCH_MAGIC1, ATORCH_MSG_REPLY, 0x01, REPLY_OK };
	size_t i;

	(void)now;
	for (i = 0; i < n; i++) {
		if (st->have == 0 && buf[i] != ATORCH_MAGIC0)
			continue;
		st->cmd[st->have++] = buf[i];
		if (st->have < ATORCH_CMD_LEN)
			continue;
		st->have = 0;
		if (st->cmd[1] == ATORCH_MAGIC1 && st->cmd[2] == ATORCH_MSG_CMD &&
		    atorch_checksum(st->cmd, ATORCH_CMD_LEN) == st->cmd[ATORCH_CMD_LEN - 1]) {
			ok[REPLY_LEN - 1] = atorch_checksum(ok, REPLY_LEN);
			emu_write(e, ok, sizeof(ok));
		}
	}
}

static const int usb_type = ATORCH_DEV_USB, dc_type = ATORCH_DEV_DC;

const struct emu_protocol emu_atorch = {
	.name = "atorch",
	.title = "ATORCH USB",
	.summary = "ATORCH UD18/UD24-style USB meter: a 36-byte report every second",
	.push_ns = ATORCH_PERIOD_NS,
	.input = atorch_input,
	.push = report,
	.data = &usb_type,
};

const struct emu_protocol emu_atorch_dc = {
	.name = "atorch-dc",
	.driver = "atorch",
	.title = "ATORCH DC",
	.summary = "ATORCH DL24-style DC meter: the DC report layout, every second",
	.push_ns = ATORCH_PERIOD_NS,
	.input = atorch_input,
	.push = report,
	.data = &dc_type,
};
