/* SPDX-License-Identifier: MIT */
/* `iowatt emulate um25c --link PATH`: a UM-series tester on a pty, with fault injection. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include "cli/commands.h"
#include "core/log.h"
#include "core/util.h"
#include "meters/core/emu_registry.h"
#include "meters/emu/emu_model.h"
#include "meters/um/um.h"

#define MOD "emulate"

/* A pause of the link: no answers (stall) or no pty at all (hangup). */
struct emu_fault {
	double at_s, dur_s;
	int set;
};

struct emu {
	const struct um_model *um;
	struct emu_model model;
	const char *link;
	uint64_t update_ns, duration_ns;
	double corrupt_pct;
	struct emu_fault stall, hangup;
	FILE *truth;
	uint64_t rng;
	/* The pty: master answers, our own slave fd keeps it alive between clients. */
	int master, slave;
	char pts[64];
	/* Latest update and the meter's running totals. */
	double v, a, mah, mwh;
	uint64_t start_ns, last_update_ns;
	uint64_t replies, corrupted;
};

static volatile sig_atomic_t emu_signal;

static void emu_on_signal(int sig)
{
	emu_signal = sig;
}

static void emu_usage(FILE *fp)
{
	fprintf(fp,
		"usage: iowatt emulate um25c|um24c|um34c --link PATH [options]\n\n"
		"An EMULATED RDTech USB tester on a pseudo-terminal: it answers 0xF0 with a\n"
		"valid 130-byte reply as the real meter does. Every iowatt output that reads\n"
		"it says EMULATED. Point a meter spec at PATH, e.g. --meter um25c:PATH.\n\n"
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
		"  --truth FILE        ground truth CSV: t_ns,v,a,w,kind (update|reply|corrupt)\n"
		"  --corrupt-pct N     N %% of replies broken (bad end marker, short, bad ID,\n"
		"                      leading garbage)\n"
		"  --stall SEC@AT      stop answering for SEC seconds, AT seconds after start\n"
		"  --hangup SEC@AT     close the pty and remove the link for SEC seconds (like a\n"
		"                      Bluetooth drop), then come back at the same PATH\n"
		"  --duration SEC      exit after SEC seconds (default: until SIGINT/SIGTERM)\n"
		"  --seed N            fault injection random seed (default 1)\n\n"
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
	if (parse_double(dur, &f->dur_s) || f->dur_s <= 0 || parse_double(at + 1, &f->at_s) ||
	    f->at_s < 0) {
		log_err(MOD, "option --%s '%s': expected SEC@AT with positive numbers", opt, s);
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

static int emu_link_free(const char *link)
{
	char target[256];
	struct stat st;
	ssize_t n;
	pid_t owner;

	if (lstat(link, &st))
		return errno == ENOENT ? 0 : -errno;
	n = S_ISLNK(st.st_mode) ? readlink(link, target, sizeof(target) - 1) : -1;
	if (n > 0) {
		target[n] = '\0';
		if (!strncmp(target, "/dev/pts/", 9)) {
			owner = emureg_owner(link);
			if (owner) {
				log_err(MOD, "--link %s: served by a running emulator (pid %ld)", link,
					(long)owner);
				return -EBUSY;
			}
			log_info(MOD, "replacing stale emulator link %s -> %s", link, target);
			return unlink(link) ? -errno : 0;
		}
	}
	log_err(MOD, "--link %s: exists and is not a stale emulator link; refusing to "
		"overwrite it", link);
	return -EEXIST;
}

static int emu_pty_up(struct emu *e)
{
	struct termios tio;
	const char *name;
	int rc;

	/* Non-blocking: a client that polls and never reads must not wedge the emulator. */
	e->master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
	if (e->master < 0 || grantpt(e->master) || unlockpt(e->master)) {
		rc = -errno;
		log_err(MOD, "cannot create a pseudo-terminal: %s", strerror(errno));
		return rc;
	}
	name = ptsname(e->master);
	snprintf(e->pts, sizeof(e->pts), "%s", name ? name : "");
	e->slave = open(e->pts, O_RDWR | O_NOCTTY | O_CLOEXEC);
	/* Raw, or the line discipline would echo our replies back to us. */
	if (e->slave >= 0 && !tcgetattr(e->slave, &tio)) {
		cfmakeraw(&tio);
		tcsetattr(e->slave, TCSANOW, &tio);
	}
	rc = emu_link_free(e->link);
	if (!rc && symlink(e->pts, e->link)) {
		rc = -errno;
		log_err(MOD, "--link %s: %s", e->link, strerror(errno));
	}
	if (rc)
		return rc;
	/* Unregistered, its figures would be read as a real meter behind a pty bridge. */
	rc = emureg_add(e->pts, e->link, e->um->driver);
	if (rc) {
		log_err(MOD, "cannot register the emulator, so runs could not label its figures "
			     "EMULATED: refusing to start");
		unlink(e->link);
	}
	return rc;
}

static void emu_pty_down(struct emu *e)
{
	char target[64];
	ssize_t n;

	if (e->master < 0)
		return;
	n = readlink(e->link, target, sizeof(target) - 1);
	if (n > 0) {
		target[n] = '\0';
		if (!strcmp(target, e->pts))
			unlink(e->link);
	}
	emureg_remove(e->pts);
	if (e->slave >= 0)
		close(e->slave);
	close(e->master);
	e->master = e->slave = -1;
}

static void emu_truth(struct emu *e, uint64_t t, double v, double a, double w, const char *kind)
{
	if (e->truth)
		fprintf(e->truth, "%" PRIu64 ",%.6f,%.7f,%.6f,%s\n", t, v, a, w, kind);
}

static void emu_update(struct emu *e, uint64_t now)
{
	double dt_h = e->last_update_ns ? (double)(now - e->last_update_ns) / 3.6e12 : 0;

	e->a = emu_model_amps(&e->model, (double)(now - e->start_ns) / 1e9, now);
	e->v = emu_model_volts(&e->model, e->a);
	e->mah += e->a * 1000.0 * dt_h;
	e->mwh += e->v * e->a * 1000.0 * dt_h;
	e->last_update_ns = now;
	emu_truth(e, now, e->v, e->a, e->v * e->a, "update");
}

/* xorshift64: reproducible faults for a given --seed. */
static double emu_rand(struct emu *e)
{
	e->rng ^= e->rng << 13;
	e->rng ^= e->rng >> 7;
	e->rng ^= e->rng << 17;
	return (double)(e->rng >> 11) / 9007199254740992.0;
}

static void emu_reply(struct emu *e, uint64_t now)
{
	struct um_fields f = { 0 };
	struct meter_sample s;
	uint8_t frame[UM_FRAME_LEN + 8];
	size_t len = UM_FRAME_LEN, off = 0;
	double r;
	const char *kind = "reply";

	f.v = e->v;
	f.a = e->a;
	f.w = e->v * e->a;
	f.temp_c = 27;
	f.mah = e->mah;
	f.mwh = e->mwh;
	f.rec_s = (uint32_t)((now - e->start_ns) / NS_PER_SEC);
	f.load_ohms = e->a > 0 ? e->v / e->a : 0;
	um_encode(e->um, &f, frame);
	um_decode(e->um, frame, &s);
	if (e->corrupt_pct > 0 && emu_rand(e) * 100.0 < e->corrupt_pct) {
		r = emu_rand(e);
		kind = "corrupt";
		e->corrupted++;
		if (r < 0.4) {
			frame[UM_FRAME_LEN - 1] ^= 0x5A; /* bad end marker / XOR */
		} else if (r < 0.7) {
			len = UM_FRAME_LEN / 2 + (size_t)(emu_rand(e) * (UM_FRAME_LEN / 2 - 1));
		} else if (r < 0.85) {
			frame[0] ^= 0x40; /* unknown model ID */
		} else {
			/* Stray bytes ahead of a good frame: the reader must resync, not drop it. */
			memmove(frame + 3, frame, UM_FRAME_LEN);
			frame[0] = 0x00;
			frame[1] = 0x09;
			frame[2] = 0x55;
			len = UM_FRAME_LEN + 3;
			kind = "resync";
		}
	}
	while (off < len) {
		ssize_t n = write(e->master, frame + off, len - off);

		if (n <= 0)
			break;
		off += (size_t)n;
	}
	e->replies++;
	emu_truth(e, now_ns(), s.v, s.a, s.w, kind);
}

static int in_fault(const struct emu_fault *f, double t)
{
	return f->set && t >= f->at_s && t < f->at_s + f->dur_s;
}

static int emu_loop(struct emu *e)
{
	uint8_t buf[256];
	struct pollfd pfd;
	uint64_t now, next_update = e->start_ns, wait_ns;
	double t;
	ssize_t n, i;
	int rc;

	while (!emu_signal) {
		now = now_ns();
		t = (double)(now - e->start_ns) / 1e9;
		if (e->duration_ns && now - e->start_ns >= e->duration_ns)
			break;
		if (in_fault(&e->hangup, t) && e->master >= 0) {
			log_info(MOD, "hang-up: pty closed and %s removed for %.1f s", e->link,
				 e->hangup.dur_s);
			emu_pty_down(e);
		} else if (!in_fault(&e->hangup, t) && e->master < 0) {
			rc = emu_pty_up(e);
			if (rc)
				return rc;
			log_info(MOD, "back on %s at %s", e->pts, e->link);
		}
		if (now >= next_update) {
			emu_update(e, now);
			next_update += e->update_ns;
			if (next_update < now)
				next_update = now + e->update_ns;
		}
		wait_ns = next_update > now ? next_update - now : 0;
		if (e->master < 0) {
			sleep_ns(wait_ns < 50 * NS_PER_MS ? wait_ns : 50 * NS_PER_MS);
			continue;
		}
		pfd.fd = e->master;
		pfd.events = POLLIN;
		pfd.revents = 0;
		if (poll(&pfd, 1, (int)(wait_ns / NS_PER_MS)) <= 0)
			continue;
		n = read(e->master, buf, sizeof(buf));
		if (n <= 0)
			continue;
		t = (double)(now_ns() - e->start_ns) / 1e9;
		for (i = 0; i < n; i++) {
			/* Other commands (screen, brightness, groups) get no reply, as on the meter. */
			if (buf[i] != UM_CMD_POLL || in_fault(&e->stall, t))
				continue;
			emu_reply(e, now_ns());
		}
		if (e->truth)
			fflush(e->truth);
	}
	return 0;
}

static int emu_parse(int argc, char **argv, struct emu *e, const char **truth_path)
{
	static const struct option opts[] = {
		{ "link", required_argument, NULL, 'l' },
		{ "device", required_argument, NULL, 'd' },
		{ "idle-ma", required_argument, NULL, 'i' },
		{ "ma-per-mbps", required_argument, NULL, 'm' },
		{ "ma-per-kiops", required_argument, NULL, 'k' },
		{ "cap-ma", required_argument, NULL, 'C' },
		{ "volts", required_argument, NULL, 'v' },
		{ "cable-ohms", required_argument, NULL, 'r' },
		{ "constant-ma", required_argument, NULL, 'c' },
		{ "step", required_argument, NULL, 's' },
		{ "update-ms", required_argument, NULL, 'u' },
		{ "truth", required_argument, NULL, 't' },
		{ "corrupt-pct", required_argument, NULL, 'p' },
		{ "stall", required_argument, NULL, 'S' },
		{ "hangup", required_argument, NULL, 'H' },
		{ "duration", required_argument, NULL, 'D' },
		{ "seed", required_argument, NULL, 'x' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char why[160];
	double x;
	int c, rc = 0;

	optind = 1;
	while (!rc && (c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'l':
			e->link = optarg;
			break;
		case 'd':
			snprintf(e->model.device, sizeof(e->model.device), "%s", optarg);
			break;
		case 'i':
			rc = opt_number("idle-ma", optarg, 0, 5000, &e->model.idle_ma);
			break;
		case 'm':
			rc = opt_number("ma-per-mbps", optarg, 0, 100, &e->model.ma_per_mbps);
			break;
		case 'k':
			rc = opt_number("ma-per-kiops", optarg, 0, 1000, &e->model.ma_per_kiops);
			break;
		case 'C':
			rc = opt_number("cap-ma", optarg, 1, 6500, &e->model.cap_ma);
			break;
		case 'v':
			rc = opt_number("volts", optarg, 0.1, 60, &e->model.volts);
			break;
		case 'r':
			rc = opt_number("cable-ohms", optarg, 0, 10, &e->model.cable_ohms);
			break;
		case 'c':
			rc = opt_number("constant-ma", optarg, 0, 6500, &e->model.constant_ma);
			break;
		case 's':
			rc = emu_parse_steps(optarg, &e->model.steps, &e->model.nsteps, why,
					     sizeof(why));
			if (rc)
				log_err(MOD, "option --step '%s': %s", optarg, why);
			break;
		case 'u':
			rc = opt_number("update-ms", optarg, 1, 10000, &x);
			e->update_ns = (uint64_t)(x * 1e6);
			break;
		case 't':
			*truth_path = optarg;
			break;
		case 'p':
			rc = opt_number("corrupt-pct", optarg, 0, 100, &e->corrupt_pct);
			break;
		case 'S':
			rc = parse_fault("stall", optarg, &e->stall);
			break;
		case 'H':
			rc = parse_fault("hangup", optarg, &e->hangup);
			break;
		case 'D':
			rc = opt_number("duration", optarg, 0.1, 1e7, &x);
			e->duration_ns = (uint64_t)(x * 1e9);
			break;
		case 'x':
			rc = opt_number("seed", optarg, 1, 1e15, &x);
			e->rng = (uint64_t)x;
			break;
		case 'h':
			emu_usage(stdout);
			return 1;
		default:
			return -EINVAL;
		}
	}
	if (rc)
		return rc;
	e->um = optind < argc ? um_model_by_driver(argv[optind]) : NULL;
	if (!e->um) {
		if (optind < argc)
			log_err(MOD, "unknown meter '%s' (um24c, um25c, um34c)", argv[optind]);
		else
			log_err(MOD, "which meter? 'iowatt emulate um25c --link PATH' "
				"(um24c, um25c, um34c)");
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
	return 0;
}

static int emu_pick_device(struct emu *e)
{
	uint64_t s, i;
	int rc;

	if (e->model.constant_ma >= 0 || e->model.nsteps)
		return 0;
	if (!e->model.device[0]) {
		rc = emu_cwd_device(e->model.device, sizeof(e->model.device));
		if (rc) {
			log_err(MOD, "the current directory is not on a block device; give "
				"--device NAME (see /proc/diskstats) or --constant-ma");
			return rc;
		}
	}
	rc = emu_diskstats(e->model.device, &s, &i);
	if (rc)
		log_err(MOD, "--device %s: not in /proc/diskstats", e->model.device);
	return rc;
}

int cmd_emulate(int argc, char **argv)
{
	struct emu e;
	struct sigaction sa;
	const char *truth_path = NULL;
	int rc;

	memset(&e, 0, sizeof(e));
	e.master = e.slave = -1;
	/*
	 * A 2.5" SATA SSD behind a USB 3 bridge: datasheets give 0.3-0.5 W idle and 2-4 W
	 * active, the bridge adds a few hundred mW. On 5 V that is ~80 mA idle and ~650 mA
	 * at 400 MB/s (1.5 mA per MB/s); per-I/O controller and flash work is 15 mA per
	 * kIOPS; 900 mA is a USB 3 port's budget. 0.25 Ohm is a thin cable plus contacts.
	 */
	e.model.idle_ma = 80;
	e.model.ma_per_mbps = 1.5;
	e.model.ma_per_kiops = 15;
	e.model.cap_ma = 900;
	e.model.volts = 5.10;
	e.model.cable_ohms = 0.25;
	e.model.constant_ma = -1;
	e.update_ns = 100 * NS_PER_MS;
	e.rng = 1;
	rc = emu_parse(argc, argv, &e, &truth_path);
	/* splitmix64 of the seed: xorshift starts poorly from small states like 1. */
	e.rng += 0x9E3779B97F4A7C15ULL;
	e.rng = (e.rng ^ (e.rng >> 30)) * 0xBF58476D1CE4E5B9ULL;
	e.rng = (e.rng ^ (e.rng >> 27)) * 0x94D049BB133111EBULL;
	e.rng ^= e.rng >> 31;
	if (rc) {
		free(e.model.steps);
		return rc > 0 ? EXIT_OK : EXIT_USAGE;
	}
	rc = emu_pick_device(&e);
	if (!rc && truth_path) {
		e.truth = fopen(truth_path, "w");
		if (!e.truth) {
			log_err(MOD, "--truth %s: %s", truth_path, strerror(errno));
			rc = -errno;
		} else {
			fprintf(e.truth, "t_ns,v,a,w,kind\n");
		}
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = emu_on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	e.start_ns = now_ns();
	if (!rc)
		rc = emu_pty_up(&e);
	if (!rc) {
		printf("iowatt: EMULATED %s (not a real meter) on %s, linked at %s: "
		       "use --meter %s:%s\n", e.um->meta.name, e.pts, e.link, e.um->driver, e.link);
		fflush(stdout);
		rc = emu_loop(&e);
	}
	emu_pty_down(&e);
	if (e.truth)
		fclose(e.truth);
	free(e.model.steps);
	if (rc)
		return EXIT_FAIL;
	log_info(MOD, "%" PRIu64 " replies, %" PRIu64 " corrupted on purpose", e.replies,
		 e.corrupted);
	if (emu_signal)
		return emu_signal == SIGINT ? EXIT_SIGINT : EXIT_SIGTERM;
	return EXIT_OK;
}
