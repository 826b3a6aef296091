/* SPDX-License-Identifier: MIT */
/* Network serial ports: a meter behind ser2net, over RFC 2217 (telnet COM-PORT-OPTION) or raw TCP. */
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/log.h"
#include "core/mem.h"
#include "meters/transport/net_addr.h"
#include "meters/transport/net_local.h"
#include "meters/transport/serial_port.h"
#include "meters/transport/telnet.h"

#define MOD "serial"
/* Resolving, connecting and the RFC 2217 handshake each get this long. */
#define CONNECT_TIMEOUT_MS 3000
/* How often a wait looks at the caller's cancel flag. */
#define CANCEL_SLICE_MS 100
/*
 * A link that stops acknowledging (cable pulled, host down) is declared lost after this:
 * unacknowledged data (TCP_USER_TIMEOUT) or keep-alive probes unanswered. Without it the
 * kernel retries for about 15 minutes and the meter core would only see silence.
 */
#define LINK_DEAD_MS 5000
#define KEEPALIVE_IDLE_S 2
#define KEEPALIVE_INTVL_S 1
#define KEEPALIVE_CNT 3
#define RX_CHUNK 4096

enum net_kind { NET_RAW, NET_RFC2217 };

struct net_port {
	struct serial_port base;
	int fd;
	enum net_kind kind;
	struct net_addr addr;
	struct telnet tn;
	/* The COM-PORT-OPTION answers seen (bit = command), and the rate the server took. */
	unsigned cpo_seen;
	uint32_t baud_ack;
	char signature[64];
};

static int wait_fd(int fd, short events, int timeout_ms)
{
	struct pollfd pfd = { .fd = fd, .events = events };
	int rc = poll(&pfd, 1, timeout_ms);

	if (rc < 0)
		return errno == EINTR ? 0 : -errno;
	if (rc && (pfd.revents & POLLNVAL))
		return -EIO;
	return rc ? pfd.revents : 0;
}

/* Sends all of buf within timeout_ms; len, -ETIMEDOUT, or -EIO when the link is gone. */
static int send_all(int fd, const uint8_t *buf, size_t len, int timeout_ms)
{
	uint64_t deadline = now_ns() + (uint64_t)timeout_ms * NS_PER_MS, now;
	size_t done = 0;
	ssize_t n;
	int ev;

	while (done < len) {
		n = send(fd, buf + done, len - done, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n > 0) {
			done += (size_t)n;
			continue;
		}
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			return -EIO;
		now = now_ns();
		if (now >= deadline)
			return -ETIMEDOUT;
		ev = wait_fd(fd, POLLOUT, (int)((deadline - now + NS_PER_MS - 1) / NS_PER_MS));
		if (ev < 0 || (ev & (POLLHUP | POLLERR)))
			return -EIO;
	}
	return (int)len;
}

/* The telnet layer's answers to the server's requests go out at once. */
static int send_replies(struct net_port *np)
{
	int rc = 0;

	if (np->tn.reply_len)
		rc = send_all(np->fd, np->tn.reply, np->tn.reply_len, CONNECT_TIMEOUT_MS);
	np->tn.reply_len = 0;
	return rc < 0 ? rc : 0;
}

/* A COM-PORT-OPTION answer from the server (RFC 2217 section 3: the command + 100). */
static void on_sb(void *ctx, const uint8_t *sb, size_t len, int cut)
{
	struct net_port *np = ctx;
	unsigned cmd;
	size_t n;

	if (len < 2 || sb[0] != TN_OPT_COM_PORT || sb[1] < CPO_SERVER_OFFSET)
		return;
	cmd = sb[1] - CPO_SERVER_OFFSET;
	if (cmd < 32)
		np->cpo_seen |= 1u << cmd;
	if (cmd == CPO_SET_BAUDRATE && len >= 6)
		np->baud_ack = (uint32_t)sb[2] << 24 | (uint32_t)sb[3] << 16 |
			       (uint32_t)sb[4] << 8 | sb[5];
	if (cmd == CPO_SIGNATURE) {
		n = len - 2 < sizeof(np->signature) - 1 ? len - 2 : sizeof(np->signature) - 1;
		memcpy(np->signature, sb + 2, n);
		np->signature[n] = '\0';
	}
	(void)cut;
}

