/* SPDX-License-Identifier: MIT */
/* The flag watcher thread: one poll() loop over sysfs flags, the kernel log and temps. */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "core/log.h"
#include "core/util.h"
#include "sources/flags_int.h"

#define MOD "flags"
/* Wake at least this often: fake trees and regular files cannot wake poll(). */
#define FLAGS_TICK_MS 150
#define FLAGS_SLOW_NS NS_PER_SEC

static void *flags_thread(void *arg)
{
	struct flag_sources *fs = arg;
	struct pollfd pfd[3];
	uint64_t now, ev;
	nfds_t n;
	int slow;

	for (;;) {
		n = 0;
		pfd[n++] = (struct pollfd){ .fd = fs->stop_fd, .events = POLLIN };
		if (fs->kmsg_fd >= 0 && fs->kmsg_pollable)
			pfd[n++] = (struct pollfd){ .fd = fs->kmsg_fd, .events = POLLIN };
		/* sysfs_notify() shows as POLLPRI | POLLERR on an attribute already read. */
		if (fs->alarm_fd >= 0 && fs->alarm_pollable)
			pfd[n++] = (struct pollfd){ .fd = fs->alarm_fd, .events = POLLPRI };
		if (poll(pfd, n, FLAGS_TICK_MS) < 0 && errno != EINTR) {
			log_warn(MOD, "poll: %s; flag watcher stopped", strerror(errno));
			break;
		}
		if (pfd[0].revents & POLLIN) {
			if (read(fs->stop_fd, &ev, sizeof(ev)) < 0)
				log_debug(MOD, "stop read: %s", strerror(errno));
			break;
		}
		flags_kmsg_drain(fs);
		now = now_ns();
		slow = now >= fs->next_slow_ns;
		flags_sysfs_check(fs, slow);
		if (slow) {
			temps_poll(fs);
			fs->next_slow_ns = now + FLAGS_SLOW_NS;
		}
	}
	return NULL;
}

int flags_start(const struct flags_config *cfg, struct flag_sources **out)
{
	struct flag_sources *fs = xcalloc(1, sizeof(*fs));
	int rc;

	snprintf(fs->root, sizeof(fs->root), "%s", cfg->sysfs_root ? cfg->sysfs_root : "");
	fs->replay = cfg->replay;
	fs->events = cfg->events;
	fs->kmsg_fd = fs->alarm_fd = fs->thr_fd = -1;
	pthread_mutex_init(&fs->temp_lock, NULL);
	fs->stop_fd = eventfd(0, EFD_CLOEXEC);
	if (fs->stop_fd < 0) {
		rc = -errno;
		log_err(MOD, "eventfd: %s", strerror(errno));
		goto err_free;
	}
	flags_sysfs_open(fs);
	flags_kmsg_open(fs, cfg->kmsg_path, cfg->target_blockdev);
	temps_open(fs, cfg->target_blockdev);
	temps_poll(fs);
	/* Lines already in a replayed file or FIFO are read before the run goes on. */
	flags_kmsg_drain(fs);
	fs->next_slow_ns = now_ns() + FLAGS_SLOW_NS;
	rc = pthread_create(&fs->thread, NULL, flags_thread, fs);
	if (rc) {
		log_err(MOD, "cannot start the flag watcher: %s", strerror(rc));
		rc = -rc;
		goto err_close;
	}
	fs->thread_started = 1;
	*out = fs;
	return 0;

err_close:
	flags_kmsg_close(fs);
	flags_sysfs_close(fs);
	close(fs->stop_fd);
err_free:
	pthread_mutex_destroy(&fs->temp_lock);
	free(fs);
	*out = NULL;
	return rc;
}

void flags_stop(struct flag_sources *fs)
{
	uint64_t one = 1;

	if (!fs)
		return;
	if (fs->thread_started) {
		if (write(fs->stop_fd, &one, sizeof(one)) < 0)
			log_warn(MOD, "cannot wake the flag watcher: %s", strerror(errno));
		pthread_join(fs->thread, NULL);
	}
	/* What arrived between the last wake and the stop still counts. */
	flags_kmsg_drain(fs);
	flags_sysfs_check(fs, 1);
	flags_kmsg_close(fs);
	flags_sysfs_close(fs);
	close(fs->stop_fd);
	pthread_mutex_destroy(&fs->temp_lock);
	free(fs);
}

void flags_list(const char *sysfs_root, FILE *out)
{
	const char *root = sysfs_root ? sysfs_root : "";

	fprintf(out, "flag sources%s%s:\n", *root ? " under " : "", root);
	flags_sysfs_list(root, out);
	if (access("/dev/kmsg", R_OK) == 0)
		fprintf(out, "  kmsg          /dev/kmsg: new lines matched for under-voltage, "
			     "over-current and the target's USB disconnect\n");
	else
		fprintf(out, "  kmsg          /dev/kmsg not readable (needs root or CAP_SYSLOG): "
			     "kernel-log flags off\n");
	temps_list(root, out);
}
