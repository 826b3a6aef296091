/* SPDX-License-Identifier: MIT */
/* `iowatt emulate` options: which meter, the current model's figures, faults, truth; usage. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/units.h"
#include "meters/emu/emu_int.h"
#include "meters/meter.h"

#define MOD "emulate"

/*
 * A 2.5" SATA SSD behind a USB 3 bridge: datasheets give 0.3-0.5 W idle and 2-4 W
 * active, the bridge adds a few hundred mW. On 5 V that is ~80 mA idle and ~650 mA at
 * 400 MB/s (1.5 mA per MB/s); per-I/O controller and flash work is 15 mA per kIOPS;
 * 900 mA is a USB 3 port's budget. 0.25 Ohm is a thin cable plus contacts.
 */
#define DEF_IDLE_MA 80.0
#define DEF_MA_PER_MBPS 1.5
#define DEF_MA_PER_KIOPS 15.0
#define DEF_CAP_MA 900.0
#define DEF_VOLTS 5.10
#define DEF_CABLE_OHMS 0.25
#define DEF_UPDATE_NS (100 * NS_PER_MS)
#define DEF_SEED 1
/* Option bounds: beyond them a figure is a typo, not a meter. */
#define MAX_IDLE_MA 5000.0
#define MAX_MA_PER_MBPS 100.0
#define MAX_MA_PER_KIOPS 1000.0
#define MAX_MA 6500.0
#define MIN_VOLTS 0.1
#define MAX_VOLTS 60.0
#define MAX_CABLE_OHMS 10.0
#define MIN_UPDATE_MS 1.0
#define MAX_UPDATE_MS 10000.0
#define MIN_DURATION_S 0.1
#define MAX_DURATION_S 1e7
#define MAX_SEED 1e15
#define WHY_LEN 160
#define NAMES_LEN 256

/* "um25c, um24c, um34c" */
static void proto_names(const struct meter_entry *meters, const char *sep, char *buf, size_t len)
{
	const struct emu_protocol *p;
	size_t i, off = 0;
	int n;

	buf[0] = '\0';
	for (i = 0; (p = meter_emulator(meters, i)) && off < len; i++) {
		n = snprintf(buf + off, len - off, "%s%s", i ? sep : "", p->name);
		if (n < 0)
			break;
		off += (size_t)n;
	}
}

void emu_usage(const struct meter_entry *meters, FILE *fp)
{
	const struct emu_protocol *p;
	char names[NAMES_LEN];
	size_t i;

	proto_names(meters, "|", names, sizeof(names));
	fprintf(fp, "usage: iowatt emulate %s --link PATH [options]\n\n", names);
	fprintf(fp,
		"An EMULATED meter on a pseudo-terminal, speaking its protocol as the real\n"
		"meter does. Every iowatt output that reads it says EMULATED. Point a meter\n"
		"spec at PATH, e.g. --meter um25c:PATH.\n\n");
	for (i = 0; (p = meter_emulator(meters, i)); i++)
		fprintf(fp, "  %-10s %s\n", p->name, p->summary);
	fprintf(fp,
		"\n"
		"  --link PATH         symlink to the pty (required; only a stale link of a\n"
		"                      dead emulator is replaced)\n"
		"  --device NAME       follow this block device's activity in /proc/diskstats\n"
		"                      (default: the disk holding the current directory)\n"
		"  --idle-ma X         idle current (default 80)\n"
		"  --ma-per-mbps X     extra mA per MB/s moved (default 1.5)\n"
		"  --ma-per-kiops X    extra mA per 1000 I/Os per second (default 15)\n"
		"  --cap-ma X          ceiling, a USB 3 port's budget (default 900)\n"
		"  --volts X           supply voltage at the charger (default 5.10)\n"
		"  --cable-ohms X      cable and connector resistance: V sags by I*R (default 0.25)\n"
		"  --constant-ma X     fixed current instead of following a device (accuracy tests)\n"
		"  --step LIST         current steps by time, \"0:100,5:400,10:100\" (s:mA)\n"
		"  --update-ms N       internal update period (default 100)\n"
		"  --truth FILE        ground truth CSV: t_ns,v,a,w,kind (update|reply|corrupt;\n"
		"                      PPK2: stream|lost|overflow, and its power commands as cmd_*)\n"
		"  --corrupt-pct N     N %% of replies or reports broken as the meter's link can\n"
		"                      break them (UM: bad marker, short, bad ID, garbage; FNB58,\n"
		"                      TC66C, ATORCH: bad check, cut short; PPK2: a run of\n"
		"                      samples lost, which its counter shows)\n"
		"  --stall SEC@AT      stop answering for SEC seconds, AT seconds after start\n"
		"  --hangup SEC@AT     close the pty and remove the link for SEC seconds (like a\n"
		"                      Bluetooth drop), then come back at the same PATH\n"
		"                      AT \"signal\": only when asked: SIGUSR1 starts a stall now,\n"
		"                      SIGUSR2 a hang-up (SEC as given, else 2 s), so a test puts\n"
		"                      faults after what it has seen, not at fixed times\n"
		"  --duration SEC      exit after SEC seconds (default: until SIGINT/SIGTERM)\n"
		"  --noise             read like the real meter's datasheet allows: a gain and an\n"
		"                      offset error drawn once within its declared bounds, plus\n"
		"                      scatter per reading (docs/energy.md); the truth log keeps\n"
		"                      the true values\n"
		"  --seed N            random seed of faults and noise (default 1)\n\n"
		"Default figures: a 2.5\" SATA SSD in a USB 3 enclosure. SATA SSD datasheets give\n"
		"~0.3-0.5 W idle and 2-4 W active; with the bridge that is ~80 mA idle and\n"
		"~600-700 mA at 400 MB/s on 5 V, so 1.5 mA per MB/s. Small random I/O costs\n"
		"controller and flash work beyond its bytes: 15 mA per kIOPS puts a USB SSD\n"
		"at ~10 kIOPS of 4 KiB near 1.5 W. Rounded, typical figures, not a measurement\n"
		"of any one device.\n");
}

