/* SPDX-License-Identifier: MIT */
/* The TC66C side of `iowatt emulate`: "getva" in, 192 AES-encrypted bytes out, some broken. */
#include <string.h>

#include "core/clock.h"
#include "meters/emu/emu.h"
#include "meters/tc66/tc66.h"
#include "meters/tc66/tc66_protocol.h"

#define CMD_MAX 32
#define EMU_TEMP_C 27
#define EMU_DATA_V 0.6
#define EMU_SERIAL 0x4A4A8562u
#define BREAK_FLIP 0.6 /* share of broken replies with a flipped byte; the rest cut short */
#define FLIP_AT 50
#define FLIP 0x10
#define FIRMWARE_REPLY "firm"

struct tc66_emu {
	char cmd[CMD_MAX + 1];
	size_t have;
	uint32_t runs;
};

static void reply(struct emu *e, uint64_t now)
{
	struct tc66_reading in = { .model = "TC66", .fw = "1.18", .serial = EMU_SERIAL,
				   .temp_c = EMU_TEMP_C, .dp_v = EMU_DATA_V, .dn_v = EMU_DATA_V };
	struct tc66_reading back;
	struct emu_reading r;
	uint8_t buf[TC66_REPLY_LEN];
	size_t len = sizeof(buf);
	const char *kind = "reply";

	emu_reading(e, now, &r);
	in.v = r.v;
	in.a = r.a;
	in.w = r.v * r.a;
	in.ohms = r.a > 0 ? r.v / r.a : 0;
	in.mah[0] = r.mah;
	in.mwh[0] = r.mwh;
	tc66_encode(&in, buf);
	tc66_decode(buf, &back);
	tc66_encrypt(buf);
	if (emu_corrupt(e)) {
		kind = "corrupt";
		if (emu_rand(e) < BREAK_FLIP)
			buf[FLIP_AT] ^= FLIP;
		else
			len = TC66_REPLY_LEN / 2;
	}
	emu_write(e, buf, len);
	emu_truth(e, now_ns(), back.v, back.a, back.w, kind);
}

/* Commands come without a terminator: look for the known words in what arrived. */
static void tc66_input(struct emu *e, const uint8_t *buf, size_t n, uint64_t now)
{
	struct tc66_emu *st = emu_priv(e, sizeof(*st));
	size_t take = n < CMD_MAX - st->have ? n : CMD_MAX - st->have;

	memcpy(st->cmd + st->have, buf, take);
	st->have += take;
	st->cmd[st->have] = '\0';
	if (strstr(st->cmd, TC66_CMD_GETVA)) {
		reply(e, now_ns());
	} else if (strstr(st->cmd, TC66_CMD_QUERY)) {
		emu_write(e, FIRMWARE_REPLY, strlen(FIRMWARE_REPLY));
	} else {
		if (st->have == CMD_MAX)
			st->have = 0; /* noise: start again */
		return;
	}
	(void)now;
	st->have = 0;
}

const struct emu_protocol emu_tc66c = {
	.name = "tc66c",
	.title = "TC66C",
	.summary = "RDTech TC66C: answers getva with 192 AES-256-ECB encrypted bytes",
	.input = tc66_input,
	.data = &tc66_models[0],
};
