/* SPDX-License-Identifier: MIT */
/* Bridge to libsigrok: any device it reads that gives volts, amps or watts, pushed as samples. */
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <libsigrok/libsigrok.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/text.h"
#include "meters/meter-internal.h"
#include "meters/sigrok/sigrok.h"

#define MOD "sigrok"
#define BATCH 1024
#define OPT_SEP ':'
#define MAX_OPTS 4
#define MODEL_SEP " "
#define SCAN_MAX_NS (20 * NS_PER_SEC) /* libsigrok's scan of every driver */

struct sigrok_priv {
	struct meter_dev *dev;
	struct sr_context *ctx;
	struct sr_dev_inst *sdi;
	struct sr_session *session;
	pthread_t thread;
	int running;
	atomic_int stopping;
	const char *channel; /* only this channel's values, or NULL for all */
	int loads_only;	     /* sign=unsigned: every channel reads a load's V, A, W */
	double v, a, w;	     /* latest of each quantity */
	int in_frame, frame_has;
	unsigned n;
	struct meter_sample batch[BATCH];
};

/* sign=: an index of sign_modes. */
enum { KEY_SIGN_AUTO, KEY_SIGN_UNSIGNED };
static const struct opt_choice sign_modes[] = {
	{ "auto", NULL }, { "unsigned", NULL }, { NULL, NULL },
};

/* The spec's keys (sigrok_keys). */
struct sigrok_args {
	char *channel; /* NULL: every channel */
	unsigned rate; /* 0: not given */
	int sign;      /* an index of sign_modes */
	uint64_t period_ns;
};

#define SIGROK_KEY(f) offsetof(struct sigrok_args, f)
static const struct opt_desc sigrok_keys[] = {
	{ .name = "channel", .type = OPT_STRP, .off = SIGROK_KEY(channel),
	  .help = "read only this channel (\"P1\", \"A0\"); default: every channel that gives "
		  "V, A or W" },
	{ .name = "rate", .type = OPT_UINT, .off = SIGROK_KEY(rate), .min = 1, .max = 1e7,
	  .help = "samples per second to ask for, where the device has a samplerate" },
	{ .name = "sign", .type = OPT_ENUM, .off = SIGROK_KEY(sign), .def = "auto",
	  .choices = sign_modes,
	  .help = "auto: a channel's DC V, A and W keep their sign (libsigrok's quantity and "
		  "flags say so; an RMS value is a magnitude); unsigned: the device reads a "
		  "load only, a negative reading is impossible and dropped" },
	{ .name = "period", .type = OPT_DURATION, .off = SIGROK_KEY(period_ns), .def = "1s",
	  .bare_unit_ns = NS_PER_MS,
	  .min = NS_PER_MS, .max = 60 * NS_PER_SEC,
	  .help = "update period of a device without a samplerate (DMMs, supplies)" },
};

static void flush(struct sigrok_priv *p)
{
	if (p->n)
		meter_deliver(p->dev, p->batch, p->n);
	p->n = 0;
}

static void emit(struct sigrok_priv *p)
{
	struct meter_sample *s = &p->batch[p->n];

	*s = (struct meter_sample){ .v = p->v, .a = p->a, .w = p->w };
	if (isnan(s->w) && !isnan(s->v) && !isnan(s->a)) {
		s->w = s->v * s->a;
		s->flags = SAMPLE_W_COMPUTED;
	}
	if (++p->n == BATCH)
		flush(p);
}

/* Which field an analog packet fills: V, A and W in DC; anything else is not ours. */
static double *field_of(struct sigrok_priv *p, const struct sr_analog_meaning *m)
{
	const struct sr_channel *ch = m->channels ? m->channels->data : NULL;

	if (p->channel && (!ch || strcmp(ch->name, p->channel)))
		return NULL;
	if (m->mqflags & SR_MQFLAG_AC)
		return NULL;
	if (m->mq == SR_MQ_VOLTAGE && m->unit == SR_UNIT_VOLT)
		return &p->v;
	if (m->mq == SR_MQ_CURRENT && m->unit == SR_UNIT_AMPERE)
		return &p->a;
	if (m->mq == SR_MQ_POWER && m->unit == SR_UNIT_WATT)
		return &p->w;
	return NULL;
}

