/* SPDX-License-Identifier: MIT */
/* `iowatt emulate` options: which meter, the current model's figures, faults, truth; usage. */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/cmdline.h"
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
 * 900 mA is a USB 3 port's budget. 0.25 Ohm is a thin cable plus contacts. These are the
 * defaults of emu_opts below.
 */
/* Option bounds: beyond them a figure is a typo, not a meter. */
#define MAX_IDLE_MA 5000.0
#define MAX_MA_PER_MBPS 100.0
#define MAX_MA_PER_KIOPS 1000.0
#define MAX_UC_PER_OP 100000.0
#define MAX_MA 6500.0
#define MIN_VOLTS 0.1
#define MAX_VOLTS 60.0
#define MAX_CABLE_OHMS 10.0
#define MIN_UPDATE_NS (1.0 * NS_PER_MS)
#define MAX_UPDATE_NS (10.0 * NS_PER_SEC)
#define MIN_DURATION_NS (0.1 * NS_PER_SEC)
#define MAX_DURATION_NS (1e7 * NS_PER_SEC)
#define MAX_SEED 1e15
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

static int parse_fault(const struct opt_desc *d, void *base, const char *s, char *why,
		       size_t len)
{
	struct emu_fault *f = (struct emu_fault *)(void *)((char *)base + d->off);
	const char *at = strchr(s, '@');
	char dur[32];

	if (!at || (size_t)(at - s) >= sizeof(dur)) {
		snprintf(why, len, "expected SEC@AT, e.g. 5@3");
		return -EINVAL;
	}
	memcpy(dur, s, (size_t)(at - s));
	dur[at - s] = '\0';
	if (!strcmp(at + 1, "signal"))
		f->at_s = -INFINITY; /* not before the signal */
	else if (parse_double(at + 1, &f->at_s) || f->at_s < 0)
		f->at_s = NAN;
	if (parse_double(dur, &f->dur_s) || f->dur_s <= 0 || isnan(f->at_s)) {
		snprintf(why, len, "expected SEC@AT with positive numbers, or SEC@signal");
		return -EINVAL;
	}
	f->set = 1;
	return 0;
}

static int parse_steps(const struct opt_desc *d, void *base, const char *s, char *why,
		       size_t len)
{
	struct emu_model *m = &((struct emu *)base)->model;

	(void)d;
	free(m->steps); /* the last --step counts */
	m->steps = NULL;
	m->nsteps = 0;
	return emu_parse_steps(s, &m->steps, &m->nsteps, why, len);
}

#define EOFF(f) offsetof(struct emu, f)
#define G_LINK "The emulator"
#define G_MODEL "The current model (what the emulated meter reads)"
#define G_FAULT "Faults and noise"

