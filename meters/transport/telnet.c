/* SPDX-License-Identifier: MIT */
/* Telnet as RFC 2217 uses it: IAC escaping, option negotiation and COM-PORT-OPTION frames. */
#include <string.h>

#include "meters/transport/telnet.h"

void telnet_init(struct telnet *t, void (*on_sb)(void *ctx, const uint8_t *sb, size_t len,
						 int cut), void *ctx)
{
	memset(t, 0, sizeof(*t));
	t->state = TN_ST_DATA;
	t->on_sb = on_sb;
	t->ctx = ctx;
}

static size_t put3(uint8_t *out, size_t at, size_t cap, uint8_t verb, uint8_t opt)
{
	if (at + 3 > cap)
		return at;
	out[at] = TN_IAC;
	out[at + 1] = verb;
	out[at + 2] = opt;
	return at + 3;
}

static void reply(struct telnet *t, uint8_t verb, uint8_t opt)
{
	size_t was = t->reply_len;

	t->reply_len = put3(t->reply, was, sizeof(t->reply), verb, opt);
	if (t->reply_len == was)
		t->replies_dropped++;
}

void telnet_reply_sent(struct telnet *t, size_t n)
{
	if (n >= t->reply_len) {
		t->reply_len = 0;
		return;
	}
	memmove(t->reply, t->reply + n, t->reply_len - n);
	t->reply_len -= n;
}

void rfc2217_take_answer(struct rfc2217_answers *a, const uint8_t *sb, size_t len)
{
	unsigned cmd;
	size_t n, i;

	if (len < 2 || sb[0] != TN_OPT_COM_PORT || sb[1] < CPO_SERVER_OFFSET)
		return;
	cmd = sb[1] - CPO_SERVER_OFFSET;
	if (cmd < 32)
		a->seen |= 1u << cmd;
	if (cmd == CPO_SET_BAUDRATE && len >= 6)
		a->baud = (uint32_t)sb[2] << 24 | (uint32_t)sb[3] << 16 | (uint32_t)sb[4] << 8 | sb[5];
	if (cmd == CPO_SIGNATURE) {
		n = len - 2 < sizeof(a->signature) - 1 ? len - 2 : sizeof(a->signature) - 1;
		/* A log prints it: a server's control bytes do not reach the terminal. */
		for (i = 0; i < n; i++)
			a->signature[i] = sb[2 + i] >= 0x20 && sb[2 + i] < 0x7f ? (char)sb[2 + i] : '?';
		a->signature[n] = '\0';
	}
}

size_t telnet_negotiate_start(struct telnet *t, uint8_t *out, size_t cap)
{
	size_t n = 0;

	/*
	 * BINARY both ways: a meter's frames are bytes, and without it a telnet peer may
	 * turn CR into CR NUL. SGA both ways: no half-duplex go-aheads. COM-PORT-OPTION is
	 * the client's to offer (RFC 2217 section 2).
	 */
	n = put3(out, n, cap, TN_WILL, TN_OPT_BINARY);
	n = put3(out, n, cap, TN_DO, TN_OPT_BINARY);
	n = put3(out, n, cap, TN_WILL, TN_OPT_SGA);
	n = put3(out, n, cap, TN_DO, TN_OPT_SGA);
	n = put3(out, n, cap, TN_WILL, TN_OPT_COM_PORT);
	t->opt.we_binary = t->opt.they_binary = t->opt.we_sga = t->opt.they_sga = 1;
	t->opt.we_com_port = 1;
	return n;
}

/*
 * The state of an option on the server's side (their = 1) or ours, or NULL: an option
 * we refuse. RFC 2217 has the client offer COM-PORT-OPTION; a server's own offer of it
 * is harmless and taken.
 */
static signed char *option_state(struct telnet *t, uint8_t opt, int their)
{
	switch (opt) {
	case TN_OPT_BINARY:
		return their ? &t->opt.they_binary : &t->opt.we_binary;
	case TN_OPT_SGA:
		return their ? &t->opt.they_sga : &t->opt.we_sga;
	case TN_OPT_COM_PORT:
		return their ? &t->opt.they_com_port : &t->opt.we_com_port;
	default:
		return NULL;
	}
}

/*
 * RFC 854's rule against loops: answer a request only when it changes the state, never
 * an acknowledgement of ours (RFC 1143 without its queue: we ask once).
 */
