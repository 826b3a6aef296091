/* SPDX-License-Identifier: MIT */
/* The report page's sections about each result: its device context and its meters. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "core/units.h"
#include "report/html.h"
#include "report/plot.h"

#define NS_PER_MS_F 1e6

/* A table row "<tr><th>KEY</th><td>VALUE</td></tr>"; nothing when the value is NULL or "". */
static void row(FILE *fp, const char *key, const char *value)
{
	if (!value || !*value)
		return;
	fprintf(fp, "<tr><th>%s</th><td>", key);
	html_text(fp, value);
	fputs("</td></tr>\n", fp);
}

/*
 * The paths a result names whole (target, mount point, loop file, meter ports): --redact
 * cuts each as one even where the command of a result from before quoting left it
 * unquoted ("--target /mnt/my disk"). NULL (no redaction) when the page is not redacted.
 */
struct known_paths {
	char **v; /* xmalloc'd, each xmalloc'd */
	size_t n;
};

static void known_path(struct known_paths *kp, const char *path, size_t len)
{
	if (path && path[0] == '/')
		kp->v[kp->n++] = xasprintf("%.*s", (int)len, path);
}

static struct known_paths *known_paths_of(const struct rr_result *r, int redact)
{
	const struct result_context *c = r->rep.context;
	const char *path;
	struct known_paths *kp;
	size_t k;

	if (!redact)
		return NULL;
	kp = xcalloc(1, sizeof(*kp));
	kp->v = xcalloc(3 + r->rep.nmeters, sizeof(*kp->v));
	if (c && c->target && (path = c->target->path))
		known_path(kp, path, strlen(path));
	if (c && c->filesystem && (path = c->filesystem->mount_point))
		known_path(kp, path, strlen(path));
	if (c && c->device && c->device->loop && (path = c->device->loop->backing_file))
		known_path(kp, path, strlen(path));
	for (k = 0; k < r->rep.nmeters; k++) {
		/* "um25c:/dev/my port,interval=100ms": the port runs to its first comma */
		if (r->rep.meters[k].spec && (path = strchr(r->rep.meters[k].spec, '/')))
			known_path(kp, path, strcspn(path, ","));
	}
	return kp;
}

static void known_paths_free(struct known_paths *kp)
{
	size_t k;

	if (!kp)
		return;
	for (k = 0; k < kp->n; k++)
		free(kp->v[k]);
	free(kp->v);
	free(kp);
}

/* s with its paths cut (html_redact_paths) when kp is set; NULL when not. */
static char *redact_with(const struct known_paths *kp, const char *s)
{
	return kp ? html_redact_paths(s, (const char *const *)kp->v, kp->n) : NULL;
}

/* A row whose value may name paths: cut to their last parts when the page is redacted. */
static void row_path(FILE *fp, const char *key, const char *value, const struct known_paths *kp)
{
	char *cut = redact_with(kp, value);

	row(fp, key, cut ? cut : value);
	free(cut);
}

static void row_int(FILE *fp, const char *key, int64_t v, const char *unit)
{
	if (v == RESULT_NULL_INT)
		return;
	fprintf(fp, "<tr><th>%s</th><td>%" PRId64 "%s</td></tr>\n", key, v, unit);
}

static void row_size(FILE *fp, const char *key, int64_t bytes)
{
	char buf[32];

	if (bytes == RESULT_NULL_INT || bytes <= 0)
		return;
	fmt_size((uint64_t)bytes, buf, sizeof(buf));
	row(fp, key, buf);
}

static void badge(FILE *fp, const char *cls, const char *text)
{
	fprintf(fp, " <span class=\"badge %s\">%s</span>", cls, text);
}

static void usb_rows(FILE *fp, const struct result_usb *u)
{
	char buf[160];

	if (u->speed) {
		/* sysfs speaks of "480M", "5000M": Mbit/s */
		snprintf(buf, sizeof(buf), "%.*s Mbit/s", (int)strcspn(u->speed, "M"), u->speed);
		row(fp, "USB speed", buf);
	}
	row(fp, "USB device", u->vid_pid);
	row(fp, "USB product", u->product);
	row(fp, "USB manufacturer", u->manufacturer);
	row(fp, "USB bridge", u->bridge_vid_pid);
	row(fp, "USB port", u->port);
	row(fp, "USB driver", u->driver);
}

