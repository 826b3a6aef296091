/* SPDX-License-Identifier: MIT */
/* The figure table: the numbers of a job's power and efficiency, and which of them repeats sum up. */
#ifndef IOWATT_RESULT_FIGURES_H
#define IOWATT_RESULT_FIGURES_H

/*
 * One row per figure, X(name, kind), in the order the document writes them. The struct
 * members (result.h), the key table (result_schema.c) and the statistics over a job's rounds
 * (analysis/repeats.c) are expanded from these rows, so a new figure is a row here and its
 * computation (src/energy); tests/unit/test_result_json.c fails until docs/results.md shows
 * it and docs/energy.md's table says what it is. The key is the member's name; the unit is
 * its suffix (_w, _ma, _v, _j, _mwh, _mah, _per_gb...). A row's kind:
 *   PLAIN      a number, written under its key
 *   U95        a figure with its expanded uncertainty (k = 2) beside it: "X", "X_u95"
 *   U95_STATS  as U95, and summary[].figures holds its statistics over the job's rounds
 *   STATS      (job rows) statistics only; analysis/repeats.c reads it with job_<name>()
 */

/* struct result_power, between "meter" and "note". */
#define RESULT_POWER_FIGURES(X)                                                              \
	X(idle_w, U95_STATS)		/* the idle phase's robust level (the baseline) */      \
	X(active_w, U95_STATS)		/* time-weighted means over the active phase */         \
	X(active_ma, U95_STATS)                                                              \
	X(peak_ma, PLAIN)		/* the highest sample of the active phase */            \
	X(active_v, U95_STATS)                                                               \
	X(min_v, PLAIN)			/* the lowest sample of the active phase */             \
	X(energy_active_j, U95_STATS)	/* W over the active phase, idle included */            \
	X(energy_active_mwh, PLAIN)                                                          \
	X(energy_active_in_j, PLAIN)	/* a signed meter: into the device, >= 0 */             \
	X(energy_active_out_j, PLAIN)	/* and out of it, >= 0; in - out = energy_active_j */   \
	X(energy_tail_j, U95)		/* W over the tail, idle included */                    \
	X(energy_tail_mwh, PLAIN)                                                            \
	X(energy_tail_net_j, U95_STATS) /* the tail above idle */                               \
	X(energy_net_j, U95_STATS)	/* active and tail above idle */                        \
	X(charge_mah, U95_STATS)	/* A over the active phase */

/* struct result_efficiency. */
#define RESULT_EFFICIENCY_FIGURES(X)                                                         \
	X(iops_per_ma, U95_STATS)                                                            \
	X(iops_per_w, U95_STATS)                                                             \
	X(mbps_per_w, U95_STATS)	/* MB = 10^6 B */                                       \
	X(j_per_gb, U95_STATS)		/* active + tail above idle, per 10^9 B */              \
	X(j_per_gb_net, U95_STATS)	/* energy_net_j per 10^9 B */                           \
	X(uj_per_io, U95_STATS)                                                              \
	X(uah_per_io, U95_STATS)	/* active charge per I/O */                             \
	X(uah_per_mb, U95_STATS)	/* and per 10^6 B */

/* A job's performance, summed up over its rounds before the power figures. */
#define RESULT_JOB_FIGURES(X)                                                                \
	X(iops, STATS)                                                                       \
	X(bw_bytes, STATS)                                                                   \
	X(clat_p50_ns, STATS)                                                                \
	X(clat_p99_ns, STATS)                                                                \
	X(lat_p50_ns, STATS)                                                                 \
	X(lat_p99_ns, STATS)

/* RESULT_IF_U95(kind, ...) and RESULT_IF_STATS(kind, ...): the rest when kind has it. */
#define RESULT_IF_U95(kind, ...) RESULT_IF_U95_##kind(__VA_ARGS__)
#define RESULT_IF_U95_PLAIN(...)
#define RESULT_IF_U95_STATS(...)
#define RESULT_IF_U95_U95(...) __VA_ARGS__
#define RESULT_IF_U95_U95_STATS(...) __VA_ARGS__
#define RESULT_IF_STATS(kind, ...) RESULT_IF_STATS_##kind(__VA_ARGS__)
#define RESULT_IF_STATS_PLAIN(...)
#define RESULT_IF_STATS_U95(...)
#define RESULT_IF_STATS_STATS(...) __VA_ARGS__
#define RESULT_IF_STATS_U95_STATS(...) __VA_ARGS__

/* A row as struct members: the figure's (and its _u95), and its statistics'. */
#define RESULT_FIGURE_MEMBER(name, kind) double name; RESULT_IF_U95(kind, double name##_u95;)
#define RESULT_STAT_MEMBER(name, kind) RESULT_IF_STATS(kind, struct result_stat name;)
/* How many rows have statistics: RESULT_NSTATS(RESULT_POWER_FIGURES) ... */
#define RESULT_COUNT_STAT(name, kind) RESULT_IF_STATS(kind, +1)
#define RESULT_NSTATS(LIST) (0 LIST(RESULT_COUNT_STAT))

#endif
