/* SPDX-License-Identifier: MIT */
/* Per-job, per-meter energy: phase windows, trapezoid integration, validity, efficiency. */
#ifndef IOWATT_ENERGY_H
#define IOWATT_ENERGY_H

#include <stdint.h>

#include "core/phase.h"
#include "core/sample.h"
#include "result/result.h"
#include "energy/current_hist.h"
#include "energy/energy_unc.h"
#include "energy/energy_model.h"
#include "energy/event_locked.h"
#include "energy/event_marker.h"
#include "energy/idle_baseline.h"

/* A job's figures are valid with at least this many samples in its active phase and
 * this share of it covered (docs/energy.md). */
#define ENERGY_MIN_SAMPLES 20
#define ENERGY_MIN_COVERAGE 0.95

/* Integrals over one phase window; constant memory whatever its length. */
struct phase_acc {
	uint64_t t_start_ns, t_end_ns; /* t_end_ns == 0: open (extends to +inf) */
	double energy_j;	       /* integral of W dt */
	double energy_in_j, energy_out_j; /* its parts where W > 0 and (as >= 0) W < 0 */
	double charge_c;	       /* integral of A dt */
	double v_s;		       /* integral of V dt (for the time-weighted mean) */
	double span_s;		       /* time covered by integrated segments */
	double covered_s;	       /* part of it in segments no longer than 2 periods */
	double peak_a, min_v, peak_w;
	uint64_t samples;	       /* samples whose timestamp falls in the window */
	uint64_t losses;	       /* holes of lost samples that overlap the window */
	uint64_t out_of_range;	       /* impossible readings dropped in holes overlapping it */
	int has_v, has_a, has_w;
	double w_s, a_s, vt_s;	       /* time each quantity was integrated over (a meter
					* may lack V, or W) */
	int begun;		       /* energy_phase_begin() was called */
	struct unc_phase unc;	       /* what the integrals' uncertainty is made of */
	struct current_hist a_hist;    /* the current readings inside the window */
};

struct energy_job {
	struct phase_acc ph[PHASE_COUNT];
	uint64_t period_ns; /* the meter's nominal update period */
	struct meter_sample prev;
	struct unc_sample prev_u;	/* prev's uncertainties */
	int have_prev;
	struct meter_accuracy acc;	/* the meter's (source NULL: unknown) */
	uint64_t settle_since_ns; /* tail: first time power came back within tolerance */
	double last_w;
	/* The band energy_feed() judges tail samples by (set from the last
	 * energy_tail_settled() call; 5 % until then) and the state of that judgement. */
	double tail_tol;
	int in_band;
	uint64_t out_of_order;	  /* samples older than the previous one: ignored */
	/* Boundaries set before an already-fed sample: the segment up to that sample went
	 * to the old phase. Non-zero means the caller fed ahead of its boundaries. */
	uint64_t late_boundaries;
	/* The tail's integrals up to the sample at settle_since_ns, taken when power came
	 * back into the band: the tail ends there, the hold after it only proves it. */
	struct phase_acc tail_settled;
	int have_tail_settled;
	/* The idle phase's readings of W, and what tells a quiet one (energy_job_idle_watch):
	 * the baseline is a robust level over those (energy/idle_baseline.h). */
	struct idle_readings idle_rd;
	idle_busy_fn idle_busy;
	const void *idle_busy_arg;
	uint64_t idle_reach_ns;
	double idle_ref_w; /* that level, once the tail judges by it */
	int have_idle_ref;
	/* The active phase's and tail's readings for the power model, from a meter slow
	 * enough for the sampling term (energy/energy_model.h). */
	struct emodel_readings model_rd;
	/* The same from a meter of 1 kS/s or more, as 1 ms means for event-locked averaging
	 * (energy/event_locked.h). */
	struct el_series el;
	/* The edges of the meter's digital inputs, where its readings carry them: a marker
	 * wired to one places iowatt's clock on the meter's (energy/event_marker.h). */
	struct el_logic logic;
};

void energy_job_init(struct energy_job *ej, uint64_t period_ns);
/* The meter's declared accuracy, for the uncertainty of every figure (before feeding). */
void energy_job_accuracy(struct energy_job *ej, const struct meter_accuracy *acc);
/*
 * How the idle baseline tells quiet readings: busy(arg, t0, t1) says the target did I/O
 * in [t0, t1]; a reading at t is quiet when it did none in [t - reach_ns, t]. Without
 * (busy NULL) every reading is quiet.
 */
void energy_job_idle_watch(struct energy_job *ej, idle_busy_fn busy, const void *arg,
			   uint64_t reach_ns);
/* The idle phase's readings so far that are quiet. */
size_t energy_idle_quiet(const struct energy_job *ej);
/* Open `phase` at t_ns; also closes the phase before it at the same instant. */
void energy_phase_begin(struct energy_job *ej, int phase, uint64_t t_ns);
void energy_phase_end(struct energy_job *ej, int phase, uint64_t t_ns);
/*
 * Feed samples in timestamp order. The segment between two consecutive samples is a
 * trapezoid; where a phase boundary cuts it, the values are interpolated linearly at
 * the boundary and each part goes to its window. Samples outside every window still
 * serve as the left end of the next segment.
 */
