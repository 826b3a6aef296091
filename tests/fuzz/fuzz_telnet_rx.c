/* SPDX-License-Identifier: MIT */
/* Fuzz target: a server's bytes through the telnet/RFC 2217 receive parser, split anywhere, answers sent in pieces. */
#include "fuzz.h"
#include "meters/transport/telnet.h"

static void on_sb(void *ctx, const uint8_t *sb, size_t len, int cut)
{
	struct rfc2217_answers *a = ctx;
	size_t i;

	if (len > TN_SB_MAX || (cut && len != TN_SB_MAX))
		abort();
	rfc2217_take_answer(a, sb, len);
	/* The signature reaches a log: printable, terminated within its array. */
	for (i = 0; a->signature[i]; i++)
		if (i >= sizeof(a->signature) - 1 || a->signature[i] < 0x20 || a->signature[i] > 0x7e)
			abort();
}

/*
 * One pass: the input in pieces of `chunk` bytes (0: whole); after each piece the socket
 * takes `take` bytes of the answers. The data bytes go to out (*out_len), what went out
 * to the wire to sent (*sent_len, up to its size).
 */
static void pass(const uint8_t *in, size_t n, size_t chunk, size_t take, uint8_t *out,
		 size_t *out_len, struct rfc2217_answers *a, uint8_t *sent, size_t sent_cap,
		 size_t *sent_len)
{
	struct telnet t;
	size_t off = 0, k, got, go;

	memset(a, 0, sizeof(*a));
	telnet_init(&t, on_sb, a);
	*out_len = 0;
	*sent_len = 0;
	while (off < n) {
		k = chunk && n - off > chunk ? chunk : n - off;
		got = telnet_rx(&t, in + off, k, out + *out_len);
		if (got > k || t.reply_len > sizeof(t.reply))
			abort();
		*out_len += got;
		off += k;
		go = take < t.reply_len ? take : t.reply_len;
		if (*sent_len + go <= sent_cap) {
			memcpy(sent + *sent_len, t.reply, go);
			*sent_len += go;
		}
		telnet_reply_sent(&t, go);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rfc2217_answers whole_a, split_a;
	uint8_t *whole, *split, sent[4096], scratch[64];
	size_t whole_len, split_len, sent_len, i, chunk, take;

	if (size < 2)
		return 0;
	/* The first byte picks the read size, the second how much of the answers the
	 * socket takes after each read (0: a peer that never reads). */
	chunk = (size_t)(data[0] % 61) + 1;
	take = data[1] % 70;
	data += 2;
	size -= 2;
	whole = xmalloc(size + 1);
	split = xmalloc(size + 1);
	pass(data, size, 0, sizeof(scratch), whole, &whole_len, &whole_a, scratch, 0, &sent_len);
	pass(data, size, chunk, take, split, &split_len, &split_a, sent, sizeof(sent), &sent_len);
	/* Where reads split the stream changes nothing but which answers fit. */
	if (whole_len != split_len || memcmp(whole, split, whole_len) ||
	    whole_a.seen != split_a.seen || whole_a.baud != split_a.baud ||
	    strcmp(whole_a.signature, split_a.signature))
		abort();
	/* What goes out is whole commands, IAC verb option, however little was taken. */
	for (i = 0; i < sent_len; i++)
		if ((i % 3 == 0 && sent[i] != TN_IAC) ||
		    (i % 3 == 1 && (sent[i] < TN_WILL || sent[i] > TN_DONT)))
			abort();
	free(whole);
	free(split);
	return 0;
}