/*
 * Whether a channel's readings carry a sign, from libsigrok's measured quantity and its
 * flags: a DC voltage, current or power does (a DMM prints "-1.2 V DC", a supply or load
 * may read current flowing back); an RMS value is a magnitude. AC readings never get here.
 */
static int channel_signed(const struct sigrok_priv *p, const struct sr_analog_meaning *m)
{
	return !p->loads_only && !(m->mqflags & SR_MQFLAG_RMS);
}

static void analog(struct sigrok_priv *p, const struct sr_datafeed_analog *an)
{
	double *f = field_of(p, an->meaning);
	float stack[BATCH], *vals = stack;
	uint32_t i;
	int sgn;

	if (!f || !an->num_samples)
		return;
	if (an->num_samples > BATCH)
		vals = g_new(float, an->num_samples);
	if (sr_analog_to_float(an, vals) == SR_OK) {
		sgn = channel_signed(p, an->meaning);
		/* Within a frame (a supply's V and I readback) one sample per frame; a stream
		 * of one quantity is a sample per value. A magnitude below zero cannot be
		 * true (with sign=unsigned the core drops such readings and says so). */
		for (i = 0; i < an->num_samples; i++) {
			if (vals[i] < 0 && !sgn && !p->loads_only) {
				METER_COUNT(p->dev->frames_bad);
				continue;
			}
			*f = vals[i];
			if (!p->in_frame)
				emit(p);
		}
		p->frame_has |= p->in_frame;
	}
	if (vals != stack)
		g_free(vals);
}

static void datafeed(const struct sr_dev_inst *sdi, const struct sr_datafeed_packet *pkt,
		     void *arg)
{
	struct sigrok_priv *p = arg;

	(void)sdi;
	switch (pkt->type) {
	case SR_DF_FRAME_BEGIN:
		p->in_frame = 1;
		p->frame_has = 0;
		break;
	case SR_DF_FRAME_END:
		p->in_frame = 0;
		if (p->frame_has)
			emit(p);
		flush(p);
		break;
	case SR_DF_ANALOG:
		analog(p, pkt->payload);
		if (!p->in_frame)
			flush(p);
		break;
	case SR_DF_END:
		flush(p);
		if (!atomic_load(&p->stopping))
			meter_deliver_error(p->dev, -EIO);
		break;
	default:
		break;
	}
}

static struct sr_dev_driver *find_driver(struct sr_context *ctx, const char *name)
{
	struct sr_dev_driver **d = sr_driver_list(ctx);
	size_t i;

	for (i = 0; d && d[i]; i++)
		if (!strcmp(d[i]->name, name))
			return d[i];
	return NULL;
}

/* "DRIVER:conn=...:serialcomm=..." -> the driver's name and its scan options. */
static GSList *scan_options(char *conn, char **drv_name)
{
	GSList *opts = NULL;
	struct sr_config *c;
	const struct sr_key_info *ki;
	char *tok, *eq, *save = NULL;
	char sep[2] = { OPT_SEP, '\0' };

	*drv_name = strtok_r(conn, sep, &save);
	while ((tok = strtok_r(NULL, sep, &save))) {
		eq = strchr(tok, '=');
		if (!eq)
			continue;
		*eq = '\0';
		ki = sr_key_info_name_get(SR_KEY_CONFIG, tok);
		if (!ki)
			continue;
		c = g_new0(struct sr_config, 1);
		c->key = ki->key;
		c->data = g_variant_new_string(eq + 1);
		opts = g_slist_append(opts, c);
	}
	return opts;
}

static void free_config(gpointer data)
{
	struct sr_config *c = data;

	g_variant_unref(c->data);
	g_free(c);
}

