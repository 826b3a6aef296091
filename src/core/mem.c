/* SPDX-License-Identifier: MIT */
/* Memory: allocation that aborts on failure, and how much this process can still allocate. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "core/log.h"
#include "core/mem.h"

static void oom(size_t n)
{
	log_err(NULL, "out of memory allocating %zu bytes", n);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom(n);
	return p;
}

void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz ? sz : 1);

	if (!p)
		oom(n * sz);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		oom(n);
	return q;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s ? s : "");

	if (!p)
		oom(strlen(s));
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		oom(0);
	return s;
}

int mem_available(uint64_t *bytes, const char **what)
{
	unsigned long long kib, pages;
	uint64_t best = UINT64_MAX;
	struct rlimit rl;
	char line[128];
	FILE *fp;

	*what = NULL;
	fp = fopen("/proc/meminfo", "re");
	if (fp) {
		while (fgets(line, sizeof(line), fp))
			if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1) {
				best = (uint64_t)kib * 1024;
				*what = "MemAvailable";
				break;
			}
		fclose(fp);
	}
	if (!getrlimit(RLIMIT_AS, &rl) && rl.rlim_cur != RLIM_INFINITY) {
		uint64_t used = 0, lim = (uint64_t)rl.rlim_cur;

		fp = fopen("/proc/self/statm", "re");
		if (fp) {
			if (fscanf(fp, "%llu", &pages) == 1)
				used = (uint64_t)pages * (uint64_t)sysconf(_SC_PAGESIZE);
			fclose(fp);
		}
		if ((lim > used ? lim - used : 0) < best) {
			best = lim > used ? lim - used : 0;
			*what = "ulimit -v";
		}
	}
	if (!*what)
		return -ENOENT;
	*bytes = best;
	return 0;
}
