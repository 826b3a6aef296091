/* SPDX-License-Identifier: MIT */
/* Capture what a call logs to stderr, so tests can check the message a user would see. */
#ifndef IOWATT_TEST_CAPTURE_H
#define IOWATT_TEST_CAPTURE_H

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int capture_saved_fd = -1;
static FILE *capture_fp;
static char capture_buf[8192];

static inline void capture_begin(void)
{
	fflush(stderr);
	capture_fp = tmpfile();
	capture_saved_fd = dup(STDERR_FILENO);
	dup2(fileno(capture_fp), STDERR_FILENO);
}

/* Stops capturing; returns everything logged since capture_begin (also echoed as TAP
 * comments so a failing test shows it). */
static inline const char *capture_end(void)
{
	size_t n;
	char *line, *save = NULL, copy[sizeof(capture_buf)];

	fflush(stderr);
	dup2(capture_saved_fd, STDERR_FILENO);
	close(capture_saved_fd);
	rewind(capture_fp);
	n = fread(capture_buf, 1, sizeof(capture_buf) - 1, capture_fp);
	capture_buf[n] = '\0';
	fclose(capture_fp);
	memcpy(copy, capture_buf, n + 1);
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		printf("# %s\n", line);
	return capture_buf;
}

#endif
