/* SPDX-License-Identifier: MIT */
/* A result's samples for other tools: a sigrok session (srzip, PulseView) or a CSV with each sample's job and phase. */
#ifndef IOWATT_REPORT_EXPORT_H
#define IOWATT_REPORT_EXPORT_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/results_read.h"

enum export_format { EXPORT_AUTO, EXPORT_SRZIP, EXPORT_CSV };

struct export_opts {
	const char *out;    /* the file written (atomically) */
	int format;	    /* enum export_format; AUTO: from out's extension */
	double rate_hz;	    /* srzip's sample grid; 0: 1 kHz for a binned (fast) meter, else 100 Hz */
	int replace;	    /* --force: an existing regular file's name may be taken */
};

/* The phases of a result's jobs on its clock, for labelling samples. */
struct export_span {
	uint64_t t0_ns, t1_ns;
	const char *job;   /* rr_job_name */
	const char *phase; /* "idle", "active", "tail" */
	unsigned phase_bit; /* 0 idle, 1 active, 2 tail */
};

struct export_spans {
	struct export_span *s; /* by start */
	size_t n;
};

#define EXPORT_PHASES 3
extern const char *const export_phase_names[EXPORT_PHASES];

void export_spans_build(const struct rr_result *r, struct export_spans *sp);
void export_spans_free(struct export_spans *sp);
/* The span holding t (the latest starting at or before it), or NULL. */
const struct export_span *export_span_at(const struct export_spans *sp, uint64_t t_ns);

/* enum export_format for a name ("srzip", "csv"), or -EINVAL. */
int export_format_parse(const char *name);
/* 0 or -errno (logged, naming the file). */
int export_result(const struct rr_result *r, const struct export_opts *o);
int export_csv(const struct rr_result *r, const char *samples, const struct export_opts *o);
int export_srzip(const struct rr_result *r, const char *samples, const struct export_opts *o);

#endif
