/* SPDX-License-Identifier: MIT */
/* UM24C/UM25C/UM34C frames: checks, per-model scaling, resync, auto-detection. */
#include <stdint.h>
#include <string.h>

#include "meters/um/um_protocol.h"
#include "tap.h"

/* Frames are built here byte by byte, not with um_encode, so a shared bug cannot hide. */
static void w16(uint8_t *f, int off, unsigned v)
{
	f[off] = (uint8_t)(v >> 8);
	f[off + 1] = (uint8_t)v;
}

static void w32(uint8_t *f, int off, uint32_t v)
{
	f[off] = (uint8_t)(v >> 24);
	f[off + 1] = (uint8_t)(v >> 16);
	f[off + 2] = (uint8_t)(v >> 8);
	f[off + 3] = (uint8_t)v;
}

static void craft(uint8_t *f, unsigned id, unsigned v_raw, unsigned a_raw, uint32_t mw)
{
	static const int x[] = { 1,  3,	 7,  9,	 15, 17, 19, 23, 31,  39,  41,	45,  49,  53,  55,  57,
				 59, 63, 67, 69, 73, 79, 83, 89, 97, 99, 109, 111, 113, 119, 121, 127 };
	uint8_t c = 0;
	size_t i;

	memset(f, 0, 130);
	w16(f, 0, id);
	w16(f, 2, v_raw);
	w16(f, 4, a_raw);
	w32(f, 6, mw);
	w16(f, 10, 27);
	for (i = 16; i < 96; i++)
		f[i] = (uint8_t)(i * 7); /* busy bytes so the UM34C XOR is not trivially 0 */
	if (id == 0x0D4C) {
		for (i = 0; i < sizeof(x) / sizeof(x[0]); i++)
			c ^= f[x[i]];
		f[129] = c;
	} else {
		w16(f, 128, 0xFFF1);
	}
}

static int feed_one(const uint8_t *bytes, size_t n, struct meter_sample *s,
		    const struct um_model **m, uint64_t *skipped)
{
	struct um_rx rx;
	uint8_t frame[UM_FRAME_LEN];
	int got;

	memset(&rx, 0, sizeof(rx));
	um_rx_push(&rx, bytes, n);
	got = um_rx_next(&rx, frame, m);
	if (got)
		um_decode(*m, frame, s);
	*skipped = rx.skipped;
	return got;
}

