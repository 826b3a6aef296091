/* SPDX-License-Identifier: MIT */
/* A job's completions per kind (read, write, flush) in fine time bins, for the power model. */
#ifndef IOWATT_COMPLETIONS_H
#define IOWATT_COMPLETIONS_H

#include <stddef.h>
#include <stdint.h>

enum compl_kind { COMPL_READ = 0, COMPL_WRITE = 1, COMPL_FLUSH = 2, COMPL_KINDS = 3 };

/* Bins start at 1 ms: a shift of the readings' windows by a few ms already moves a
 * fitted per-operation cost several times its error (issue 35's baseline). */
#define COMPL_BIN_NS 1000000ULL
/* At most this many bins (1.5 MiB of floats for the three kinds): a longer job doubles
 * its bin width (1 ms bins last 131 s), so memory stays bounded whatever its length. */
#define COMPL_MAX_BINS 131072u

/* c[i * COMPL_KINDS + k]: completions of kind k in [t0_ns + i bin_ns, t0_ns + (i+1) bin_ns). */
struct completions {
	uint64_t t0_ns, bin_ns;
	size_t n, cap;
	float *c;
	double total[COMPL_KINDS];
};

void completions_init(struct completions *c, uint64_t t0_ns);
/* One completion of `kind` at t_ns (earlier than the series' start counts at its start). */
void completions_add(struct completions *c, enum compl_kind kind, uint64_t t_ns);
/* Adds `from` (the same t0_ns) into `into`, at the wider of their bin widths. */
void completions_merge(struct completions *into, const struct completions *from);
void completions_free(struct completions *c);

#endif
