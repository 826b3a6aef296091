/* SPDX-License-Identifier: MIT */
/* psync engine: pread/pwrite, one request at a time; the reference and the buffered path. */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/mem.h"
#include "io/discard.h"
#include "io/engine.h"
#include "io/job.h"

struct psync_ctx {
	int fd;
	int blockdev; /* a discard is BLKDISCARD, else a punched hole */
	struct io_req *done; /* the request finished by the last submit */
};

static int psync_init(void **ctx, const struct engine_setup *s)
{
	struct psync_ctx *c = xcalloc(1, sizeof(*c));
	struct stat st;

	c->fd = s->fd;
	c->blockdev = !fstat(s->fd, &st) && S_ISBLK(st.st_mode);
	*ctx = c;
	return 0;
}

/*
 * The I/O happens here; reap only hands the request back. A short transfer is not
 * retried: the bench reports it as an error rather than counting a partial I/O.
 */
static int psync_submit(void *ctx, struct io_req **reqs, unsigned n)
{
	struct psync_ctx *c = ctx;
	struct io_req *r;
	ssize_t got;

	if (!n)
		return 0;
	if (c->done)
		return 0;
	r = reqs[0];
	if (r->discard) {
		/* rw=trim (io/discard.h) */
		int rc = io_discard(c->fd, c->blockdev, r->offset, r->len);

		r->res = rc ? rc : (int64_t)r->len;
		c->done = r;
		return 1;
	}
	do {
		if (r->ddir == DDIR_WRITE)
			got = pwrite(c->fd, r->buf, r->len, (off_t)r->offset);
		else
			got = pread(c->fd, r->buf, r->len, (off_t)r->offset);
	} while (got < 0 && errno == EINTR);
	r->res = got < 0 ? -errno : got;
	c->done = r;
	return 1;
}

static int psync_reap(void *ctx, struct io_req **done, unsigned min, unsigned max,
		      uint64_t timeout_ns)
{
	struct psync_ctx *c = ctx;

	(void)min;
	(void)timeout_ns;
	if (!c->done || !max)
		return 0;
	done[0] = c->done;
	c->done = NULL;
	return 1;
}

static void psync_cleanup(void *ctx)
{
	free(ctx);
}

const struct io_engine engine_psync = {
    .name = "psync",
    .help = "pread/pwrite, one request at a time: the reference, and buffered I/O",
    .flags = IOENG_DISCARD,
    .init = psync_init,
    .submit = psync_submit,
    .reap = psync_reap,
    .cleanup = psync_cleanup,
};
