/* SPDX-License-Identifier: MIT */
/* Leveled logging to stderr: "iowatt: module: message", serialized across threads. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>

#include "core/log.h"
#include "core/text.h"

/* Longer messages are cut: a file name or a kernel line cannot flood the terminal. */
#define LOG_LINE_MAX 2048

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
	char msg[LOG_LINE_MAX];
	va_list ap;

	if (level > cur_level)
		return;
	/* Messages quote file names, kernel lines and meter replies: one clean line each. */
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	text_clean(msg);
	pthread_mutex_lock(&log_lock);
	fprintf(stderr, "iowatt: %s%s%s%s\n", tags[level], mod ? mod : "", mod ? ": " : "", msg);
	pthread_mutex_unlock(&log_lock);
}
