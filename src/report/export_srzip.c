/* SPDX-License-Identifier: MIT */
/* iowatt export --format srzip: a result's samples on a regular grid as a sigrok session file, written by libsigrok's own srzip output. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/outfile.h"
#include "report/export.h"
#include "result/intervals_file.h"
#include "result/samples_file.h"

#define MOD "export"

#if HAVE_SIGROK
#include <libsigrok/libsigrok.h>

#define MAX_METERS 8
#define QTY 3 /* V, mA, W */
/* The grid's bound: cells x channels, each a float and a count (6 bytes, 144 MB in all):
 * an hour at 1 kHz of one meter's V, mA, W and the I/O rate is 14.4 M. */
#define MAX_CELLS (24ull * 1000 * 1000)
/* libsigrok's srzip output reopens the archive for every packet: few, large chunks. */
#define CHUNK_SAMPLES (1u << 20)
/* Logic channels, one bit each: the three phases, then I/O under way. */
#define LOGIC_IO 3
#define NLOGIC 4

static const char *const qty_name[QTY] = { "V", "mA", "W" };

struct grid {
	uint64_t t_first_ns, t_last_ns, step_ns;
	uint64_t rate_hz; /* the session's samplerate: whole Hz, as sigrok has it */
	size_t ncells;
	int binned;
	unsigned have[MAX_METERS]; /* per meter: bit q when quantity q is ever given */
	int ch_of[MAX_METERS][QTY]; /* the analog channel of each, -1 none */
	size_t nanalog;		    /* meters' channels, then io MB/s */
	float **val;
	uint16_t **cnt;
	uint8_t *logic;
	uint64_t rows, beyond;
};

static double qty(const struct samples_row *r, int q)
{
	return q == 0 ? r->v : q == 1 ? r->a * 1e3 : r->w;
}

static int survey(const struct samples_row *r, void *ctx)
{
	struct grid *g = ctx;
	int q;

	if (r->meter >= MAX_METERS) {
		g->beyond++;
		return 0;
	}
	if (!g->rows || r->t_ns < g->t_first_ns)
		g->t_first_ns = r->t_ns;
	if (r->t_ns > g->t_last_ns)
		g->t_last_ns = r->t_ns;
	for (q = 0; q < QTY; q++)
		if (!isnan(qty(r, q)))
			g->have[r->meter] |= 1u << q;
	g->binned |= r->n > 1;
	g->rows++;
	return 0;
}

static size_t cell_of(const struct grid *g, uint64_t t_ns)
{
	uint64_t k = t_ns <= g->t_first_ns ? 0 : (t_ns - g->t_first_ns) / g->step_ns;

	return k < g->ncells ? (size_t)k : g->ncells - 1;
}

static int fill(const struct samples_row *r, void *ctx)
{
	struct grid *g = ctx;
	size_t c;
	int q, ch;

	if (r->meter >= MAX_METERS)
		return 0;
	c = cell_of(g, r->t_ns);
	for (q = 0; q < QTY; q++) {
		ch = g->ch_of[r->meter][q];
		if (ch < 0 || isnan(qty(r, q)))
			continue;
		if (g->cnt[ch][c] == UINT16_MAX)
			continue;
		g->val[ch][c] += (float)qty(r, q);
		g->cnt[ch][c]++;
	}
	return 0;
}

struct io_fill {
	struct grid *g;
	size_t ch;
};

static int fill_io(const struct interval_row *iv, void *ctx)
{
	struct io_fill *f = ctx;
	struct grid *g = f->g;
	double mb_s = (iv->read_bw_bytes + iv->write_bw_bytes) / 1e6;
	size_t c, c0, c1;

	if (iv->t_end_ns <= g->t_first_ns || iv->t_start_ns > g->t_last_ns)
		return 0;
	c0 = cell_of(g, iv->t_start_ns);
	c1 = cell_of(g, iv->t_end_ns);
	for (c = c0; c <= c1 && c < g->ncells; c++) {
		g->val[f->ch][c] = (float)mb_s;
		g->cnt[f->ch][c] = 1;
		if (mb_s > 0)
			g->logic[c] |= 1u << LOGIC_IO;
	}
	return 0;
}

