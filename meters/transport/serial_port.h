/* SPDX-License-Identifier: MIT */
/* Inside the serial transport: the ops a port kind implements (a tty, a network port). */
#ifndef IOWATT_SERIAL_PORT_H
#define IOWATT_SERIAL_PORT_H

#include <stddef.h>

#include "meters/transport/serial.h"

/* serial.h's calls, for one kind of port; serial.c dispatches through them. */
struct serial_ops {
	int (*read)(struct serial_port *sp, void *buf, size_t len, int timeout_ms);
	int (*write)(struct serial_port *sp, const void *buf, size_t len, int timeout_ms);
	int (*flush_input)(struct serial_port *sp);
	/* Frees sp. */
	void (*close)(struct serial_port *sp);
	const char *(*backend)(const struct serial_port *sp);
	void (*describe)(const struct serial_port *sp, char *buf, size_t len);
	/* NULL for a local port: */
	unsigned long long (*rtt_ns)(const struct serial_port *sp);
	int (*peer_ttys)(const struct serial_port *sp, void (*fn)(const char *tty, void *ctx),
			 void *ctx);
};

/* The first member of every port kind's struct. */
struct serial_port {
	const struct serial_ops *ops;
};

/* Local ports (serial_tty.c): libserialport, or termios for ptys. */
int tty_serial_open(const char *path, unsigned baud, int log_level, struct serial_port **out);
/* USBTMC char devices (usbtmc.c): /dev/usbtmcN, or a pty named usbtmc* standing in. */
int usbtmc_serial_open(const char *path, int log_level, struct serial_port **out);
/* Network ports (net_serial.c): "rfc2217://HOST:PORT" and "tcp://HOST:PORT". */
int net_serial_open(const char *url, const struct serial_cfg *cfg, struct serial_port **out);

#endif
