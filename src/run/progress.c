/* SPDX-License-Identifier: MIT */
/* The live progress line on stderr: set by the phase loops, drawn at the end of a pump. */
#include <stdarg.h>
#include <stdio.h>

#include "core/clock.h"
#include "run/progress.h"

/* Often enough to look live, seldom enough not to flicker over a slow ssh link. */
#define PROGRESS_EVERY_NS (250 * NS_PER_MS)
#define ERASE_LINE "\r\033[K"

void progress_set(struct progress *p, const char *fmt, ...)
{
	va_list ap;

	if (!p->enabled)
		return;
	va_start(ap, fmt);
	vsnprintf(p->line, sizeof(p->line), fmt, ap);
	va_end(ap);
}

/* The pump's time may run ahead of the clock (the final drain): the line goes by the clock. */
static void progress_flush(void *arg, uint64_t pump_ns)
{
	struct progress *p = arg;
	uint64_t t = now_ns();

	(void)pump_ns;
	if (!p->enabled || !p->line[0] || t - p->last_ns < PROGRESS_EVERY_NS)
		return;
	p->last_ns = t;
	fprintf(stderr, ERASE_LINE "%s", p->line);
	fflush(stderr);
	p->drawn = 1;
}

const struct session_sink_ops progress_sink_ops = { .flush = progress_flush };

void progress_clear(struct progress *p)
{
	p->line[0] = '\0';
	if (!p->drawn)
		return;
	fputs(ERASE_LINE, stderr);
	fflush(stderr);
	p->drawn = 0;
}
