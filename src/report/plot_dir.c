/* SPDX-License-Identifier: MIT */
/* The chart directory: charts put in place as new files, and only the older charts this user's plot wrote removed. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/log.h"
#include "core/mem.h"
#include "core/outfile.h"
#include "core/text.h"
#include "report/plot.h"

#define MOD "plot"
/* What the last plot into a directory wrote: a header line, then "DEV INO SIZE MTIME_NS
 * NAME" a line, NAME escaped (%XX for bytes that would end or split a line). */
#define MANIFEST ".iowatt-charts"
#define MANIFEST_HEADER "iowatt-charts 2"
/* A longer manifest is not one iowatt wrote (a few hundred charts at most). */
#define MANIFEST_MAX_BYTES (1u << 20)
#define NAME_MAX_LEN 255
#define COPY_BUF 65536

int plot_outdir_make(const char *outdir)
{
	char *shown;
	int fd;

	if (!*outdir) {
		log_err(MOD, "-o '': an empty directory name (give a directory, or leave -o out)");
		return -EINVAL;
	}
	/* A line break or a stray byte in the name would not survive a log line, a chart's
	 * manifest or a page link intact: refused rather than written under another name. */
	if (!text_is_clean(outdir)) {
		shown = text_escape_invalid(outdir);
		text_clean(shown);
		log_err(MOD, "-o %s: the directory name holds a control character (a line break, "
			     "tab, ...) or bytes that are not UTF-8: choose another", shown);
		free(shown);
		return -EINVAL;
	}
	fd = output_dir_open(outdir, 0755);
	if (fd < 0)
		log_err(MOD, "-o %s: %s", outdir, strerror(-fd));
	return fd;
}

int plot_outdir_open(struct plot_ctx *ctx, const char *outdir)
{
	int fd = plot_outdir_make(outdir);

	ctx->outdir_fd = -1;
	if (fd < 0)
		return fd;
	ctx->outdir = outdir;
	ctx->outdir_fd = fd;
	return 0;
}

void plot_outdir_close(struct plot_ctx *ctx)
{
	if (ctx->outdir_fd >= 0)
		close(ctx->outdir_fd);
	ctx->outdir_fd = -1;
}

