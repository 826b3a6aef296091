/* SPDX-License-Identifier: MIT */
/* Test helper: run run_config_parse on a NULL-terminated word list, capturing stderr. */
#ifndef IOWATT_TEST_ARGV_H
#define IOWATT_TEST_ARGV_H

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli/run_args.h"
#include "capture.h"
#include "core/options.h"

static char parse_err[16384];

/* The words in pre (NULL-terminated), then those in ap up to a NULL. */
static inline int parse_v(struct run_config *cfg, int measure, const char *const *pre,
			  va_list ap)
{
	char *argv[64];
	struct capture cap;
	const char *w;
	int argc = 0, rc, i;

	for (; pre && *pre && argc < 63; pre++)
		argv[argc++] = strdup(*pre);
	while ((w = va_arg(ap, const char *)) && argc < 63)
		argv[argc++] = strdup(w);
	argv[argc] = NULL;
	capture_begin(&cap, 2);
	rc = run_config_parse(argc, argv, cfg, measure);
	strcpy(parse_err, capture_end(&cap));
	/* One line per TAP description. */
	for (i = 0; parse_err[i]; i++)
		if (parse_err[i] == '\n')
			parse_err[i] = parse_err[i + 1] ? '|' : '\0';
	for (i = 0; i < argc; i++)
		free(argv[i]);
	return rc;
}

/* parse(cfg, measure, "run", "--bs", "4k", NULL): rc as run_config_parse; stderr kept. */
static inline int parse(struct run_config *cfg, int measure, ...)
{
	va_list ap;
	int rc;

	va_start(ap, measure);
	rc = parse_v(cfg, measure, NULL, ap);
	va_end(ap);
	return rc;
}

#endif