static void option(struct telnet *t, uint8_t verb, uint8_t opt)
{
	/* WILL/WONT speak of the server's side, DO/DONT of ours. */
	int their_side = verb == TN_WILL || verb == TN_WONT, on = verb == TN_WILL || verb == TN_DO;
	signed char *st = option_state(t, opt, their_side);
	uint8_t yes = their_side ? TN_DO : TN_WILL, no = their_side ? TN_DONT : TN_WONT;

	if (on && !st)
		reply(t, no, opt); /* not an option we take */
	else if (on && *st != 2 && *st != 1)
		reply(t, yes, opt);
	else if (!on && st && *st == 2)
		reply(t, no, opt); /* an agreed option turned off: acknowledged */
	if (st)
		*st = on ? 2 : -1;
}

static void sb_byte(struct telnet *t, uint8_t c)
{
	if (t->sb_len < sizeof(t->sb))
		t->sb[t->sb_len++] = c;
	else
		t->sb_cut = 1;
}

static void sb_end(struct telnet *t)
{
	if (t->on_sb && t->sb_len)
		t->on_sb(t->ctx, t->sb, t->sb_len, t->sb_cut);
	t->sb_len = 0;
	t->sb_cut = 0;
}

/* A byte after IAC (outside a subnegotiation): one of data or a command's start. */
static int after_iac(struct telnet *t, uint8_t c)
{
	switch (c) {
	case TN_IAC:
		t->state = TN_ST_DATA;
		return 1;
	case TN_WILL:
	case TN_WONT:
	case TN_DO:
	case TN_DONT:
		t->verb = c;
		t->state = TN_ST_OPT;
		return 0;
	case TN_SB:
		t->sb_len = 0;
		t->sb_cut = 0;
		t->state = TN_ST_SB;
		return 0;
	default: /* NOP, GA, DM, BRK, AYT...: nothing a meter's bytes need */
		t->state = TN_ST_DATA;
		return 0;
	}
}

size_t telnet_rx(struct telnet *t, const uint8_t *in, size_t n, uint8_t *out)
{
	size_t i, o = 0;
	uint8_t c;

	for (i = 0; i < n; i++) {
		c = in[i];
		switch (t->state) {
		case TN_ST_DATA:
			if (c == TN_IAC)
				t->state = TN_ST_IAC;
			else
				out[o++] = c;
			break;
		case TN_ST_IAC:
			if (after_iac(t, c))
				out[o++] = TN_IAC;
			break;
		case TN_ST_OPT:
			option(t, t->verb, c);
			t->state = TN_ST_DATA;
			break;
		case TN_ST_SB:
			if (c == TN_IAC)
				t->state = TN_ST_SB_IAC;
			else
				sb_byte(t, c);
			break;
		case TN_ST_SB_IAC:
			if (c == TN_IAC) {
				sb_byte(t, TN_IAC);
				t->state = TN_ST_SB;
				break;
			}
			/* IAC SE ends it; any other command ends it too (RFC 854 leaves a
			 * malformed one undefined) and is then read as a command. */
			sb_end(t);
			t->state = TN_ST_DATA;
			if (c != TN_SE && after_iac(t, c))
				out[o++] = TN_IAC;
			break;
		}
	}
	return o;
}

size_t telnet_escape(const uint8_t *in, size_t n, uint8_t *out)
{
	size_t i, o = 0;

	for (i = 0; i < n; i++) {
		out[o++] = in[i];
		if (in[i] == TN_IAC)
			out[o++] = TN_IAC;
	}
	return o;
}

size_t telnet_cpo_frame(uint8_t cmd, const uint8_t *val, size_t len, uint8_t *out, size_t cap)
{
	size_t i, o = 0;

	/* Worst case: 4 header bytes, every value byte doubled, IAC SE. */
	if (4 + 2 * len + 2 > cap)
		return 0;
	out[o++] = TN_IAC;
	out[o++] = TN_SB;
	out[o++] = TN_OPT_COM_PORT;
	out[o++] = cmd;
	for (i = 0; i < len; i++) {
		out[o++] = val[i];
		if (val[i] == TN_IAC)
			out[o++] = TN_IAC;
	}
	out[o++] = TN_IAC;
	out[o++] = TN_SE;
	return o;
}
