/* SPDX-License-Identifier: MIT */
/* Recordings from other tools: sigrok sessions (srzip: an INI "metadata" and float32 chunks) and PPK2 files (metadata.json and 6-byte frames), through libzip. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/input.h"
#include "core/log.h"
#include "core/mem.h"
#include "result/recording.h"

#define MOD "recording"

#if HAVE_LIBZIP
#include <ini.h>
#include <jansson.h>
#include <zip.h>

/* An archive member is read whole only up to this (the metadata files). */
#define META_MAX (1u << 20)
/* A session may hold at most this many chunk files per channel. */
#define CHUNKS_MAX 100000
/* The fastest source a session's samplerate may say (analog sigrok sources are far below):
 * beyond, the bins' width would not fit their counter. */
#define SRC_RATE_MAX_HZ 1e10

/* Input points are averaged into bins of `per` points on the way in. */
struct binner {
	struct recording *rec;
	unsigned per;
	double sum;
	unsigned cnt, got;
	double scale; /* to mA */
	size_t cap;   /* rec->ma's room: the bins the members' sizes allow */
};

static int bin_add(struct binner *b, double v)
{
	double ma;

	if (isfinite(v)) {
		b->sum += v;
		b->cnt++;
	}
	if (++b->got < b->per)
		return 0;
	/* More than the members' sizes said (a damaged or forged archive) is refused, as is
	 * more than the bound. */
	if (b->rec->n >= b->cap)
		return b->cap < RECORDING_MAX_POINTS ? -EBADMSG : -E2BIG;
	/* what a float cannot hold is no current either */
	ma = b->cnt ? b->sum / b->cnt * b->scale : NAN;
	b->rec->ma[b->rec->n++] = fabs(ma) <= FLT_MAX ? (float)ma : NAN;
	b->sum = 0;
	b->cnt = b->got = 0;
	return 0;
}

static void bin_setup(struct binner *b, struct recording *rec, double src_rate, double scale,
		      uint64_t total_points)
{
	uint64_t cap;

	memset(b, 0, sizeof(*b));
	b->rec = rec;
	b->scale = scale;
	b->per = src_rate > RECORDING_MAX_RATE_HZ ? (unsigned)ceil(src_rate / RECORDING_MAX_RATE_HZ) : 1;
	rec->src_rate_hz = src_rate;
	rec->rate_hz = src_rate / b->per;
	cap = total_points / b->per + 1;
	if (cap > RECORDING_MAX_POINTS)
		cap = RECORDING_MAX_POINTS;
	b->cap = (size_t)cap;
	rec->ma = xcalloc(cap, sizeof(float));
}

/* A member read whole (at most max bytes), NUL-terminated. */
static int read_member(zip_t *z, const char *name, size_t max, char **buf, size_t *len)
{
	zip_stat_t st;
	zip_file_t *f;
	zip_int64_t n;

	if (zip_stat(z, name, 0, &st) || !(st.valid & ZIP_STAT_SIZE))
		return -ENOENT;
	if (st.size > max)
		return -EFBIG;
	f = zip_fopen(z, name, 0);
	if (!f)
		return -EIO;
	*buf = xmalloc(st.size + 1);
	n = zip_fread(f, *buf, st.size);
	zip_fclose(f);
	if (n < 0 || (zip_uint64_t)n != st.size) {
		free(*buf);
		*buf = NULL;
		return -EIO;
	}
	(*buf)[n] = '\0';
	*len = (size_t)n;
	return 0;
}

/* Streams a member's little-endian float32 values (stride bytes apart) into the binner. */
static int stream_floats(zip_t *z, const char *name, size_t stride, struct binner *b)
{
	unsigned char buf[65536];
	size_t have = 0, off;
	zip_int64_t n;
	zip_file_t *f = zip_fopen(z, name, 0);
	int rc = 0;

	if (!f)
		return -EIO;
	while (!rc && (n = zip_fread(f, buf + have, sizeof(buf) - have)) > 0) {
		have += (size_t)n;
		for (off = 0; !rc && off + stride <= have; off += stride) {
			float v;

			memcpy(&v, buf + off, sizeof(v)); /* both formats are little-endian */
			rc = bin_add(b, v);
		}
		memmove(buf, buf + off, have - off);
		have -= off;
	}
	zip_fclose(f);
	return rc;
}

