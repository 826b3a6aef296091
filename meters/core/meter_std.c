/* SPDX-License-Identifier: MIT */
/* Helpers most drivers share (as libsigrok's std.c): model labels, ranges, a plain close. */
#include <stdlib.h>

#include "core/log.h"
#include "meters/emu/emu_registry.h"
#include "meters/meter-internal.h"
#include "meters/transport/serial.h"

void meter_std_range(struct meter_info *info, const struct meter_model *m)
{
	if (m)
		info->range = m->range;
}

void meter_std_serial_label(const struct meter_dev *dev, struct meter_info *info,
			    const char *model)
{
	info->emulated = 0;
	if (emureg_owner(dev->conn)) {
		info->emulated = 1;
		snprintf(info->model, sizeof(info->model), "%s (emulated)", model);
	} else if (serial_path_is_pty(dev->conn)) {
		snprintf(info->model, sizeof(info->model), "%s via pty bridge", model);
	} else {
		snprintf(info->model, sizeof(info->model), "%s", model);
	}
}

void meter_std_free_priv(struct meter_dev *dev)
{
	free(dev->priv);
	dev->priv = NULL;
}

int meter_log_level(const struct meter_dev *dev, int level)
{
	return dev->reconnecting ? LOG_DEBUG : level;
}
