/* SPDX-License-Identifier: MIT */
/* iowatt import: a recording made by another tool during a run (PulseView, nRF Connect Power Profiler) placed on the run's clock, and the run's phases measured from it. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "analysis/recording_align.h"
#include "analysis/results_read.h"
#include "cli/commands.h"
#include "cli/result_args.h"
#include "core/cmdline.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/outfile.h"

#define MOD "import"
#define OFFSET_MAX_S 1e9

struct import_args {
	const char *recording, *channel, *unit, *json_out;
	double volts, offset_s;
	int have_offset;
	int replace;
	struct result_args ra;
};

#define IOFF(f) offsetof(struct import_args, f)

static int parse_offset(const struct opt_desc *d, void *base, const char *value, char *err,
			size_t errlen)
{
	struct import_args *a = base;
	char *end;

	(void)d;
	a->offset_s = strtod(value, &end);
	/* within 30 years either side: its nanoseconds fit the run's clock */
	if (end == value || *end || !(fabs(a->offset_s) <= OFFSET_MAX_S)) {
		snprintf(err, errlen, "expected seconds, e.g. -2.5 (at most %.0e)", OFFSET_MAX_S);
		return -EINVAL;
	}
	a->have_offset = 1;
	return 0;
}

static struct opt_desc import_opts[] = {
	{ .name = "recording", .type = OPT_STRREF, .off = IOFF(recording), .shortopt = 'r',
	  .metavar = "FILE", .complete = "file:*.sr file:*.ppk2",
	  .help = "the recording (required): a sigrok session (.sr) or a PPK2 file (.ppk2)" },
	{ .name = "channel", .type = OPT_STRREF, .off = IOFF(channel), .metavar = "NAME",
	  .help = "a sigrok session's analog channel of the current (default: its only one)" },
	{ .name = "unit", .type = OPT_STRREF, .off = IOFF(unit), .metavar = "UNIT",
	  .help = "that channel's unit: A, mA or uA (default: from a _mA/_uA name, else A)" },
	{ .name = "volts", .type = OPT_DOUBLE, .off = IOFF(volts), .min = 0.01, .max = 1000,
	  .metavar = "V", .help = "the supply the energies use (default: the run's own meter's "
				  "voltage; without either, energies are not given)" },
	{ .name = "offset", .type = OPT_FUNC, .parse = parse_offset, .metavar = "S",
	  .help = "the recording's first point is at S seconds of the run's clock (from its "
		  "start): no search" },
	{ .name = "json-out", .type = OPT_STRREF, .off = IOFF(json_out), .metavar = "FILE",
	  .complete = "file", .help = "also write the alignment and figures as JSON" },
	{ .name = "force", .type = OPT_FLAG, .off = IOFF(replace),
	  .help = "replace an existing --json-out file" },
	RESULT_LABEL_ROW(IOFF(ra), NULL),
	OPT_HELP_ROW(NULL),
};

const struct cmdline *import_cmdline(void)
{
	static const struct cmdline line = {
		.name = "import",
		.summary = "a recording from another tool, placed on a run's clock and measured by "
			   "its phases",
		.synopsis = "RESULT.json --recording FILE.sr|FILE.ppk2 [--channel NAME] [--unit U]\n"
			    "RESULT.json --recording FILE [--volts V] [--offset S] [--json-out FILE]",
		.about = "A current recording made during a run by another tool (PulseView's "
			 "sigrok session, nRF Connect Power Profiler's .ppk2) is placed on the run's "
			 "clock by where its current steps at the start and end of every active "
			 "phase; the offset and its uncertainty are printed. Then each job's idle, "
			 "active and tail phases are measured from the recording: mean, min and max "
			 "current, charge, and with a voltage the energies and J/GB, beside the "
			 "run's own meter. The figures are the recording's, labelled so.",
		CMDLINE_OPTS(import_opts),
		RESULT_OPERANDS,
	};

	return &line;
}

static int check_args(const void *base)
{
	const struct import_args *a = base;

	if (a->recording)
		return 0;
	log_err(MOD, "--recording FILE is required: the recording to place on the run");
	return -EINVAL;
}

static void put_phase(const char *name, const struct recording_phase *ph)
{
	if (ph->seconds <= 0) {
		printf("    %-7s -\n", name);
		return;
	}
	printf("    %-7s %8.2f s  mean %10.4f mA  min %10.4f  max %10.4f  charge %10.3f mC\n", name,
	       ph->seconds, ph->mean_ma, ph->min_ma, ph->max_ma, ph->charge_mc);
}

static void put_job(const struct recording_job *jb)
{
	printf("  %s\n", jb->name);
	put_phase("idle", &jb->idle);
	put_phase("active", &jb->active);
	put_phase("tail", &jb->tail);
	if (!isnan(jb->meter_active_ma) && jb->active.seconds > 0)
		printf("    active mean: recording %.4f mA, the run's meter %.4f mA (%+.2f%%)\n",
		       jb->active.mean_ma, jb->meter_active_ma,
		       100 * (jb->active.mean_ma / jb->meter_active_ma - 1));
	if (!isnan(jb->volts) && jb->active.seconds > 0 && isnan(jb->active_j))
		printf("    no energies: the recording misses part of the active phase or the tail\n");
	else if (!isnan(jb->volts) && jb->active.seconds > 0)
		printf("    at %.3f V: active %.4f J, above idle %.4f J, %.3f J/GB\n", jb->volts,
		       jb->active_j, jb->net_j, jb->j_per_gb);
}

