/* SPDX-License-Identifier: MIT */
/* RFC 2217's telnet layer: IAC doubling, negotiation, subnegotiations split at every byte; URLs. */
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/log.h"
#include "meters/transport/net_addr.h"
#include "meters/transport/telnet.h"
#include "tap.h"

#define MAX_SB 8

/* What one pass over a stream produced: data, subnegotiations, replies. */
struct seen {
	uint8_t data[256];
	size_t data_len;
	uint8_t sb[MAX_SB][TN_SB_MAX];
	size_t sb_len[MAX_SB];
	int sb_cut[MAX_SB];
	int nsb;
	uint8_t reply[128];
	size_t reply_len;
};

static void on_sb(void *ctx, const uint8_t *sb, size_t len, int cut)
{
	struct seen *s = ctx;

	if (s->nsb == MAX_SB)
		return;
	memcpy(s->sb[s->nsb], sb, len);
	s->sb_len[s->nsb] = len;
	s->sb_cut[s->nsb] = cut;
	s->nsb++;
}

/* Feeds in split at the given cut points (sorted), collecting everything into s. */
static void feed(const uint8_t *in, size_t n, const size_t *cuts, int ncuts, struct seen *s)
{
	struct telnet t;
	uint8_t start[TN_FRAME_MAX];
	size_t from = 0, to;
	int i;

	memset(s, 0, sizeof(*s));
	telnet_init(&t, on_sb, s);
	telnet_negotiate_start(&t, start, sizeof(start));
	for (i = 0; i <= ncuts; i++) {
		to = i < ncuts ? cuts[i] : n;
		s->data_len += telnet_rx(&t, in + from, to - from, s->data + s->data_len);
		if (s->reply_len + t.reply_len <= sizeof(s->reply)) {
			memcpy(s->reply + s->reply_len, t.reply, t.reply_len);
			s->reply_len += t.reply_len;
		}
		t.reply_len = 0;
		from = to;
	}
}

static int same(const struct seen *a, const struct seen *b)
{
	int i;

	if (a->data_len != b->data_len || memcmp(a->data, b->data, a->data_len) ||
	    a->nsb != b->nsb || a->reply_len != b->reply_len ||
	    memcmp(a->reply, b->reply, a->reply_len))
		return 0;
	for (i = 0; i < a->nsb; i++)
		if (a->sb_len[i] != b->sb_len[i] || memcmp(a->sb[i], b->sb[i], a->sb_len[i]) ||
		    a->sb_cut[i] != b->sb_cut[i])
			return 0;
	return 1;
}

/* A server's burst: answers, a baud reply whose value holds 0xFF, data with 0xFF in it. */
static const uint8_t stream[] = {
	'p', 'a', 'c', TN_IAC, TN_IAC, 0x00, /* data: p a c 0xFF 0x00 */
	TN_IAC, TN_DO, TN_OPT_BINARY, TN_IAC, TN_WILL, TN_OPT_BINARY, /* acks: no reply */
	TN_IAC, TN_DO, TN_OPT_SGA, TN_IAC, TN_WILL, TN_OPT_SGA,
	TN_IAC, TN_DO, TN_OPT_COM_PORT,
	TN_IAC, TN_WILL, TN_OPT_ECHO, /* not wanted: DONT ECHO */
	TN_IAC, TN_DO, 24,	      /* TERMINAL-TYPE: WONT 24 */
	TN_IAC, TN_NOP, 0x41,
	/* SET-BAUDRATE answer, 0x00FFC200 (16761344): its 0xFF doubled on the wire */
	TN_IAC, TN_SB, TN_OPT_COM_PORT, 101, 0x00, TN_IAC, TN_IAC, 0xC2, 0x00, TN_IAC, TN_SE,
	0xAA, TN_IAC, TN_IAC, TN_IAC, TN_IAC, 0xBB, /* data: AA FF FF BB */
	TN_IAC, TN_SB, TN_OPT_COM_PORT, 100, 's', '2', 'n', TN_IAC, TN_SE,
	TN_IAC, TN_DO, TN_OPT_BINARY, /* a repeated ack: still no reply (no loop) */
};

