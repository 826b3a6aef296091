/* SPDX-License-Identifier: MIT */
/* A network port's address: "SCHEME://HOST:PORT" parsed, resolved and connected within a bound. */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/log.h"
#include "core/mem.h"
#include "meters/transport/net_addr.h"

#define MOD "serial"
#define SLICE_MS 100
#define PORT_MAX 65535

int net_addr_parse(const char *url, struct net_addr *addr, int log_level)
{
	const char *sep = strstr(url, "://"), *hp = sep ? sep + 3 : url, *colon, *end;
	int scheme_len = (int)(hp - url);
	size_t hlen;
	char *stop;
	long port;

	memset(addr, 0, sizeof(*addr));
	snprintf(addr->hostport, sizeof(addr->hostport), "%s", hp);
	if (*hp == '[') {
		end = strchr(hp, ']');
		colon = end && end[1] == ':' ? end + 1 : NULL;
		hp++;
		hlen = end ? (size_t)(end - hp) : 0;
	} else {
		colon = strrchr(hp, ':');
		hlen = colon ? (size_t)(colon - hp) : 0;
		/* An IPv6 literal must be bracketed: its colons would hide the port. */
		if (colon && memchr(hp, ':', hlen))
			colon = NULL;
	}
	if (!colon || !hlen || hlen >= sizeof(addr->host)) {
		log_msg(log_level, MOD, "meter connection '%s': expected %.*sHOST:PORT (an IPv6 "
			"address in brackets: %.*s[::1]:4001)", url, scheme_len, url, scheme_len,
			url);
		return -EINVAL;
	}
	memcpy(addr->host, hp, hlen);
	errno = 0;
	port = strtol(colon + 1, &stop, 10);
	if (errno || stop == colon + 1 || *stop || port < 1 || port > PORT_MAX) {
		log_msg(log_level, MOD, "meter connection '%s': port '%s' is not a number from 1 to "
			"%d", url, colon + 1, PORT_MAX);
		return -EINVAL;
	}
	snprintf(addr->port, sizeof(addr->port), "%ld", port);
	return 0;
}

static int cancelled(const struct net_cancel *c)
{
	return c && c->cancelled && c->cancelled(c->ctx);
}

static int remaining_ms(uint64_t deadline)
{
	uint64_t now = now_ns();

	if (now >= deadline)
		return 0;
	return (int)((deadline - now + NS_PER_MS - 1) / NS_PER_MS);
}

/*
 * getaddrinfo() can block for a resolver's whole retry schedule (tens of seconds with a
 * dead DNS server); getaddrinfo_a() runs it in glibc's own thread so that the wait is
 * bounded and a stop is seen. 0 and the list, or -ENOENT/-ETIMEDOUT/-ECANCELED.
 */
static int resolve(const struct net_addr *addr, const char *who, uint64_t deadline,
		   const struct net_cancel *cancel, int log_level, struct addrinfo **res)
{
	struct {
		struct gaicb cb;
		struct addrinfo hints;
	} *req = xcalloc(1, sizeof(*req));
	struct gaicb *list[1] = { &req->cb };
	struct timespec slice = { 0, SLICE_MS * 1000000L };
	int rc, ms;

	req->hints.ai_family = AF_UNSPEC;
	req->hints.ai_socktype = SOCK_STREAM;
	/* An address literal needs no resolver: no thread, and nothing to abandon when a
	 * stop comes while a reconnect looks it up. */
	req->hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
	if (!getaddrinfo(addr->host, addr->port, &req->hints, res)) {
		free(req);
		return 0;
	}
	req->hints.ai_flags = AI_ADDRCONFIG;
	req->cb.ar_name = addr->host;
	req->cb.ar_service = addr->port;
	req->cb.ar_request = &req->hints;
	rc = getaddrinfo_a(GAI_NOWAIT, list, 1, NULL);
	if (rc) {
		log_msg(log_level, MOD, "%s: cannot look up %s: %s", who, addr->host,
			gai_strerror(rc));
		free(req);
		return -ENOENT;
	}
	while ((rc = gai_error(&req->cb)) == EAI_INPROGRESS) {
		ms = remaining_ms(deadline);
		if (!ms || cancelled(cancel))
			break;
		gai_suspend((const struct gaicb *const *)list, 1, &slice);
	}
	if (rc == EAI_INPROGRESS) {
		/* A request glibc is still working on must outlive us: it is left to it (a
		 * few hundred bytes, once per abandoned lookup). */
		if (gai_cancel(&req->cb) != EAI_CANCELED && gai_error(&req->cb) == EAI_INPROGRESS)
			req = NULL;
		if (req && !gai_error(&req->cb))
			freeaddrinfo(req->cb.ar_result);
		free(req);
		if (cancelled(cancel))
			return -ECANCELED;
		log_msg(log_level, MOD, "%s: looking up %s took longer than the connect timeout "
			"(is DNS reachable?)", who, addr->host);
		return -ETIMEDOUT;
	}
	if (rc) {
		log_msg(log_level, MOD, "%s: cannot resolve host '%s': %s", who, addr->host,
			gai_strerror(rc));
		free(req);
		return -ENOENT;
	}
	*res = req->cb.ar_result;
	free(req);
	return 0;
}

