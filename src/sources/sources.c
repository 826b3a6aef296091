/* SPDX-License-Identifier: MIT */
/* The run's event sources: open them from the table given, one poll() loop reads them all. */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/signals.h"
#include "sources/source-internal.h"

#define MOD "sources"
/* Registry rows; a static bound keeps the poll set on the stack. */
#define SOURCES_MAX 8

struct sources {
	struct sources_config cfg; /* strings borrowed from the caller for the run */
	struct source src[SOURCES_MAX];
	unsigned n;
	int stop_fd;		   /* eventfd: wakes the watcher's poll() to stop */
	pthread_t thread;
	int thread_started;
	/* Found once at open: the main thread reads temperatures while the watcher may
	 * turn other sources off, so it does not walk src[] then. */
	struct source *temps;
};

void source_std_close(struct source *src)
{
	if (src->fd >= 0)
		close(src->fd);
	src->fd = -1;
	free(src->priv);
	src->priv = NULL;
}

int source_open_off(struct source *src, void *priv)
{
	src->priv = priv;
	source_std_close(src);
	return SOURCE_OFF;
}

struct source *source_find(struct sources *set, const struct source_driver *drv)
{
	unsigned i;

	for (i = 0; set && i < set->n; i++)
		if (set->src[i].drv == drv && set->src[i].on)
			return &set->src[i];
	return NULL;
}

static void source_off(struct source *src)
{
	src->drv->close(src);
	src->on = 0;
	src->fd = -1;
	src->period_ns = 0;
}

static void source_read(struct source *src, uint64_t now)
{
	if (src->on && src->drv->read(src, now) < 0)
		source_off(src);
}

/* Milliseconds until the next periodic read, -1 when only fds matter. */
static int next_timeout_ms(const struct sources *s, uint64_t now)
{
	uint64_t first = UINT64_MAX;
	unsigned i;

	for (i = 0; i < s->n; i++)
		if (s->src[i].period_ns && s->src[i].next_ns < first)
			first = s->src[i].next_ns;
	if (first == UINT64_MAX)
		return -1;
	return first <= now ? 0 : (int)((first - now + NS_PER_MS - 1) / NS_PER_MS);
}

/*
 * One thread for every source: sysfs attributes wake it through POLLPRI, the kernel log
 * and GPIO edge fds through POLLIN, and sources that cannot wake poll() (fake trees,
 * regular files, values read once a second) through their period.
 */
static void *sources_thread(void *arg)
{
	struct sources *s = arg;
	struct pollfd pfd[SOURCES_MAX + 1];
	struct source *polled[SOURCES_MAX + 1];
	struct source *src;
	uint64_t now, ev;
	nfds_t n, k;
	unsigned i;

	for (;;) {
		n = 0;
		pfd[n++] = (struct pollfd){ .fd = s->stop_fd, .events = POLLIN };
		for (i = 0; i < s->n; i++) {
			if (s->src[i].fd < 0 || !s->src[i].poll_events)
				continue;
			polled[n] = &s->src[i];
			pfd[n++] = (struct pollfd){ .fd = s->src[i].fd, .events = s->src[i].poll_events };
		}
		if (poll(pfd, n, next_timeout_ms(s, now_ns())) < 0 && errno != EINTR) {
			log_warn(MOD, "poll: %s; event sources no longer watched", strerror(errno));
			break;
		}
		if (pfd[0].revents & POLLIN) {
			if (read(s->stop_fd, &ev, sizeof(ev)) < 0)
				log_debug(MOD, "stop read: %s", strerror(errno));
			break;
		}
		now = now_ns();
		for (k = 1; k < n; k++) {
			src = polled[k];
			/* A hang-up with nothing to read stays ready forever. */
			if ((pfd[k].revents & POLLNVAL) ||
			    ((pfd[k].revents & POLLHUP) && !(pfd[k].revents & POLLIN))) {
				log_warn(MOD, "%s: hung up; no longer watched", src->drv->name);
				source_off(src);
			} else if (pfd[k].revents) {
				source_read(src, now);
			}
		}
		for (i = 0; i < s->n; i++) {
			src = &s->src[i];
			if (src->period_ns && now >= src->next_ns) {
				source_read(src, now);
				src->next_ns = now + src->period_ns;
			}
		}
	}
	return NULL;
}

