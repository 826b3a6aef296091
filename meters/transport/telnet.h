/* SPDX-License-Identifier: MIT */
/* Telnet as RFC 2217 uses it: IAC escaping, option negotiation and COM-PORT-OPTION frames. */
#ifndef IOWATT_TELNET_H
#define IOWATT_TELNET_H

#include <stddef.h>
#include <stdint.h>

/* RFC 854 commands. */
#define TN_SE 240
#define TN_NOP 241
#define TN_SB 250
#define TN_WILL 251
#define TN_WONT 252
#define TN_DO 253
#define TN_DONT 254
#define TN_IAC 255
/* Options: RFC 856 (BINARY), RFC 857 (ECHO), RFC 858 (SGA), RFC 2217 (COM-PORT-OPTION). */
#define TN_OPT_BINARY 0
#define TN_OPT_ECHO 1
#define TN_OPT_SGA 3
#define TN_OPT_COM_PORT 44
/* RFC 2217 section 3: client commands; the server answers with the same code + 100. */
#define CPO_SIGNATURE 0
#define CPO_SET_BAUDRATE 1
#define CPO_SET_DATASIZE 2
#define CPO_SET_PARITY 3
#define CPO_SET_STOPSIZE 4
#define CPO_SET_CONTROL 5
#define CPO_NOTIFY_LINESTATE 6
#define CPO_NOTIFY_MODEMSTATE 7
#define CPO_SERVER_OFFSET 100
#define CPO_PARITY_NONE 1
#define CPO_STOPSIZE_1 1
#define CPO_CONTROL_NO_FLOW 1
#define CPO_CONTROL_DTR_ON 8
#define CPO_CONTROL_RTS_ON 11

/* The longest subnegotiation kept (a signature is text); longer ones are cut, flagged. */
#define TN_SB_MAX 128
/* The most bytes telnet_negotiate_start or a command frame writes. */
#define TN_FRAME_MAX (2 * 16 + 8)

/*
 * One side's state of the four options we ask for: 0 not asked, 1 asked, 2 agreed,
 * -1 refused. Both ways for BINARY, SGA; ours only (WILL) for COM-PORT-OPTION.
 */
struct telnet_opts {
	signed char we_binary, they_binary, we_sga, they_sga, we_com_port, they_com_port;
};

/*
 * The receive side's state between reads: a command, option or subnegotiation may be
 * split across any two reads.
 */
struct telnet {
	enum { TN_ST_DATA, TN_ST_IAC, TN_ST_OPT, TN_ST_SB, TN_ST_SB_IAC } state;
	uint8_t verb; /* WILL, WONT, DO or DONT awaiting its option byte */
	uint8_t sb[TN_SB_MAX];
	size_t sb_len;
	int sb_cut; /* the subnegotiation was longer than TN_SB_MAX */
	struct telnet_opts opt;
	/* Replies to the server's requests, waiting to be sent: whole commands only, so a
	 * reply that finds no room (a peer that asks and never reads) is dropped, counted. */
	uint8_t reply[64];
	size_t reply_len;
	unsigned long replies_dropped;
	/* Called for each complete subnegotiation (its bytes after IAC SB, undoubled). */
	void (*on_sb)(void *ctx, const uint8_t *sb, size_t len, int cut);
	void *ctx;
};

void telnet_init(struct telnet *t, void (*on_sb)(void *ctx, const uint8_t *sb, size_t len,
						 int cut), void *ctx);
/* The client's opening requests: WILL/DO BINARY, WILL/DO SGA, WILL COM-PORT-OPTION. */
size_t telnet_negotiate_start(struct telnet *t, uint8_t *out, size_t cap);
/*
 * Takes n received bytes; writes the data bytes among them (IAC IAC undoubled) to out,
 * which has room for n, and returns how many. Option requests are answered into
 * t->reply (refused unless they are ours), subnegotiations go to on_sb.
 */
size_t telnet_rx(struct telnet *t, const uint8_t *in, size_t n, uint8_t *out);
/* The first n bytes of t->reply went out: the rest (a command's tail, say) stays first. */
void telnet_reply_sent(struct telnet *t, size_t n);

/* What a server's COM-PORT-OPTION answers said (RFC 2217 section 3). */
struct rfc2217_answers {
	unsigned seen;	    /* bit (1 << command) for each command answered */
	uint32_t baud;	    /* the rate the server set, 0 until it says */
	char signature[64]; /* its SIGNATURE text, cut, NUL-terminated; "" until it says */
};

/* Takes one subnegotiation (IAC SB's bytes, undoubled); anything but an answer is ignored. */
void rfc2217_take_answer(struct rfc2217_answers *a, const uint8_t *sb, size_t len);

/* Data for the wire: every 0xFF doubled. out has room for 2 * n; returns its length. */
size_t telnet_escape(const uint8_t *in, size_t n, uint8_t *out);
/* IAC SB COM-PORT-OPTION cmd value... IAC SE, the value escaped; returns its length. */
size_t telnet_cpo_frame(uint8_t cmd, const uint8_t *val, size_t len, uint8_t *out, size_t cap);

#endif