static void test_rx_whole(struct seen *whole)
{
	static const uint8_t want_data[] = { 'p', 'a', 'c', 0xFF, 0x00, 0x41, 0xAA, 0xFF, 0xFF, 0xBB };
	static const uint8_t want_reply[] = { TN_IAC, TN_DONT, TN_OPT_ECHO, TN_IAC, TN_WONT, 24 };
	static const uint8_t want_baud[] = { TN_OPT_COM_PORT, 101, 0x00, 0xFF, 0xC2, 0x00 };

	feed(stream, sizeof(stream), NULL, 0, whole);
	ok(whole->data_len == sizeof(want_data) && !memcmp(whole->data, want_data, sizeof(want_data)),
	   "data bytes come through, IAC IAC as one 0xFF, commands taken out");
	ok(whole->reply_len == sizeof(want_reply) &&
		   !memcmp(whole->reply, want_reply, sizeof(want_reply)),
	   "unwanted options refused (DONT ECHO, WONT TERMINAL-TYPE), acks not answered");
	is_int(whole->nsb, 2, "two subnegotiations");
	ok(whole->sb_len[0] == sizeof(want_baud) && !memcmp(whole->sb[0], want_baud, sizeof(want_baud)),
	   "the baud answer's doubled 0xFF is undoubled");
	ok(whole->sb_len[1] == 5 && !memcmp(whole->sb[1] + 2, "s2n", 3), "the signature's text");
}

static void test_rx_split(const struct seen *whole)
{
	struct seen s;
	size_t cuts[sizeof(stream)], i, j;
	int bad_one = -1, bad_two = 0;

	/* Every single split point, then every pair: each command, option and
	 * subnegotiation is cut at each of its bytes. */
	for (i = 1; i < sizeof(stream); i++) {
		feed(stream, sizeof(stream), &i, 1, &s);
		if (!same(&s, whole) && bad_one < 0)
			bad_one = (int)i;
	}
	ok(bad_one < 0, "split in two anywhere: the same data, frames and replies (first bad %d)",
	   bad_one);
	for (i = 1; i < sizeof(stream); i++)
		for (j = i + 1; j < sizeof(stream); j++) {
			cuts[0] = i;
			cuts[1] = j;
			feed(stream, sizeof(stream), cuts, 2, &s);
			bad_two += !same(&s, whole);
		}
	is_int(bad_two, 0, "split in three anywhere: the same");
	for (i = 0; i + 1 < sizeof(stream); i++)
		cuts[i] = i + 1;
	feed(stream, sizeof(stream), cuts, (int)sizeof(stream) - 1, &s);
	ok(same(&s, whole), "one byte at a time: the same");
}

static void test_negotiation(void)
{
	struct telnet t;
	uint8_t out[TN_FRAME_MAX], data[8];
	static const uint8_t want_start[] = {
		TN_IAC, TN_WILL, TN_OPT_BINARY, TN_IAC, TN_DO, TN_OPT_BINARY,
		TN_IAC, TN_WILL, TN_OPT_SGA,	TN_IAC, TN_DO, TN_OPT_SGA,
		TN_IAC, TN_WILL, TN_OPT_COM_PORT,
	};
	static const uint8_t refuse[] = { TN_IAC, TN_DONT, TN_OPT_COM_PORT, TN_IAC, TN_WONT,
					  TN_OPT_BINARY };
	size_t n;

	telnet_init(&t, NULL, NULL);
	n = telnet_negotiate_start(&t, out, sizeof(out));
	ok(n == sizeof(want_start) && !memcmp(out, want_start, n),
	   "the client offers BINARY and SGA both ways and WILL COM-PORT-OPTION (RFC 2217 s. 2)");
	is_int(t.opt.we_com_port, 1, "COM-PORT-OPTION asked, not yet agreed");
	n = telnet_rx(&t, refuse, sizeof(refuse), data);
	is_int(n, 0, "negotiation carries no data");
	is_int(t.opt.we_com_port, -1, "DONT COM-PORT-OPTION: refused (a raw port, or no RFC 2217)");
	is_int(t.opt.they_binary, -1, "WONT BINARY: refused");
	is_int(t.reply_len, 0, "a refusal of our own request is not answered");
	t.opt.we_sga = 2;
	n = telnet_rx(&t, (const uint8_t[]){ TN_IAC, TN_DONT, TN_OPT_SGA }, 3, data);
	ok(t.reply_len == 3 && t.reply[1] == TN_WONT && t.reply[2] == TN_OPT_SGA,
	   "an agreed option turned off is acknowledged (WONT SGA)");
}