/*
 * One read from the socket, through the telnet layer for RFC 2217: the data bytes in
 * buf (at most len), 0 when only negotiation came, -EIO when the far end closed.
 */
static int rx_once(struct net_port *np, uint8_t *buf, size_t len)
{
	uint8_t raw[RX_CHUNK];
	ssize_t n;
	size_t cap = len < sizeof(raw) ? len : sizeof(raw), got;

	n = recv(np->fd, np->kind == NET_RAW ? buf : raw, cap, MSG_DONTWAIT);
	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -EIO;
	if (!n)
		return -EIO; /* the server closed: ser2net stopped, the port was taken */
	if (np->kind == NET_RAW)
		return (int)n;
	got = telnet_rx(&np->tn, raw, (size_t)n, buf);
	if (send_replies(np) == -EIO)
		return -EIO;
	return (int)got;
}

static int net_read(struct serial_port *base, void *buf, size_t len, int timeout_ms)
{
	struct net_port *np = (struct net_port *)base;
	uint64_t deadline = now_ns() + (uint64_t)(timeout_ms > 0 ? timeout_ms : 0) * NS_PER_MS;
	uint64_t now;
	int ev, n;

	for (;;) {
		now = now_ns();
		ev = wait_fd(np->fd, POLLIN,
			     now < deadline ? (int)((deadline - now + NS_PER_MS - 1) / NS_PER_MS) : 0);
		if (ev < 0)
			return ev;
		if (ev) {
			n = rx_once(np, buf, len);
			if (n)
				return n;
			if (ev & (POLLHUP | POLLERR))
				return -EIO;
		}
		if (now_ns() >= deadline)
			return 0;
	}
}

static int net_write(struct serial_port *base, const void *buf, size_t len, int timeout_ms)
{
	struct net_port *np = (struct net_port *)base;
	const uint8_t *p = buf;
	uint8_t esc[2 * 256];
	size_t off, chunk, n;
	int rc;

	if (np->kind == NET_RAW)
		return send_all(np->fd, p, len, timeout_ms);
	/* 0xFF in the data is sent as IAC IAC (RFC 854), the frame otherwise unchanged. */
	for (off = 0; off < len; off += chunk) {
		chunk = len - off < sizeof(esc) / 2 ? len - off : sizeof(esc) / 2;
		n = telnet_escape(p + off, chunk, esc);
		rc = send_all(np->fd, esc, n, timeout_ms);
		if (rc < 0)
			return rc;
	}
	return (int)len;
}

/* What is already here is stale: read and drop it, keeping the telnet state whole. */
static void net_flush_input(struct serial_port *base)
{
	struct net_port *np = (struct net_port *)base;
	uint8_t junk[RX_CHUNK];

	while (rx_once(np, junk, sizeof(junk)) > 0)
		;
}

static void net_close(struct serial_port *base)
{
	struct net_port *np = (struct net_port *)base;

	if (np->fd >= 0)
		close(np->fd);
	free(np);
}

static const char *net_backend(const struct serial_port *base)
{
	return ((const struct net_port *)base)->kind == NET_RAW ? "raw TCP" : "RFC 2217";
}

static unsigned long long net_rtt_ns(const struct serial_port *base)
{
	const struct net_port *np = (const struct net_port *)base;
	struct tcp_info ti;
	socklen_t len = sizeof(ti);

	if (getsockopt(np->fd, IPPROTO_TCP, TCP_INFO, &ti, &len))
		return 0;
	return (unsigned long long)ti.tcpi_rtt * 1000ull;
}