static int64_t mtime_ns(const struct stat *st)
{
	return (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
}

static void note_written(struct plot_ctx *ctx, const struct plot_chart *ch, const struct stat *st)
{
	struct plot_written *w;

	ctx->written = xrealloc(ctx->written, (ctx->nwritten + 1) * sizeof(*ctx->written));
	w = &ctx->written[ctx->nwritten++];
	w->chart = ch->desc;
	w->name = xstrdup(ch->out);
	w->dev = st->st_dev;
	w->ino = st->st_ino;
	w->size = st->st_size;
	w->mtime_ns = mtime_ns(st);
}

/* src (an open regular file) into af. 0 or -errno. */
static int copy_into(int src, FILE *dst)
{
	char *buf = xmalloc(COPY_BUF);
	ssize_t n;
	int rc = 0;

	while ((n = read(src, buf, COPY_BUF)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			rc = -errno;
			break;
		}
		if (fwrite(buf, 1, (size_t)n, dst) != (size_t)n) {
			rc = -EIO;
			break;
		}
	}
	free(buf);
	return rc;
}

int plot_chart_install(struct plot_ctx *ctx, const struct plot_chart *ch)
{
	char *shown = xasprintf("%s/%s", ctx->outdir, ch->out);
	struct atomic_file af;
	struct stat st;
	int src, rc;

	/* gnuplot's output, in iowatt's own 0700 directory: still opened as a plain file. */
	src = open(ch->render, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	rc = src < 0 ? -errno : fstat(src, &st) ? -errno : S_ISREG(st.st_mode) ? 0 : -EINVAL;
	if (rc) {
		log_err(MOD, "%s: gnuplot wrote no chart (%s)", ch->desc->name, strerror(-rc));
		if (src >= 0)
			close(src);
		free(shown);
		return rc;
	}
	rc = atomic_file_openat(&af, ctx->outdir_fd, ch->out, shown, 1);
	if (!rc) {
		rc = copy_into(src, af.fp);
		if (rc) {
			log_err(MOD, "%s: %s", shown, strerror(-rc));
			atomic_file_abort(&af);
		} else {
			rc = atomic_file_commit(&af);
		}
	}
	close(src);
	if (!rc) {
		note_written(ctx, ch, &af.written);
		log_info(MOD, "wrote %s", shown);
	}
	free(shown);
	return rc;
}

static const struct plot_written *written_now(const struct plot_ctx *ctx, const char *name)
{
	size_t i;

	for (i = 0; i < ctx->nwritten; i++)
		if (!strcmp(ctx->written[i].name, name))
			return &ctx->written[i];
	return NULL;
}

/* A chart file of a row of mask in charts: NAME.EXT, or NAME-STEM.EXT for a per-result chart. */
static int of_kind(const char *name, const struct plot_chart_desc *charts, size_t nchart,
		   int mask)
{
	size_t i, len = strcspn(name, "."), n;

	for (i = 0; i < nchart; i++) {
		const struct plot_chart_desc *d = &charts[i];

		n = strlen(d->name);
		if (!(mask & (1 << i)) || strncmp(name, d->name, n))
			continue;
		if (len == n || ((d->needs & PLOT_PER_RESULT) && name[n] == '-'))
			return 1;
	}
	return 0;
}

/* One manifest entry: %XX for bytes that are not printable ASCII, a space or a %. */
static void put_entry(FILE *fp, const struct plot_written *w)
{
	const unsigned char *p;

	fprintf(fp, "%ju %ju %jd %" PRId64 " ", (uintmax_t)w->dev, (uintmax_t)w->ino,
		(intmax_t)w->size, w->mtime_ns);
	for (p = (const unsigned char *)w->name; *p; p++)
		if (*p <= ' ' || *p >= 0x7f || *p == '%')
			fprintf(fp, "%%%02X", *p);
		else
			fputc(*p, fp);
	fputc('\n', fp);
}

static int hexval(int c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* "DEV INO SIZE MTIME_NS NAME" into w (name in buf); 0, or -EINVAL for another line. */
static int parse_entry(char *line, struct plot_written *w, char *buf, size_t len)
{
	uintmax_t dev, ino;
	intmax_t size;
	int64_t mtime;
	size_t n = 0;
	char *p;
	int used = 0;

	if (sscanf(line, "%ju %ju %jd %" SCNd64 " %n", &dev, &ino, &size, &mtime, &used) != 4 ||
	    !used)
		return -EINVAL;
	for (p = line + used; *p && *p != '\n'; p++) {
		int c = (unsigned char)*p;

		if (c == '%') {
			if (hexval(p[1]) < 0 || hexval(p[2]) < 0)
				return -EINVAL;
			c = hexval(p[1]) * 16 + hexval(p[2]);
			p += 2;
		}
		if (!c || n + 1 >= len)
			return -EINVAL;
		buf[n++] = (char)c;
	}
	buf[n] = '\0';
	w->name = buf;
	w->dev = (dev_t)dev;
	w->ino = (ino_t)ino;
	w->size = (off_t)size;
	w->mtime_ns = mtime;
	return n ? 0 : -EINVAL;
}

/*
 * An entry of a chart kind this plot drew that it did not write now: removed only if the
 * name is still the very file iowatt recorded (device, inode, size, modification time), a
 * regular file of this user. Anything else at that name is not iowatt's to remove, and is forgotten. Returns
 * 1 when the entry stays listed.
 */
static int remove_stale(int dfd, const struct plot_ctx *ctx, const struct plot_written *e,
			const struct plot_chart_desc *charts, size_t nchart, int mask)
{
	struct stat st;

	if (!*e->name || e->name[0] == '.' || strchr(e->name, '/') || written_now(ctx, e->name))
		return 0;
	if (fstatat(dfd, e->name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode) ||
	    st.st_uid != geteuid() || st.st_dev != e->dev || st.st_ino != e->ino ||
	    st.st_size != e->size || mtime_ns(&st) != e->mtime_ns)
		return 0;
	if (!of_kind(e->name, charts, nchart, mask))
		return 1;
	if (unlinkat(dfd, e->name, 0)) {
		log_warn(MOD, "%s/%s: stale chart not removed: %m", ctx->outdir, e->name);
		return 1;
	}
	log_info(MOD, "removed %s/%s: a chart of results not given this time", ctx->outdir, e->name);
	return 0;
}

/*
 * The manifest, if this user wrote it: a regular file owned by the effective user (in a
 * shared directory another user's manifest names nothing to remove). NULL otherwise.
 */
static FILE *open_manifest(int dfd, const char *outdir)
{
	struct stat st;
	int fd = openat(dfd, MANIFEST, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	FILE *fp;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    st.st_size > MANIFEST_MAX_BYTES) {
		log_info(MOD, "%s/%s: not a list this user's iowatt wrote: no older chart removed",
			 outdir, MANIFEST);
		close(fd);
		return NULL;
	}
	fp = fdopen(fd, "r");
	if (!fp)
		close(fd);
	return fp;
}

/* Removes stale charts; the entries that stay are appended to keep. */
static void prune(int dfd, const struct plot_ctx *ctx, const struct plot_chart_desc *charts,
		  size_t nchart, int mask, FILE *keep)
{
	char line[3 * NAME_MAX_LEN + 64], name[NAME_MAX_LEN + 1];
	FILE *fp = open_manifest(dfd, ctx->outdir);
	struct plot_written e;

	if (!fp)
		return;
	if (fgets(line, sizeof(line), fp) && !strcmp(line, MANIFEST_HEADER "\n")) {
		while (fgets(line, sizeof(line), fp)) {
			if (!strchr(line, '\n') && !feof(fp))
				break; /* not a line iowatt wrote */
			if (!parse_entry(line, &e, name, sizeof(name)) &&
			    remove_stale(dfd, ctx, &e, charts, nchart, mask))
				put_entry(keep, &e);
		}
	}
	fclose(fp);
}

int plot_dir_sync(struct plot_ctx *ctx, const struct plot_chart_desc *charts, size_t n,
		  int mask)
{
	struct atomic_file af;
	char *shown;
	size_t i;
	int rc;

	if (!ctx->outdir || ctx->outdir_fd < 0)
		return 0;
	shown = xasprintf("%s/%s", ctx->outdir, MANIFEST);
	rc = atomic_file_openat(&af, ctx->outdir_fd, MANIFEST, shown, 1);
	if (!rc) {
		fputs(MANIFEST_HEADER "\n", af.fp);
		prune(ctx->outdir_fd, ctx, charts, n, mask, af.fp);
		for (i = 0; i < ctx->nwritten; i++)
			put_entry(af.fp, &ctx->written[i]);
		rc = atomic_file_commit(&af);
	}
	if (rc)
		log_warn(MOD, "%s: %s: the next plot into this directory cannot remove these "
			      "charts", shown, strerror(-rc));
	free(shown);
	return rc;
}
