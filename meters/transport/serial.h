/* SPDX-License-Identifier: MIT */
/* Serial transport for testers: libserialport for real ports, termios for ptys. */
#ifndef IOWATT_SERIAL_H
#define IOWATT_SERIAL_H

#include <stddef.h>
#include <stdio.h>

struct serial_port;

/*
 * 8n1, no flow control, at baud (ignored by RFCOMM and CDC, honoured by bridges).
 * Failures are logged at log_level (LOG_ERR; LOG_DEBUG while reconnecting).
 */
int serial_open(const char *path, unsigned baud, int log_level, struct serial_port **out);
/*
 * Reads what is there, waiting at most timeout_ms for the first byte. Returns the
 * count, 0 on timeout, or -EIO when the far end hung up (pty closed, rfcomm dropped,
 * USB unplugged).
 */
int serial_read(struct serial_port *sp, void *buf, size_t len, int timeout_ms);
/* Writes all of buf within timeout_ms; len or -errno. */
int serial_write(struct serial_port *sp, const void *buf, size_t len, int timeout_ms);
void serial_flush_input(struct serial_port *sp);
void serial_close(struct serial_port *sp);
/* "libserialport" or "termios (pty)". */
const char *serial_backend(const struct serial_port *sp);
/* 1 when path (after symlinks) is a Unix98 pty slave, as socat, ser2net or our emulator. */
int serial_path_is_pty(const char *path);
/* N of the /dev/pts/N that path (after symlinks) is, or -1. */
int serial_pty_number(const char *path);
/* One line per serial port found, with USB VID:PID, manufacturer and product. */
void serial_list_ports(FILE *out);

#endif
