/* SPDX-License-Identifier: MIT */
/* Fuzz target: a UM tester's byte stream through resync, frame checks and decoding. */
#include "fuzz.h"
#include "meters/um/um_protocol.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct um_rx rx;
	uint8_t frame[UM_FRAME_LEN];
	const struct um_model *m;
	struct meter_sample s;
	size_t off = 0, chunk;

	um_rx_reset(&rx);
	/* Serial reads arrive in pieces: the first byte picks the piece size. */
	chunk = size ? (size_t)(data[0] % 97) + 1 : 1;
	while (off < size) {
		size_t n = size - off < chunk ? size - off : chunk;

		um_rx_push(&rx, data + off, n);
		off += n;
		while (um_rx_next(&rx, frame, &m))
			um_decode(m, frame, &s);
	}
	return 0;
}
