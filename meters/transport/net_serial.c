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
#include <sys/ioctl.h>
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
/*
 * The fastest meter read over a serial link, the PPK2, sends 400 kB/s (100 kS/s of 4
 * bytes), 800 kB/s at worst once RFC 2217 doubles its 0xFF bytes. A server that sends
 * five times that within a second relays no meter: it would keep a reader busy for ever,
 * so the link is dropped (and reconnected by the meter core) with the figures said.
 * Counted as credit earned at that rate, not bytes per read window: what waited in the
 * kernel while the reader was held up (a busy board, a stopped process) arrived earlier,
 * and reading it at once is a backlog, not a flood.
 */
#define RX_WINDOW_NS NS_PER_SEC
#define RX_FLOOD_BYTES 4000000ull
/* The most that may come at once: a stalled reader's backlog sits in its own socket and in
 * the server's send buffer (up to 4 MB by Linux's default tcp_wmem), so a second's worth
 * and that much more. A PPK2 read after a 10 s stop came as 4.0 MB within 0.05 s. */
#define RX_BURST_BYTES (2 * RX_FLOOD_BYTES)
#define RX_GAP_MAX_NS (60 * NS_PER_SEC) /* keeps the credit arithmetic in 64 bits */

enum net_kind { NET_RAW, NET_RFC2217 };

struct net_port {
	struct serial_port base;
	int fd;
	enum net_kind kind;
	struct net_addr addr;
	struct telnet tn;
	struct rfc2217_answers ans;
	/* The caller's stop (serial_cfg), seen by every wait of the handshake and the reads. */
	int (*cancelled)(const void *ctx);
	const void *cancel_ctx;
	int log_level;
	char *who; /* what messages call it */
	/* The bytes received since win_start_ns (for the message); err: set once the link is
	 * given up. rx_credit: the bytes the flood bound still allows, as of rx_last_ns. */
	uint64_t win_start_ns, win_bytes, rx_credit, rx_last_ns;
	int err;
};

static int is_cancelled(const struct net_port *np)
{
	return np->cancelled && np->cancelled(np->cancel_ctx);
}

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

/*
 * Sends all of buf within timeout_ms; len, -ETIMEDOUT, or -EIO when the link is gone.
 * With np, a stop asked for meanwhile gives up too (-ECANCELED): the handshake's waits.
 */
static int send_all(int fd, const uint8_t *buf, size_t len, int timeout_ms,
		    const struct net_port *np)
{
	uint64_t deadline = now_ns() + (uint64_t)timeout_ms * NS_PER_MS, now;
	size_t done = 0;
	ssize_t n;
	int ev, wait_ms;

	while (done < len) {
		n = send(fd, buf + done, len - done, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n > 0) {
			done += (size_t)n;
			continue;
		}
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			return -EIO;
		if (np && is_cancelled(np))
			return -ECANCELED;
		now = now_ns();
		if (now >= deadline)
			return -ETIMEDOUT;
		wait_ms = (int)((deadline - now + NS_PER_MS - 1) / NS_PER_MS);
		ev = wait_fd(fd, POLLOUT, np && wait_ms > CANCEL_SLICE_MS ? CANCEL_SLICE_MS : wait_ms);
		if (ev < 0 || (ev & (POLLHUP | POLLERR)))
			return -EIO;
	}
	return (int)len;
}

/*
 * The telnet layer's answers to the server's requests go out if the socket takes them
 * now; the rest waits for the next read, where answers that find no room are dropped
 * (telnet.c): a peer that asks and never reads must not hold a reader, or a stop, up.
 */
static int send_replies(struct net_port *np)
{
	ssize_t n;

	if (!np->tn.reply_len)
		return 0;
	n = send(np->fd, np->tn.reply, np->tn.reply_len, MSG_NOSIGNAL | MSG_DONTWAIT);
	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -EIO;
	telnet_reply_sent(&np->tn, (size_t)n);
	return 0;
}

/* Before our own bytes: what is left of the answers, whole (a command's tail goes first). */
static int send_pending_replies(struct net_port *np, int timeout_ms, const struct net_port *cancel)
{
	int rc = 0;

	if (np->tn.reply_len)
		rc = send_all(np->fd, np->tn.reply, np->tn.reply_len, timeout_ms, cancel);
	if (rc >= 0)
		np->tn.reply_len = 0;
	return rc < 0 ? rc : 0;
}

/* A subnegotiation from the server: COM-PORT-OPTION answers are kept. */
static void on_sb(void *ctx, const uint8_t *sb, size_t len, int cut)
{
	struct net_port *np = ctx;

	rfc2217_take_answer(&np->ans, sb, len);
	(void)cut;
}