/* Defaults are the DEF_* figures above, as text: the help prints them. */
static const struct opt_desc emu_opts[] = {
	{ .name = "link", .type = OPT_STRREF, .off = EOFF(link), .metavar = "PATH",
	  .help = "symlink to the pty (required; only a stale link of a dead emulator is "
		  "replaced)",
	  .group = G_LINK, .complete = "file" },
	{ .name = "duration", .type = OPT_DURATION, .off = EOFF(duration_ns),
	  .min = MIN_DURATION_NS, .max = MAX_DURATION_NS, .metavar = "SEC",
	  .help = "exit after SEC seconds (default: until SIGINT/SIGTERM)", .group = G_LINK },
	{ .name = "truth", .type = OPT_STRREF, .off = EOFF(truth_path), .metavar = "FILE",
	  .help = "ground truth CSV: t_ns,v,a,w,kind (update|reply|corrupt; PPK2: "
		  "stream|lost|overflow, and its power commands as cmd_*)",
	  .group = G_LINK, .complete = "file" },
	OPT_HELP_ROW(G_LINK),
	{ .name = "device", .type = OPT_STR, .off = EOFF(model.device),
	  .size = sizeof(((struct emu *)0)->model.device), .metavar = "NAME",
	  .help = "follow this block device's activity in /proc/diskstats (default: the disk "
		  "holding the current directory)",
	  .group = G_MODEL },
	{ .name = "idle-ma", .type = OPT_DOUBLE, .off = EOFF(model.idle_ma), .def = "80",
	  .max = MAX_IDLE_MA, .metavar = "MA", .help = "idle current", .group = G_MODEL },
	{ .name = "sleep-after", .type = OPT_DOUBLE, .off = EOFF(model.sleep_after_s), .def = "0",
	  .max = 86400, .metavar = "SEC",
	  .help = "a lower idle state: after SEC without I/O the device draws --sleep-ma (0: "
		  "never)",
	  .group = G_MODEL },
	{ .name = "sleep-ma", .type = OPT_DOUBLE, .off = EOFF(model.sleep_ma), .def = "20",
	  .max = MAX_IDLE_MA, .metavar = "MA", .help = "idle current in that state",
	  .group = G_MODEL },
	{ .name = "wake-ma", .type = OPT_DOUBLE, .off = EOFF(model.wake_ma), .def = "0",
	  .max = MAX_IDLE_MA, .metavar = "MA",
	  .help = "extra current while waking from it, for --wake-ms after the first I/O",
	  .group = G_MODEL },
	{ .name = "wake-ms", .type = OPT_DOUBLE, .off = EOFF(model.wake_ms), .def = "0",
	  .max = 60000, .metavar = "MS", .help = "how long the wake lasts", .group = G_MODEL },
	{ .name = "ma-per-mbps", .type = OPT_DOUBLE, .off = EOFF(model.ma_per_mbps), .def = "1.5",
	  .max = MAX_MA_PER_MBPS, .metavar = "MA", .help = "extra mA per MB/s moved",
	  .group = G_MODEL },
	{ .name = "ma-per-kiops", .type = OPT_DOUBLE, .off = EOFF(model.ma_per_kiops),
	  .def = "15", .max = MAX_MA_PER_KIOPS, .metavar = "MA",
	  .help = "extra mA per 1000 I/Os per second", .group = G_MODEL },
	{ .name = "uc-per-read", .type = OPT_DOUBLE, .off = EOFF(model.uc_per_op[EMU_OP_READ]),
	  .def = "0", .max = MAX_UC_PER_OP, .metavar = "UC",
	  .help = "charge per completed read (uC), drawn over the update that sees it",
	  .group = G_MODEL },
	{ .name = "uc-per-write", .type = OPT_DOUBLE, .off = EOFF(model.uc_per_op[EMU_OP_WRITE]),
	  .def = "0", .max = MAX_UC_PER_OP, .metavar = "UC",
	  .help = "charge per completed write (uC)", .group = G_MODEL },
	{ .name = "uc-per-flush", .type = OPT_DOUBLE, .off = EOFF(model.uc_per_op[EMU_OP_FLUSH]),
	  .def = "0", .max = MAX_UC_PER_OP, .metavar = "UC",
	  .help = "charge per completed flush (uC)", .group = G_MODEL },
	{ .name = "cap-ma", .type = OPT_DOUBLE, .off = EOFF(model.cap_ma), .def = "900", .min = 1,
	  .max = MAX_MA, .metavar = "MA", .help = "ceiling, a USB 3 port's budget",
	  .group = G_MODEL },
	{ .name = "volts", .type = OPT_DOUBLE, .off = EOFF(model.volts), .def = "5.10",
	  .min = MIN_VOLTS, .max = MAX_VOLTS, .metavar = "V",
	  .help = "supply voltage at the charger", .group = G_MODEL },
	{ .name = "cable-ohms", .type = OPT_DOUBLE, .off = EOFF(model.cable_ohms), .def = "0.25",
	  .max = MAX_CABLE_OHMS, .metavar = "OHMS",
	  .help = "cable and connector resistance: V sags by I*R", .group = G_MODEL },
	{ .name = "constant-ma", .type = OPT_DOUBLE, .off = EOFF(model.constant_ma),
	  .max = MAX_MA, .metavar = "MA",
	  .help = "fixed current instead of following a device (accuracy tests)",
	  .group = G_MODEL },
	{ .name = "step", .type = OPT_FUNC, .parse = parse_steps, .metavar = "LIST",
	  .help = "current steps by time, \"0:100,5:400,10:100\" (s:mA)", .group = G_MODEL },
	{ .name = "update-ms", .type = OPT_DURATION, .off = EOFF(update_ns), .def = "100",
	  .bare_unit_ns = NS_PER_MS, .min = MIN_UPDATE_NS, .max = MAX_UPDATE_NS, .metavar = "MS",
	  .help = "internal update period", .group = G_MODEL },
	{ .name = "hold-ms", .type = OPT_DURATION, .off = EOFF(hold_ns), .def = "0",
	  .bare_unit_ns = NS_PER_MS, .max = NS_PER_SEC, .metavar = "MS",
	  .help = "PPK2: send each sample MS after it was taken at least, as a slow link "
		  "would (the host's stamps then read the meter's clock about that much late)",
	  .group = G_MODEL },
	{ .name = "logic-wire", .type = OPT_STRREF, .off = EOFF(wire_path), .metavar = "FILE",
	  .help = "PPK2: a GPIO line wired to a digital input: FILE gets a line \"T_NS LEVEL\" "
		  "(CLOCK_MONOTONIC, 0|1) per change, appended by what drives it; each sample "
		  "carries the level of its own time",
	  .group = G_MODEL, .complete = "file" },
	{ .name = "logic-input", .type = OPT_UINT, .off = EOFF(wire_input), .def = "0", .max = 7,
	  .metavar = "N", .help = "the digital input (DN) --logic-wire reaches", .group = G_MODEL },
	{ .name = "corrupt-pct", .type = OPT_DOUBLE, .off = EOFF(corrupt_pct), .max = 100,
	  .metavar = "N",
	  .help = "N % of replies or reports broken as the meter's link can break them (UM: "
		  "bad marker, short, bad ID, garbage; FNB58, TC66C, ATORCH: bad check, cut "
		  "short; PPK2: a run of samples lost, which its counter shows)",
	  .group = G_FAULT },
	{ .name = "stall", .type = OPT_FUNC, .parse = parse_fault, .off = EOFF(stall),
	  .metavar = "SEC@AT",
	  .help = "stop answering for SEC seconds, AT seconds after start; AT \"signal\": only "
		  "when SIGUSR1 comes (SEC as given, else 2 s), so a test puts faults after "
		  "what it has seen, not at fixed times",
	  .group = G_FAULT },
	{ .name = "hangup", .type = OPT_FUNC, .parse = parse_fault, .off = EOFF(hangup),
	  .metavar = "SEC@AT",
	  .help = "close the pty and remove the link for SEC seconds (like a Bluetooth drop), "
		  "then come back at the same PATH; AT \"signal\": when SIGUSR2 comes",
	  .group = G_FAULT },
	{ .name = "noise", .type = OPT_FLAG, .off = EOFF(noise.on),
	  .help = "read like the real meter's datasheet allows: a gain and an offset error "
		  "drawn once within its declared bounds, plus scatter per reading "
		  "(docs/energy.md); the truth log keeps the true values",
	  .group = G_FAULT },
	{ .name = "seed", .type = OPT_U64, .off = EOFF(rng), .def = "1", .min = 1,
	  .max = MAX_SEED, .metavar = "N", .help = "random seed of faults and noise",
	  .group = G_FAULT },
};