static int first_device(struct meter_dev *dev, struct sigrok_priv *p)
{
	char *conn = xstrdup(dev->conn), *name;
	GSList *opts = scan_options(conn, &name), *devs;
	struct sr_dev_driver *drv = name ? find_driver(p->ctx, name) : NULL;
	int rc = -ENODEV;

	if (!drv) {
		log_msg(meter_log_level(dev, LOG_ERR), MOD, "meter '%s': libsigrok %s has no "
			"driver '%s' (sigrok-cli -L lists them)", dev->spec,
			sr_package_version_string_get(), name ? name : "");
	} else if (sr_driver_init(p->ctx, drv) != SR_OK) {
		log_msg(meter_log_level(dev, LOG_ERR), MOD, "meter '%s': driver %s failed to start",
			dev->spec, name);
	} else {
		devs = sr_driver_scan(drv, opts);
		if (devs) {
			p->sdi = devs->data;
			rc = 0;
		} else {
			log_msg(meter_log_level(dev, LOG_ERR), MOD,
				"meter '%s': libsigrok's %s found no device%s", dev->spec, name,
				opts ? " at the given conn" : " (give :conn=PORT)");
		}
		g_slist_free(devs);
	}
	g_slist_free_full(opts, free_config);
	free(conn);
	return rc;
}

/* Channels that cannot give V, A or W (logic, other names) are turned off: less work. */
static void pick_channels(struct sigrok_priv *p)
{
	GSList *l;
	struct sr_channel *ch;

	for (l = sr_dev_inst_channels_get(p->sdi); l; l = l->next) {
		ch = l->data;
		sr_dev_channel_enable(ch, ch->type == SR_CHANNEL_ANALOG &&
						  (!p->channel || !strcmp(ch->name, p->channel)));
	}
}

static uint64_t device_period(const struct meter_dev *dev, struct sigrok_priv *p)
{
	const struct sigrok_args *a = dev->args;
	GVariant *gv = NULL;
	uint64_t rate = 0;

	if (a->rate)
		sr_config_set(p->sdi, NULL, SR_CONF_SAMPLERATE, g_variant_new_uint64(a->rate));
	if (sr_config_get(sr_dev_inst_driver_get(p->sdi), p->sdi, NULL, SR_CONF_SAMPLERATE,
			  &gv) == SR_OK && gv) {
		rate = g_variant_get_uint64(gv);
		g_variant_unref(gv);
	}
	return rate ? NS_PER_SEC / rate : a->period_ns;
}

static void free_priv(struct sigrok_priv *p, int opened)
{
	if (opened)
		sr_dev_close(p->sdi);
	if (p->ctx)
		sr_exit(p->ctx);
	free(p);
}

static int sigrok_open(struct meter_dev *dev, struct meter_info *info)
{
	struct sigrok_priv *p = xcalloc(1, sizeof(*p));
	const char *vendor, *model;
	int rc;

	p->dev = dev;
	p->channel = ((const struct sigrok_args *)dev->args)->channel;
	p->loads_only = ((const struct sigrok_args *)dev->args)->sign == KEY_SIGN_UNSIGNED;
	p->v = p->a = p->w = NAN;
	atomic_init(&p->stopping, 0);
	sr_log_loglevel_set(log_get_level() >= LOG_DEBUG ? SR_LOG_INFO : SR_LOG_ERR);
	if (sr_init(&p->ctx) != SR_OK) {
		log_err(MOD, "meter '%s': libsigrok failed to start", dev->spec);
		free(p);
		return -EIO;
	}
	rc = first_device(dev, p);
	if (!rc && sr_dev_open(p->sdi) != SR_OK) {
		log_msg(meter_log_level(dev, LOG_ERR), MOD, "meter '%s': cannot open the device",
			dev->spec);
		rc = -EIO;
	}
	if (rc) {
		free_priv(p, 0);
		return rc;
	}
	pick_channels(p);
	info->period_ns = device_period(dev, p);
	info->signed_q = p->loads_only ? 0 : METER_SIGNED_V | METER_SIGNED_A | METER_SIGNED_W;
	vendor = sr_dev_inst_vendor_get(p->sdi);
	model = sr_dev_inst_model_get(p->sdi);
	snprintf(info->model, sizeof(info->model), "%s%s%s (sigrok)", vendor ? vendor : "",
		 vendor && model ? MODEL_SEP : "", model ? model : "");
	dev->priv = p;
	return 0;
}

