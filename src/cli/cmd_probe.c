/* SPDX-License-Identifier: MIT */
/* `iowatt probe --meter SPEC`: live readings, once a second, to check wiring before a run. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "core/clock.h"
#include "core/events.h"
#include "core/files.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/units.h"
#include "meters/meter.h"
#include "meters/registry/registry.h"
#include "run/energy.h"
#include "run/stop.h"

#define MOD "probe"
#define SLICE_NS (50 * NS_PER_MS)
#define PROBE_BATCH 256

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

static void probe_usage(FILE *fp)
{
	fprintf(fp, "usage: iowatt probe --meter SPEC [--seconds N] [--csv FILE [--force]]\n"
		    "                    [--sysfs-root DIR]\n\n"
		    "Live readings of one meter, one line per second (per sample for meters\n"
		    "slower than that): volts, mA, W, running mWh, samples per second, bad\n"
		    "frames, gaps and reconnects. Ctrl-C ends it.\n"
		    "  --meter SPEC     e.g. um25c:/dev/rfcomm0, um:/dev/ttyUSB0,interval=500ms,\n"
		    "                   manual:idle_ma=85,active_ma=310,v=5.05\n"
		    "  --seconds N      stop after N seconds (default: until Ctrl-C)\n"
		    "  --csv FILE       also write every sample: t_ns,v,a,w,flags (a new file;\n"
		    "                   never through a symbolic link)\n"
		    "  --force          replace an existing --csv file\n"
		    "  --sysfs-root DIR read sysfs meters under DIR (tests)\n");
}

static void probe_add(struct probe_acc *pa, const struct meter_sample *s, uint64_t period_ns,
		      FILE *csv)
{
	double dt;

	if (csv)
		fprintf(csv, "%" PRIu64 ",%.6f,%.7f,%.6f,%u\n", s->t_ns, s->v, s->a, s->w,
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

static void probe_line(struct meter_dev *dev, struct probe_acc *pa, double t_s, double span_s)
{
	char v[24] = "     - V", a[24] = "       - mA", w[24] = "      - W";
	char extras[METER_EXTRAS_LEN];
	const struct meter_info *in = meter_info(dev);
	struct meter_counters c;

	if (pa->nv)
		snprintf(v, sizeof(v), "%7.4f V", pa->v / pa->nv);
	if (pa->na)
		snprintf(a, sizeof(a), "%8.1f mA", pa->a / pa->na * 1000.0);
	if (pa->nw)
		snprintf(w, sizeof(w), "%7.4f W", pa->w / pa->nw);
	meter_counters(dev, &c);
	printf("%7.1f s  %s  %s  %s  %9.4f mWh  %5.1f S/s  bad %" PRIu64 "  gaps %" PRIu64
	       "  reconnects %" PRIu64 "%s%s%s\n",
	       t_s, v, a, w, pa->energy_j / 3.6, span_s > 0 ? pa->n / span_s : 0.0,
	       c.frames_bad, c.gaps, c.reconnects, pa->n ? "" : "  (no reading)",
	       in->emulated ? "  EMULATED" : "", in->manual ? "  MANUAL" : "");
	if (meter_extras(dev, extras, sizeof(extras)))
		printf("          %s\n", extras);
	fflush(stdout);
	pa->v = pa->a = pa->w = 0;
	pa->n = pa->nv = pa->na = pa->nw = 0;
}

static void probe_events(struct event_queue *q)
{
	struct run_event ev[16];
	size_t n, i;

	while ((n = event_pop(q, ev, ARRAY_SIZE(ev))) > 0)
		for (i = 0; i < n; i++)
			printf("  event: %s %s: %s\n", event_kind_name(ev[i].kind), ev[i].source,
			       ev[i].text);
}

/* Beyond a year the end time no longer fits the clock's nanoseconds comfortably; nobody
 * means it. */
#define PROBE_SECONDS_MAX (366.0 * 86400.0)