/* "8.0 GT/s PCIe x4", or the speed alone when the width is unknown. */
static void pcie_link_row(FILE *fp, const char *key, const char *speed, int64_t width)
{
	char buf[160];

	if (!speed)
		return;
	if (width != RESULT_NULL_INT)
		snprintf(buf, sizeof(buf), "%s x%" PRId64, speed, width);
	else
		snprintf(buf, sizeof(buf), "%s", speed);
	row(fp, key, buf);
}

static void pcie_rows(FILE *fp, const struct result_pcie *p)
{
	row(fp, "PCIe address", p->address);
	row(fp, "PCIe device", p->vid_pid);
	pcie_link_row(fp, "PCIe link", p->current_link_speed, p->current_link_width);
	pcie_link_row(fp, "PCIe link (max)", p->max_link_speed, p->max_link_width);
}

static void mmc_rows(FILE *fp, const struct result_mmc *m)
{
	row(fp, "card type", m->type);
	row(fp, "card name", m->name);
	row(fp, "card manufacturer id", m->manfid);
	row(fp, "card OEM id", m->oemid);
	row(fp, "card date", m->date);
	row(fp, "card firmware", m->fwrev);
}

/* An eMMC life-time code as the band it stands for: "10-20 %", or 11 "past its estimate". */
static void life_band(char *buf, size_t len, int64_t code)
{
	if (code == 11)
		snprintf(buf, len, "past its estimate");
	else
		snprintf(buf, len, "%" PRId64 "-%" PRId64 " %%", (code - 1) * 10, code * 10);
}

/* "up to 20 % of life used (life time A 0-10 %, B 10-20 %)" or NVMe's "7 % of life used". */
static void wear_row(FILE *fp, const struct result_health *h)
{
	char buf[256], a[32], b[32];

	if (h->used_pct == RESULT_NULL_INT)
		return;
	if (h->life_time_a != RESULT_NULL_INT && h->life_time_b != RESULT_NULL_INT) {
		life_band(a, sizeof(a), h->life_time_a);
		life_band(b, sizeof(b), h->life_time_b);
		if (h->used_pct > 100)
			snprintf(buf, sizeof(buf), "past its estimated life (life time A %s, B %s)", a, b);
		else
			snprintf(buf, sizeof(buf), "up to %" PRId64 " %% of life used (life time A %s, "
				 "B %s)", h->used_pct, a, b);
	} else {
		snprintf(buf, sizeof(buf), "%" PRId64 " %% of life used", h->used_pct);
	}
	row(fp, "wear (its own)", buf);
}

/* Strings joined by sep, NULLs left out; "" when all are. */
static void join_some(char *buf, size_t len, const char *sep, const char *const *parts, size_t n)
{
	size_t i, at = 0;

	buf[0] = '\0';
	for (i = 0; i < n && at < len; i++)
		if (parts[i] && *parts[i])
			at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? sep : "", parts[i]);
}

static void health_rows(FILE *fp, const struct result_health *h)
{
	static const char *const pre_eol[] = { NULL, "normal", "warning (80 % of reserved blocks used)",
					       "urgent (90 % of reserved blocks used)" };
	char buf[512], date[32] = "", serial[32] = "", oem[32] = "";
	const char *classes[4], *card[5];
	size_t i;

	wear_row(fp, h);
	if (h->emmc_version || h->ext_csd_rev != RESULT_NULL_INT) {
		snprintf(buf, sizeof(buf), "%s (EXT_CSD rev %" PRId64 ")",
			 h->emmc_version ? h->emmc_version : "?", h->ext_csd_rev);
		row(fp, "eMMC", buf);
	}
	if (h->pre_eol_info >= 1 && h->pre_eol_info <= 3)
		row(fp, "pre-EOL", pre_eol[h->pre_eol_info]);
	classes[0] = h->speed_class, classes[1] = h->uhs_grade, classes[2] = h->video_class;
	classes[3] = h->app_class && strcmp(h->app_class, "none") ? h->app_class : NULL;
	join_some(buf, sizeof(buf), " ", classes, 4);
	row(fp, "card classes", buf);
	if (h->date)
		snprintf(date, sizeof(date), "made %s", h->date);
	if (h->oem)
		snprintf(oem, sizeof(oem), "OEM %s", h->oem);
	if (h->serial_hash)
		snprintf(serial, sizeof(serial), "serial #%s (hashed)", h->serial_hash);
	card[0] = h->maker, card[1] = h->product, card[2] = oem, card[3] = date, card[4] = serial;
	join_some(buf, sizeof(buf), ", ", card, 5);
	row(fp, "card (CID)", buf);
	if (h->critical_warning != RESULT_NULL_INT || h->media_errors != RESULT_NULL_INT) {
		snprintf(buf, sizeof(buf), "critical warning 0x%02" PRIx64 ", %" PRId64 " media errors",
			 h->critical_warning == RESULT_NULL_INT ? 0 : (uint64_t)h->critical_warning,
			 h->media_errors == RESULT_NULL_INT ? 0 : h->media_errors);
		row(fp, "SMART", buf);
	}
	if (h->data_units_written != RESULT_NULL_INT) {
		fmt_size((uint64_t)h->data_units_written * 512000u, buf, sizeof(buf));
		row(fp, "written in its life", buf);
	}
	row_int(fp, "drive temperature", h->temperature_c, " &deg;C");
	if (h->usb_protocol)
		row(fp, "USB protocol", !strcmp(h->usb_protocol, "uas") ? "UAS" :
					!strcmp(h->usb_protocol, "bot") ? "BOT (usb-storage)" : h->usb_protocol);
	for (i = 0, buf[0] = '\0'; i < h->nmissing; i++)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s", i ? "; " : "", h->missing[i]);
	row(fp, "health not read", buf);
}