/* Means per cell; a cell no reading fell in holds the last one, as the meter's display did. */
static void finish_cells(struct grid *g, size_t ch, int hold)
{
	float last = NAN;
	size_t c;

	for (c = 0; c < g->ncells; c++) {
		if (g->cnt[ch][c])
			last = g->val[ch][c] / g->cnt[ch][c];
		g->val[ch][c] = hold || g->cnt[ch][c] ? last : 0.0f;
	}
}

static void mark_phases(struct grid *g, const struct export_spans *sp)
{
	size_t i, c;

	for (i = 0; i < sp->n; i++) {
		if (sp->s[i].t1_ns <= g->t_first_ns || sp->s[i].t0_ns > g->t_last_ns)
			continue;
		for (c = cell_of(g, sp->s[i].t0_ns); c < g->ncells &&
		     g->t_first_ns + c * g->step_ns < sp->s[i].t1_ns; c++)
			g->logic[c] |= 1u << sp->s[i].phase_bit;
	}
}

static void grid_free(struct grid *g)
{
	size_t ch;

	for (ch = 0; g->val && ch < g->nanalog; ch++) {
		free(g->val[ch]);
		free(g->cnt[ch]);
	}
	free(g->val);
	free(g->cnt);
	free(g->logic);
}

static int send(const struct sr_output *o, const struct sr_datafeed_packet *p, const char *out)
{
	GString *s = NULL;
	int rc = sr_output_send(o, p, &s);

	if (s)
		g_string_free(s, TRUE);
	if (rc != SR_OK) {
		log_err(MOD, "%s: libsigrok's srzip output failed (%s)", out, sr_strerror(rc));
		return -EIO;
	}
	return 0;
}

static int write_session(const struct grid *g, struct sr_dev_inst *sdi, const char *path,
			 const char *shown)
{
	const struct sr_output_module *om = sr_output_find((char *)"srzip");
	const struct sr_output *o;
	struct sr_datafeed_packet p;
	struct sr_datafeed_meta meta;
	struct sr_config rate_cfg;
	struct sr_datafeed_logic logic;
	struct sr_datafeed_analog an;
	struct sr_analog_encoding enc;
	struct sr_analog_meaning mean;
	struct sr_analog_spec spec;
	GSList *chans = sr_dev_inst_channels_get(sdi), one = { 0 };
	size_t off, n, ch;
	int rc = 0;

	if (!om) {
		log_err(MOD, "this libsigrok has no srzip output");
		return -ENOTSUP;
	}
	o = sr_output_new(om, NULL, sdi, path);
	if (!o) {
		log_err(MOD, "%s: libsigrok's srzip output did not start", shown);
		return -EIO;
	}
	rate_cfg.key = SR_CONF_SAMPLERATE;
	rate_cfg.data = g_variant_new_uint64(g->rate_hz);
	meta.config = g_slist_append(NULL, &rate_cfg);
	p = (struct sr_datafeed_packet){ .type = SR_DF_META, .payload = &meta };
	rc = send(o, &p, shown);
	g_slist_free(meta.config);
	g_variant_unref(rate_cfg.data);
	for (off = 0; !rc && off < g->ncells; off += n) {
		n = g->ncells - off < CHUNK_SAMPLES ? g->ncells - off : CHUNK_SAMPLES;
		logic = (struct sr_datafeed_logic){ .length = n, .unitsize = 1,
						    .data = g->logic + off };
		p = (struct sr_datafeed_packet){ .type = SR_DF_LOGIC, .payload = &logic };
		rc = send(o, &p, shown);
	}
	enc = (struct sr_analog_encoding){ .unitsize = sizeof(float), .is_signed = TRUE,
					   .is_float = TRUE, .digits = 6,
					   .is_digits_decimal = TRUE, .scale = { 1, 1 },
					   .offset = { 0, 1 } };
	spec.spec_digits = 6;
	for (ch = 0; !rc && ch < g->nanalog; ch++) {
		one.data = g_slist_nth_data(chans, (guint)(NLOGIC + ch));
		mean = (struct sr_analog_meaning){ .mq = SR_MQ_VOLTAGE, .unit = SR_UNIT_VOLT,
						   .channels = &one };
		for (off = 0; !rc && off < g->ncells; off += n) {
			n = g->ncells - off < CHUNK_SAMPLES ? g->ncells - off : CHUNK_SAMPLES;
			an = (struct sr_datafeed_analog){ .data = g->val[ch] + off,
							  .num_samples = (uint32_t)n,
							  .encoding = &enc, .meaning = &mean,
							  .spec = &spec };
			p = (struct sr_datafeed_packet){ .type = SR_DF_ANALOG, .payload = &an };
			rc = send(o, &p, shown);
		}
	}
	if (!rc) {
		p = (struct sr_datafeed_packet){ .type = SR_DF_END, .payload = NULL };
		rc = send(o, &p, shown);
	}
	sr_output_free(o);
	return rc;
}

