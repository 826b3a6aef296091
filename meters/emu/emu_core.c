/* SPDX-License-Identifier: MIT */
/* The emulator's run loop: its pty and link, the model's updates, faults, truth, the protocol. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/outfile.h"
#include "meters/emu/emu_int.h"
#include "meters/emu/emu_live.h"
#include "meters/meter.h"

#define MOD "emulate"
/* With no pty (a hang-up), look at the clock this often. */
#define EMU_IDLE_STEP_NS (50 * NS_PER_MS)
#define EMU_READ_CHUNK 256
#define HOURS_PER_NS (1.0 / 3.6e12)
#define MILLI_PER_UNIT 1000.0
/* 2^53: the doubles in [0, 1) an xorshift64 output's top 53 bits give. */
#define RAND_SCALE 9007199254740992.0
#define RAND_DROP_BITS 11

const struct emu_protocol *emu_proto(const struct emu *e)
{
	return e->proto;
}

static int emu_in_fault(const struct emu_fault *f, double t_s)
{
	return f->set && t_s >= f->at_s && t_s < f->at_s + f->dur_s;
}

/* A stale link of a dead emulator may be replaced; anything else at --link may not. */
static int link_free(const char *link)
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
		if (!strncmp(target, EMU_PTS_PREFIX, EMU_PTS_PREFIX_LEN)) {
			owner = emu_live_owner(link);
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

static int pty_open(struct emu *e)
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
	return 0;
}

static int pty_up(struct emu *e)
{
	int rc = pty_open(e);

	if (!rc)
		rc = link_free(e->link);
	if (!rc && symlink(e->pts, e->link)) {
		rc = -errno;
		log_err(MOD, "--link %s: %s", e->link, strerror(errno));
	}
	if (rc)
		return rc;
	/* A re-plugged meter starts from its power-on state. */
	if (e->priv)
		memset(e->priv, 0, e->priv_size);
	/* Unregistered, its figures would be read as a real meter behind a pty bridge. */
	rc = emu_live_add(e->pts, e->link, e->proto->driver ? e->proto->driver : e->proto->name);
	if (rc) {
		log_err(MOD, "cannot register the emulator, so runs could not label its figures "
			     "EMULATED: refusing to start");
		unlink(e->link);
	}
	return rc;
}

static void pty_down(struct emu *e)
{
	char target[EMU_PTS_LEN];
	ssize_t n;

	if (e->master < 0)
		return;
	n = readlink(e->link, target, sizeof(target) - 1);
	if (n > 0) {
		target[n] = '\0';
		if (!strcmp(target, e->pts))
			unlink(e->link);
	}
	emu_live_remove(e->pts);
	if (e->slave >= 0)
		close(e->slave);
	close(e->master);
	e->master = e->slave = -1;
}

void emu_truth(struct emu *e, uint64_t t_ns, double v, double a, double w, const char *kind)
{
	if (e->truth)
		fprintf(e->truth, "%" PRIu64 ",%.6f,%.7f,%.6f,%s\n", t_ns, v, a, w, kind);
}

static void model_update(struct emu *e, uint64_t now)
{
	double dt_h = e->last_update_ns ? (double)(now - e->last_update_ns) * HOURS_PER_NS : 0;

	e->a = emu_model_amps(&e->model, (double)(now - e->start_ns) / 1e9, now);
	e->v = emu_model_volts(&e->model, e->a);
	e->mah += e->a * MILLI_PER_UNIT * dt_h;
	e->mwh += e->v * e->a * MILLI_PER_UNIT * dt_h;
	e->last_update_ns = now;
	e->hist[e->hist_next] = (struct emu_update){ now, e->a };
	e->hist_next = (e->hist_next + 1) % EMU_HISTORY;
	if (e->nhist < EMU_HISTORY)
		e->nhist++;
	emu_truth(e, now, e->v, e->a, e->v * e->a, "update");
}

/* A model that follows the device's completions prices what an update saw since the
 * last: its current belongs to that interval, not to the next. */
static int prices_the_past(const struct emu *e)
{
	return e->model.constant_ma < 0 && !e->model.nsteps;
}

double emu_amps_at(const struct emu *e, uint64_t t_ns)
{
	unsigned i, j = e->hist_next, after = EMU_HISTORY;

	for (i = 0; i < e->nhist; i++) {
		j = (j + EMU_HISTORY - 1) % EMU_HISTORY;
		if (e->hist[j].t_ns < t_ns || (!prices_the_past(e) && e->hist[j].t_ns == t_ns))
			break;
		after = j;
	}
	if (prices_the_past(e))
		/* the oldest update at or after t_ns: the one whose interval holds it */
		return after < EMU_HISTORY ? e->hist[after].a : e->a;
	/* the last update at or before it: its value holds from then on */
	return i < e->nhist ? e->hist[j].a : e->nhist ? e->hist[after].a : e->a;
}