/* One address: 0 and the socket, or -errno (-ETIMEDOUT when the deadline passed). */
static int connect_one(const struct addrinfo *ai, uint64_t deadline,
		       const struct net_cancel *cancel, int *fd_out)
{
	int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC,
			ai->ai_protocol);
	struct pollfd pfd = { .events = POLLOUT };
	socklen_t len = sizeof(int);
	int err = 0, ms, rc;

	if (fd < 0)
		return -errno;
	if (!connect(fd, ai->ai_addr, ai->ai_addrlen)) {
		*fd_out = fd;
		return 0;
	}
	if (errno != EINPROGRESS) {
		err = errno;
		close(fd);
		return -err;
	}
	pfd.fd = fd;
	for (;;) {
		if (cancelled(cancel)) {
			close(fd);
			return -ECANCELED;
		}
		ms = remaining_ms(deadline);
		if (!ms) {
			close(fd);
			return -ETIMEDOUT;
		}
		rc = poll(&pfd, 1, ms < SLICE_MS ? ms : SLICE_MS);
		if (rc > 0)
			break;
		if (rc < 0 && errno != EINTR) {
			err = errno;
			close(fd);
			return -err;
		}
	}
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len))
		err = errno;
	if (err) {
		close(fd);
		return -err;
	}
	*fd_out = fd;
	return 0;
}

static const char *why(int err)
{
	switch (err) {
	case ECONNREFUSED:
		return "connection refused (is ser2net running there, with an accepter on that "
		       "port?)";
	case ETIMEDOUT:
		return "no answer (is the host up, and the port not filtered?)";
	case EHOSTUNREACH:
	case ENETUNREACH:
	case EHOSTDOWN:
	case ENETDOWN:
		return "host unreachable (no route to it from this machine)";
	default:
		return strerror(err);
	}
}

int net_connect(const struct net_addr *addr, const char *who, int timeout_ms,
		const struct net_cancel *cancel, int log_level, int *fd)
{
	uint64_t deadline = now_ns() + (uint64_t)timeout_ms * NS_PER_MS;
	struct addrinfo *res = NULL, *ai;
	int rc = resolve(addr, who, deadline, cancel, log_level, &res);

	*fd = -1;
	if (rc)
		return rc;
	rc = -ENOENT;
	for (ai = res; ai; ai = ai->ai_next) {
		rc = connect_one(ai, deadline, cancel, fd);
		if (!rc || rc == -ECANCELED || rc == -ETIMEDOUT)
			break;
	}
	freeaddrinfo(res);
	if (rc == -ECANCELED || !rc)
		return rc;
	log_msg(log_level, MOD, "%s: cannot connect to %s within %.1f s: %s", who, addr->hostport,
		(double)timeout_ms / 1e3, why(-rc));
	return rc;
}
