/* SPDX-License-Identifier: MIT */
/* net_local: the process serving a local TCP port is found, on a v4 and a dual-stack v6 listener. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "meters/transport/net_local.h"
#include "tap.h"

static void count_tty(const char *tty, void *ctx)
{
	(void)tty;
	(*(int *)ctx)++;
}

/* A listener of family fam on loopback (or all addresses for a dual-stack v6 one), an
 * IPv4 client connected to it; returns net_local_peer_ttys on the client's socket. */
static int peer_found(int fam)
{
	struct sockaddr_storage ss;
	struct sockaddr_in *in4 = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;
	socklen_t len = sizeof(ss);
	int lfd, cfd, sfd, off = 0, ttys = 0, r = -1;

	memset(&ss, 0, sizeof(ss));
	lfd = socket(fam, SOCK_STREAM, 0);
	if (lfd < 0)
		return -errno;
	if (fam == AF_INET6) {
		setsockopt(lfd, IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof(off));
		in6->sin6_family = AF_INET6;
		in6->sin6_addr = in6addr_any;
	} else {
		in4->sin_family = AF_INET;
		in4->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	}
	if (bind(lfd, (struct sockaddr *)&ss, fam == AF_INET6 ? sizeof(*in6) : sizeof(*in4)) ||
	    listen(lfd, 1) || getsockname(lfd, (struct sockaddr *)&ss, &len)) {
		close(lfd);
		return -errno;
	}
	in_port_t port = fam == AF_INET6 ? in6->sin6_port : in4->sin_port;
	struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = port };
	to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	cfd = socket(AF_INET, SOCK_STREAM, 0);
	if (cfd >= 0 && !connect(cfd, (struct sockaddr *)&to, sizeof(to))) {
		sfd = accept(lfd, NULL, NULL);
		if (sfd >= 0) {
			r = net_local_peer_ttys(cfd, count_tty, &ttys);
			close(sfd);
		}
	}
	if (cfd >= 0)
		close(cfd);
	close(lfd);
	return r;
}

int main(void)
{
	int r;

	r = peer_found(AF_INET);
	ok(r == 1, "IPv4 listener on 127.0.0.1: the serving process (this one) is found (%d)", r);
	r = peer_found(AF_INET6);
	if (r == -EAFNOSUPPORT)
		skip("no IPv6 in this kernel");
	else
		ok(r == 1, "dual-stack listener on [::], IPv4 client: found through /proc/net/tcp6 (%d)", r);
	return done_testing();
}