int main(void)
{
	uint8_t f[130], big[400];
	struct meter_sample s;
	const struct um_model *m = NULL;
	struct um_rx rx;
	uint8_t frame[UM_FRAME_LEN];
	uint64_t skipped;
	size_t i;
	int got, n;

	/* UM25C: 1 mV and 0.1 mA per count. */
	craft(f, 0x09C9, 5081, 2503, 1271);
	ok(feed_one(f, 130, &s, &m, &skipped), "UM25C good frame is accepted");
	is_str(m ? m->meta.name : NULL, "UM25C", "UM25C detected from its ID");
	is_dbl(s.v, 5.081, 1e-9, "UM25C volts at 1 mV");
	is_dbl(s.a, 0.2503, 1e-9, "UM25C amps at 0.1 mA");
	is_dbl(s.w, 1.271, 1e-9, "UM25C power at 1 mW");
	is_int(skipped, 0, "no bytes skipped for an aligned frame");

	/* UM24C: 10 mV and 1 mA. */
	craft(f, 0x0963, 508, 250, 1270);
	ok(feed_one(f, 130, &s, &m, &skipped), "UM24C good frame is accepted");
	is_str(m ? m->meta.name : NULL, "UM24C", "UM24C detected");
	is_dbl(s.v, 5.08, 1e-9, "UM24C volts at 10 mV");
	is_dbl(s.a, 0.250, 1e-9, "UM24C amps at 1 mA");

	/* UM34C: 10 mV, 1 mA, XOR check. */
	craft(f, 0x0D4C, 1203, 1500, 18045);
	ok(feed_one(f, 130, &s, &m, &skipped), "UM34C frame with a good XOR is accepted");
	is_str(m ? m->meta.name : NULL, "UM34C", "UM34C detected");
	is_dbl(s.v, 12.03, 1e-9, "UM34C volts at 10 mV");
	is_dbl(s.a, 1.5, 1e-9, "UM34C amps at 1 mA");
	ok(m && m->check(f), "UM34C check passes on the crafted frame");
	f[129] ^= 0x01;
	ok(!feed_one(f, 130, &s, &m, &skipped), "UM34C frame with a bad XOR is dropped");
	f[129] ^= 0x01;
	f[41] ^= 0x10; /* a byte in the XOR set */
	ok(!feed_one(f, 130, &s, &m, &skipped), "UM34C frame with a flipped covered byte is dropped");
	/* A UM34C frame does not carry 0xFFF1: it must not pass as UM24C/25C either. */
	ok(!um_model_by_id(0x0D4C)->check(f), "XOR check fails after corruption");

	/* Bad end marker: dropped, never guessed. */
	craft(f, 0x09C9, 5000, 1000, 500);
	f[129] = 0xF2;
	ok(!feed_one(f, 130, &s, &m, &skipped), "UM25C with a bad end marker is dropped");
	ok(skipped > 0, "its bytes are skipped while resyncing");

	/* Short reply: waits for more, yields nothing. */
	craft(f, 0x09C9, 5000, 1000, 500);
	ok(!feed_one(f, 100, &s, &m, &skipped), "a short UM25C reply yields no frame");

	/* Misaligned: 5 stray bytes (one a model ID's first byte) ahead of a good frame. */
	craft(f, 0x09C9, 4990, 850, 424);
	big[0] = 0x00;
	big[1] = 0x09;
	big[2] = 0x63; /* UM24C's ID, but what follows fails its check */
	big[3] = 0x0D;
	big[4] = 0xAA;
	memcpy(big + 5, f, 130);
	ok(feed_one(big, 135, &s, &m, &skipped), "resync finds the frame after stray bytes");
	is_int(skipped, 5, "exactly the 5 stray bytes are dropped");
	is_dbl(s.a, 0.085, 1e-9, "the resynced frame decodes right");

	/* The frame arriving in pieces, as it does over Bluetooth. */
	memset(&rx, 0, sizeof(rx));
	got = 0;
	for (i = 0; i < 130; i += 13) {
		um_rx_push(&rx, f + i, 13);
		n = um_rx_next(&rx, frame, &m);
		if (n && i + 13 < 130)
			got = -1;
		if (n && got == 0)
			got = 1;
	}
	is_int(got, 1, "a frame split into 13-byte pieces is found once, when complete");

	/* Two frames back to back: both come out, in order. */
	craft(big, 0x09C9, 5000, 100, 50);
	craft(big + 130, 0x0963, 500, 200, 1000);
	memset(&rx, 0, sizeof(rx));
	um_rx_push(&rx, big, 260);
	ok(um_rx_next(&rx, frame, &m) && m->id == 0x09C9, "first of two frames is UM25C");
	ok(um_rx_next(&rx, frame, &m) && m->id == 0x0963, "second of two frames is UM24C");
	ok(!um_rx_next(&rx, frame, &m), "then nothing");

	/* Garbage only: everything is dropped, the buffer never fills up. */
	memset(&rx, 0, sizeof(rx));
	for (i = 0; i < sizeof(big); i++)
		big[i] = (uint8_t)(0x30 + i % 7);
	um_rx_push(&rx, big, sizeof(big));
	ok(!um_rx_next(&rx, frame, &m), "garbage yields no frame");
	is_int(rx.len, 0, "garbage is dropped");

	/* Tables: lookup by driver name and by ID; the emulator's encoder round-trips. */
	ok(um_model_by_driver("um25c") == um_model_by_id(0x09C9), "um25c maps to ID 0x09C9");
	ok(um_model_by_driver("UM34C") == um_model_by_id(0x0D4C), "names are case-insensitive");
	ok(!um_model_by_driver("um") && !um_model_by_id(0x1234), "unknown model names/IDs");
	for (i = 0; i < UM_MODEL_COUNT; i++) {
		struct um_fields fl = { .v = 5.05, .a = 0.3, .w = 1.515, .temp_c = 30 };

		um_encode(&um_models[i], &fl, f);
		ok(um_models[i].check(f), "%s: encoded frame passes its own check", um_models[i].meta.name);
		ok(feed_one(f, 130, &s, &m, &skipped) && m == &um_models[i] &&
			   fabs(s.a - 0.3) < 1e-9 && fabs(s.v - 5.05) < 0.006,
		   "%s: encoded frame decodes to what was encoded", um_models[i].meta.name);
	}
	return done_testing();
}