/*
 * Counts n bytes received; -EPROTO, said once, when they are more than a meter sends. The
 * credit grows at the bound's rate up to RX_BURST_BYTES plus what the socket holds now
 * beside these n bytes (a backlog arrived before this read, whenever that was).
 */
static int rx_account(struct net_port *np, size_t n)
{
	uint64_t now = now_ns(), gap = now - np->rx_last_ns, cap;
	int queued = 0;

	if (ioctl(np->fd, FIONREAD, &queued) < 0 || queued < 0)
		queued = 0;
	cap = RX_BURST_BYTES + n + (uint64_t)queued;
	if (gap > RX_GAP_MAX_NS)
		gap = RX_GAP_MAX_NS;
	np->rx_credit += gap * RX_FLOOD_BYTES / NS_PER_SEC;
	if (np->rx_credit > cap)
		np->rx_credit = cap;
	np->rx_last_ns = now;
	if (now - np->win_start_ns >= RX_WINDOW_NS) {
		np->win_start_ns = now;
		np->win_bytes = 0;
	}
	np->win_bytes += n;
	if (n <= np->rx_credit) {
		np->rx_credit -= n;
		return 0;
	}
	log_msg(np->log_level, MOD, "%s: the server sends more than a meter can: %llu bytes in "
		"%.2f s (the fastest meter sends 0.8 MB/s; the bound is %.0f MB a second, besides "
		"what waited in the socket); dropping the link", np->who,
		(unsigned long long)np->win_bytes, (double)(now - np->win_start_ns) / 1e9,
		(double)RX_FLOOD_BYTES / 1e6);
	np->err = -EPROTO;
	return np->err;
}

/*
 * One read from the socket, through the telnet layer for RFC 2217: the data bytes in
 * buf (at most len), 0 when only negotiation came, -EIO when the far end closed, -EPROTO
 * once it sent more than a meter can. *raw: the bytes taken from the socket.
 */
