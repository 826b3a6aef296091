/* SPDX-License-Identifier: MIT */
/* Test helper: capture what a call writes to a file descriptor (stderr messages, help). */
#ifndef IOWATT_TEST_CAPTURE_H
#define IOWATT_TEST_CAPTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct capture {
	int fd;	    /* the descriptor being captured (1 or 2) */
	int saved;  /* its original target */
	FILE *tmp;
	char buf[16384];
};

static inline void capture_begin(struct capture *c, int fd)
{
	fflush(stdout);
	fflush(stderr);
	c->fd = fd;
	c->saved = dup(fd);
	c->tmp = tmpfile();
	if (c->saved < 0 || !c->tmp || dup2(fileno(c->tmp), fd) < 0)
		abort();
}

/* Restores the descriptor; returns everything written meanwhile. */
static inline const char *capture_end(struct capture *c)
{
	size_t n;

	fflush(stdout);
	fflush(stderr);
	dup2(c->saved, c->fd);
	close(c->saved);
	rewind(c->tmp);
	n = fread(c->buf, 1, sizeof(c->buf) - 1, c->tmp);
	c->buf[n] = '\0';
	fclose(c->tmp);
	return c->buf;
}

#endif