static void *session_thread(void *arg)
{
	struct sigrok_priv *p = arg;

	pthread_setname_np(pthread_self(), "iowatt-pump");
	sr_session_run(p->session);
	return NULL;
}

static int sigrok_start(struct meter_dev *dev)
{
	struct sigrok_priv *p = dev->priv;
	int rc;

	p->n = 0;
	p->in_frame = 0;
	atomic_store(&p->stopping, 0);
	if (sr_session_new(p->ctx, &p->session) != SR_OK)
		return -EIO;
	sr_session_dev_add(p->session, p->sdi);
	sr_session_datafeed_callback_add(p->session, datafeed, p);
	if (sr_session_start(p->session) != SR_OK) {
		log_err(MOD, "meter '%s': the acquisition did not start", dev->spec);
		sr_session_destroy(p->session);
		p->session = NULL;
		return -EIO;
	}
	rc = pthread_create(&p->thread, NULL, session_thread, p);
	if (rc) {
		sr_session_stop(p->session);
		sr_session_destroy(p->session);
		p->session = NULL;
		return -rc;
	}
	p->running = 1;
	return 0;
}

/* libsigrok's stop may come from another thread; run() returns once the device is done. */
static void sigrok_stop(struct meter_dev *dev)
{
	struct sigrok_priv *p = dev->priv;

	if (!p || !p->running)
		return;
	atomic_store(&p->stopping, 1);
	sr_session_stop(p->session);
	pthread_join(p->thread, NULL);
	p->running = 0;
	sr_session_destroy(p->session);
	p->session = NULL;
}

static void sigrok_close(struct meter_dev *dev)
{
	struct sigrok_priv *p = dev->priv;

	if (!p)
		return;
	sigrok_stop(dev);
	free_priv(p, 1);
	dev->priv = NULL;
}

/* One device a scan found: what it is, its analog channels, the spec that opens it. */
static void scan_line(FILE *out, const struct sr_dev_driver *drv, struct sr_dev_inst *sdi)
{
	const char *vendor = sr_dev_inst_vendor_get(sdi), *model = sr_dev_inst_model_get(sdi);
	const char *conn = sr_dev_inst_connid_get(sdi);
	char *what = text_clean_dup(model ? model : drv->longname), *c = NULL;
	char *v = vendor ? text_clean_dup(vendor) : NULL;
	const struct sr_channel *ch;
	GSList *l;
	unsigned n = 0;

	fprintf(out, "  %s%s%s%s\n", v ? v : "", v ? " " : "", what,
		!strcmp(drv->name, "demo") ? "  (libsigrok's demo driver: a test signal, not a "
					     "meter; libsigrok 0.5.2 lists it in every scan)"
					   : "");
	fprintf(out, "    analog channels:");
	for (l = sr_dev_inst_channels_get(sdi); l; l = l->next) {
		ch = l->data;
		if (ch->type != SR_CHANNEL_ANALOG)
			continue;
		free(c);
		c = text_clean_dup(ch->name);
		fprintf(out, " %s", c);
		n++;
	}
	fprintf(out, "%s\n", n ? "" : " none (it gives no V, A or W)");
	free(c);
	c = conn ? text_clean_dup(conn) : NULL;
	fprintf(out, "    spec: sigrok:%s%s%s\n", drv->name, c ? ":conn=" : "", c ? c : "");
	free(c);
	free(v);
	free(what);
}