static void power_mgmt_rows(FILE *fp, const struct result_power_mgmt *p)
{
	char buf[256], delay[64] = "";

	if (p->control) {
		if (p->autosuspend_delay_ms != RESULT_NULL_INT && !strcmp(p->control, "auto"))
			snprintf(delay, sizeof(delay), ", suspends after %" PRId64 " ms idle",
				 p->autosuspend_delay_ms);
		snprintf(buf, sizeof(buf), "%s%s%s%s", !strcmp(p->control, "auto") ? "may suspend" :
			 !strcmp(p->control, "on") ? "never suspends" : p->control, delay,
			 p->runtime_status ? ", now " : "", p->runtime_status ? p->runtime_status : "");
		row(fp, "runtime PM", buf);
	}
	if (p->apst_enabled != RESULT_NULL_BOOL || p->apst_max_latency_us != RESULT_NULL_INT) {
		snprintf(buf, sizeof(buf), "%s", p->apst_enabled == RESULT_NULL_BOOL ? "" :
			 p->apst_enabled ? "on" : "off");
		if (p->apst_max_latency_us != RESULT_NULL_INT)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf),
				 "%sdefault_ps_max_latency_us %" PRId64, buf[0] ? ", " : "",
				 p->apst_max_latency_us);
		row(fp, "NVMe APST", buf);
	}
	row_int(fp, "NVMe power state", p->power_state, "");
}

static void device_rows(FILE *fp, const struct result_device *d, const struct known_paths *kp)
{
	row(fp, "vendor", d->vendor);
	row(fp, "model", d->model);
	row(fp, "block device", d->name);
	row(fp, "partition", d->partition);
	row(fp, "transport", d->transport);
	row_size(fp, "capacity", d->size_bytes);
	row_int(fp, "logical block", d->logical_block_size, " B");
	row_int(fp, "physical block", d->physical_block_size, " B");
	if (d->rotational != RESULT_NULL_BOOL)
		row(fp, "rotational", d->rotational ? "yes" : "no");
	if (d->usb)
		usb_rows(fp, d->usb);
	if (d->pcie)
		pcie_rows(fp, d->pcie);
	if (d->mmc)
		mmc_rows(fp, d->mmc);
	if (d->loop)
		row_path(fp, "loop backing file", d->loop->backing_file, kp);
	if (d->health)
		health_rows(fp, d->health);
	if (d->power_management)
		power_mgmt_rows(fp, d->power_management);
}

static void context_rows(FILE *fp, const struct rr_result *r, const struct known_paths *kp)
{
	const struct result_context *c = r->rep.context;

	row(fp, "link", r->link);
	if (c && c->device)
		device_rows(fp, c->device, kp);
	if (c && c->filesystem) {
		row(fp, "filesystem", c->filesystem->type);
		row(fp, "mount options", c->filesystem->mount_options);
		row_path(fp, "mount point", c->filesystem->mount_point, kp);
	}
	if (c && c->target)
		row_path(fp, "target", c->target->path, kp);
	if (c && c->host) {
		if (!kp)
			row(fp, "host", c->host->hostname);
		row(fp, "board", c->host->board);
		row(fp, "CPU", c->host->cpu);
		row(fp, "kernel", c->host->kernel);
		row(fp, "OS", c->host->os);
	}
}