/* The session as libsigrok wrote it (to its own path), copied into the output atomically. */
static int install(const char *tmp, const struct export_opts *o)
{
	struct atomic_file af;
	char buf[65536];
	size_t n;
	int rc;
	FILE *in = fopen(tmp, "rbe");

	if (!in) {
		log_err(MOD, "%s: %s", tmp, strerror(errno));
		return -errno;
	}
	rc = atomic_file_open(&af, o->out, o->replace);
	if (rc) {
		fclose(in);
		return rc;
	}
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, af.fp) != n)
			break;
	rc = ferror(in) || ferror(af.fp) ? -EIO : 0;
	fclose(in);
	if (rc) {
		log_err(MOD, "%s: could not copy the session in", o->out);
		atomic_file_abort(&af);
		return rc;
	}
	return atomic_file_commit(&af);
}

/* A channel's name says whose it is: m0_mA, or emu0_mA for an emulator's (its figures are
 * never shown as measured) and man0_mA for readings typed in. */
static void add_channels(struct grid *g, struct sr_dev_inst *sdi, const struct run_result *rep)
{
	static const char *const logic_names[NLOGIC] = { "idle", "active", "tail", "io" };
	char name[32];
	unsigned m;
	int q, idx = NLOGIC;

	for (q = 0; q < NLOGIC; q++)
		sr_dev_inst_channel_add(sdi, q, SR_CHANNEL_LOGIC, logic_names[q]);
	for (m = 0; m < MAX_METERS; m++) {
		for (q = 0; q < QTY; q++) {
			g->ch_of[m][q] = -1;
			if (!(g->have[m] & (1u << q)))
				continue;
			snprintf(name, sizeof(name), "%s%u_%s",
				 m < rep->nmeters && rep->meters[m].emulated ? "emu"
				 : m < rep->nmeters && rep->meters[m].manual ? "man"
				 : rep->emulated ? "emu" : "m",
				 m, qty_name[q]);
			g->ch_of[m][q] = (int)g->nanalog++;
			sr_dev_inst_channel_add(sdi, idx++, SR_CHANNEL_ANALOG, name);
		}
	}
	g->nanalog++; /* io MB/s */
	sr_dev_inst_channel_add(sdi, idx, SR_CHANNEL_ANALOG, "io_MBps");
}

/* The samples' span and the grid's step: 0 or -errno (said). */
static int grid_survey(struct grid *g, const char *samples, const struct export_opts *o)
{
	double rate;
	int rc = samples_file_read(samples, -1, survey, g);

	if (rc)
		return rc;
	if (!g->rows) {
		log_err(MOD, "%s: no samples to export", samples);
		return -ENODATA;
	}
	if (g->beyond)
		log_warn(MOD, "%s: %" PRIu64 " samples of meters past the %d-th left out", samples,
			 g->beyond, MAX_METERS);
	rate = o->rate_hz > 0 ? o->rate_hz : g->binned ? 1000.0 : 100.0;
	/* A session's samplerate is whole Hz: another grid's time axis would read wrong. */
	if (rate < 1 || rate != floor(rate) || rate > 1e9) {
		log_err(MOD, "--rate %g: a sigrok session's samplerate is a whole number of Hz",
			rate);
		return -EINVAL;
	}
	g->rate_hz = (uint64_t)rate;
	g->step_ns = (uint64_t)llround(1e9 / rate);
	g->ncells = (size_t)((g->t_last_ns - g->t_first_ns) / g->step_ns) + 1;
	return 0;
}

