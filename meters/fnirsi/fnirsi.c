/* SPDX-License-Identifier: MIT */
/* FNIRSI FNB48/FNB48S/FNB58/C1 driver: start the HID stream, keep it alive, push readings. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/clock.h"
#include "core/log.h"
#include "core/mem.h"
#include "meters/fnirsi/fnirsi.h"
#include "meters/fnirsi/fnirsi_protocol.h"
#include "meters/transport/hid.h"

#define MOD "fnirsi"
#define MAX_NODES 32
#define PROBE_TIMEOUT_NS (2 * NS_PER_SEC)
#define STEP_READ_MS 50
/* FNB58/FNB48S firmware stops streaming without a poll; OpenFNB58 sends it every 0.9 s. */
#define KEEPALIVE_NS (900 * NS_PER_MS)
/* A report carries 4 readings 10 ms apart and leaves the meter as the last is taken. */
#define FNB_LAG_NS (2 * NS_PER_MS)
#define SPEC_AUTO "auto"

struct fnb_priv {
	struct hid_dev *hid;
	const struct fnb_model *model;
	char path[64];
	uint64_t poll_ns; /* last keep-alive */
	struct meter_pump pump;
	struct fnb_reading last; /* the latest reading, with D+, D- and temperature */
};

static const struct opt_choice fnb_model_names[] = {
	{ "fnb58", NULL }, { "fnb48s", NULL }, { "fnb48", NULL }, { "c1", NULL }, { NULL, NULL },
};

/* The spec's keys (fnb_keys). */
struct fnb_args {
	int model; /* an index of fnb_model_names, -1: not given */
};

static const struct opt_desc fnb_keys[] = {
	{ .name = "model", .type = OPT_ENUM, .off = offsetof(struct fnb_args, model),
	  .choices = fnb_model_names,
	  .help = "the start-up sequence to use where the USB ID is unknown (a pty); "
		  "default: from the USB ID, else fnb58" },
};

static const struct fnb_model *model_by_name(const char *name)
{
	size_t i;

	for (i = 0; i < FNB_MODEL_COUNT; i++)
		if (!strcasecmp(fnb_models[i].meta.name, name))
			return &fnb_models[i];
	return NULL;
}

/* fnb58:auto is the first hidraw node with a known FNIRSI USB ID. */
static int find_auto(const struct meter_dev *dev, char *path, size_t len,
		     const struct fnb_model **m)
{
	struct hid_node nodes[MAX_NODES];
	int n = hid_list(dev->sysfs_root, nodes, MAX_NODES), i;

	for (i = 0; i < n && i < MAX_NODES; i++) {
		*m = fnb_model_by_id(nodes[i].vid, nodes[i].pid);
		if (*m) {
			snprintf(path, len, "%s", nodes[i].dev);
			return 0;
		}
	}
	log_msg(meter_log_level(dev, LOG_ERR), MOD,
		"meter '%s': no FNIRSI tester (USB IDs 2e3c:5558, 2e3c:0049, 0483:003a, "
		"0483:003b) among %d hidraw device(s); is it plugged in?", dev->spec, n);
	return -ENODEV;
}

static int resolve(const struct meter_dev *dev, struct fnb_priv *p)
{
	int want = ((const struct fnb_args *)dev->args)->model;
	uint16_t vid, pid;
	int rc;

	p->model = NULL;
	if (!strcmp(dev->conn, SPEC_AUTO)) {
		rc = find_auto(dev, p->path, sizeof(p->path), &p->model);
		if (rc)
			return rc;
	} else {
		snprintf(p->path, sizeof(p->path), "%s", dev->conn);
		if (!hid_node_id(dev->sysfs_root, dev->conn, &vid, &pid))
			p->model = fnb_model_by_id(vid, pid);
	}
	if (want >= 0)
		p->model = model_by_name(fnb_model_names[want].name);
	if (!p->model)
		p->model = &fnb_models[0];
	return 0;
}

static int send_cmd(struct fnb_priv *p, uint8_t cmd)
{
	uint8_t r[FNB_REPORT_LEN];

	fnb_command(cmd, r);
	return hid_write(p->hid, r);
}

/* 81, 82, then 82 (FNB58, FNB48S) or 83 (FNB48, C1), as the vendor's tools start them. */
static int start_stream(struct fnb_priv *p)
{
	int rc = send_cmd(p, FNB_CMD_INIT1);

	if (!rc)
		rc = send_cmd(p, FNB_CMD_INIT2);
	if (!rc)
		rc = send_cmd(p, p->model->keepalive_82 ? FNB_CMD_INIT2 : FNB_CMD_POLL);
	p->poll_ns = now_ns();
	return rc;
}

/* Waits for a data report with a good CRC: the meter answers and the stream is on. */
static int probe(struct meter_dev *dev, struct fnb_priv *p)
{
	struct fnb_reading rd[FNB_SAMPLES_PER_REPORT];
	uint8_t r[FNB_REPORT_LEN];
	uint64_t end = now_ns() + PROBE_TIMEOUT_NS;
	int rc;

	hid_drain(p->hid);
	rc = start_stream(p);
	while (!rc && now_ns() < end) {
		if (meter_stopping(dev))
			return -ECANCELED;
		rc = hid_read(p->hid, r, STEP_READ_MS);
		if (rc == 1 && fnb_decode(r, rd) == 1)
			return 0;
		rc = rc < 0 ? rc : 0;
	}
	return rc ? rc : -ETIMEDOUT;
}