static double unit_scale(const char *unit, const char *channel)
{
	const char *u = unit;
	size_t n = strlen(channel);

	if (!u)
		u = n > 3 && !strcmp(channel + n - 3, "_mA") ? "mA"
		    : n > 3 && !strcmp(channel + n - 3, "_uA") ? "uA" : "A";
	return !strcmp(u, "mA") ? 1.0 : !strcmp(u, "uA") ? 1e-3 : !strcmp(u, "A") ? 1e3 : NAN;
}

struct sr_meta {
	double rate;
	unsigned total_analog, total_probes;
	char names[64][64]; /* analogN (1-based, after the probes) */
	int have_rate;
};

static int meta_entry(void *user, const char *section, const char *key, const char *value)
{
	struct sr_meta *m = user;
	char *end;
	double v;
	unsigned idx;

	if (strcmp(section, "device 1"))
		return 1;
	if (!strcmp(key, "samplerate")) {
		v = strtod(value, &end);
		while (*end == ' ')
			end++;
		v *= !strncmp(end, "GHz", 3) ? 1e9 : !strncmp(end, "MHz", 3) ? 1e6
		     : !strncmp(end, "kHz", 3) ? 1e3 : 1;
		m->rate = v;
		m->have_rate = v > 0 && v <= SRC_RATE_MAX_HZ;
	} else if (!strcmp(key, "total analog")) {
		m->total_analog = (unsigned)strtoul(value, NULL, 10);
	} else if (!strcmp(key, "total probes")) {
		m->total_probes = (unsigned)strtoul(value, NULL, 10);
	} else if (!strncmp(key, "analog", 6) && (idx = (unsigned)strtoul(key + 6, &end, 10)) &&
		   !*end && idx < 64) {
		snprintf(m->names[idx], sizeof(m->names[idx]), "%s", value);
	}
	return 1;
}

static int load_srzip(zip_t *z, const char *path, const char *channel, const char *unit,
		      struct recording *rec)
{
	struct sr_meta m;
	struct binner b;
	char *text = NULL, member[96];
	size_t len, k, chunks;
	unsigned idx, found = 0, i;
	uint64_t points = 0;
	zip_stat_t st;
	int rc;

	memset(&m, 0, sizeof(m));
	rc = read_member(z, "metadata", META_MAX, &text, &len);
	if (rc) {
		log_err(MOD, "%s: no sigrok metadata in it: not a sigrok session", path);
		return -EINVAL;
	}
	rc = ini_parse_string(text, meta_entry, &m);
	free(text);
	if (rc || !m.have_rate) {
		log_err(MOD, "%s: its metadata gives no samplerate (of at most %.0f GHz)", path,
			SRC_RATE_MAX_HZ / 1e9);
		return -EINVAL;
	}
	for (i = 1; i < 64; i++) {
		if (!m.names[i][0] || (channel && strcmp(m.names[i], channel)))
			continue;
		if (!found)
			idx = i;
		found++;
	}
	if (found != 1) {
		log_err(MOD, "%s: %s: the analog channels are:%s", path,
			found ? "several analog channels: say which with --channel"
			      : "no such analog channel", "");
		for (i = 1; i < 64; i++)
			if (m.names[i][0])
				log_err(MOD, "  %s", m.names[i]);
		return -EINVAL;
	}
	snprintf(rec->channel, sizeof(rec->channel), "%s", m.names[idx]);
	if (isnan(unit_scale(unit, rec->channel))) {
		log_err(MOD, "--unit %s: A, mA or uA", unit);
		return -EINVAL;
	}
	/* analog-1-IDX-CHUNK members, chunk by chunk in order. */
	for (chunks = 0, k = 1; k <= CHUNKS_MAX; k++, chunks++) {
		snprintf(member, sizeof(member), "analog-1-%u-%zu", idx, k);
		if (zip_stat(z, member, 0, &st))
			break;
		points += st.size / 4;
	}
	if (!chunks) {
		log_err(MOD, "%s: channel %s holds no samples", path, rec->channel);
		return -ENODATA;
	}
	bin_setup(&b, rec, m.rate, unit_scale(unit, rec->channel), points);
	for (k = 1, rc = 0; !rc && k <= chunks; k++) {
		snprintf(member, sizeof(member), "analog-1-%u-%zu", idx, k);
		rc = stream_floats(z, member, 4, &b);
	}
	snprintf(rec->format, sizeof(rec->format), "srzip");
	return rc;
}