static void put_placement(const char *path, const struct recording *rec,
			  const struct recording_alignment *al, uint64_t t0_ns)
{
	double at_s = (double)(al->offset_ns - (int64_t)t0_ns) / 1e9;

	printf("recording %s (%s, channel %s, %.6g Hz, read at %.6g Hz, %zu points, %.1f s): "
	       "figures FROM THE RECORDING, not measured by iowatt\n",
	       path, rec->format, rec->channel, rec->src_rate_hz, rec->rate_hz, rec->n,
	       (double)rec->n / rec->rate_hz);
	if (al->given)
		printf("placed at %+.6f s of the run's clock (given: --offset)\n", at_s);
	else
		printf("placed at %+.6f s of the run's clock, U95 %.3f ms, by %u active-phase edges "
		       "(spread %.3f ms; the source gives a value every %.3f ms; the next best "
		       "place scores %.0f%% of this one)\n",
		       at_s, al->u95_s * 1e3, al->edges, al->spread_s * 1e3,
		       al->source_period_s * 1e3, 100 * al->runner_up);
}

/* JSON has no NaN or infinity (jansson refuses them, and with them the whole object). */
static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *phase_json(const struct recording_phase *ph)
{
	if (ph->seconds <= 0)
		return json_null();
	return json_pack("{s:o,s:o,s:o,s:o,s:o}", "seconds", num_or_null(ph->seconds), "mean_ma",
			 num_or_null(ph->mean_ma), "min_ma", num_or_null(ph->min_ma), "max_ma",
			 num_or_null(ph->max_ma), "charge_mc", num_or_null(ph->charge_mc));
}

static int write_json(const struct import_args *a, const struct recording *rec,
		      const struct recording_alignment *al, const struct recording_job *jobs,
		      size_t n, const struct rr_result *r)
{
	struct atomic_file af;
	json_t *root, *arr = json_array();
	size_t i;
	int rc;

	for (i = 0; i < n; i++)
		json_array_append_new(
			arr, json_pack("{s:s,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "jobname",
				       jobs[i].name, "idle", phase_json(&jobs[i].idle), "active",
				       phase_json(&jobs[i].active), "tail", phase_json(&jobs[i].tail),
				       "volts", num_or_null(jobs[i].volts), "energy_active_j",
				       num_or_null(jobs[i].active_j), "energy_net_j",
				       num_or_null(jobs[i].net_j), "j_per_gb",
				       num_or_null(jobs[i].j_per_gb), "meter_active_ma",
				       num_or_null(jobs[i].meter_active_ma)));
	/* --offset leaves u95_s and the search's figures unknown: null. */
	root = json_pack("{s:s,s:s,s:{s:s,s:s,s:f,s:f,s:I},s:{s:f,s:o,s:s,s:i,s:o,s:o,s:o},s:o}",
			 "result", r->path, "figures_from", "recording", "recording", "path",
			 a->recording, "format", rec->format, "rate_hz", rec->rate_hz,
			 "source_rate_hz", rec->src_rate_hz, "points", (json_int_t)rec->n,
			 "alignment", "offset_s", (double)(al->offset_ns - (int64_t)r->rep.t0_ns) / 1e9,
			 "u95_s", num_or_null(al->u95_s), "method",
			 al->given ? "given" : "active phase edges", "edges", (int)al->edges, "spread_s",
			 num_or_null(al->given ? NAN : al->spread_s), "runner_up",
			 num_or_null(al->given ? NAN : al->runner_up), "source_period_s",
			 num_or_null(al->given ? NAN : al->source_period_s), "jobs", arr);
	if (!root) {
		log_err(MOD, "%s: the figures could not be put as JSON (a name that is not UTF-8?)",
			a->json_out);
		return -EINVAL;
	}
	rc = atomic_file_open(&af, a->json_out, a->replace);
	if (!rc) {
		if (json_dumpf(root, af.fp, JSON_INDENT(1) | JSON_REAL_PRECISION(10)) ||
		    fputc('\n', af.fp) == EOF) {
			atomic_file_abort(&af);
			rc = -EIO;
		} else {
			rc = atomic_file_commit(&af);
		}
	}
	json_decref(root);
	return rc;
}

int cmd_import(int argc, char **argv)
{
	struct import_args a;
	struct rr_set set;
	struct recording rec;
	struct recording_alignment al = { 0 };
	struct recording_job *jobs = NULL;
	const struct rr_result *r;
	size_t i, n = 0;
	int rc;

	memset(&a, 0, sizeof(a));
	a.volts = NAN;
	rc = result_args_parse_one(&a.ra, import_cmdline(), &a, argc, argv, check_args, &set);
	if (rc != EXIT_OK)
		return rc == ARGS_HELP ? EXIT_OK : rc;
	r = &set.res[0];
	if (recording_load(a.recording, a.channel, a.unit, &rec)) {
		rr_set_free(&set);
		return EXIT_USAGE;
	}
	if (a.have_offset) {
		al.offset_ns = (int64_t)r->rep.t0_ns + (int64_t)llround(a.offset_s * 1e9);
		al.u95_s = NAN;
		al.given = 1;
	} else if (recording_align(&rec, r, &al)) {
		rc = EXIT_FAIL;
		goto out;
	}
	put_placement(a.recording, &rec, &al, r->rep.t0_ns);
	jobs = xcalloc(r->rep.njobs + 1, sizeof(*jobs));
	for (i = 0; i < r->rep.njobs; i++) {
		struct recording_job *jb = &jobs[n++];

		recording_measure_job(&rec, al.offset_ns, r, &r->rep.jobs[i],
				      a.volts > 0 ? a.volts : NAN, jb);
		put_job(jb);
	}
	rc = EXIT_OK;
	if (a.json_out && write_json(&a, &rec, &al, jobs, n, r))
		rc = EXIT_FAIL;
out:
	free(jobs);
	recording_free(&rec);
	rr_set_free(&set);
	return rc;
}
