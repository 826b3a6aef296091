/* SPDX-License-Identifier: MIT */
/* The explicit registry of I/O engines, best first, and lookup by job_opts.ioengine. */
#include <stddef.h>
#include <string.h>

#include "io/engine.h"

/* Each engine is one file; the registry declares what it lists. */
extern const struct io_engine engine_io_uring;
extern const struct io_engine engine_libaio;
extern const struct io_engine engine_psync;

const struct io_engine *const io_engines[] = {
#ifdef HAVE_LIBURING
    &engine_io_uring,
#endif
#ifdef HAVE_LIBAIO
    &engine_libaio,
#endif
    &engine_psync,
    NULL,
};

const struct io_engine *io_engine_find(const char *name)
{
	size_t i;

	for (i = 0; io_engines[i]; i++)
		if (!strcmp(io_engines[i]->name, name))
			return io_engines[i];
	return NULL;
}
