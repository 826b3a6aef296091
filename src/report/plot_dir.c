/* SPDX-License-Identifier: MIT */
/* The chart directory holds the charts of the last plot only: older ones it wrote are removed. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/files.h"
#include "core/log.h"
#include "core/mem.h"
#include "report/plot.h"

#define MOD "plot"
/* What the last plot into a directory wrote, one file name a line. */
#define MANIFEST ".iowatt-charts"
#define NAME_MAX_LEN 255

void plot_note_written(struct plot_ctx *ctx, const char *path)
{
	const char *base = strrchr(path, '/');

	ctx->written = xrealloc(ctx->written, (ctx->nwritten + 1) * sizeof(*ctx->written));
	ctx->written[ctx->nwritten++] = xstrdup(base ? base + 1 : path);
}

static int written_now(const struct plot_ctx *ctx, const char *name)
{
	size_t i;

	for (i = 0; i < ctx->nwritten; i++)
		if (!strcmp(ctx->written[i], name))
			return 1;
	return 0;
}

/* A chart file's kind: "timeline" for timeline-STEM.png, else its name without extension. */
static int of_kind(const char *name, const char *const *kinds, size_t nkinds)
{
	size_t i, len = strcspn(name, ".");

	if (!strncmp(name, "timeline-", 9))
		len = 8;
	for (i = 0; i < nkinds; i++)
		if (strlen(kinds[i]) == len && !strncmp(name, kinds[i], len))
			return 1;
	return 0;
}

/*
 * A name the manifest lists, of a chart kind this plot drew, that it did not write: a
 * chart of results no longer given (a timeline of an older run, an efficiency chart of
 * results that had power). Only a plain file name, only a regular file: the manifest is
 * text in a directory others may write to, so it never names what to remove beyond the
 * directory's own charts. Returns 1 when the name stays listed.
 */
static int remove_stale(int dfd, const struct plot_ctx *ctx, const char *name,
			const char *const *kinds, size_t nkinds)
{
	struct stat st;

	if (!*name || name[0] == '.' || strchr(name, '/') || written_now(ctx, name))
		return 0;
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode))
		return 0;
	if (!of_kind(name, kinds, nkinds))
		return 1;
	if (unlinkat(dfd, name, 0)) {
		log_warn(MOD, "%s/%s: stale chart not removed: %m", ctx->outdir, name);
		return 1;
	}
	log_info(MOD, "removed %s/%s: a chart of results not given this time", ctx->outdir, name);
	return 0;
}

/* Removes stale charts; the names that stay are appended to keep (one a line). */
static void prune(int dfd, const struct plot_ctx *ctx, const char *const *kinds, size_t nkinds,
		  FILE *keep)
{
	char line[NAME_MAX_LEN + 2];
	int fd = openat(dfd, MANIFEST, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	FILE *fp = fd >= 0 ? fdopen(fd, "r") : NULL;

	if (!fp) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while (fgets(line, sizeof(line), fp)) {
		line[strcspn(line, "\n")] = '\0';
		if (remove_stale(dfd, ctx, line, kinds, nkinds))
			fprintf(keep, "%s\n", line);
	}
	fclose(fp);
}

int plot_dir_sync(struct plot_ctx *ctx, const char *const *kinds, size_t nkinds)
{
	struct atomic_file af;
	char *path;
	size_t i;
	int dfd, rc;

	if (!ctx->outdir)
		return 0;
	dfd = open(ctx->outdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		rc = -errno;
		log_err(MOD, "%s: %s", ctx->outdir, strerror(-rc));
		return rc;
	}
	path = xasprintf("%s/%s", ctx->outdir, MANIFEST);
	rc = atomic_file_open(&af, path);
	if (!rc) {
		prune(dfd, ctx, kinds, nkinds, af.fp);
		for (i = 0; i < ctx->nwritten; i++)
			fprintf(af.fp, "%s\n", ctx->written[i]);
		rc = atomic_file_commit(&af);
	}
	close(dfd);
	if (rc)
		log_warn(MOD, "%s: %s: the next plot into this directory cannot remove these charts",
			 path, strerror(-rc));
	free(path);
	return rc;
}
