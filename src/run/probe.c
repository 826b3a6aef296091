/* SPDX-License-Identifier: MIT */
/* Probing a meter: live readings, once a second, with running energy and the meter's counters. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/clock.h"
#include "core/events.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/outfile.h"
#include "core/phase.h"
#include "core/si_units.h"
#include "core/text.h"
#include "meters/meter.h"
#include "meters/registry/registry.h"
#include "run/probe.h"
#include "run/stop.h"

#define MOD "probe"
#define SLICE_NS (50 * NS_PER_MS)
#define PROBE_BATCH 256
#define TIMES_LEN 48
/* A reading's digits, at every scale (5.019 µA as 250.0 mA), and its cells' widths */
#define SIG_READING 4
#define READING_WIDTH 7
#define UNIT_WIDTH 2
#define ENERGY_WIDTH 10
#define READING_LEN 64

struct probe_acc {
	double v, a, w;		/* sums over this line */
	unsigned n, nv, na, nw;
	double energy_j;	/* running, trapezoids between consecutive samples */
	struct meter_sample prev;
	int have_prev;
	uint64_t total;
};

/* One probe: the meter, its events, the running sums, the optional CSV, the stop signal. */
struct probe {
	struct meter_dev *dev;
	struct event_queue *q;
	struct probe_acc acc;
	FILE *csv;
	struct run_stop stop;
};

static void probe_add(struct probe_acc *pa, const struct meter_sample *s, uint64_t period_ns,
		      FILE *csv)
{
	double dt;

	if (csv)
		fprintf(csv, "%" PRIu64 ",%.10g,%.10g,%.10g,%u\n", s->t_ns, s->v, s->a, s->w,
			(unsigned)s->flags);
	if (!isnan(s->v)) {
		pa->v += s->v;
		pa->nv++;
	}
	if (!isnan(s->a)) {
		pa->a += s->a;
		pa->na++;
	}
	if (!isnan(s->w)) {
		pa->w += s->w;
		pa->nw++;
	}
	pa->n++;
	pa->total++;
	/* Do not bridge a gap: that energy was not measured. */
	if (pa->have_prev && !(s->flags & SAMPLE_AFTER_GAP) && !isnan(s->w) && !isnan(pa->prev.w)) {
		dt = (double)(s->t_ns - pa->prev.t_ns) / 1e9;
		if (!period_ns || dt <= 2.0 * (double)period_ns / 1e9)
			pa->energy_j += (s->w + pa->prev.w) / 2.0 * dt;
	}
	pa->prev = *s;
	pa->have_prev = 1;
}

/*
 * A mean current or power in the unit its figure calls for (250.0 mA, 5.019 µA), or the
 * one --units fixed, with SIG_READING digits: "-" when none came. Number and unit each
 * in a fixed width, so the lines stay in columns as a sleep current goes from mA to µA.
 */
static const char *reading(enum si_quantity q, double sum, unsigned n, char *buf, size_t len)
{
	double mean = n ? sum / n : NAN;
	struct si_unit u = si_unit_of(q, mean);
	char num[48];

	snprintf(buf, len, "%*s %-*s", READING_WIDTH, si_fmt(&u, mean, SIG_READING, num, sizeof(num)),
		 UNIT_WIDTH + (int)text_extra_bytes(u.text), u.text);
	return buf;
}

/* Energy in Wh with the prefix its figure calls for (1.050 mWh, 41.70 µWh). */
static const char *energy_wh(double joules, char *buf, size_t len)
{
	char num[48];

	si_fmt_prefixed(joules / 3600.0, SIG_READING, num, sizeof(num));
	snprintf(buf, len, "%s%sWh", num, strchr(num, ' ') ? "" : " ");
	return buf;
}

static void probe_line(struct meter_dev *dev, struct probe_acc *pa, double t_s, double span_s)
{
	char v[24] = "     - V", a[READING_LEN], w[READING_LEN], e[READING_LEN];
	char extras[METER_EXTRAS_LEN];
	const struct meter_info *in = meter_info(dev);
	struct meter_counters c;

	if (pa->nv)
		snprintf(v, sizeof(v), "%7.4f V", pa->v / pa->nv);
	reading(SI_CURRENT, pa->a, pa->na, a, sizeof(a));
	reading(SI_POWER, pa->w, pa->nw, w, sizeof(w));
	energy_wh(pa->energy_j, e, sizeof(e));
	meter_counters(dev, &c);
	printf("%7.1f s  %s  %s  %s  %*s  %5.1f S/s  bad %" PRIu64 "  gaps %" PRIu64
	       "  reconnects %" PRIu64 "%s%s%s\n",
	       t_s, v, a, w, ENERGY_WIDTH + (int)text_extra_bytes(e), e,
	       span_s > 0 ? pa->n / span_s : 0.0,
	       c.frames_bad, c.gaps, c.reconnects, pa->n ? "" : "  (no reading)",
	       in->emulated ? "  EMULATED" : "", in->manual ? "  MANUAL" : "");
	if (meter_extras(dev, extras, sizeof(extras)))
		printf("          %s\n", extras);
	fflush(stdout);
	pa->v = pa->a = pa->w = 0;
	pa->n = pa->nv = pa->na = pa->nw = 0;
}

