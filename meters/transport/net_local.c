/* SPDX-License-Identifier: MIT */
/* A network port served from this machine: which ttys the serving process (ser2net) holds. */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "meters/transport/net_local.h"

#define TTY_PREFIX "/dev/pts/"

/* An address as /proc/net/tcp{,6} prints it: the 32-bit words in host order, as hex. */
static void proc_hex(const struct sockaddr_storage *ss, char *out, size_t len)
{
	const struct sockaddr_in *in4 = (const struct sockaddr_in *)ss;
	const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)ss;
	uint32_t w[4];

	if (ss->ss_family == AF_INET) {
		snprintf(out, len, "%08X:%04X", (unsigned)in4->sin_addr.s_addr, ntohs(in4->sin_port));
		return;
	}
	memcpy(w, &in6->sin6_addr, sizeof(w));
	snprintf(out, len, "%08X%08X%08X%08X:%04X", (unsigned)w[0], (unsigned)w[1], (unsigned)w[2],
		 (unsigned)w[3], ntohs(in6->sin6_port));
}

static int same_host(const struct sockaddr_storage *a, const struct sockaddr_storage *b)
{
	if (a->ss_family != b->ss_family)
		return 0;
	if (a->ss_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
		       ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	return !memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
		       &((const struct sockaddr_in6 *)b)->sin6_addr, sizeof(struct in6_addr));
}

/* An IPv4 address as a dual-stack IPv6 socket sees it: ::ffff:a.b.c.d. */
static void v4_mapped(const struct sockaddr_storage *v4, struct sockaddr_storage *out)
{
	const struct sockaddr_in *in4 = (const struct sockaddr_in *)v4;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)out;

	memset(out, 0, sizeof(*out));
	in6->sin6_family = AF_INET6;
	in6->sin6_port = in4->sin_port;
	in6->sin6_addr.s6_addr[10] = 0xff;
	in6->sin6_addr.s6_addr[11] = 0xff;
	memcpy(&in6->sin6_addr.s6_addr[12], &in4->sin_addr, 4);
}

/* The inode of the row of table (/proc/net/tcp or tcp6) whose local address is our peer
 * and whose remote address is us. 0 if none. */
static unsigned long table_inode(const char *table, const struct sockaddr_storage *us,
				 const struct sockaddr_storage *peer)
{
	char want_local[64], want_rem[64], line[512], local[64], rem[64];
	unsigned long inode = 0, ino;
	FILE *fp;

	proc_hex(peer, want_local, sizeof(want_local));
	proc_hex(us, want_rem, sizeof(want_rem));
	fp = fopen(table, "r");
	if (!fp)
		return 0;
	while (!inode && fgets(line, sizeof(line), fp))
		if (sscanf(line, "%*d: %63s %63s %*x %*s %*s %*s %*d %*d %lu", local, rem, &ino) == 3 &&
		    !strcmp(local, want_local) && !strcmp(rem, want_rem))
			inode = ino;
	fclose(fp);
	return inode;
}

/* The inode of the server's end. A server listening on all addresses (ser2net without
 * an address, as labgrid-exporter starts it) holds a dual-stack IPv6 socket, so the
 * server's end of an IPv4 connection is a mapped row in /proc/net/tcp6. */
static unsigned long server_inode(const struct sockaddr_storage *us,
				  const struct sockaddr_storage *peer)
{
	struct sockaddr_storage us6, peer6;
	unsigned long inode;

	if (us->ss_family != AF_INET)
		return table_inode("/proc/net/tcp6", us, peer);
	inode = table_inode("/proc/net/tcp", us, peer);
	if (inode)
		return inode;
	v4_mapped(us, &us6);
	v4_mapped(peer, &peer6);
	return table_inode("/proc/net/tcp6", &us6, &peer6);
}

/* Calls fn for each /dev/pts/N that process pid holds; 1 if it holds socket:[inode]. */
static int scan_fds(const char *pid, unsigned long inode, void (*fn)(const char *, void *),
		    void *ctx)
{
	char dir[64], path[PATH_MAX], link[PATH_MAX], want[64];
	struct dirent *de;
	ssize_t n;
	int has = 0;
	DIR *d;

	snprintf(dir, sizeof(dir), "/proc/%s/fd", pid);
	snprintf(want, sizeof(want), "socket:[%lu]", inode);
	d = opendir(dir);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		n = readlink(path, link, sizeof(link) - 1);
		if (n <= 0)
			continue;
		link[n] = '\0';
		if (!strcmp(link, want))
			has = 1;
		else if (fn && !strncmp(link, TTY_PREFIX, strlen(TTY_PREFIX)))
			fn(link, ctx);
	}
	closedir(d);
	return has;
}

int net_local_peer_ttys(int fd, void (*fn)(const char *tty, void *ctx), void *ctx)
{
	struct sockaddr_storage us, peer;
	socklen_t ulen = sizeof(us), plen = sizeof(peer);
	unsigned long inode;
	struct dirent *de;
	int found = 0;
	DIR *d;

	if (getsockname(fd, (struct sockaddr *)&us, &ulen) ||
	    getpeername(fd, (struct sockaddr *)&peer, &plen))
		return -errno;
	if ((us.ss_family != AF_INET && us.ss_family != AF_INET6) || !same_host(&us, &peer))
		return 0;
	inode = server_inode(&us, &peer);
	if (!inode)
		return 0;
	d = opendir("/proc");
	if (!d)
		return -errno;
	while (!found && (de = readdir(d)))
		if (de->d_name[0] >= '1' && de->d_name[0] <= '9' && scan_fds(de->d_name, inode, NULL,
									  NULL)) {
			scan_fds(de->d_name, inode, fn, ctx);
			found = 1;
		}
	closedir(d);
	return found;
}
