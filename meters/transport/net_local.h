/* SPDX-License-Identifier: MIT */
/* A network port served from this machine: which ttys the serving process (ser2net) holds. */
#ifndef IOWATT_NET_LOCAL_H
#define IOWATT_NET_LOCAL_H

/*
 * For a connected TCP socket whose far end is on this machine (its address is ours),
 * finds the process holding the server's end (/proc/net/tcp, /proc/PID/fd) and calls fn
 * with each /dev/pts/N that process has open: so a meter read through ser2net in front
 * of iowatt's emulator is still labelled emulated. 1 when the process was found, 0 when
 * the far end is another machine or not visible (another user's process), -errno.
 */
int net_local_peer_ttys(int fd, void (*fn)(const char *tty, void *ctx), void *ctx);

#endif
