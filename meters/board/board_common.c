/* SPDX-License-Identifier: MIT */
/* What the sysfs-polled board meters share: restarting their tick and energy-rate state. */
#include "meters/board/board_meters.h"
#include "meters/transport/sysfs.h"

int sysfs_poll_start(struct meter_dev *dev)
{
	struct sysfs_poll *p = dev->priv;

	p->next_ns = 0;
	p->rate.have = 0;
	return 0;
}