static void net_describe(const struct serial_port *base, char *buf, size_t len)
{
	const struct net_port *np = (const struct net_port *)base;

	snprintf(buf, len, "%s %s, round trip %.1f ms",
		 np->kind == NET_RAW ? "tcp" : "rfc2217", np->addr.hostport,
		 (double)net_rtt_ns(base) / 1e6);
}

static int net_peer_ttys(const struct serial_port *base, void (*fn)(const char *tty, void *ctx),
			 void *ctx)
{
	int rc = net_local_peer_ttys(((const struct net_port *)base)->fd, fn, ctx);

	return rc > 0;
}

static const struct serial_ops net_ops = {
	.read = net_read,
	.write = net_write,
	.flush_input = net_flush_input,
	.close = net_close,
	.backend = net_backend,
	.describe = net_describe,
	.rtt_ns = net_rtt_ns,
	.peer_ttys = net_peer_ttys,
};

static void set_link_options(int fd)
{
	int one = 1, idle = KEEPALIVE_IDLE_S, intvl = KEEPALIVE_INTVL_S, cnt = KEEPALIVE_CNT;
	unsigned dead = LINK_DEAD_MS;

	/* A poll is a few bytes: Nagle would hold it back for the previous one's ACK. */
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof(one));
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof(idle));
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof(intvl));
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof(cnt));
	setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &dead, sizeof(dead));
}

static int send_cpo(struct net_port *np, uint8_t cmd, const uint8_t *val, size_t len)
{
	uint8_t frame[TN_FRAME_MAX];
	size_t n = telnet_cpo_frame(cmd, val, len, frame, sizeof(frame));
	int rc = send_all(np->fd, frame, n, CONNECT_TIMEOUT_MS);

	return rc < 0 ? rc : 0;
}

/*
 * Reads (dropping data: the meter has not been asked anything yet) until done(np) or the
 * deadline; 0, -ETIMEDOUT, -ECANCELED, or -EIO when the server closed.
 */
static int pump_until(struct net_port *np, int (*done)(const struct net_port *np),
		      uint64_t deadline, const struct serial_cfg *cfg)
{
	uint8_t junk[RX_CHUNK];
	uint64_t now;
	int slice, n;

	while (!done(np)) {
		if (cfg->cancelled && cfg->cancelled(cfg->cancel_ctx))
			return -ECANCELED;
		now = now_ns();
		if (now >= deadline)
			return -ETIMEDOUT;
		slice = (int)((deadline - now) / NS_PER_MS);
		n = net_read(&np->base, junk, sizeof(junk),
			     slice < CANCEL_SLICE_MS ? slice : CANCEL_SLICE_MS);
		if (n < 0)
			return n;
	}
	return 0;
}

static int com_port_decided(const struct net_port *np)
{
	return np->tn.opt.we_com_port == 2 || np->tn.opt.we_com_port == -1;
}

#define CPO_LINE_BITS                                                                        \
	(1u << CPO_SET_BAUDRATE | 1u << CPO_SET_DATASIZE | 1u << CPO_SET_PARITY |            \
	 1u << CPO_SET_STOPSIZE | 1u << CPO_SIGNATURE)

static int line_acked(const struct net_port *np)
{
	return (np->cpo_seen & CPO_LINE_BITS) == CPO_LINE_BITS;
}

/*
 * RFC 2217 sections 2-4: offer COM-PORT-OPTION (with BINARY and SGA both ways), then set
 * the line as a local port would be (baud 8N1, no flow control, DTR and RTS on, as
 * libserialport leaves a port) and wait for the server's answers.
 */
static const struct {
	uint8_t cmd, val;
} line_8n1[] = {
	{ CPO_SET_DATASIZE, 8 },	      { CPO_SET_PARITY, CPO_PARITY_NONE },
	{ CPO_SET_STOPSIZE, CPO_STOPSIZE_1 }, { CPO_SET_CONTROL, CPO_CONTROL_NO_FLOW },
	{ CPO_SET_CONTROL, CPO_CONTROL_DTR_ON }, { CPO_SET_CONTROL, CPO_CONTROL_RTS_ON },
};