uint64_t emu_known_until_ns(const struct emu *e, uint64_t now)
{
	uint64_t t = prices_the_past(e) && e->last_update_ns < now ? e->last_update_ns : now;

	return e->hold_ns && now - e->hold_ns < t ? now - e->hold_ns : t;
}

uint8_t emu_logic_at(struct emu *e, uint64_t t_ns)
{
	if (!e->wire_path)
		return 0;
	return (uint8_t)(emu_wire_level(&e->wire, t_ns) << e->wire_input);
}

void emu_logic_poll(struct emu *e)
{
	emu_wire_poll(&e->wire, e->wire_path);
}

/* A standard normal deviate from two of the seeded uniforms (Box-Muller). */
static double emu_normal(struct emu *e)
{
	double u1 = 1.0 - emu_rand(e), u2 = emu_rand(e);

	return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

static double finite_or0(double x)
{
	return isfinite(x) ? x : 0;
}

/* The run's own errors: drawn once, uniformly within the datasheet's bounds. */
static void noise_draw(struct emu *e)
{
	const struct meter_accuracy *acc = e->proto->accuracy;
	struct emu_noise *n = &e->noise;

	n->v_gain = (2 * emu_rand(e) - 1) * finite_or0(acc->v.gain);
	n->a_gain = (2 * emu_rand(e) - 1) * finite_or0(acc->a.gain);
	n->v_offset = 2 * emu_rand(e) - 1;
	n->a_offset = 2 * emu_rand(e) - 1;
}

void emu_reading(struct emu *e, uint64_t now, struct emu_reading *r)
{
	const struct meter_accuracy *acc = e->proto->accuracy;
	const struct meter_acc_q *qa;

	r->v = e->v;
	r->a = e->a;
	if (e->noise.on) {
		qa = accuracy_current(acc, e->a);
		r->v = e->v * (1 + e->noise.v_gain) + e->noise.v_offset * finite_or0(acc->v.offset) +
		       finite_or0(acc->v.noise) * emu_normal(e);
		r->a = e->a * (1 + e->noise.a_gain) + e->noise.a_offset * finite_or0(qa->offset) +
		       finite_or0(qa->noise) * emu_normal(e);
	}
	r->mah = e->mah;
	r->mwh = e->mwh;
	r->elapsed_s = (double)(now - e->start_ns) / 1e9;
}

/* xorshift64: reproducible faults for a given --seed. */
double emu_rand(struct emu *e)
{
	e->rng ^= e->rng << 13;
	e->rng ^= e->rng >> 7;
	e->rng ^= e->rng << 17;
	return (double)(e->rng >> RAND_DROP_BITS) / RAND_SCALE;
}

int emu_corrupt(struct emu *e)
{
	if (!(e->corrupt_pct > 0 && emu_rand(e) * 100.0 < e->corrupt_pct))
		return 0;
	e->corrupted++;
	return 1;
}

size_t emu_write_some(struct emu *e, const void *buf, size_t n)
{
	ssize_t w;

	if (e->master < 0 || !n)
		return 0;
	w = write(e->master, buf, n);
	return w > 0 ? (size_t)w : 0;
}

void *emu_priv(struct emu *e, size_t size)
{
	if (!e->priv) {
		e->priv = xcalloc(1, size);
		e->priv_size = size;
	}
	return e->priv;
}

void emu_write(struct emu *e, const void *buf, size_t n)
{
	const uint8_t *p = buf;
	size_t off = 0;
	ssize_t w;

	while (off < n && e->master >= 0) {
		w = write(e->master, p + off, n - off);
		if (w <= 0)
			break;
		off += (size_t)w;
	}
	e->replies++;
}

/* The pty follows --hangup: closed and unlinked inside it, back at the same link after. */
static int follow_hangup(struct emu *e, double t_s)
{
	int rc;

	if (emu_in_fault(&e->hangup, t_s) && e->master >= 0) {
		log_info(MOD, "hang-up: pty closed and %s removed for %.1f s", e->link,
			 e->hangup.dur_s);
		pty_down(e);
	} else if (!emu_in_fault(&e->hangup, t_s) && e->master < 0) {
		rc = pty_up(e);
		if (rc)
			return rc;
		log_info(MOD, "back on %s at %s", e->pts, e->link);
	}
	return 0;
}

/* A fault a signal asked for starts now (for its given length, else the default). */
static void signal_fault(struct emu_fault *f, double t_s)
{
	if (!f->set)
		f->dur_s = EMU_FAULT_DEFAULT_S;
	f->set = 1;
	f->at_s = t_s;
}

static void take_signals(struct emu *e, struct emu_signals *sig, double t_s)
{
	if (sig->stall) {
		sig->stall = 0;
		signal_fault(&e->stall, t_s);
	}
	if (sig->hangup) {
		sig->hangup = 0;
		signal_fault(&e->hangup, t_s);
	}
}

/* A stall's start and end in the log: what a test waits for. */
static void follow_stall(struct emu *e, double t_s)
{
	int in = emu_in_fault(&e->stall, t_s);

	if (in && !e->stall.active)
		log_info(MOD, "stall: no answers for %.1f s", e->stall.dur_s);
	else if (!in && e->stall.active)
		log_info(MOD, "stall over: answering again");
	e->stall.active = in;
}

/* What the host wrote goes to the protocol, unless the meter is stalled. */
static void serve_input(struct emu *e, uint64_t wait_ns)
{
	uint8_t buf[EMU_READ_CHUNK];
	struct pollfd pfd = { .fd = e->master, .events = POLLIN };
	uint64_t now;
	ssize_t n;

	if (poll(&pfd, 1, (int)(wait_ns / NS_PER_MS)) <= 0)
		return;
	n = read(e->master, buf, sizeof(buf));
	if (n <= 0)
		return;
	now = now_ns();
	if (emu_in_fault(&e->stall, (double)(now - e->start_ns) / 1e9))
		return;
	e->proto->input(e, buf, (size_t)n, now);
}

static uint64_t next_tick(uint64_t next, uint64_t step, uint64_t now)
{
	next += step;
	return next < now ? now + step : next;
}

static int serve(struct emu *e, struct emu_signals *sig)
{
	uint64_t now, next_update = e->start_ns, next_push = e->start_ns, wake;
	double t;
	int rc;

	while (!sig->stop) {
		now = now_ns();
		t = (double)(now - e->start_ns) / 1e9;
		if (e->duration_ns && now - e->start_ns >= e->duration_ns)
			break;
		take_signals(e, sig, t);
		follow_stall(e, t);
		rc = follow_hangup(e, t);
		if (rc)
			return rc;
		if (now >= next_update) {
			model_update(e, now);
			next_update = next_tick(next_update, e->update_ns, now);
		}
		if (e->proto->push_ns && now >= next_push) {
			if (e->master >= 0 && !emu_in_fault(&e->stall, t))
				e->proto->push(e, now);
			next_push = next_tick(next_push, e->proto->push_ns, now);
		}
		wake = e->proto->push_ns && next_push < next_update ? next_push : next_update;
		if (e->master < 0) {
			sleep_ns(wake > now && wake - now < EMU_IDLE_STEP_NS ? wake - now :
									   EMU_IDLE_STEP_NS);
			continue;
		}
		serve_input(e, wake > now ? wake - now : 0);
		if (e->truth)
			fflush(e->truth);
	}
	return 0;
}

/* The block device the model follows, unless the current is constant or stepped. */
static int pick_device(struct emu *e)
{
	uint64_t sectors, ios;
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
	rc = emu_diskstats(e->model.device, &sectors, &ios, NULL);
	if (rc)
		log_err(MOD, "--device %s: not in /proc/diskstats", e->model.device);
	return rc;
}

/* The model's device and the truth log, before the pty: a mistake costs no link. */
static int prepare(struct emu *e)
{
	int rc = pick_device(e);

	if (rc || !e->truth_path)
		return rc;
	/* A new file, as every output: an existing one is replaced by rename, never written
	 * through a link or into a FIFO. */
	e->truth = output_fopen(e->truth_path, 1);
	if (!e->truth) {
		rc = -errno;
		log_err(MOD, "--truth %s: %s", e->truth_path, output_strerror(rc));
		return rc;
	}
	fprintf(e->truth, "t_ns,v,a,w,kind\n");
	return 0;
}

int emu_run(struct emu *e, struct emu_signals *sig)
{
	int rc;

	rc = prepare(e);
	if (!rc && e->noise.on) {
		noise_draw(e);
		log_info(MOD, "--noise: this run's meter reads V %+.4f %% of reading and %+.0f %% of "
			      "its offset bound off, A %+.4f %% and %+.0f %%, with scatter per "
			      "reading", e->noise.v_gain * 100, e->noise.v_offset * 100,
			 e->noise.a_gain * 100, e->noise.a_offset * 100);
	}
	e->start_ns = now_ns();
	if (!rc)
		rc = pty_up(e);
	if (!rc) {
		printf("iowatt: EMULATED %s (not a real meter) on %s, linked at %s: "
		       "use --meter %s:%s", e->proto->title, e->pts, e->link,
		       e->proto->driver ? e->proto->driver : e->proto->name, e->link);
		/* The default 5.1 V of a USB bus is past what a PPK2 can source: the spec
		 * printed must be one its driver takes. */
		if (e->proto->spec_vdd_max_mv)
			printf(",vdd=%.0f", fmin(e->model.volts * 1000.0, e->proto->spec_vdd_max_mv));
		printf("\n");
		fflush(stdout);
		rc = serve(e, sig);
	}
	pty_down(e);
	if (!rc)
		log_info(MOD, "%" PRIu64 " replies, %" PRIu64 " corrupted on purpose", e->replies,
			 e->corrupted);
	return rc;
}

void emu_free(struct emu *e)
{
	if (!e)
		return;
	pty_down(e);
	if (e->truth)
		fclose(e->truth);
	emu_wire_close(&e->wire);
	free(e->model.steps);
	free(e->priv);
	free(e);
}
