/* SPDX-License-Identifier: MIT */
/* Memory: allocation that aborts on failure, what can still be allocated, array sizes. */
#ifndef IOWATT_MEM_H
#define IOWATT_MEM_H

#include <stddef.h>
#include <stdint.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t sz);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
/* Aborts on failure like xmalloc; returns an allocated, formatted string. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Memory this process can still allocate: the smaller of the kernel's MemAvailable and
 * what RLIMIT_AS (ulimit -v) leaves above the current address space. `what` names the
 * limit that decided ("MemAvailable", "ulimit -v"). -errno if neither is known.
 */
int mem_available(uint64_t *bytes, const char **what);

#endif