static int probe_parse(int argc, char **argv, const char **spec, double *seconds,
		       const char **sysfs_root, const char **csv_path, int *force)
{
	static const struct option opts[] = {
		{ "meter", required_argument, NULL, 'm' },
		{ "seconds", required_argument, NULL, 's' },
		{ "sysfs-root", required_argument, NULL, 'r' },
		{ "csv", required_argument, NULL, 'c' },
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "m:s:h", opts, NULL)) != -1) {
		switch (c) {
		case 'm':
			*spec = optarg;
			break;
		case 's':
			if (parse_double(optarg, seconds) || *seconds <= 0 ||
			    *seconds > PROBE_SECONDS_MAX) {
				log_err(MOD, "option --seconds '%s': expected a positive number of "
					"seconds up to a year (%.0f)", optarg, PROBE_SECONDS_MAX);
				return -EINVAL;
			}
			break;
		case 'r':
			*sysfs_root = optarg;
			break;
		case 'c':
			*csv_path = optarg;
			break;
		case 'f':
			*force = 1;
			break;
		case 'h':
			probe_usage(stdout);
			return 1;
		default:
			return -EINVAL;
		}
	}
	if (optind < argc) {
		log_err(MOD, "unexpected argument '%s'", argv[optind]);
		return -EINVAL;
	}
	if (!*spec) {
		log_err(MOD, "--meter SPEC is required (see 'iowatt meters' for specs)");
		return -EINVAL;
	}
	if (*csv_path && (c = output_check(*csv_path, *force))) {
		log_err(MOD, "option --csv: %s: %s", *csv_path, output_strerror(c));
		return c == -EEXIST || c == -ELOOP || c == -EISDIR || c == -EINVAL ? -EINVAL : c;
	}
	return 0;
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
	unsigned n, i;

	do {
		n = meter_pop(pr->dev, buf, PROBE_BATCH, UINT64_MAX);
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

	meter_thread_stop(pr->dev);
	probe_drain(pr);
	meter_counters(pr->dev, &cnt);
	printf("probe: %" PRIu64 " samples, %.4f mWh, %" PRIu64 " bad frames, %" PRIu64
	       " gaps, %" PRIu64 " reconnects, %" PRIu64 " overruns%s\n",
	       pr->acc.total, pr->acc.energy_j / 3.6, cnt.frames_bad, cnt.gaps, cnt.reconnects,
	       cnt.overruns, meter_info(pr->dev)->emulated ? " (EMULATED)" : "");
	if (pr->acc.total)
		return 0;
	log_err(MOD, "%s: no readings", meter_info(pr->dev)->spec);
	return -ENODATA;
}

int cmd_probe(int argc, char **argv)
{
	struct probe pr;
	const char *spec = NULL, *sysfs_root = "", *csv_path = NULL;
	double seconds = 0;
	int rc, force = 0;

	rc = probe_parse(argc, argv, &spec, &seconds, &sysfs_root, &csv_path, &force);
	if (rc)
		return rc > 0 ? EXIT_OK : EXIT_USAGE;
	memset(&pr, 0, sizeof(pr));
	rc = run_stop_watch(&pr.stop, NULL);
	if (!rc)
		rc = probe_open(&pr, spec, sysfs_root, csv_path, force);
	if (!rc) {
		probe_loop(&pr, seconds);
		rc = probe_totals(&pr);
	}
	meter_free(pr.dev);
	event_queue_free(pr.q);
	if (pr.csv && fclose(pr.csv)) {
		log_err(MOD, "--csv %s: %s", csv_path, strerror(errno));
		rc = rc ? rc : -EIO;
	}
	run_stop_unwatch(&pr.stop);
	if (pr.stop.signal)
		return pr.stop.signal == SIGINT ? EXIT_SIGINT : 128 + pr.stop.signal;
	return !rc ? EXIT_OK : exit_code_for_errno(rc);
}