/* Every driver scanned without options (as sigrok-cli --scan does), listed to out. */
static void scan_all(FILE *out)
{
	struct sr_context *ctx;
	struct sr_dev_driver **d;
	GSList *devs, *l;
	size_t i;
	unsigned found = 0;

	sr_log_loglevel_set(log_get_level() >= LOG_DEBUG ? SR_LOG_INFO : SR_LOG_ERR);
	if (sr_init(&ctx) != SR_OK)
		return;
	for (d = sr_driver_list(ctx), i = 0; d && d[i]; i++) {
		if (sr_driver_init(ctx, d[i]) != SR_OK)
			continue;
		devs = sr_driver_scan(d[i], NULL);
		for (l = devs; l; l = l->next, found++)
			scan_line(out, d[i], l->data);
		g_slist_free(devs); /* the devices stay the driver's until sr_exit */
	}
	fprintf(out, "  %slibsigrok %s: serial devices answer only at their port, e.g.\n"
		     "    spec: sigrok:korad-kaxxxx:conn=/dev/ttyACM0   (sigrok-cli -L lists "
		     "drivers)\n", found ? "" : "(nothing found) ", sr_package_version_string_get());
	sr_exit(ctx);
}

/*
 * What libsigrok finds on its own. USB and network devices can answer a scan without
 * options; a serial device answers only at its port, so the way to name one is said too.
 * The scan runs in a child: every one of libsigrok's drivers probes hardware, and one that
 * hangs, crashes or leaks (0.5.2's brymen-bm86x and victor-dmm scans leak what they
 * allocate) must not take `iowatt meters` with it. Its listing is copied through.
 */
static void sigrok_scan(const char *sysfs_root, FILE *out)
{
	char buf[4096];
	struct pollfd pfd = { .events = POLLIN };
	uint64_t end = now_ns() + SCAN_MAX_NS, now;
	int fds[2], status = 0, done = 0;
	ssize_t n;
	FILE *w;
	pid_t pid;

	(void)sysfs_root;
	fflush(out);
	if (pipe2(fds, O_CLOEXEC)) {
		log_err(MOD, "scan: pipe: %s", strerror(errno));
		return;
	}
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		w = fdopen(fds[1], "w");
		if (w) {
			scan_all(w);
			fclose(w);
		}
		_exit(0); /* no exit handlers: the parent's buffers and libsigrok's leaks stay */
	}
	close(fds[1]);
	if (pid < 0) {
		log_err(MOD, "scan: fork: %s", strerror(errno));
		close(fds[0]);
		return;
	}
	pfd.fd = fds[0];
	while (!done && (now = now_ns()) < end) {
		if (poll(&pfd, 1, (int)((end - now) / NS_PER_MS) + 1) <= 0)
			continue;
		n = read(fds[0], buf, sizeof(buf));
		if (n > 0)
			fwrite(buf, 1, (size_t)n, out);
		else if (n == 0 || errno != EINTR)
			done = 1;
	}
	close(fds[0]);
	if (!done) {
		kill(pid, SIGKILL);
		fprintf(out, "  (libsigrok's scan did not end within %d s: stopped)\n",
			(int)(SCAN_MAX_NS / NS_PER_SEC));
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (done && !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
		fprintf(out, "  (libsigrok's scan ended abnormally: its listing may be short)\n");
}

const struct meter_driver meter_sigrok = {
	.name = "sigrok",
	.desc = "any libsigrok device giving V, A or W (DMMs, supplies with readback, loads)",
	.conn = "DRIVER[:conn=PORT][:serialcomm=9600/8n1], as sigrok-cli -d takes it",
	.conn_rule = METER_CONN_REQUIRED,
	.example = "sigrok:korad-kaxxxx:conn=/dev/ttyACM0",
	.flags = METER_DRV_PUSH,
	METER_KEYS(sigrok_keys, struct sigrok_args),
	.open = sigrok_open,
	.start = sigrok_start,
	.stop = sigrok_stop,
	.close = sigrok_close,
	.scan = sigrok_scan,
};
