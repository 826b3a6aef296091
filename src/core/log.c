/* SPDX-License-Identifier: MIT */
/* Leveled logging to stderr: "iowatt: module: message", serialized across threads. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>

#include "core/log.h"

static int cur_level = LOG_INFO;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

void log_set_level(int level)
{
	cur_level = level;
}

int log_get_level(void)
{
	return cur_level;
}

void log_msg(int level, const char *mod, const char *fmt, ...)
{
	static const char *const tags[] = { "error: ", "warning: ", "", "debug: " };
	va_list ap;

	if (level > cur_level)
		return;
	pthread_mutex_lock(&log_lock);
	fprintf(stderr, "iowatt: %s%s%s", tags[level], mod ? mod : "", mod ? ": " : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	pthread_mutex_unlock(&log_lock);
}