static int rfc2217_setup(struct net_port *np, const struct serial_cfg *cfg, const char *who)
{
	uint8_t buf[64];
	size_t i;
	uint64_t deadline = now_ns() + (uint64_t)CONNECT_TIMEOUT_MS * NS_PER_MS;
	size_t n;
	int rc;

	telnet_init(&np->tn, on_sb, np);
	n = telnet_negotiate_start(&np->tn, buf, sizeof(buf));
	rc = send_all(np->fd, buf, n, CONNECT_TIMEOUT_MS);
	if (rc < 0)
		return rc;
	rc = pump_until(np, com_port_decided, deadline, cfg);
	if (rc == -ETIMEDOUT || (!rc && np->tn.opt.we_com_port != 2)) {
		log_msg(cfg->log_level, MOD, "%s: the server %s COM-PORT-OPTION (RFC 2217); is it "
			"a raw TCP port? then use tcp://%s", who,
			rc ? "did not answer" : "refused", np->addr.hostport);
		return -EPROTO;
	}
	if (rc)
		return rc;
	buf[0] = (uint8_t)(cfg->baud >> 24);
	buf[1] = (uint8_t)(cfg->baud >> 16);
	buf[2] = (uint8_t)(cfg->baud >> 8);
	buf[3] = (uint8_t)cfg->baud;
	rc = send_cpo(np, CPO_SIGNATURE, NULL, 0);
	if (!rc)
		rc = send_cpo(np, CPO_SET_BAUDRATE, buf, 4);
	for (i = 0; !rc && i < sizeof(line_8n1) / sizeof(line_8n1[0]); i++)
		rc = send_cpo(np, line_8n1[i].cmd, &line_8n1[i].val, 1);
	if (!rc)
		rc = pump_until(np, line_acked, deadline, cfg);
	if (rc == -ETIMEDOUT) {
		/* RFC 2217 asks the server to answer each; a server that does not may still
		 * have set the line: go on, but say so. */
		log_warn(MOD, "%s: the server did not confirm the line settings (%ux8N1) within "
			 "%.1f s", who, cfg->baud, CONNECT_TIMEOUT_MS / 1e3);
		return 0;
	}
	if (rc)
		return rc;
	if (np->baud_ack && np->baud_ack != cfg->baud)
		log_warn(MOD, "%s: asked for %u baud, the server set %u", who, cfg->baud,
			 (unsigned)np->baud_ack);
	log_debug(MOD, "%s: RFC 2217: %u baud 8N1 confirmed, server '%s', binary %s", who,
		  (unsigned)np->baud_ack, np->signature,
		  np->tn.opt.they_binary == 2 && np->tn.opt.we_binary == 2 ? "both ways" : "NOT agreed");
	return 0;
}

int net_serial_open(const char *url, const struct serial_cfg *cfg, struct serial_port **out)
{
	struct net_port *np = xcalloc(1, sizeof(*np));
	struct net_cancel cancel = { cfg->cancelled, cfg->cancel_ctx };
	/* Messages name the meter's spec, which holds the URL. */
	char *who = cfg->name ? xasprintf("meter '%s'", cfg->name) : xstrdup(url);
	int rc;

	np->base.ops = &net_ops;
	np->fd = -1;
	np->kind = !strncmp(url, "rfc2217://", 10) ? NET_RFC2217 : NET_RAW;
	rc = net_addr_parse(url, &np->addr, cfg->log_level);
	if (!rc)
		rc = net_connect(&np->addr, who, CONNECT_TIMEOUT_MS, &cancel, cfg->log_level,
				 &np->fd);
	if (!rc) {
		set_link_options(np->fd);
		if (np->kind == NET_RFC2217)
			rc = rfc2217_setup(np, cfg, who);
	}
	if (rc == -EIO)
		log_msg(cfg->log_level, MOD, "%s: the server closed the connection at once (is its "
			"device missing, or in use by another client?)", who);
	free(who);
	if (rc) {
		net_close(&np->base);
		return rc;
	}
	*out = &np->base;
	return 0;
}
