/* SPDX-License-Identifier: MIT */
/* A job's wear from the counters and health at its two ends, as the probe holds them. */
#include <math.h>
#include <string.h>

#include "core/mem.h"
#include "run/wear.h"
#include "tap.h"

static struct result_health *health(int64_t data_units_written)
{
	struct result_health *h = xcalloc(1, sizeof(*h));

	h->used_pct = h->life_time_a = h->life_time_b = h->pre_eol_info = RESULT_NULL_INT;
	h->ext_csd_rev = h->critical_warning = h->temperature_c = RESULT_NULL_INT;
	h->media_errors = RESULT_NULL_INT;
	h->data_units_written = data_units_written;
	h->missing = xcalloc(1, sizeof(*h->missing));
	return h;
}

/* The probe as wear_start and wear_stop leave it, with the counters given. */
static void probe(struct wear_probe *w, uint64_t sectors0, uint64_t sectors1, int64_t duw0,
		  int64_t duw1)
{
	memset(w, 0, sizeof(*w));
	snprintf(w->disk, sizeof(w->disk), "nvme9n1");
	w->root = "";
	w->have_ds0 = w->have_ds1 = 1;
	w->ds0.write_sectors = sectors0;
	w->ds1.write_sectors = sectors1;
	w->t0_ns = 1000;
	w->t1_ns = 1000 + 2000000000ull;
	w->h0 = health(duw0);
	w->h1 = health(duw1);
}

/* Freed as a result's part is. */
static void wear_free(struct result_wear *r)
{
	struct run_result rr;

	memset(&rr, 0, sizeof(rr));
	rr.jobs = xcalloc(1, sizeof(*rr.jobs));
	rr.njobs = 1;
	rr.jobs[0].wear = r;
	result_free(&rr);
}

int main(void)
{
	struct wear_probe w;
	struct result_wear *r;

	probe(&w, 0, 20000, 1000, 1020);
	r = wear_result(&w, 10240000);
	ok(r != NULL, "a disk: a wear record");
	is_int((int)r->device_bytes, 20000 * 512, "device bytes: the sectors written x 512");
	is_dbl(r->write_amplification, 1.0, 1e-12, "as many as the job wrote: 1");
	is_int((int)r->smart_bytes, 20 * 512000, "SMART: 20 data units of 512000 bytes");
	ok(fabs(r->span_s - 2.0) < 1e-9, "over the 2 s between the ends");
	wear_free(r);

	/* a counter that went back (another drive in the slot, a controller reset): no bytes,
	 * not a negative count */
	probe(&w, 0, 20000, 1000, 900);
	r = wear_result(&w, 10240000);
	ok(r->smart_bytes == RESULT_NULL_INT, "SMART data units that fell: null, not %lld",
	   (long long)r->smart_bytes);
	wear_free(r);

	probe(&w, 5000, 100, 1000, 1000);
	r = wear_result(&w, 10240000);
	ok(r->device_bytes == RESULT_NULL_INT && r->note, "diskstats that fell: null, with a note");
	wear_free(r);
	return done_testing();
}