/* The grid filled: each meter's readings, the I/O rate and the phases. 0 or -errno (said). */
static int grid_fill(struct grid *g, const struct rr_result *r, const char *samples,
		     const struct export_opts *o)
{
	struct export_spans sp;
	struct io_fill iof;
	char *intervals;
	size_t ch;
	int rc;

	if ((uint64_t)g->ncells * g->nanalog > MAX_CELLS) {
		log_err(MOD, "%s: %.0f s at %.0f Hz is %zu points per channel, %zu channels: more "
			"than %llu in all; give a lower --rate", o->out,
			(double)(g->t_last_ns - g->t_first_ns) / 1e9, (double)g->rate_hz,
			g->ncells, g->nanalog, (unsigned long long)MAX_CELLS);
		return -E2BIG;
	}
	g->val = xcalloc(g->nanalog, sizeof(*g->val));
	g->cnt = xcalloc(g->nanalog, sizeof(*g->cnt));
	for (ch = 0; ch < g->nanalog; ch++) {
		g->val[ch] = xcalloc(g->ncells, sizeof(float));
		g->cnt[ch] = xcalloc(g->ncells, sizeof(uint16_t));
	}
	g->logic = xcalloc(g->ncells, 1);
	rc = samples_file_read(samples, -1, fill, g);
	if (rc)
		return rc;
	intervals = rr_companion_path(r, "intervals");
	iof = (struct io_fill){ g, g->nanalog - 1 };
	if (intervals && access(intervals, F_OK) == 0)
		intervals_file_read(intervals, fill_io, &iof); /* said where it fails; io stays 0 */
	free(intervals);
	for (ch = 0; ch < g->nanalog; ch++)
		finish_cells(g, ch, ch + 1 < g->nanalog);
	export_spans_build(r, &sp);
	mark_phases(g, &sp);
	export_spans_free(&sp);
	return 0;
}

/*
 * libsigrok writes the file itself, by name (it removes what is there first): it gets a
 * private folder beside the output, and the file is then put in place as every output
 * is. The session owns the device instance (libsigrok has no public free for it).
 */
static int write_private(const struct grid *g, struct sr_dev_inst *sdi,
			 const struct export_opts *o)
{
	struct sr_context *ctx = NULL;
	struct sr_session *sess = NULL;
	char dir_tmpl[4096], tmp[4200];
	const char *slash = strrchr(o->out, '/');
	int rc;

	snprintf(dir_tmpl, sizeof(dir_tmpl), "%.*s.iowatt-export.XXXXXX",
		 slash ? (int)(slash - o->out + 1) : 0, o->out);
	if (!mkdtemp(dir_tmpl)) {
		rc = -errno;
		log_err(MOD, "%s: cannot make a private folder beside it: %s", o->out, strerror(errno));
		return rc;
	}
	snprintf(tmp, sizeof(tmp), "%s/session.sr", dir_tmpl);
	if (sr_init(&ctx) != SR_OK) {
		log_err(MOD, "libsigrok did not start");
		rmdir(dir_tmpl);
		return -EIO;
	}
	if (sr_session_new(ctx, &sess) == SR_OK)
		sr_session_dev_add(sess, sdi);
	rc = write_session(g, sdi, tmp, o->out);
	if (!rc)
		rc = install(tmp, o);
	unlink(tmp);
	rmdir(dir_tmpl);
	if (sess)
		sr_session_destroy(sess);
	sr_exit(ctx);
	return rc;
}

int export_srzip(const struct rr_result *r, const char *samples, const struct export_opts *o)
{
	struct grid g = { 0 };
	struct sr_dev_inst *sdi;
	int rc = grid_survey(&g, samples, o);

	if (rc)
		return rc;
	sdi = sr_dev_inst_user_new("iowatt", r->label, IOWATT_VERSION);
	add_channels(&g, sdi, &r->rep);
	rc = grid_fill(&g, r, samples, o);
	if (!rc)
		rc = write_private(&g, sdi, o);
	if (!rc)
		log_info(MOD, "%s: %zu points at %.6g Hz, %zu analog and %d logic channels", o->out,
			 g.ncells, 1e9 / (double)g.step_ns, g.nanalog, NLOGIC);
	grid_free(&g);
	return rc;
}

#else

int export_srzip(const struct rr_result *r, const char *samples, const struct export_opts *o)
{
	(void)r;
	(void)samples;
	log_err(MOD, "%s: this iowatt was built without libsigrok (libsigrok-dev): no srzip "
		"export; --format csv works", o->out);
	return -ENOTSUP;
}

#endif
