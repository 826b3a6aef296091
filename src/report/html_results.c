/* SPDX-License-Identifier: MIT */
/* The report page's sections about each result: its device context and its meters. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* A row whose value may name paths: cut to their last parts when the page is redacted. */
static void row_path(FILE *fp, const char *key, const char *value, int redact)
{
	char *cut = redact ? html_redact_paths(value) : NULL;

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

static void device_rows(FILE *fp, const struct result_device *d, int redact)
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
		row_path(fp, "loop backing file", d->loop->backing_file, redact);
}

static void context_rows(FILE *fp, const struct rr_result *r, int redact)
{
	const struct result_context *c = r->rep.context;

	row(fp, "link", r->link);
	if (c && c->device)
		device_rows(fp, c->device, redact);
	if (c && c->filesystem) {
		row(fp, "filesystem", c->filesystem->type);
		row(fp, "mount options", c->filesystem->mount_options);
		row_path(fp, "mount point", c->filesystem->mount_point, redact);
	}
	if (c && c->target)
		row_path(fp, "target", c->target->path, redact);
	if (c && c->host) {
		if (!redact)
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

		fprintf(fp, "<div class=\"card\"><h3><span class=\"swatch\" style=\"background:#%06X\"></span>",
			plot_device_rgb((unsigned)r->device_idx));
		html_text(fp, r->label);
		fputs("</h3>\n<table class=\"kv\">\n", fp);
		row(fp, "result", html_base_name(r->path));
		row(fp, "created", r->rep.created);
		row(fp, "iowatt", r->rep.tool.version);
		row(fp, "profile", r->rep.profile);
		row_path(fp, "command", r->rep.command, redact);
		context_rows(fp, r, redact);
		fputs("</table></div>\n", fp);
	}
	fputs("</div>\n</section>\n", fp);
}

static void meter_row(FILE *fp, const struct rr_result *r, const struct result_meter *m,
		      int redact)
{
	char name[RR_LABEL_MAX], period[32], *spec = redact ? html_redact_paths(m->spec) : NULL;

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
