/* SPDX-License-Identifier: MIT */
/* Leveled logging to stderr with a module prefix; the one place that prints diagnostics. */
#ifndef IOWATT_LOG_H
#define IOWATT_LOG_H

enum log_level { LOG_ERR = 0, LOG_WARN, LOG_INFO, LOG_DEBUG };

/* -q lowers, -v raises; default LOG_WARN|LOG_INFO as the CLI sets it. */
void log_set_level(int level);
int log_get_level(void);
void log_msg(int level, const char *mod, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#define log_err(mod, ...) log_msg(LOG_ERR, mod, __VA_ARGS__)
#define log_warn(mod, ...) log_msg(LOG_WARN, mod, __VA_ARGS__)
#define log_info(mod, ...) log_msg(LOG_INFO, mod, __VA_ARGS__)
#define log_debug(mod, ...) log_msg(LOG_DEBUG, mod, __VA_ARGS__)

#endif