void energy_feed(struct energy_job *ej, const struct meter_sample *s);
/* Tail end test: power within tol (fraction) of the idle mean for hold_ns. */
int energy_tail_settled(struct energy_job *ej, double tol, uint64_t hold_ns);
/*
 * End the tail. When it settled (energy_tail_settled said so), it ends where power came
 * back into the band and what was fed after that leaves the tail; otherwise (tail_max,
 * a stop, no idle level to judge by) at t_cut. Returns the end used.
 */
uint64_t energy_tail_finish(struct energy_job *ej, uint64_t t_cut, int settled);

/*
 * What the integrals say about a job's phases besides its figures: their lengths,
 * coverage, samples, losses, and the parts of each integral's uncertainty. The figures
 * themselves are the result's (struct result_power, struct result_efficiency).
 */
struct energy_phases {
	double energy_idle_j, tail_s, active_s;
	double coverage;	 /* active phase, 0..1 */
	uint64_t samples_active, samples_idle, samples_tail;
	uint64_t period_ns;	 /* the meter's, for the validity reasons */
	int has_voltage;	 /* 0: energy figures are NAN, charge still holds */
	double idle_s, coverage_idle, coverage_tail;
	/* Each phase integral's uncertainty parts (energy_unc.h), per quantity, and the time
	 * each quantity was integrated over (a phase mean is its integral over that). */
	struct unc_terms unc[PHASE_COUNT][UNC_CH_COUNT];
	double span_s[PHASE_COUNT][UNC_CH_COUNT];
	uint64_t samples[PHASE_COUNT];
	uint64_t losses[PHASE_COUNT]; /* holes of lost samples (ring full, device) per phase */
	uint64_t out_of_range[PHASE_COUNT]; /* readings dropped as impossible, per phase */
	/* The sampling term of the active phase's integral per quantity, in its unit (J for
	 * W, C for A; energy/sampling.h, set after energy_summarize): 0 when not judged, NAN
	 * when the activity's energy cannot be known; and what it is, in words. */
	double sampling_u[UNC_CH_COUNT];
	const char *sampling_why;
	/* The idle baseline (energy/idle_baseline.h): readings kept, quiet, excluded; all: none
	 * was quiet and the level is over every reading; 0 readings: the trapezoid mean. */
	uint64_t idle_readings, idle_quiet, idle_excluded;
	int idle_all;
	uint64_t idle_offered;	  /* readings in the idle phase, kept or not */
	double idle_exclusion_s;  /* a reading this long after I/O is not quiet */
	double idle_u_w;	  /* the baseline's standard uncertainty from its scatter (W) */
};

/*
 * The job's phases into es, and its power figures straight into p: every figure but the
 * _u95 (uncertainty_fill), the meter (the caller's) and the note, which says why a meter
 * without voltage has no energy (p->note is replaced: p must start zeroed).
 */
void energy_summarize(const struct energy_job *ej, struct energy_phases *es,
		      struct result_power *p);
/* The spread of one phase's current readings, mA (allocated: the result's
 * *_ma_stats); NULL when the phase had none. */
struct result_ma_stats *energy_ma_stats(const struct energy_job *ej, int phase);

/*
 * The energies the figures are made of, as coefficients of the phases' energy integrals
 * (idle, active, tail): the tail above idle (energy_tail_net_j), the work the efficiency
 * figures charge to the I/O (active + tail above idle: j_per_gb, uj_per_io) and the work
 * net of idle (energy_net_j, j_per_gb_net). The one definition both the figures and their
 * uncertainties use.
 */
void energy_tail_net_coef(const struct energy_phases *es, double coef[PHASE_COUNT]);
void energy_work_coef(const struct energy_phases *es, double coef[PHASE_COUNT]);
void energy_net_coef(const struct energy_phases *es, double coef[PHASE_COUNT]);
/* sum of coef[p] x the phase's energy (p's idle_w, energy_active_j, energy_tail_j); NAN if
 * a phase it needs has none. */
double energy_combined(const struct energy_phases *es, const struct result_power *p,
		       const double coef[PHASE_COUNT]);

/*
 * The efficiency figures straight into e (their _u95: uncertainty_fill): bytes and ios
 * moved in the active phase, over p's figures. NAN where undefined.
 */
void efficiency_compute(const struct energy_phases *es, const struct result_power *p,
			uint64_t bytes, uint64_t ios, struct result_efficiency *e);

/*
 * Validity: >= min_samples in the active phase, coverage >= min_coverage, no samples lost
 * in any phase (a hole where the meter core's ring or the device dropped them). Fills v's
 * valid, coverage and samples_active and adds short reasons with numbers ("active phase
 * has 12 samples (< 20): at 10 Hz a job needs >= 2 s; raise size or loops"); remedy
 * replaces "raise size or loops" when the caller knows better. Returns valid.
 */
int energy_validity(const struct energy_phases *es, unsigned min_samples, double min_coverage,
		    const char *remedy, struct result_validity *v);

#endif