static void test_frames(void)
{
	uint8_t out[TN_FRAME_MAX], esc[16];
	static const uint8_t baud[] = { 0x00, 0x01, 0xC2, 0x00 }, ff[] = { 0x00, 0x00, 0xFF, 0x00 };
	static const uint8_t want[] = { TN_IAC, TN_SB, TN_OPT_COM_PORT, CPO_SET_BAUDRATE, 0x00,
					0x01,	0xC2,  0x00,		TN_IAC,		  TN_SE };
	static const uint8_t want_ff[] = { TN_IAC, TN_SB, TN_OPT_COM_PORT, CPO_SET_BAUDRATE, 0x00,
					   0x00,   0xFF,  0xFF, 0x00, TN_IAC, TN_SE };
	static const uint8_t data[] = { 0x01, 0xFF, 0x02, 0xFF, 0xFF };
	static const uint8_t want_esc[] = { 0x01, 0xFF, 0xFF, 0x02, 0xFF, 0xFF, 0xFF, 0xFF };
	size_t n;

	n = telnet_cpo_frame(CPO_SET_BAUDRATE, baud, 4, out, sizeof(out));
	ok(n == sizeof(want) && !memcmp(out, want, n), "SET-BAUDRATE 115200: four bytes, MSB first");
	n = telnet_cpo_frame(CPO_SET_BAUDRATE, ff, 4, out, sizeof(out));
	ok(n == sizeof(want_ff) && !memcmp(out, want_ff, n), "a value's 0xFF is doubled in a frame");
	n = telnet_escape(data, sizeof(data), esc);
	ok(n == sizeof(want_esc) && !memcmp(esc, want_esc, n), "data: every 0xFF doubled");
	is_int(telnet_cpo_frame(CPO_SET_BAUDRATE, baud, 4, out, 9), 0, "no room: nothing written");
}

static void test_sb_edges(void)
{
	struct seen s;
	uint8_t in[TN_SB_MAX + 16];
	size_t n = 0, i;
	static const uint8_t unended[] = { TN_IAC, TN_SB, TN_OPT_COM_PORT, 106, 0x33,
					   TN_IAC, TN_WILL, 24, 'x' };

	in[n++] = TN_IAC;
	in[n++] = TN_SB;
	for (i = 0; i < TN_SB_MAX + 5; i++)
		in[n++] = 'a';
	in[n++] = TN_IAC;
	in[n++] = TN_SE;
	in[n++] = 'z';
	feed(in, n, NULL, 0, &s);
	ok(s.nsb == 1 && s.sb_len[0] == TN_SB_MAX && s.sb_cut[0], "an overlong subnegotiation is "
	   "cut to TN_SB_MAX and flagged");
	ok(s.data_len == 1 && s.data[0] == 'z', "and the data after it is intact");
	feed(unended, sizeof(unended), NULL, 0, &s);
	ok(s.nsb == 1 && s.sb_len[0] == 3 && s.reply_len == 3 && s.reply[1] == TN_DONT &&
		   s.data_len == 1 && s.data[0] == 'x',
	   "a subnegotiation ended by another command: delivered, the command obeyed");
}

/* A peer that asks and never reads: answers queue whole, go out in pieces, the rest dropped. */
static void test_reply_queue(void)
{
	struct telnet t;
	uint8_t in[3 * 40], data[sizeof(in)];
	size_t i, cap = sizeof(t.reply) / 3 * 3;

	telnet_init(&t, NULL, NULL);
	for (i = 0; i < 40; i++) {
		in[3 * i] = TN_IAC;
		in[3 * i + 1] = TN_DO;
		in[3 * i + 2] = (uint8_t)(100 + i);
	}
	telnet_rx(&t, in, sizeof(in), data);
	is_int(t.reply_len, cap, "40 requests: the answers that fit are queued (%zu bytes)", cap);
	is_int(t.replies_dropped, 40 - cap / 3, "and the others dropped, counted");
	telnet_reply_sent(&t, 4);
	ok(t.reply_len == cap - 4 && t.reply[0] == TN_WONT && t.reply[1] == 100 + 1 &&
		   t.reply[2] == TN_IAC,
	   "4 bytes sent: the second answer's tail is first, then whole answers");
	telnet_rx(&t, in, 3, data);
	is_int(t.reply_len, cap - 1, "a new answer goes after them when it fits whole");
	telnet_reply_sent(&t, 1000);
	is_int(t.reply_len, 0, "all sent: the queue is empty");
}