static int load_ppk2(zip_t *z, const char *path, struct recording *rec)
{
	json_t *root, *md, *sps;
	json_error_t jerr;
	struct binner b;
	char *text = NULL;
	size_t len;
	zip_stat_t st;
	double rate;
	int rc = read_member(z, "metadata.json", META_MAX, &text, &len);

	if (rc) {
		log_err(MOD, "%s: no metadata.json in it: not a PPK2 file", path);
		return -EINVAL;
	}
	root = json_loadb(text, len, 0, &jerr);
	free(text);
	md = root ? json_object_get(root, "metadata") : NULL;
	sps = md ? json_object_get(md, "samplesPerSecond") : NULL;
	rate = json_is_number(sps) ? json_number_value(sps) : 0;
	json_decref(root);
	if (!(rate > 0 && rate <= 1e7)) {
		log_err(MOD, "%s: metadata.json gives no samplesPerSecond", path);
		return -EINVAL;
	}
	if (zip_stat(z, "session.raw", 0, &st)) {
		log_err(MOD, "%s: no session.raw in it", path);
		return -EINVAL;
	}
	/* 6-byte frames: the current in uA (float32, little-endian), then the digital inputs. */
	bin_setup(&b, rec, rate, 1e-3, st.size / 6);
	snprintf(rec->channel, sizeof(rec->channel), "current");
	snprintf(rec->format, sizeof(rec->format), "ppk2");
	return stream_floats(z, "session.raw", 6, &b);
}

int recording_load(const char *path, const char *channel, const char *unit, struct recording *rec)
{
	int err, fd, zerr = 0, rc;
	zip_t *z;

	memset(rec, 0, sizeof(*rec));
	fd = input_open(path, 0, 0);
	if (fd < 0) {
		log_err(MOD, "%s: %s", path, input_strerror(fd));
		return fd;
	}
	z = zip_fdopen(fd, ZIP_RDONLY, &zerr);
	if (!z) {
		close(fd);
		log_err(MOD, "%s: not a zip archive (a sigrok session or a PPK2 file is one)", path);
		return -EINVAL;
	}
	err = zip_name_locate(z, "session.raw", 0) >= 0;
	rc = err ? load_ppk2(z, path, rec) : load_srzip(z, path, channel, unit, rec);
	zip_discard(z);
	if (rc == -E2BIG)
		log_err(MOD, "%s: longer than %u points at %.0f Hz: not read", path,
			RECORDING_MAX_POINTS, rec->rate_hz);
	if (rc == -EBADMSG)
		log_err(MOD, "%s: a member holds more samples than the archive's directory says: "
			"a damaged archive, not read", path);
	if (!rc && !rec->n) {
		log_err(MOD, "%s: no samples in it", path);
		rc = -ENODATA;
	}
	if (rc)
		recording_free(rec);
	return rc;
}

#else

int recording_load(const char *path, const char *channel, const char *unit, struct recording *rec)
{
	(void)channel;
	(void)unit;
	memset(rec, 0, sizeof(*rec));
	log_err(MOD, "%s: this iowatt was built without libzip (libzip-dev): recordings cannot "
		"be read", path);
	return -ENOTSUP;
}

#endif

void recording_free(struct recording *rec)
{
	free(rec->ma);
	rec->ma = NULL;
	rec->n = 0;
}