static int rx_once(struct net_port *np, uint8_t *buf, size_t len, size_t *raw_len)
{
	uint8_t raw[RX_CHUNK];
	ssize_t n;
	size_t cap = len < sizeof(raw) ? len : sizeof(raw), got;
	int rc;

	*raw_len = 0;
	if (np->err)
		return np->err;
	n = recv(np->fd, np->kind == NET_RAW ? buf : raw, cap, MSG_DONTWAIT);
	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -EIO;
	if (!n)
		return -EIO; /* the server closed: ser2net stopped, the port was taken */
	*raw_len = (size_t)n;
	rc = rx_account(np, (size_t)n);
	if (rc)
		return rc;
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
	size_t raw;
	int ev, n;

	for (;;) {
		now = now_ns();
		ev = wait_fd(np->fd, POLLIN,
			     now < deadline ? (int)((deadline - now + NS_PER_MS - 1) / NS_PER_MS) : 0);
		if (ev < 0)
			return ev;
		if (ev) {
			n = rx_once(np, buf, len, &raw);
			if (n)
				return n;
			if (ev & (POLLHUP | POLLERR))
				return -EIO;
		}
		/* Negotiation alone keeps coming: a stop still ends the wait. */
		if (now_ns() >= deadline || is_cancelled(np))
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

	if (np->err)
		return np->err;
	if (np->kind == NET_RAW)
		return send_all(np->fd, p, len, timeout_ms, NULL);
	rc = send_pending_replies(np, timeout_ms, NULL);
	if (rc < 0)
		return rc;
	/* 0xFF in the data is sent as IAC IAC (RFC 854), the frame otherwise unchanged. */
	for (off = 0; off < len; off += chunk) {
		chunk = len - off < sizeof(esc) / 2 ? len - off : sizeof(esc) / 2;
		n = telnet_escape(p + off, chunk, esc);
		rc = send_all(np->fd, esc, n, timeout_ms, NULL);
		if (rc < 0)
			return rc;
	}
	return (int)len;
}

/*
 * What is already here is stale: read and drop it, keeping the telnet state whole. Only
 * what was queued when the flush began (a server that keeps talking would keep it busy
 * for ever), and not past a stop. 0, -EIO when the link is gone, -EPROTO on a flood.
 */
static int net_flush_input(struct serial_port *base)
{
	struct net_port *np = (struct net_port *)base;
	uint8_t junk[RX_CHUNK];
	size_t raw;
	int queued = 0, n;

	if (ioctl(np->fd, FIONREAD, &queued) < 0)
		queued = 0;
	while (queued > 0 && !is_cancelled(np)) {
		n = rx_once(np, junk, sizeof(junk), &raw);
		if (n < 0)
			return n;
		if (!raw)
			break;
		queued -= (int)raw;
	}
	return np->err;
}

static void net_close(struct serial_port *base)
{
	struct net_port *np = (struct net_port *)base;

	if (np->tn.replies_dropped)
		log_msg(np->log_level, MOD, "%s: %lu telnet answer(s) dropped: the server asked and "
			"did not read them", np->who, np->tn.replies_dropped);
	if (np->fd >= 0)
		close(np->fd);
	free(np->who);
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
	int rc = send_pending_replies(np, CONNECT_TIMEOUT_MS, np);

	if (!rc)
		rc = send_all(np->fd, frame, n, CONNECT_TIMEOUT_MS, np);
	return rc < 0 ? rc : 0;
}

/*
 * Reads (dropping data: the meter has not been asked anything yet) until done(np) or the
 * deadline; 0, -ETIMEDOUT, -ECANCELED, or -EIO when the server closed.
 */
static int pump_until(struct net_port *np, int (*done)(const struct net_port *np),
		      uint64_t deadline)
{
	uint8_t junk[RX_CHUNK];
	uint64_t now;
	int slice, n;

	while (!done(np)) {
		if (is_cancelled(np))
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

/*
 * The line is confirmed by the answers to its settings. SIGNATURE is asked for (the
 * debug log names the server) but not waited for: RFC 2217 lets a server leave it
 * unanswered, as pyserial's PortManager does, and waiting cost every connect 3 s.
 */
#define CPO_LINE_BITS                                                                        \
	(1u << CPO_SET_BAUDRATE | 1u << CPO_SET_DATASIZE | 1u << CPO_SET_PARITY |            \
	 1u << CPO_SET_STOPSIZE)

static int line_acked(const struct net_port *np)
{
	return (np->ans.seen & CPO_LINE_BITS) == CPO_LINE_BITS;
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

static int rfc2217_setup(struct net_port *np, const struct serial_cfg *cfg)
{
	const char *who = np->who;
	uint8_t buf[64];
	size_t i;
	uint64_t deadline = now_ns() + (uint64_t)CONNECT_TIMEOUT_MS * NS_PER_MS;
	size_t n;
	int rc;

	telnet_init(&np->tn, on_sb, np);
	n = telnet_negotiate_start(&np->tn, buf, sizeof(buf));
	rc = send_all(np->fd, buf, n, CONNECT_TIMEOUT_MS, np);
	if (rc < 0)
		return rc;
	rc = pump_until(np, com_port_decided, deadline);
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
		rc = pump_until(np, line_acked, deadline);
	if (rc == -ETIMEDOUT) {
		/* RFC 2217 asks the server to answer each; a server that does not may still
		 * have set the line: go on, but say so. */
		log_warn(MOD, "%s: the server did not confirm the line settings (%ux8N1) within "
			 "%.1f s", who, cfg->baud, CONNECT_TIMEOUT_MS / 1e3);
		return 0;
	}
	if (rc)
		return rc;
	if (np->ans.baud && np->ans.baud != cfg->baud)
		log_warn(MOD, "%s: asked for %u baud, the server set %u", who, cfg->baud,
			 (unsigned)np->ans.baud);
	log_debug(MOD, "%s: RFC 2217: %u baud 8N1 confirmed, server '%s', binary %s", who,
		  (unsigned)np->ans.baud, np->ans.signature,
		  np->tn.opt.they_binary == 2 && np->tn.opt.we_binary == 2 ? "both ways" : "NOT agreed");
	return 0;
}

int net_serial_open(const char *url, const struct serial_cfg *cfg, struct serial_port **out)
{
	struct net_port *np = xcalloc(1, sizeof(*np));
	struct net_cancel cancel = { cfg->cancelled, cfg->cancel_ctx };
	int rc;

	np->base.ops = &net_ops;
	np->fd = -1;
	/* Messages name the meter's spec, which holds the URL. */
	np->who = cfg->name ? xasprintf("meter '%s'", cfg->name) : xstrdup(url);
	np->cancelled = cfg->cancelled;
	np->cancel_ctx = cfg->cancel_ctx;
	np->log_level = cfg->log_level;
	np->win_start_ns = np->rx_last_ns = now_ns();
	np->rx_credit = RX_FLOOD_BYTES;
	np->kind = !strncmp(url, "rfc2217://", 10) ? NET_RFC2217 : NET_RAW;
	rc = net_addr_parse(url, &np->addr, cfg->log_level);
	if (!rc)
		rc = net_connect(&np->addr, np->who, CONNECT_TIMEOUT_MS, &cancel, cfg->log_level,
				 &np->fd);
	if (!rc) {
		set_link_options(np->fd);
		if (np->kind == NET_RFC2217)
			rc = rfc2217_setup(np, cfg);
	}
	if (rc == -EIO)
		log_msg(cfg->log_level, MOD, "%s: the server closed the connection at once (is its "
			"device missing, or in use by another client?)", np->who);
	if (rc) {
		net_close(&np->base);
		return rc;
	}
	*out = &np->base;
	return 0;
}