int sources_open(const struct sources_config *cfg, const struct source_entry *table,
		 struct sources **out)
{
	struct sources *s = xcalloc(1, sizeof(*s));
	const struct source_entry *e;
	struct source *src;
	int rc;

	*out = NULL;
	s->cfg = *cfg;
	s->stop_fd = -1;
	for (e = table; e->drv && s->n < SOURCES_MAX; e++) {
		if (e->fallback_for && source_find(s, e->fallback_for))
			continue;
		src = &s->src[s->n];
		*src = (struct source){ .drv = e->drv, .cfg = &s->cfg, .events = cfg->events,
					.fd = -1 };
		rc = src->drv->open(src);
		if (rc < 0) {
			sources_close(s);
			return rc;
		}
		if (rc == 0) {
			src->on = 1;
			s->n++;
		}
		if (rc == 0 && src->drv->temps)
			s->temps = src;
	}
	s->stop_fd = eventfd(0, EFD_CLOEXEC);
	if (s->stop_fd < 0) {
		rc = -errno;
		log_err(MOD, "eventfd: %s", strerror(errno));
		sources_close(s);
		return rc;
	}
	*out = s;
	return 0;
}

int sources_start(struct sources *s)
{
	uint64_t now = now_ns();
	unsigned i;
	int rc;

	for (i = 0; i < s->n; i++)
		if (s->src[i].drv->start && s->src[i].drv->start(&s->src[i]) < 0)
			source_off(&s->src[i]);
	/* Lines already in a replayed file or FIFO count before the run goes on. */
	for (i = 0; i < s->n; i++) {
		source_read(&s->src[i], now);
		s->src[i].next_ns = now + s->src[i].period_ns;
	}
	/* Signals go to the main thread, whose loops check for them; the watcher has none. */
	rc = signals_blocked_thread(&s->thread, sources_thread, s);
	if (rc) {
		log_err(MOD, "cannot start the event source watcher: %s", strerror(-rc));
		return rc;
	}
	s->thread_started = 1;
	return 0;
}

void sources_stop(struct sources *s)
{
	uint64_t one = 1;
	unsigned i;

	if (!s || !s->thread_started)
		return;
	if (write(s->stop_fd, &one, sizeof(one)) < 0)
		log_warn(MOD, "cannot wake the event source watcher: %s", strerror(errno));
	pthread_join(s->thread, NULL);
	s->thread_started = 0;
	/* What arrived between the last wake and the stop still counts. */
	for (i = 0; i < s->n; i++)
		source_read(&s->src[i], now_ns());
}

void sources_close(struct sources *s)
{
	unsigned i;

	if (!s)
		return;
	sources_stop(s);
	for (i = 0; i < s->n; i++)
		if (s->src[i].on)
			s->src[i].drv->close(&s->src[i]);
	if (s->stop_fd >= 0)
		close(s->stop_fd);
	free(s);
}

/* temps_read() never fails, so the temperature source stays on for the whole run. */
void sources_temps_reset(struct sources *s)
{
	if (s && s->temps)
		s->temps->drv->temps->reset(s->temps);
}

void sources_temps_get(struct sources *s, struct temps *t)
{
	t->soc_c = t->drive_c = t->soc_max_c = t->drive_max_c = NAN;
	if (s && s->temps)
		s->temps->drv->temps->get(s->temps, t);
}

size_t sources_temps_take(struct sources *s, struct temp_sample **out)
{
	*out = NULL;
	return s && s->temps ? s->temps->drv->temps->take(s->temps, out) : 0;
}

void sources_describe(const struct source_entry *table, const char *sysfs_root, FILE *out)
{
	const char *root = sysfs_root ? sysfs_root : "";
	const struct source_entry *e;
	int covered;

	for (e = table; e->drv; e++) {
		covered = e->fallback_for && e->fallback_for->found && e->fallback_for->found(root);
		fprintf(out, "  %s: %s\n", e->drv->name, e->drv->desc);
		e->drv->describe(root, covered, out);
	}
}
