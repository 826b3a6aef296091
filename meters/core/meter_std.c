/* SPDX-License-Identifier: MIT */
/* Helpers most drivers share (as libsigrok's std.c): serial open and labels, ranges, close, sysfs scan. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/events.h"
#include "core/log.h"
#include "core/sysfs.h"
#include "meters/emu/emu_live.h"
#include "meters/meter-internal.h"
#include "meters/transport/serial.h"

#define MOD "meter"
/* A class attribute scan() shows: a power_supply's type, a bus's or a zone's name. */
#define SCAN_ATTR_LEN 64

void meter_std_range(struct meter_info *info, const struct meter_model *m)
{
	if (m)
		info->range = m->range;
}

void meter_std_accuracy(struct meter_info *info, const struct meter_model *m)
{
	if (m && m->accuracy.source)
		info->accuracy = m->accuracy;
}

void meter_std_assumed_accuracy(struct meter_info *info, double v_step, double a_step,
				double w_step)
{
	struct meter_accuracy *acc = &info->accuracy;
	struct meter_acc_q q = { METER_ACC_ASSUMED_GAIN, 0, 0, 0 };

	memset(acc, 0, sizeof(*acc));
	acc->v = acc->a = acc->w = q;
	acc->v.resolution = v_step;
	acc->a.resolution = a_step;
	acc->w.resolution = w_step;
	acc->source = "no datasheet figure: +-5 % of reading assumed";
}

static int dev_stopping(const void *ctx)
{
	return meter_stopping(ctx);
}

int meter_std_serial_open_path(const struct meter_dev *dev, const char *path, unsigned baud,
			       struct serial_port **out)
{
	struct serial_cfg cfg = { .baud = baud, .log_level = meter_log_level(dev, LOG_ERR),
				  .name = dev->spec, .cancelled = dev_stopping, .cancel_ctx = dev };

	return serial_open(path, &cfg, out);
}

int meter_std_read_until(struct serial_port *sp, void *buf, size_t len, uint64_t now,
			 uint64_t until, uint64_t deadline)
{
	if (until > deadline)
		until = deadline;
	return serial_read(sp, buf, len,
			   until > now ? (int)((until - now + NS_PER_MS - 1) / NS_PER_MS) : 0);
}

int meter_std_serial_open(const struct meter_dev *dev, unsigned baud, struct serial_port **out)
{
	return meter_std_serial_open_path(dev, dev->conn, baud, out);
}

static void tty_emulated(const char *tty, void *ctx)
{
	if (emu_live_owner(tty))
		*(int *)ctx = 1;
}

/*
 * A network meter: "UM25C over rfc2217". When ser2net runs on this machine in front of
 * iowatt's emulator, the readings are the emulator's and must say so like a pty's; if
 * that process serves several ptys and any is an emulator, the label errs to emulated.
 */
static void network_label(const struct meter_dev *dev, const struct serial_port *sp,
			  struct meter_info *info, const char *model)
{
	char link[SERIAL_DESC_LEN];
	int emulated = 0;

	serial_peer_ttys(sp, tty_emulated, &emulated);
	info->emulated = emulated;
	info->link_rtt_ms = (double)serial_rtt_ns(sp) / 1e6;
	snprintf(info->model, sizeof(info->model), "%s%s over %s", model,
		 emulated ? " (emulated)" : "", serial_backend(sp));
	serial_describe(sp, link, sizeof(link));
	log_info(MOD, "meter '%s': %s%s over %s", dev->spec, model,
		 emulated ? " (iowatt's emulator behind a local server)" : "", link);
}

void meter_std_serial_label(const struct meter_dev *dev, const struct serial_port *sp,
			    struct meter_info *info, const char *model)
{
	info->emulated = 0;
	if (sp && serial_is_network(dev->conn)) {
		network_label(dev, sp, info, model);
	} else if (emu_live_owner(dev->conn)) {
		info->emulated = 1;
		snprintf(info->model, sizeof(info->model), "%s (emulated)", model);
	} else if (serial_path_is_pty(dev->conn)) {
		snprintf(info->model, sizeof(info->model), "%s via pty bridge", model);
	} else {
		snprintf(info->model, sizeof(info->model), "%s", model);
	}
}

void meter_std_poll_latency(const struct meter_dev *dev, uint64_t round_trip_ns,
			    uint64_t interval_ns, uint64_t reply_timeout_ns)
{
	char msg[256];

	if (dev->reconnecting || round_trip_ns * 2 <= interval_ns)
		return;
	snprintf(msg, sizeof(msg), "a reply took %.0f ms, over half the %.0f ms poll interval: "
		 "readings come at most once per round trip, and a reply later than %.0f ms is "
		 "asked for again (a bad frame)", (double)round_trip_ns / 1e6,
		 (double)interval_ns / 1e6, (double)reply_timeout_ns / 1e6);
	log_warn(MOD, "meter '%s': %s", dev->spec, msg);
	event_pushf(dev->events, EV_INFO, now_ns(), dev->spec, "%s", msg);
}

void meter_std_free_priv(struct meter_dev *dev)
{
	free(dev->priv);
	dev->priv = NULL;
}

void meter_std_serial_close(struct meter_dev *dev, struct serial_port *sp)
{
	serial_close(sp);
	meter_std_free_priv(dev);
}

void meter_std_scan_sysfs(const char *sysfs_root, const char *dir, const char *prefix,
			  const char *attr, FILE *out,
			  void (*show)(FILE *out, const char *entry, const char *attr_val))
{
	char path[PATH_MAX], val[SCAN_ATTR_LEN];
	char **names;
	int n, i;

	n = sysfs_list(sysfs_root, dir, prefix, &names);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s/%s", dir, names[i], attr);
		show(out, names[i], sysfs_read_str(sysfs_root, path, val, sizeof(val)) ? NULL : val);
	}
	sysfs_list_free(names, n);
}

int meter_log_level(const struct meter_dev *dev, int level)
{
	return dev->reconnecting ? LOG_DEBUG : level;
}

const struct opt_choice meter_supply_choices[] = {
	{ "drive", NULL },
	{ "board", NULL },
	{ NULL, NULL },
};