static int parse_fault(const char *opt, const char *s, struct emu_fault *f)
{
	const char *at = strchr(s, '@');
	char dur[32];

	if (!at || (size_t)(at - s) >= sizeof(dur)) {
		log_err(MOD, "option --%s '%s': expected SEC@AT, e.g. 5@3", opt, s);
		return -EINVAL;
	}
	memcpy(dur, s, (size_t)(at - s));
	dur[at - s] = '\0';
	if (!strcmp(at + 1, "signal"))
		f->at_s = -INFINITY; /* not before the signal */
	else if (parse_double(at + 1, &f->at_s) || f->at_s < 0)
		f->at_s = NAN;
	if (parse_double(dur, &f->dur_s) || f->dur_s <= 0 || isnan(f->at_s)) {
		log_err(MOD, "option --%s '%s': expected SEC@AT with positive numbers, or "
			     "SEC@signal", opt, s);
		return -EINVAL;
	}
	f->set = 1;
	return 0;
}

static int opt_number(const char *opt, const char *s, double min, double max, double *out)
{
	if (parse_double(s, out) || *out < min || *out > max) {
		log_err(MOD, "option --%s '%s': expected a number from %g to %g", opt, s, min, max);
		return -EINVAL;
	}
	return 0;
}

enum {
	OPT_LINK = 'l', OPT_DEVICE = 'd', OPT_IDLE = 'i', OPT_MBPS = 'm', OPT_KIOPS = 'k',
	OPT_CAP = 'C', OPT_VOLTS = 'v', OPT_OHMS = 'r', OPT_CONST = 'c', OPT_STEP = 's',
	OPT_UPDATE = 'u', OPT_TRUTH = 't', OPT_CORRUPT = 'p', OPT_STALL = 'S', OPT_HANGUP = 'H',
	OPT_DURATION = 'D', OPT_SEED = 'x', OPT_NOISE = 'n', OPT_HELP = 'h',
};

static const struct option emu_opts[] = {
	{ "link", required_argument, NULL, OPT_LINK },
	{ "device", required_argument, NULL, OPT_DEVICE },
	{ "idle-ma", required_argument, NULL, OPT_IDLE },
	{ "ma-per-mbps", required_argument, NULL, OPT_MBPS },
	{ "ma-per-kiops", required_argument, NULL, OPT_KIOPS },
	{ "cap-ma", required_argument, NULL, OPT_CAP },
	{ "volts", required_argument, NULL, OPT_VOLTS },
	{ "cable-ohms", required_argument, NULL, OPT_OHMS },
	{ "constant-ma", required_argument, NULL, OPT_CONST },
	{ "step", required_argument, NULL, OPT_STEP },
	{ "update-ms", required_argument, NULL, OPT_UPDATE },
	{ "truth", required_argument, NULL, OPT_TRUTH },
	{ "corrupt-pct", required_argument, NULL, OPT_CORRUPT },
	{ "stall", required_argument, NULL, OPT_STALL },
	{ "hangup", required_argument, NULL, OPT_HANGUP },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "noise", no_argument, NULL, OPT_NOISE },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

/* The current model's figures. */
static int opt_model(struct emu *e, int c, const char *arg)
{
	char why[WHY_LEN];
	int rc = 0;

	switch (c) {
	case OPT_DEVICE:
		snprintf(e->model.device, sizeof(e->model.device), "%s", arg);
		break;
	case OPT_IDLE:
		return opt_number("idle-ma", arg, 0, MAX_IDLE_MA, &e->model.idle_ma);
	case OPT_MBPS:
		return opt_number("ma-per-mbps", arg, 0, MAX_MA_PER_MBPS, &e->model.ma_per_mbps);
	case OPT_KIOPS:
		return opt_number("ma-per-kiops", arg, 0, MAX_MA_PER_KIOPS, &e->model.ma_per_kiops);
	case OPT_CAP:
		return opt_number("cap-ma", arg, 1, MAX_MA, &e->model.cap_ma);
	case OPT_VOLTS:
		return opt_number("volts", arg, MIN_VOLTS, MAX_VOLTS, &e->model.volts);
	case OPT_OHMS:
		return opt_number("cable-ohms", arg, 0, MAX_CABLE_OHMS, &e->model.cable_ohms);
	case OPT_CONST:
		return opt_number("constant-ma", arg, 0, MAX_MA, &e->model.constant_ma);
	case OPT_STEP:
		rc = emu_parse_steps(arg, &e->model.steps, &e->model.nsteps, why, sizeof(why));
		if (rc)
			log_err(MOD, "option --step '%s': %s", arg, why);
		break;
	}
	return rc;
}