static void test_answers(void)
{
	struct rfc2217_answers a = { 0 };
	static const uint8_t baud[] = { TN_OPT_COM_PORT, 101, 0x00, 0x01, 0xC2, 0x00 };
	static const uint8_t sig[] = { TN_OPT_COM_PORT, 100, 's', '2', 0x1b, '[', 'n', 0xff };
	static const uint8_t echo[] = { TN_OPT_COM_PORT, CPO_SET_PARITY, 1 };
	static const uint8_t other[] = { 24, 102, 8 };

	rfc2217_take_answer(&a, baud, sizeof(baud));
	ok(a.seen == 1u << CPO_SET_BAUDRATE && a.baud == 115200, "SET-BAUDRATE's answer: 115200");
	rfc2217_take_answer(&a, sig, sizeof(sig));
	ok(a.seen & 1u << CPO_SIGNATURE && !strcmp(a.signature, "s2?[n?"),
	   "SIGNATURE: its text, control bytes replaced (%s)", a.signature);
	rfc2217_take_answer(&a, echo, sizeof(echo));
	rfc2217_take_answer(&a, other, sizeof(other));
	rfc2217_take_answer(&a, baud, 1);
	ok(a.seen == (1u << CPO_SET_BAUDRATE | 1u << CPO_SIGNATURE),
	   "a client's command, another option, a cut one: not answers");
}

static void test_urls(void)
{
	struct net_addr a;

	ok(!net_addr_parse("rfc2217://lab-host:4001", &a, LOG_DEBUG) && !strcmp(a.host, "lab-host") &&
		   !strcmp(a.port, "4001"),
	   "rfc2217://HOST:PORT");
	ok(!net_addr_parse("tcp://[::1]:2000", &a, LOG_DEBUG) && !strcmp(a.host, "::1") &&
		   !strcmp(a.port, "2000") && !strcmp(a.hostport, "[::1]:2000"),
	   "tcp://[IPv6]:PORT");
	is_int(net_addr_parse("tcp://::1:2000", &a, LOG_DEBUG), -EINVAL, "IPv6 without brackets");
	is_int(net_addr_parse("tcp://host", &a, LOG_DEBUG), -EINVAL, "no port");
	is_int(net_addr_parse("tcp://:4001", &a, LOG_DEBUG), -EINVAL, "no host");
	is_int(net_addr_parse("tcp://h:0", &a, LOG_DEBUG), -EINVAL, "port 0");
	is_int(net_addr_parse("tcp://h:65536", &a, LOG_DEBUG), -EINVAL, "port 65536");
	is_int(net_addr_parse("tcp://h:40x", &a, LOG_DEBUG), -EINVAL, "port with junk");
}

/* A port nobody listens on: bind one, learn its number, close it. */
static void test_refused(void)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(sa);
	struct net_addr a;
	char url[64];
	int s = socket(AF_INET, SOCK_STREAM, 0), fd = -1, rc;

	ok(s >= 0 && !bind(s, (struct sockaddr *)&sa, sizeof(sa)) &&
		   !getsockname(s, (struct sockaddr *)&sa, &len),
	   "a free loopback port");
	close(s);
	snprintf(url, sizeof(url), "tcp://127.0.0.1:%u", ntohs(sa.sin_port));
	net_addr_parse(url, &a, LOG_DEBUG);
	rc = net_connect(&a, url, 2000, NULL, LOG_DEBUG, &fd);
	is_int(rc, -ECONNREFUSED, "connecting to it is refused (%s)", url);
	ok(fd < 0, "and no socket is left");
	net_addr_parse("tcp://no-such-host.invalid:4001", &a, LOG_DEBUG);
	rc = net_connect(&a, "tcp://no-such-host.invalid:4001", 2000, NULL, LOG_DEBUG, &fd);
	ok(rc == -ENOENT || rc == -ETIMEDOUT, "an unresolvable name fails as such (%d)", rc);
}

int main(void)
{
	struct seen whole;

	log_set_level(LOG_ERR);
	test_rx_whole(&whole);
	test_rx_split(&whole);
	test_negotiation();
	test_frames();
	test_sb_edges();
	test_reply_queue();
	test_answers();
	test_urls();
	test_refused();
	return done_testing();
}