/* " (x 1234 in 0.8 s)" for events coalesced while the second went by, "" for one. */
static const char *times(const struct run_event *ev, char *buf, size_t len)
{
	if (event_count(ev) == 1)
		return "";
	snprintf(buf, len, " (x %" PRIu64 " in %.1f s)", event_count(ev),
		 (double)(event_last_ns(ev) - ev->t_ns) / 1e9);
	return buf;
}

static void probe_events(struct event_queue *q)
{
	struct run_event ev[16];
	char count[TIMES_LEN];
	size_t n, i;

	while ((n = event_pop(q, ev, ARRAY_SIZE(ev))) > 0)
		for (i = 0; i < n; i++)
			printf("  event: %s %s: %s%s\n", event_kind_name(ev[i].kind), ev[i].source,
			       ev[i].text, times(&ev[i], count, sizeof(count)));
}

/* The meter (and the CSV) for the probe. 0 or -errno (logged). */
static int probe_open(struct probe *pr, const char *spec, const char *sysfs_root,
		      const char *csv_path, int force)
{
	int rc;

	rc = meter_parse_spec(meter_registry, spec, sysfs_root, &pr->dev);
	if (rc)
		return -EINVAL;
	pr->q = event_queue_new();
	meter_set_events(pr->dev, pr->q);
	meter_set_cancel(pr->dev, &pr->stop.signal);
	rc = meter_open(pr->dev);
	if (rc)
		return rc;
	/* Created once the meter answers: a meter that fails leaves no file behind. */
	if (csv_path) {
		pr->csv = output_fopen(csv_path, force);
		if (!pr->csv) {
			rc = -errno;
			log_err(MOD, "option --csv: %s: %s", csv_path, output_strerror(rc));
			return rc;
		}
		fprintf(pr->csv, "t_ns,v,a,w,flags\n");
	}
	meter_set_phase(pr->dev, PHASE_IDLE, now_ns());
	return meter_thread_start(pr->dev);
}

static void probe_drain(struct probe *pr)
{
	struct meter_sample buf[PROBE_BATCH];
	uint64_t before = now_ns();
	unsigned n, i;

	/* What was taken before now: a meter that delivers as fast as this loop takes must
	 * not keep it from its stop signal. */
	do {
		n = meter_pop(pr->dev, buf, PROBE_BATCH, before);
		for (i = 0; i < n; i++)
			probe_add(&pr->acc, &buf[i], meter_info(pr->dev)->period_ns, pr->csv);
	} while (n == PROBE_BATCH);
	probe_events(pr->q);
}

/* A line per second (per period for slower meters) until a signal or --seconds. */
static void probe_loop(struct probe *pr, double seconds)
{
	const struct meter_info *in = meter_info(pr->dev);
	uint64_t line_ns = in->period_ns > NS_PER_SEC ? in->period_ns : NS_PER_SEC;
	uint64_t start = now_ns(), last_line = start, next = start + line_ns, now, wait;
	uint64_t end = seconds > 0 ? start + (uint64_t)(seconds * 1e9) : 0;

	printf("probe %s: %s%s; Ctrl-C to stop\n", in->spec, in->model,
	       in->emulated ? ", EMULATED readings (iowatt's emulator, not a real meter)" :
	       in->manual ? ", MANUAL (hand readings, not measured)" : "");
	fflush(stdout);
	while (!pr->stop.signal) {
		/* Every slice: a 100 kS/s meter fills its ring in well under a second. */
		probe_drain(pr);
		now = now_ns();
		if (now >= next || (end && now >= end)) {
			probe_line(pr->dev, &pr->acc, (double)(now - start) / 1e9,
				   (double)(now - last_line) / 1e9);
			last_line = now;
			next += line_ns;
			if (end && now >= end)
				break;
			continue;
		}
		wait = next < end || !end ? next : end;
		sleep_ns(wait - now < SLICE_NS ? wait - now : SLICE_NS);
	}
}

/* The totals line; -ENODATA when the meter gave nothing. */
static int probe_totals(struct probe *pr)
{
	struct meter_counters cnt;
	char e[READING_LEN];

	meter_thread_stop(pr->dev);
	probe_drain(pr);
	meter_counters(pr->dev, &cnt);
	printf("probe: %" PRIu64 " samples, %s, %" PRIu64 " bad frames, %" PRIu64
	       " gaps, %" PRIu64 " reconnects, %" PRIu64 " overruns%s\n",
	       pr->acc.total, energy_wh(pr->acc.energy_j, e, sizeof(e)), cnt.frames_bad, cnt.gaps,
	       cnt.reconnects, cnt.overruns, meter_info(pr->dev)->emulated ? " (EMULATED)" : "");
	if (pr->acc.total)
		return 0;
	log_err(MOD, "%s: no readings", meter_info(pr->dev)->spec);
	return -ENODATA;
}

int probe_meter(const struct probe_opts *o, int *signal)
{
	struct probe pr;
	int rc;

	memset(&pr, 0, sizeof(pr));
	rc = run_stop_watch(&pr.stop, NULL);
	if (!rc)
		rc = probe_open(&pr, o->spec, o->sysfs_root, o->csv_path, o->force);
	if (!rc) {
		probe_loop(&pr, o->seconds);
		rc = probe_totals(&pr);
	}
	meter_free(pr.dev);
	event_queue_free(pr.q);
	if (pr.csv && fclose(pr.csv)) {
		log_err(MOD, "--csv %s: %s", o->csv_path, strerror(errno));
		rc = rc ? rc : -EIO;
	}
	run_stop_unwatch(&pr.stop);
	*signal = pr.stop.signal;
	return rc;
}
