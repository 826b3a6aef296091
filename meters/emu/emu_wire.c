/* SPDX-License-Identifier: MIT */
/* An emulated wire into a meter's digital input: a board GPIO line's level changes, read from a file. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/log.h"
#include "meters/emu/emu_wire.h"

#define MOD "emulate"
/* bytes of level changes one poll reads at most (a change is about 20) */
#define EMU_WIRE_POLL_MAX 4096

void emu_wire_init(struct emu_wire *w)
{
	memset(w, 0, sizeof(*w));
	w->fd = -1;
}

static void take_line(struct emu_wire *w, const char *line)
{
	uint64_t t;
	int level;

	if (sscanf(line, "%" SCNu64 " %d", &t, &level) != 2)
		return;
	if (w->n == EMU_WIRE_QUEUE) {
		log_warn(MOD, "--logic-wire: more than %d changes ahead of the samples: the "
			      "oldest is applied early", EMU_WIRE_QUEUE);
		w->level = w->q[w->head].level;
		w->head = (w->head + 1) % EMU_WIRE_QUEUE;
		w->n--;
	}
	w->q[(w->head + w->n) % EMU_WIRE_QUEUE].t_ns = t;
	w->q[(w->head + w->n) % EMU_WIRE_QUEUE].level = !!level;
	w->n++;
}

void emu_wire_poll(struct emu_wire *w, const char *path)
{
	char *nl;
	ssize_t rd;
	size_t taken = 0;

	if (!path)
		return;
	if (w->fd < 0)
		w->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (w->fd < 0)
		return;
	/* At most EMU_WIRE_POLL_MAX bytes a call: a writer that never stops must not hold
	 * the emulator's sample loop; the rest is read on the next call. */
	while (taken < EMU_WIRE_POLL_MAX) {
		rd = read(w->fd, w->buf + w->have, sizeof(w->buf) - 1 - w->have);
		if (rd <= 0)
			return;
		taken += (size_t)rd;
		w->have += (unsigned)rd;
		w->buf[w->have] = '\0';
		while ((nl = strchr(w->buf, '\n'))) {
			*nl = '\0';
			take_line(w, w->buf);
			w->have -= (unsigned)(nl + 1 - w->buf);
			memmove(w->buf, nl + 1, w->have + 1);
		}
		if (w->have == sizeof(w->buf) - 1)
			w->have = 0; /* a line that long is no change: dropped */
	}
}

int emu_wire_level(struct emu_wire *w, uint64_t t_ns)
{
	while (w->n && w->q[w->head].t_ns <= t_ns) {
		w->level = w->q[w->head].level;
		w->head = (w->head + 1) % EMU_WIRE_QUEUE;
		w->n--;
	}
	return w->level;
}

void emu_wire_close(struct emu_wire *w)
{
	if (w->fd >= 0)
		close(w->fd);
	w->fd = -1;
}
