/* SPDX-License-Identifier: MIT */
/* Serial transport: a port's calls go to its kind, a local tty, a USBTMC device or a network port. */
#include <string.h>

#include "meters/transport/serial_port.h"

int serial_is_network(const char *path)
{
	return !strncmp(path, "rfc2217://", 10) || !strncmp(path, "tcp://", 6);
}

int serial_open(const char *path, const struct serial_cfg *cfg, struct serial_port **out)
{
	*out = NULL;
	if (serial_is_network(path))
		return net_serial_open(path, cfg, out);
	if (serial_is_usbtmc(path))
		return usbtmc_serial_open(path, cfg->log_level, out);
	return tty_serial_open(path, cfg->baud, cfg->log_level, out);
}

int serial_read(struct serial_port *sp, void *buf, size_t len, int timeout_ms)
{
	return sp->ops->read(sp, buf, len, timeout_ms);
}

int serial_write(struct serial_port *sp, const void *buf, size_t len, int timeout_ms)
{
	return sp->ops->write(sp, buf, len, timeout_ms);
}

int serial_flush_input(struct serial_port *sp)
{
	return sp->ops->flush_input(sp);
}

void serial_close(struct serial_port *sp)
{
	if (sp)
		sp->ops->close(sp);
}

const char *serial_backend(const struct serial_port *sp)
{
	return sp->ops->backend(sp);
}

void serial_describe(const struct serial_port *sp, char *buf, size_t len)
{
	sp->ops->describe(sp, buf, len);
}

unsigned long long serial_rtt_ns(const struct serial_port *sp)
{
	return sp->ops->rtt_ns ? sp->ops->rtt_ns(sp) : 0;
}

int serial_peer_ttys(const struct serial_port *sp, void (*fn)(const char *tty, void *ctx),
		     void *ctx)
{
	return sp->ops->peer_ttys ? sp->ops->peer_ttys(sp, fn, ctx) : 0;
}
