/* SPDX-License-Identifier: MIT */
/* What the sysfs-polled board meters share: restarting their ticks, INA chips' datasheet accuracy. */
#include <math.h>
#include <string.h>

#include "meters/board/board_meters.h"
#include "meters/ina-datasheet.h"
#include "meters/transport/sysfs.h"

int sysfs_poll_start(struct meter_dev *dev)
{
	struct sysfs_poll *p = dev->priv;

	p->next_ns = 0;
	p->rate.have = 0;
	return 0;
}

void board_ina_accuracy(const char *name, double shunt_ohm, double ina219_offset_v,
			const struct board_ina_sources *src, struct meter_accuracy *acc)
{
	const char *source;

	if (!strcmp(name, "ina260")) {
		acc->a.gain = INA260_DS_A_GAIN;
		acc->a.offset = INA260_DS_A_OFFSET;
		acc->v.gain = INA260_DS_V_GAIN;
		acc->v.offset = INA260_DS_V_OFFSET;
		source = src->ina260;
	} else if (!(shunt_ohm > 0)) {
		return;
	} else if (!strcmp(name, "ina219")) {
		acc->a.gain = INA219_DS_A_GAIN;
		acc->a.offset = ina219_offset_v / shunt_ohm;
		acc->v.gain = INA219_DS_V_GAIN;
		source = src->ina219;
	} else if (!strcmp(name, "ina226")) {
		acc->a.gain = acc->v.gain = INA226_DS_GAIN;
		acc->a.offset = INA226_DS_SHUNT_OFFSET_V / shunt_ohm;
		acc->v.offset = INA226_DS_BUS_OFFSET_V;
		source = src->ina226;
	} else {
		return;
	}
	acc->w.gain = acc->w.offset = NAN;
	acc->source = source;
}