/* Timing, faults and output. */
static int opt_run(struct emu *e, int c, const char *arg, const char **truth_path)
{
	double x;
	int rc = 0;

	switch (c) {
	case OPT_LINK:
		e->link = arg;
		break;
	case OPT_UPDATE:
		rc = opt_number("update-ms", arg, MIN_UPDATE_MS, MAX_UPDATE_MS, &x);
		e->update_ns = (uint64_t)(x * 1e6);
		break;
	case OPT_TRUTH:
		*truth_path = arg;
		break;
	case OPT_CORRUPT:
		return opt_number("corrupt-pct", arg, 0, 100, &e->corrupt_pct);
	case OPT_STALL:
		return parse_fault("stall", arg, &e->stall);
	case OPT_HANGUP:
		return parse_fault("hangup", arg, &e->hangup);
	case OPT_DURATION:
		rc = opt_number("duration", arg, MIN_DURATION_S, MAX_DURATION_S, &x);
		e->duration_ns = (uint64_t)(x * 1e9);
		break;
	case OPT_SEED:
		rc = opt_number("seed", arg, 1, MAX_SEED, &x);
		e->rng = (uint64_t)x;
		break;
	case OPT_NOISE:
		e->noise.on = 1;
		break;
	default:
		return opt_model(e, c, arg);
	}
	return rc;
}

/* Options, then the one argument: the meter; -EINVAL after naming what is wrong. */
static int parse(const struct meter_entry *meters, int argc, char **argv, struct emu *e,
		 const char **truth_path)
{
	char names[NAMES_LEN];
	int c, rc = 0;

	optind = 1;
	while (!rc && (c = getopt_long(argc, argv, "h", emu_opts, NULL)) != -1) {
		if (c == OPT_HELP) {
			emu_usage(meters, stdout);
			return 1;
		}
		if (c == '?')
			return -EINVAL;
		rc = opt_run(e, c, optarg, truth_path);
	}
	if (rc)
		return rc;
	proto_names(meters, ", ", names, sizeof(names));
	e->proto = optind < argc ? emu_protocol_find(meters, argv[optind]) : NULL;
	if (!e->proto) {
		if (optind < argc)
			log_err(MOD, "unknown meter '%s' (%s)", argv[optind], names);
		else
			log_err(MOD, "which meter? 'iowatt emulate um25c --link PATH' (%s)", names);
		return -EINVAL;
	}
	if (optind + 1 < argc) {
		log_err(MOD, "unexpected argument '%s'", argv[optind + 1]);
		return -EINVAL;
	}
	if (!e->link) {
		log_err(MOD, "--link PATH is required (where the meter spec will point)");
		return -EINVAL;
	}
	if (e->noise.on && (!e->proto->accuracy || !e->proto->accuracy->source)) {
		log_err(MOD, "--noise: the %s's driver declares no accuracy to draw errors from",
			e->proto->title);
		return -EINVAL;
	}
	return 0;
}

/* splitmix64 of the seed: xorshift starts poorly from small states like 1. */
static uint64_t seed_mix(uint64_t x)
{
	x += 0x9E3779B97F4A7C15ULL;
	x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
	x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
	return x ^ (x >> 31);
}

static struct emu *emu_defaults(void)
{
	struct emu *e = xcalloc(1, sizeof(*e));

	e->master = e->slave = -1;
	e->model.idle_ma = DEF_IDLE_MA;
	e->model.ma_per_mbps = DEF_MA_PER_MBPS;
	e->model.ma_per_kiops = DEF_MA_PER_KIOPS;
	e->model.cap_ma = DEF_CAP_MA;
	e->model.volts = DEF_VOLTS;
	e->model.cable_ohms = DEF_CABLE_OHMS;
	e->model.constant_ma = -1;
	e->update_ns = DEF_UPDATE_NS;
	e->rng = DEF_SEED;
	return e;
}

int emu_from_args(const struct meter_entry *meters, int argc, char **argv, struct emu **out)
{
	struct emu *e = emu_defaults();
	int rc;

	*out = NULL;
	rc = parse(meters, argc, argv, e, &e->truth_path);
	e->rng = seed_mix(e->rng);
	if (rc) {
		emu_free(e);
		return rc;
	}
	*out = e;
	return 0;
}
