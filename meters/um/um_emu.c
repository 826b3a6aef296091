/* SPDX-License-Identifier: MIT */
/* The UM24C/UM25C/UM34C side of `iowatt emulate`: 0xF0 in, a 130-byte reply out, some broken. */
#include <string.h>

#include "core/clock.h"
#include "meters/emu/emu.h"
#include "meters/um/um.h"
#include "meters/um/um_protocol.h"

/* What the emulated meter shows besides V and A. */
#define UM_EMU_TEMP_C 27
/* Shares of the broken replies: bad end marker or XOR, cut short, unknown model ID; the
 * rest get stray bytes in front of a good frame, which a reader must resync past. */
#define BREAK_MARKER 0.4
#define BREAK_SHORT 0.7
#define BREAK_ID 0.85
#define MARKER_FLIP 0x5A
#define ID_FLIP 0x40
#define STRAY_LEN 3
static const uint8_t stray[STRAY_LEN] = { 0x00, 0x09, 0x55 };

/* Break a reply as --corrupt-pct asks; returns its length and the truth log's kind. */
static size_t um_break(struct emu *e, uint8_t *frame, const char **kind)
{
	double r = emu_rand(e);

	*kind = "corrupt";
	if (r < BREAK_MARKER) {
		frame[UM_FRAME_LEN - 1] ^= MARKER_FLIP;
		return UM_FRAME_LEN;
	}
	if (r < BREAK_SHORT)
		return UM_FRAME_LEN / 2 + (size_t)(emu_rand(e) * (UM_FRAME_LEN / 2 - 1));
	if (r < BREAK_ID) {
		frame[0] ^= ID_FLIP;
		return UM_FRAME_LEN;
	}
	memmove(frame + STRAY_LEN, frame, UM_FRAME_LEN);
	memcpy(frame, stray, STRAY_LEN);
	*kind = "resync";
	return UM_FRAME_LEN + STRAY_LEN;
}

static void um_reply(struct emu *e, uint64_t now)
{
	const struct um_model *m = emu_proto(e)->data;
	struct emu_reading r;
	struct um_fields f = { 0 };
	struct meter_sample s;
	uint8_t frame[UM_FRAME_LEN + STRAY_LEN];
	size_t len = UM_FRAME_LEN;
	const char *kind = "reply";

	emu_reading(e, now, &r);
	f.v = r.v;
	f.a = r.a;
	f.w = r.v * r.a;
	f.temp_c = UM_EMU_TEMP_C;
	f.mah = r.mah;
	f.mwh = r.mwh;
	f.rec_s = (uint32_t)r.elapsed_s;
	f.load_ohms = r.a > 0 ? r.v / r.a : 0;
	um_encode(m, &f, frame);
	um_decode(m, frame, &s);
	if (emu_corrupt(e))
		len = um_break(e, frame, &kind);
	emu_write(e, frame, len);
	emu_truth(e, now_ns(), s.v, s.a, s.w, kind);
}

/* Other commands (screen, brightness, groups) get no reply, as on the meter. */
static void um_input(struct emu *e, const uint8_t *buf, size_t n, uint64_t now)
{
	size_t i;

	(void)now;
	for (i = 0; i < n; i++)
		if (buf[i] == UM_CMD_POLL)
			um_reply(e, now_ns());
}

#define UM_EMULATOR(drv, idx, text)                                                     \
	const struct emu_protocol emu_##drv = {                                          \
		.name = #drv,                                                            \
		.title = text,                                                           \
		.summary = "RDTech " text ": answers 0xF0 with a 130-byte reply",        \
		.input = um_input,                                                       \
		.data = &um_models[idx],                                                 \
		.accuracy = &um_models[idx].meta.accuracy,                               \
	}

UM_EMULATOR(um24c, 0, "UM24C");
UM_EMULATOR(um25c, 1, "UM25C");
UM_EMULATOR(um34c, 2, "UM34C");
