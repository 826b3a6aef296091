/* SPDX-License-Identifier: MIT */
/* When the target did I/O during a job's idle phase, from its /proc/diskstats polled finely. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/mem.h"
#include "run/idle_watch.h"

void idle_watch_init(struct idle_watch *w, const char *disk, const char *root)
{
	memset(w, 0, sizeof(*w));
	snprintf(w->disk, sizeof(w->disk), "%s", disk ? disk : "");
	snprintf(w->path, sizeof(w->path), "%s%s", root ? root : "", DISKSTATS_PATH);
}

int idle_watch_on(const struct idle_watch *w)
{
	return *w->disk && !w->failed;
}

void idle_watch_reset(struct idle_watch *w, uint64_t now_ns)
{
	size_t i, keep = 0;

	for (i = 0; i < w->n; i++)
		if (w->busy[i].t1_ns + IDLE_WATCH_KEEP_NS >= now_ns)
			w->busy[keep++] = w->busy[i];
	w->n = keep;
	idle_watch_poll(w, now_ns);
}

static int moved(const struct diskstats *a, const struct diskstats *b)
{
	return a->reads != b->reads || a->writes != b->writes || a->discards != b->discards ||
	       a->flushes != b->flushes || a->io_ms != b->io_ms || a->in_flight || b->in_flight;
}

static void add_span(struct idle_watch *w, uint64_t t0_ns, uint64_t t1_ns)
{
	if (w->n && w->busy[w->n - 1].t1_ns >= t0_ns) {
		w->busy[w->n - 1].t1_ns = t1_ns; /* the same busy stretch goes on */
		return;
	}
	if (w->n == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 64;
		w->busy = xrealloc(w->busy, w->cap * sizeof(*w->busy));
	}
	w->busy[w->n++] = (struct idle_span){ t0_ns, t1_ns };
}

void idle_watch_poll(struct idle_watch *w, uint64_t now_ns)
{
	struct diskstats ds;
	int rc;

	if (!idle_watch_on(w) || (w->have_last && now_ns <= w->last_ns))
		return;
	rc = diskstats_read(w->path, w->disk, &ds);
	if (rc) {
		/* Once per run: the idle phases then have no quiet readings to tell apart. */
		log_warn(NULL, "%s: cannot read %s's counters (%s): idle readings are not checked "
			 "against the target's I/O", w->path, w->disk, strerror(-rc));
		w->failed = 1;
		return;
	}
	if (w->have_last && moved(&w->last, &ds))
		add_span(w, w->last_ns, now_ns);
	w->last = ds;
	w->last_ns = now_ns;
	w->have_last = 1;
	w->polls++;
}

int idle_watch_busy(const struct idle_watch *w, uint64_t t0_ns, uint64_t t1_ns)
{
	size_t i;

	for (i = w->n; i-- > 0;) {
		if (w->busy[i].t1_ns < t0_ns)
			return 0; /* spans are in time order: the rest end earlier */
		if (w->busy[i].t0_ns <= t1_ns)
			return 1;
	}
	return 0;
}

void idle_watch_free(struct idle_watch *w)
{
	free(w->busy);
	w->busy = NULL;
	w->n = w->cap = 0;
}