void html_devices(FILE *fp, const struct rr_set *set, int redact)
{
	size_t i;

	fputs("<section id=\"devices\">\n<h2>Devices</h2>\n<div class=\"cards\">\n", fp);
	for (i = 0; i < set->nres; i++) {
		const struct rr_result *r = &set->res[i];
		struct known_paths *kp;

		fprintf(fp, "<div class=\"card\"><h3><span class=\"swatch\" style=\"background:#%06X\"></span>",
			plot_device_rgb((unsigned)r->device_idx));
		html_text(fp, r->label);
		fputs("</h3>\n<table class=\"kv\">\n", fp);
		row(fp, "result", html_base_name(r->path));
		row(fp, "created", r->rep.created);
		row(fp, "iowatt", r->rep.tool.version);
		row(fp, "profile", r->rep.profile);
		kp = known_paths_of(r, redact);
		row_path(fp, "command", r->rep.command, kp);
		context_rows(fp, r, kp);
		known_paths_free(kp);
		fputs("</table></div>\n", fp);
	}
	fputs("</div>\n</section>\n", fp);
}

static void meter_row(FILE *fp, const struct rr_result *r, const struct result_meter *m,
		      int redact)
{
	struct known_paths *kp = known_paths_of(r, redact);
	char name[RR_LABEL_MAX], period[32], *spec = redact_with(kp, m->spec);

	known_paths_free(kp);

	rr_meter_name(m, name, sizeof(name));
	fputs("<tr><td>", fp);
	html_text(fp, r->label);
	fputs("</td><td>", fp);
	html_text(fp, name);
	if (m->emulated)
		badge(fp, "emulated", "EMULATED");
	if (m->manual)
		badge(fp, "manual", "MANUAL");
	fputs("</td><td><code>", fp);
	html_text(fp, spec ? spec : m->spec);
	free(spec);
	fputs("</code></td>", fp);
	/* A PPK2's 10 us period is not "0 ms": the unit follows the figure. */
	if (isnan(m->period_ms) || m->period_ms < 0)
		fputs("<td class=\"num\">-</td>", fp);
	else
		fprintf(fp, "<td class=\"num\">%s</td>",
			fmt_duration((uint64_t)llround(m->period_ms * NS_PER_MS_F), period, sizeof(period)));
	fprintf(fp, "<td class=\"num\">%" PRIu64 "</td><td class=\"num\">%" PRIu64 "</td>"
		    "<td class=\"num\">%" PRIu64 "</td><td class=\"num\">%" PRIu64 "</td>"
		    "<td class=\"num\">%" PRIu64 "</td></tr>\n",
		m->samples, m->frames_bad, m->gaps, m->reconnects, m->overruns);
}

void html_meters(FILE *fp, const struct rr_set *set, int redact)
{
	size_t i, k, n = 0;

	fputs("<section id=\"meters\">\n<h2>Meters</h2>\n", fp);
	for (i = 0; i < set->nres; i++)
		n += set->res[i].rep.nmeters;
	if (!n) {
		fputs("<p>No meter: these results carry I/O figures only.</p>\n</section>\n", fp);
		return;
	}
	fputs("<table class=\"grid\">\n<thead><tr><th>device</th><th>meter</th><th>spec</th>"
	      "<th>period</th><th>samples</th><th>bad frames</th><th>gaps</th><th>reconnects</th>"
	      "<th>overruns</th></tr></thead>\n<tbody>\n", fp);
	for (i = 0; i < set->nres; i++)
		for (k = 0; k < set->res[i].rep.nmeters; k++)
			meter_row(fp, &set->res[i], &set->res[i].rep.meters[k], redact);
	fputs("</tbody></table>\n", fp);
	for (i = 0; i < set->nres; i++) {
		if (set->res[i].emulated) {
			fputs("<p class=\"warn\">EMULATED: the power figures of ", fp);
			html_text(fp, set->res[i].label);
			fputs(" come from iowatt's meter emulator, not from a measurement.</p>\n", fp);
		}
		if (set->res[i].manual) {
			fputs("<p class=\"warn\">MANUAL: the power figures of ", fp);
			html_text(fp, set->res[i].label);
			fputs(" were read off a meter and entered by hand.</p>\n", fp);
		}
	}
	fputs("</section>\n", fp);
}
