/* SPDX-License-Identifier: MIT */
/* A network port's address: "SCHEME://HOST:PORT" parsed, resolved and connected within a bound. */
#ifndef IOWATT_NET_ADDR_H
#define IOWATT_NET_ADDR_H

#define NET_HOST_MAX 256

struct net_addr {
	char host[NET_HOST_MAX]; /* without the [] of an IPv6 literal */
	char port[8];
	char hostport[NET_HOST_MAX + 10]; /* as written: "HOST:PORT", "[::1]:4001" */
};

/* The caller's "give up now" (a stop, a Ctrl-C); cancelled NULL: never. */
struct net_cancel {
	int (*cancelled)(const void *ctx);
	const void *ctx;
};

/*
 * "rfc2217://HOST:PORT" or "tcp://HOST:PORT" (HOST a name, an IPv4 address or [IPv6];
 * PORT 1-65535) -> addr; -EINVAL after a message naming url and what is wrong.
 */
int net_addr_parse(const char *url, struct net_addr *addr, int log_level);
/*
 * Resolves and connects, each address in turn, all within timeout_ms (the lookup in
 * its own thread, the connect non-blocking), looking at cancel every 100 ms. 0 and a
 * connected non-blocking socket in *fd; else -errno after a message naming who and the
 * cause: not resolved (-ENOENT), refused, unreachable, timed out; -ECANCELED quietly.
 */
int net_connect(const struct net_addr *addr, const char *who, int timeout_ms,
		const struct net_cancel *cancel, int log_level, int *fd);

#endif