const struct opt_desc *emu_options(size_t *n)
{
	*n = ARRAY_SIZE(emu_opts);
	return emu_opts;
}

/* Options, then the one argument: the meter; -EINVAL after naming what is wrong. */
static int parse(const struct meter_entry *meters, const struct cmdline *line, int argc,
		 char **argv, struct emu *e)
{
	struct cmdline_parse p = { .cmd = line, .opts = emu_opts, .nopts = ARRAY_SIZE(emu_opts),
				   .base = e };
	char names[NAMES_LEN];
	int rc;

	rc = cmdline_read(&p, argc, argv);
	if (rc)
		goto out;
	rc = -EINVAL;
	proto_names(meters, ", ", names, sizeof(names));
	e->proto = p.noperands ? emu_protocol_find(meters, p.operands[0]) : NULL;
	if (!e->proto) {
		if (p.noperands)
			log_err(MOD, "unknown meter '%s' (%s)", p.operands[0], names);
		else
			log_err(MOD, "which meter? 'iowatt emulate um25c --link PATH' (%s)", names);
	} else if (p.noperands > 1) {
		log_err(MOD, "unexpected argument '%s'", p.operands[1]);
	} else if (!e->link) {
		log_err(MOD, "--link PATH is required (where the meter spec will point)");
	} else if (e->noise.on && (!e->proto->accuracy || !e->proto->accuracy->source)) {
		log_err(MOD, "--noise: the %s's driver declares no accuracy to draw errors from",
			e->proto->title);
	} else {
		rc = 0;
	}
out:
	cmdline_parse_free(&p);
	return rc;
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
	emu_wire_init(&e->wire);
	opt_apply_defaults(emu_opts, ARRAY_SIZE(emu_opts), e);
	e->model.constant_ma = -1; /* unset: follow the device or the steps */
	return e;
}

int emu_from_args(const struct meter_entry *meters, const struct cmdline *line, int argc,
		  char **argv, struct emu **out)
{
	struct emu *e = emu_defaults();
	int rc;

	*out = NULL;
	rc = parse(meters, line, argc, argv, e);
	e->rng = seed_mix(e->rng);
	if (rc) {
		emu_free(e);
		return rc;
	}
	*out = e;
	return 0;
}
