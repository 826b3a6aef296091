/* SPDX-License-Identifier: MIT */
/* A job's wear: what reached the whole device over the job, against what the job wrote. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/clock.h"
#include "core/mem.h"
#include "run/context_health.h"
#include "run/wear.h"

/* NVMe counts data units of 1000 x 512 bytes. */
#define NVME_DATA_UNIT_BYTES 512000LL

/* Freed through the key table, like every other part of a result. */
static void health_free(struct result_health **h)
{
	struct run_result r;

	if (!*h)
		return;
	memset(&r, 0, sizeof(r));
	r.context = xcalloc(1, sizeof(*r.context));
	r.context->device = xcalloc(1, sizeof(*r.context->device));
	r.context->device->health = *h;
	result_free(&r);
	*h = NULL;
}

void wear_start(struct wear_probe *w, const char *root, const char *disk)
{
	health_free(&w->h0);
	health_free(&w->h1);
	memset(w, 0, sizeof(*w));
	if (!disk || !*disk)
		return;
	w->root = root ? root : "";
	snprintf(w->disk, sizeof(w->disk), "%s", disk);
	snprintf(w->diskstats_path, sizeof(w->diskstats_path), "%s%s", w->root, DISKSTATS_PATH);
	w->h0 = context_health_of(w->root, w->disk);
	w->t0_ns = now_ns();
	w->have_ds0 = !diskstats_read(w->diskstats_path, w->disk, &w->ds0);
}

void wear_stop(struct wear_probe *w)
{
	if (!w->disk[0])
		return;
	w->have_ds1 = !diskstats_read(w->diskstats_path, w->disk, &w->ds1);
	w->t1_ns = now_ns();
	w->h1 = context_health_of(w->root, w->disk);
}

/* The health fields that move with wear, by name, from one snapshot. */
static int64_t health_field(const struct result_health *h, size_t i)
{
	const int64_t v[] = { h->used_pct, h->life_time_a, h->life_time_b, h->pre_eol_info,
			      h->media_errors, h->critical_warning, h->data_units_written };

	return v[i];
}

static const char *const health_keys[] = { "used_pct",	   "life_time_a",      "life_time_b",
					   "pre_eol_info", "media_errors",     "critical_warning",
					   "data_units_written" };

static void health_changes(struct result_wear *r, const struct result_health *a,
			   const struct result_health *b)
{
	size_t i;

	r->health_changes = xcalloc(ARRAY_SIZE(health_keys), sizeof(*r->health_changes));
	if (!a || !b)
		return;
	for (i = 0; i < ARRAY_SIZE(health_keys); i++) {
		struct result_health_change *c = &r->health_changes[r->nhealth_changes];

		if (health_field(a, i) == RESULT_NULL_INT || health_field(b, i) == RESULT_NULL_INT)
			continue;
		c->key = xstrdup(health_keys[i]);
		c->start = health_field(a, i);
		c->end = health_field(b, i);
		r->nhealth_changes++;
	}
	/* a count that fell is another drive's or a reset's: no bytes, not negative ones */
	if (a->data_units_written != RESULT_NULL_INT && b->data_units_written != RESULT_NULL_INT &&
	    b->data_units_written >= a->data_units_written)
		r->smart_bytes = (b->data_units_written - a->data_units_written) * NVME_DATA_UNIT_BYTES;
}

struct result_wear *wear_result(struct wear_probe *w, uint64_t job_bytes)
{
	struct result_wear *r;

	if (!w->disk[0])
		return NULL;
	r = xcalloc(1, sizeof(*r));
	r->device = xstrdup(w->disk);
	r->job_bytes = job_bytes;
	r->device_bytes = r->smart_bytes = RESULT_NULL_INT;
	r->write_amplification = NAN;
	r->span_s = w->t1_ns > w->t0_ns ? (double)(w->t1_ns - w->t0_ns) / 1e9 : NAN;
	if (w->have_ds0 && w->have_ds1 && w->ds1.write_sectors >= w->ds0.write_sectors)
		r->device_bytes = (int64_t)((w->ds1.write_sectors - w->ds0.write_sectors) *
					    DISKSTATS_SECTOR);
	else
		r->note = xstrdup("the disk's counters were not readable at both ends");
	if (r->device_bytes != RESULT_NULL_INT && job_bytes)
		r->write_amplification = (double)r->device_bytes / (double)job_bytes;
	if (r->device_bytes != RESULT_NULL_INT && job_bytes && (uint64_t)r->device_bytes < job_bytes)
		r->note = xstrdup("the device saw less than the job wrote: writes still cached when "
				  "the job ended (no sync), or merged");
	health_changes(r, w->h0, w->h1);
	wear_start(w, NULL, NULL);
	return r;
}