static int fnb_open(struct meter_dev *dev, struct meter_info *info)
{
	struct fnb_priv *p = xcalloc(1, sizeof(*p));
	int rc = resolve(dev, p);

	if (!rc)
		rc = hid_open(p->path, FNB_REPORT_LEN, meter_log_level(dev, LOG_ERR), &p->hid);
	if (!rc) {
		rc = probe(dev, p);
		if (rc && rc != -ECANCELED)
			log_msg(meter_log_level(dev, LOG_ERR), MOD,
				"meter '%s': no data report from %s within %.0f s (%s)", dev->spec,
				p->path, (double)PROBE_TIMEOUT_NS / 1e9, strerror(-rc));
	}
	if (rc) {
		hid_close(p->hid);
		free(p);
		return rc;
	}
	dev->priv = p;
	meter_std_serial_label(dev, NULL, info, p->model->meta.name);
	meter_std_range(info, &p->model->meta);
	info->period_ns = FNB_PERIOD_NS;
	info->lag_ns = FNB_LAG_NS;
	log_debug(MOD, "%s: %s on %s%s", dev->spec, info->model, p->path,
		  hid_is_stream(p->hid) ? " (reports cut from a byte stream)" : "");
	return 0;
}

/* One report: its four readings go to the core, which spaces them 10 ms apart. */
static int fnb_step(struct meter_dev *dev)
{
	struct fnb_priv *p = dev->priv;
	struct fnb_reading rd[FNB_SAMPLES_PER_REPORT];
	struct meter_sample s[FNB_SAMPLES_PER_REPORT];
	uint8_t r[FNB_REPORT_LEN];
	uint64_t now = now_ns();
	int rc, i;

	if ((!p->model->keepalive_82 || now - p->poll_ns >= KEEPALIVE_NS)) {
		rc = send_cmd(p, FNB_CMD_POLL);
		if (rc)
			return rc == -ETIMEDOUT ? 0 : rc;
		p->poll_ns = now;
	}
	rc = hid_read(p->hid, r, STEP_READ_MS);
	if (rc <= 0)
		return rc;
	rc = fnb_decode(r, rd);
	if (rc < 0)
		METER_COUNT(dev->frames_bad);
	if (rc <= 0)
		return 0;
	for (i = 0; i < FNB_SAMPLES_PER_REPORT; i++)
		s[i] = (struct meter_sample){ .v = rd[i].v, .a = rd[i].a, .w = rd[i].v * rd[i].a,
					      .flags = SAMPLE_W_COMPUTED };
	p->last = rd[FNB_SAMPLES_PER_REPORT - 1];
	meter_set_extras(dev, "D+ %.3f V, D- %.3f V, %.1f C", p->last.dp_v, p->last.dn_v,
			 p->last.temp_c);
	meter_deliver(dev, s, FNB_SAMPLES_PER_REPORT);
	return 0;
}

static int fnb_start(struct meter_dev *dev)
{
	struct fnb_priv *p = dev->priv;

	return meter_pump_start(&p->pump, dev, fnb_step);
}

static void fnb_stop(struct meter_dev *dev)
{
	struct fnb_priv *p = dev->priv;

	if (p)
		meter_pump_stop(&p->pump);
}

static void fnb_close(struct meter_dev *dev)
{
	struct fnb_priv *p = dev->priv;

	if (!p)
		return;
	hid_close(p->hid);
	free(p);
	dev->priv = NULL;
}

static void fnb_scan(const char *sysfs_root, FILE *out)
{
	struct hid_node nodes[MAX_NODES];
	const struct fnb_model *m;
	int n = hid_list(sysfs_root, nodes, MAX_NODES), i, found = 0, acc;

	for (i = 0; i < n && i < MAX_NODES; i++) {
		m = fnb_model_by_id(nodes[i].vid, nodes[i].pid);
		if (!m)
			continue;
		found++;
		acc = hid_node_access(sysfs_root, nodes[i].dev);
		fprintf(out, "  %-16s %s (%04x:%04x)%s\n    spec: fnb58:%s   (or fnb58:auto)\n",
			nodes[i].dev, m->meta.name, nodes[i].vid, nodes[i].pid,
			acc == -EACCES ? "  PERMISSION DENIED: install dist/udev/60-iowatt.rules "
					 "(make install does) and re-plug it, or run as root"
			: acc ? "  (no device node)" : "",
			nodes[i].dev);
	}
	if (!found)
		fprintf(out, "  (no FNIRSI tester among %d hidraw device(s))\n", n);
}

const struct meter_driver meter_fnb58 = {
	.name = "fnb58",
	.desc = "FNIRSI FNB58/FNB48S/FNB48/C1 USB tester (HID, 100 S/s); model from the USB ID",
	.conn = "auto (the first FNIRSI tester), /dev/hidrawN, or an emulator's pty",
	.conn_rule = METER_CONN_REQUIRED,
	.example = "fnb58:auto",
	.flags = METER_DRV_PUSH,
	METER_KEYS(fnb_keys, struct fnb_args),
	METER_MODELS_META(fnb_models),
	.open = fnb_open,
	.start = fnb_start,
	.stop = fnb_stop,
	.close = fnb_close,
	.scan = fnb_scan,
};
