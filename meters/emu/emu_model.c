/* SPDX-License-Identifier: MIT */
/* Emulated current: follows a block device's activity, fixed steps, or a constant. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "core/diskstats.h"
#include "core/mem.h"
#include "core/units.h"
#include "meters/emu/emu_model.h"

#define BYTES_PER_MB 1e6
#define IOS_PER_KIO 1e3
#define MA_PER_A 1000.0

int emu_parse_steps(const char *s, struct emu_step **out, size_t *n, char *why, size_t len)
{
	struct emu_step *steps = NULL;
	char *copy = xstrdup(s), *item, *save = NULL, *colon;
	size_t count = 0;
	int rc = 0;

	for (item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		steps = xrealloc(steps, (count + 1) * sizeof(*steps));
		colon = strchr(item, ':');
		if (!colon) {
			snprintf(why, len, "'%s' is not SECONDS:MA", item);
			rc = -EINVAL;
			break;
		}
		*colon = '\0';
		if (parse_double(item, &steps[count].t_s) || steps[count].t_s < 0 ||
		    parse_double(colon + 1, &steps[count].ma) || steps[count].ma < 0) {
			snprintf(why, len, "'%s:%s' is not SECONDS:MA with numbers >= 0", item,
				 colon + 1);
			rc = -EINVAL;
			break;
		}
		if (count && steps[count].t_s <= steps[count - 1].t_s) {
			snprintf(why, len, "times must increase ('%s' after %g)", item,
				 steps[count - 1].t_s);
			rc = -EINVAL;
			break;
		}
		count++;
	}
	free(copy);
	if (!rc && !count) {
		snprintf(why, len, "no steps");
		rc = -EINVAL;
	}
	if (rc) {
		free(steps);
		return rc;
	}
	*out = steps;
	*n = count;
	return 0;
}

int emu_cwd_device(char *buf, size_t len)
{
	char path[96], part[PATH_MAX + 16], real[PATH_MAX], *base;
	struct stat st;

	if (stat(".", &st))
		return -errno;
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", major(st.st_dev), minor(st.st_dev));
	if (!realpath(path, real))
		return -ENODEV;
	/* A partition's parent directory is its disk: the meter sits on the disk's cable. */
	snprintf(part, sizeof(part), "%s/partition", real);
	if (!access(part, F_OK)) {
		base = strrchr(real, '/');
		if (base)
			*base = '\0';
	}
	base = strrchr(real, '/');
	snprintf(buf, len, "%s", base ? base + 1 : real);
	return 0;
}

int emu_diskstats(const char *dev, uint64_t *sectors, uint64_t *ios, uint64_t *ops)
{
	struct diskstats ds;
	int rc = diskstats_read(DISKSTATS_PATH, dev, &ds);

	if (!rc) {
		*sectors = ds.read_sectors + ds.write_sectors;
		*ios = ds.reads + ds.writes;
		if (ops) {
			ops[EMU_OP_READ] = ds.reads;
			ops[EMU_OP_WRITE] = ds.writes;
			ops[EMU_OP_FLUSH] = ds.flushes;
		}
	}
	return rc;
}

/* The idle part of the current: awake, asleep after a pause, or waking from it. */
static double idle_state_ma(struct emu_model *m, uint64_t now)
{
	if (m->sleep_after_s <= 0)
		return m->idle_ma;
	if (m->kiops > 0 || !m->last_io_ns) {
		if (m->asleep)
			m->wake_until_ns = now + (uint64_t)(m->wake_ms * 1e6);
		m->asleep = 0;
		m->last_io_ns = now;
	} else if ((double)(now - m->last_io_ns) / 1e9 >= m->sleep_after_s) {
		m->asleep = 1;
	}
	if (m->asleep)
		return m->sleep_ma;
	return m->idle_ma + (now < m->wake_until_ns ? m->wake_ma : 0);
}

/* The charge (uC) of the completions since the last update. */
static double new_ops_uc(const struct emu_model *m, const uint64_t *ops)
{
	double uc = 0;
	int k;

	for (k = 0; k < EMU_OP_KINDS; k++)
		uc += (double)(ops[k] - m->prev_ops[k]) * m->uc_per_op[k];
	return uc;
}

double emu_op_draw_ma(double *owed_uc, double dt_s, double base_ma, double cap_ma)
{
	double ma, room = cap_ma - base_ma;

	if (!(*owed_uc > 0) || !(dt_s > 0))
		return 0;
	ma = *owed_uc / 1e3 / dt_s;
	if (ma > room)
		ma = room > 0 ? room : 0;
	*owed_uc -= ma * 1e3 * dt_s;
	if (*owed_uc < 1e-9)
		*owed_uc = 0;
	return ma;
}

static double activity_amps(struct emu_model *m, uint64_t now)
{
	uint64_t sectors, ios, ops[EMU_OP_KINDS];
	double dt = 0, ma;

	if (!emu_diskstats(m->device, &sectors, &ios, ops)) {
		if (m->have_prev && now > m->prev_ns) {
			dt = (double)(now - m->prev_ns) / 1e9;
			m->mbps = (double)(sectors - m->prev_sectors) * DISKSTATS_SECTOR / BYTES_PER_MB / dt;
			m->kiops = (double)(ios - m->prev_ios) / IOS_PER_KIO / dt;
			m->op_owed_uc += new_ops_uc(m, ops);
		}
		memcpy(m->prev_ops, ops, sizeof(ops));
		m->prev_sectors = sectors;
		m->prev_ios = ios;
		m->prev_ns = now;
		m->have_prev = 1;
	}
	ma = idle_state_ma(m, now) + m->ma_per_mbps * m->mbps + m->ma_per_kiops * m->kiops;
	/* An update late by a fraction of its period comes early for the next (the loop keeps
	 * its schedule): a write seen in 0.2 ms would draw 3 A there, beyond the cap and a
	 * PPK2's 1 A, and the meter drops such samples. What the cap holds back is drawn
	 * over the next updates instead, so each operation's charge reaches the meter whole. */
	if (dt > 0)
		m->op_ma = emu_op_draw_ma(&m->op_owed_uc, dt, ma, m->cap_ma);
	ma += m->op_ma;
	return (ma > m->cap_ma ? m->cap_ma : ma) / MA_PER_A;
}

double emu_model_amps(struct emu_model *m, double t_s, uint64_t now)
{
	size_t i;
	double ma;

	if (m->constant_ma >= 0)
		return m->constant_ma / MA_PER_A;
	if (m->nsteps) {
		ma = m->steps[0].ma;
		for (i = 0; i < m->nsteps && m->steps[i].t_s <= t_s; i++)
			ma = m->steps[i].ma;
		return ma / MA_PER_A;
	}
	return activity_amps(m, now);
}

double emu_model_volts(const struct emu_model *m, double amps)
{
	double v = m->volts - amps * m->cable_ohms;

	return v > 0 ? v : 0;
}
