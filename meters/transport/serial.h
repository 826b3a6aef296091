/* SPDX-License-Identifier: MIT */
/* Serial transport for testers: libserialport for real ports, termios for ptys, RFC 2217 or raw TCP. */
#ifndef IOWATT_SERIAL_H
#define IOWATT_SERIAL_H

#include <stddef.h>
#include <stdio.h>

struct serial_port;

/* How to open a port. */
struct serial_cfg {
	unsigned baud;	/* 8n1, no flow control, at this rate */
	int log_level;	/* for failures: LOG_ERR; LOG_DEBUG while reconnecting */
	const char *name; /* what messages call it (the meter's spec); NULL: the path */
	/* Polled while a network port resolves and connects: non-zero gives up with
	 * -ECANCELED, quietly (a stop must not wait out a dead host). NULL: never. */
	int (*cancelled)(const void *ctx);
	const void *cancel_ctx;
};

/*
 * path is a device (/dev/rfcomm0, /dev/ttyUSB0, a pty), a USBTMC device
 * (serial_is_usbtmc) or a network port: "rfc2217://HOST:PORT" (telnet with
 * COM-PORT-OPTION: the line settings are sent to the
 * far end) or "tcp://HOST:PORT" (the bytes as they are, ser2net's raw tcp accepter). The
 * baud rate is ignored by RFCOMM and CDC, honoured by bridges and RFC 2217 servers.
 */
int serial_open(const char *path, const struct serial_cfg *cfg, struct serial_port **out);
/*
 * 1 when path's last part starts with "usbtmc" (/dev/usbtmc0): serial_open() then writes
 * and reads it as the kernel's usbtmc driver wants (a query, then its reply whole);
 * the baud rate does not apply.
 */
int serial_is_usbtmc(const char *path);
/* 1 when path names a network port (rfc2217:// or tcp://). */
int serial_is_network(const char *path);
/*
 * Reads what is there, waiting at most timeout_ms for the first byte. Returns the
 * count, 0 on timeout, or -EIO when the far end hung up (pty closed, rfcomm dropped,
 * USB unplugged).
 */
int serial_read(struct serial_port *sp, void *buf, size_t len, int timeout_ms);
/* Writes all of buf within timeout_ms; len or -errno. */
int serial_write(struct serial_port *sp, const void *buf, size_t len, int timeout_ms);
/*
 * Drops what has arrived and not been read (a late reply's bytes), no more than was there
 * when called: 0, or -EIO / -EPROTO when a network port's link is gone or flooded (a
 * driver gives the link up as on a failed read).
 */
int serial_flush_input(struct serial_port *sp);
void serial_close(struct serial_port *sp);
/* "libserialport", "termios (pty)", "RFC 2217" or "raw TCP". */
const char *serial_backend(const struct serial_port *sp);
/* Room for serial_describe's text. */
#define SERIAL_DESC_LEN 320
/* What the port is, for a label: the path, or "rfc2217 HOST:PORT (round trip 0.2 ms)". */
void serial_describe(const struct serial_port *sp, char *buf, size_t len);
/*
 * For a network port served from this machine (ser2net on localhost): calls fn with each
 * /dev/pts/N the serving process holds, so that an emulator behind it is still known.
 * Returns 1 when that process was found, 0 when not (another machine, a local port).
 */
int serial_peer_ttys(const struct serial_port *sp, void (*fn)(const char *tty, void *ctx),
		     void *ctx);
/* The link's smoothed round trip (the kernel's TCP estimate) in ns; 0 for a local port. */
unsigned long long serial_rtt_ns(const struct serial_port *sp);
/* 1 when path (after symlinks) is a Unix98 pty slave, as socat, ser2net or our emulator. */
int serial_path_is_pty(const char *path);
/* N of the /dev/pts/N that path (after symlinks) is, or -1. */
int serial_pty_number(const char *path);
/* One line per serial port found, with USB VID:PID, manufacturer and product. */
void serial_list_ports(FILE *out);
/* The names of the ports serial_list_ports lists, one a line, each after prefix. */
void serial_port_names(FILE *out, const char *prefix, int prefix_len);

#endif
