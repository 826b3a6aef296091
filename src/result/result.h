/* SPDX-License-Identifier: MIT */
/* The result of a run as C types: what `run` and `measure` fill and every reader consumes. */
#ifndef IOWATT_RESULT_H
#define IOWATT_RESULT_H

#include <stddef.h>
#include <stdint.h>

#include "core/accuracy.h"
#include "core/units.h"
#include "result/result_figures.h"

#define RESULT_SCHEMA_VERSION 1

/*
 * Conventions (docs/results.md):
 * - A string is NULL where the document has null; a double is NAN where it has null (a
 *   figure that cannot be computed); an int64_t is RESULT_NULL_INT; a tri-state int is
 *   RESULT_NULL_BOOL.
 * - A pointer to a struct or an array is NULL where the document leaves the key out (a
 *   job without a meter has no power). An empty array that is written has a non-NULL
 *   pointer and a count of 0.
 * - Reading an older file, a key it lacks reads as null, 0 or false.
 * All strings and arrays are owned by the result: result_free() releases them.
 */
#define RESULT_NULL_INT INT64_MIN
#define RESULT_NULL_BOOL (-1)
#define RESULT_MAX_PCT 32

enum result_status { RESULT_OK, RESULT_FAILED, RESULT_INTERRUPTED, RESULT_RUNNING };

struct result_tool {
	char *name, *version;
};

struct result_host {
	char *hostname, *board, *kernel, *os, *cpu;
	int64_t cpus, memory_bytes;
};

struct result_usb {
	char *speed, *vid_pid, *manufacturer, *product, *bridge_vid_pid, *port, *driver;
};

struct result_pcie {
	char *address, *vid_pid, *current_link_speed, *max_link_speed;
	int64_t current_link_width, max_link_width;
};

struct result_mmc {
	char *cid, *name, *manfid, *oemid, *date, *serial, *type, *fwrev, *hwrev;
};

struct result_loop {
	char *backing_file;
	int direct_io; /* tri-state */
};

/*
 * What the device says of its own wear and class (docs/results.md, "health"): eMMC
 * EXT_CSD life time and pre-EOL, the SD card's status register and CID, NVMe SMART, the
 * USB protocol. A field the device lacks or iowatt could not read is null, and `missing`
 * says why ("life_time: not an eMMC").
 */
struct result_health {
	char *source;	   /* what was read: "emmc", "sd", "nvme", "usb", or NULL (nothing) */
	int64_t used_pct;  /* NVMe percentage used; eMMC the top of the worse life_time band */
	int64_t life_time_a, life_time_b; /* EXT_CSD DEVICE_LIFE_TIME_EST_TYP_A/B, 1..11 */
	int64_t pre_eol_info;		  /* 1 normal, 2 warning, 3 urgent */
	int64_t ext_csd_rev;
	char *emmc_version;		  /* "5.1", from ext_csd_rev */
	char *speed_class, *uhs_grade, *video_class, *app_class; /* "C10" "U3" "V30" "A2" */
	char *maker, *oem, *product, *date;	/* CID: "SanDisk" (or "0x03"), "SD", "SC64G", "2022-06" */
	char *serial_hash;			/* 24 bits of a hash: never the serial itself */
	int64_t critical_warning, temperature_c, media_errors;
	int64_t data_units_written; /* NVMe: thousands of 512-byte units */
	char *usb_protocol;	    /* "uas" or "bot" (usb-storage) */
	char *usb_speed;	    /* "5000M" */
	char **missing;		    /* "field: why" per null field that matters here */
	size_t nmissing;
};

/*
 * Idle power settings that decide a logger's sleep: runtime PM of the device that sleeps
 * (the USB device, the NVMe PCI function), NVMe APST and the power state it is in.
 */
struct result_power_mgmt {
	char *control;		      /* power/control: "auto" (may suspend) or "on" */
	int64_t autosuspend_delay_ms; /* power/autosuspend_delay_ms */
	char *runtime_status;	      /* power/runtime_status: "active", "suspended" */
	int apst_enabled;	      /* tri-state: NVMe Get Features 0x0C */
	int64_t apst_max_latency_us;  /* nvme_core default_ps_max_latency_us (0: APST off) */
	int64_t power_state;	      /* NVMe Get Features 0x02: PS now */
	char **missing;
	size_t nmissing;
};

struct result_device {
	char *name, *partition, *model, *vendor, *transport;
	int rotational; /* tri-state */
	int64_t size_bytes, logical_block_size, physical_block_size;
	struct result_usb *usb; /* NULL: null (not behind that bus, or unreadable) */
	struct result_pcie *pcie;
	struct result_mmc *mmc;
	struct result_loop *loop;
	struct result_health *health;		/* NULL: not read (older results) */
	struct result_power_mgmt *power_management;
};

struct result_filesystem {
	char *type, *mount_point, *source, *mount_options;
};

struct result_target {
	char *path, *kind;
	int created;
};

/* What the numbers depend on. NULL members are null; a run without a target (measure)
 * has no context at all, written as {}. */
struct result_context {
	struct result_host *host;
	struct result_device *device;
	struct result_filesystem *filesystem;
	struct result_target *target;
};

/* A meter's declared accuracy as the result keeps it (core/accuracy.h). */
struct result_acc_range {
	double a_max;
	struct meter_acc_q a;
};

struct result_accuracy {
	char *source; /* where the figures come from */
	struct meter_acc_q v, a, w;
	struct result_acc_range *ranges;
	size_t nranges;
};

/* The result's copy of a driver's accuracy, and back (result_accuracy.c). NULL in: NULL
 * out / an accuracy whose source is NULL (unknown). */
struct result_accuracy *result_accuracy_from(const struct meter_accuracy *acc);
void result_accuracy_get(const struct result_accuracy *ra, struct meter_accuracy *out);

/* One meter of the run and its link statistics. */
struct result_meter {
	char *spec, *driver, *model;
	struct result_accuracy *accuracy; /* NULL: none declared */
	int board_level; /* measures the board's supply: the CPU running iowatt included */
	int emulated, manual;
	double period_ms;
	uint64_t samples, frames_bad, gaps, reconnects, overruns;
	uint64_t out_of_range; /* readings dropped as impossible */
	/* A sample counter's jumps, and the samples it showed lost (also in overruns). */
	uint64_t counter_jumps, counter_lost;
	double link_rtt_ms; /* a network meter's round trip at open; NAN: a local port */
	char *processing; /* what the driver does to readings (a spike filter); NULL: none */
	char *signed_q;	  /* quantities read with their sign ("V A W"); NULL: none */
};

struct result_files {
	char *intervals;
	char *samples; /* NULL: no meter, no samples file */
};

/* Processes measure's command left running when it returned: in its process group, or
 * started with setsid outside it (iowatt is its subreaper). */
struct result_descendants {
	uint64_t running; /* how many */
	int ended;	  /* iowatt ended them with the group (a stop, --kill-descendants) */
};

struct result_event {
	uint64_t t_ns, t_end_ns;
	/* Events of one kind from one source coalesced into this one (in one phase): how
	 * many, and the last one's time; both 0 for a single event (result_event_count). */
	uint64_t count, t_last_ns;
	int kind; /* enum event_kind */
	char *source, *text;
	char *end_source; /* NULL: the span ends at its own source's end (or t_end_ns is its
			   * own); else the source whose state ended it ("rpi_volt") */
};

/* A resolved job option; keys come from the job option table. */
enum result_opt_type { RESULT_OPT_NULL, RESULT_OPT_INT, RESULT_OPT_REAL, RESULT_OPT_STR };

struct result_opt {
	char *key;
	int type; /* enum result_opt_type */
	int64_t i;
	double d;
	char *s;
};

struct result_pct {
	double pct; /* 99.9 */
	uint64_t ns;
};

/* fio's clat_ns / lat_ns object. */
struct result_lat {
	uint64_t min_ns, max_ns;
	double mean_ns, stddev_ns;
	struct result_pct pct[RESULT_MAX_PCT];
	size_t npct;
};

/* One direction as fio reports it; runtime in ms as fio. */
struct result_dir {
	uint64_t io_bytes, bw_bytes;
	double iops;
	uint64_t total_ios, runtime_ms;
	struct result_lat clat; /* completion: from the kernel having the request (fio's clat) */
	struct result_lat lat;	/* total: from before the submit call (fio's lat); npct 0 in
				 * results written before it was recorded */
};

struct result_sync {
	uint64_t total_ios;
	struct result_lat lat;
};

struct result_span {
	uint64_t t_start_ns, t_end_ns;
};

/* A span's length in seconds; 0 for none (NULL) or an empty one. */
static inline double result_span_s(const struct result_span *sp)
{
	return sp && sp->t_end_ns > sp->t_start_ns ? (double)(sp->t_end_ns - sp->t_start_ns) / 1e9
						   : 0;
}

/*
 * A job's phases; prepare, calibration and retaken ran before its idle phase, outside any
 * measurement: its file laid out (or read once), its size=auto calibration with the
 * settling after it, and the run of the calibrated size that was too short for the meter
 * and run again, left out (NULL: none, or a result written before they were recorded).
 */
struct result_phases {
	struct result_span *active, *idle, *tail;
	struct result_span *prepare, *calibration, *retaken;
};

struct result_marker {
	char *spec;
	uint64_t pulse_ns, rise_ns, fall_ns;
};

/* Each figure's expanded uncertainty (k = 2, about 95 %) sits in FIGURE_u95, in the
 * figure's unit: NAN where the meter declares no accuracy (docs/energy.md). */
/* A count per phase. */
struct result_phase_counts {
	uint64_t idle, active, tail;
};

/*
 * How the idle baseline (idle_w) was drawn from the idle phase's readings: the estimator
 * over the quiet ones, how many were offered (readings), kept and quiet or excluded (the
 * target did I/O within exclusion_s before them), the target's disk watched (NULL: none,
 * every reading counts as quiet), how far the phase ran past its `idle` length for quiet
 * readings, and why the baseline is in doubt (NULL: it is not).
 */
struct result_idle_baseline {
	char *estimator;
	uint64_t readings, quiet, excluded;
	double exclusion_s, extended_s;
	char *watched;
	char *reason;
};

/* Read, write, flush: the kinds the power model prices. */
#define RESULT_MODEL_KINDS 3
/* What one op of each kind costs (uJ) with U95, and a lock-step pair's sum: a job's model,
 * a device's pooled one and event-locked kernels say it alike (result_schema.c's
 * OP_COST_FIELDS). */
#define RESULT_OP_COSTS                                                                    \
	double read_uj_per_op, read_uj_per_op_u95;                                         \
	double write_uj_per_op, write_uj_per_op_u95;                                       \
	double flush_uj_per_op, flush_uj_per_op_u95;                                       \
	double sum_uj_per_op, sum_uj_per_op_u95, sum_ratio;                                \
	char *sum_of;
/*
 * A job's model fit as normal equations over the per-kind costs (J) with its idle level
 * profiled out, each scaled by 1 / the job's misfit: a (information), b and yy (the
 * weighted sum of squares), so that chi^2(c) = yy - 2 c.b + c.a.c; dof its readings and
 * prior less idle; ops per kind; gain_rel the meter's relative gain uncertainty.
 */
struct result_model_normal {
	int valid;
	double a[RESULT_MODEL_KINDS][RESULT_MODEL_KINDS], b[RESULT_MODEL_KINDS], yy, dof;
	double ops[RESULT_MODEL_KINDS], gain_rel;
	uint64_t readings;
	/* What the job's U95 took besides (robust 0: not given, the pool keeps chi^2/dof
	 * alone): the sandwich's middle over the kinds, idle profiled out and scaled as a;
	 * the degrees of freedom its spread is from; the costs' spread over the lag and
	 * window grid (J^2). */
	int robust;
	double meat[RESULT_MODEL_KINDS][RESULT_MODEL_KINDS], rob_dof;
	double sel[RESULT_MODEL_KINDS][RESULT_MODEL_KINDS];
	/* The pair the job gave only as its sum (bit k for kind k; 0: none): one op of
	 * sum_first with sum_ratio of the other, as the job's windows counted them. */
	unsigned sum_pair;
	int sum_first;
	double sum_ratio;
};

/*
 * The power model fitted to the job's readings (docs/energy.md, "The power model"): the
 * energy of one read, write and flush (uJ, NAN when the job had none or they cannot be
 * told apart) with their U95; where two kinds move together, sum_uj_per_op is one op of
 * the first kind in sum_of ("write+flush") with sum_ratio of the second; the idle level
 * fitted with its prior; the readings used, their residual RMS against the meter's
 * declared noise, the lag and window used (lag_fitted: found over the grid); verdict "ok",
 * "poor fit" or "not identifiable", and why (NULL: ok).
 */
struct result_energy_model {
	char *verdict;
	char *why;
	RESULT_OP_COSTS
	double awake_w; /* not fitted yet: NAN */
	double idle_w, idle_w_u95;
	uint64_t readings;
	double residual_rms_w, noise_rms_w;
	double lag_s, window_s, hold_s;
	int lag_fitted;
	/* the job's energy above idle from the costs (estimator.c's E_m), whichever estimator
	 * carries the headline */
	double energy_net_j, energy_net_j_u95;
	/* Not in the file: the fit's normal equations with idle taken out, for the device's
	 * pooled fit (energy/energy_pool.c); valid 0 in a result read back. */
	struct result_model_normal normal;
};

/*
 * A device's power model pooled over every job of the run (and round) at one block size
 * and direct setting, read by one meter (docs/energy.md, "Pooled per device"): the energy of one read, write
 * and flush (uJ) with U95, where two kinds move together in every job the sum as a job's
 * model gives it; the jobs pooled, the ops of each kind they hold, the readings, the
 * misfit (residual over declared noise, jobs' disagreement included), verdict and why.
 */
struct result_device_model {
	char *meter;
	uint64_t bs;
	int direct; /* O_DIRECT jobs: a buffered write costs nothing until its flush */
	/* A buffered job's fdatasync (0: direct, or no flush of its own): a buffered flush
	 * costs the writes it carries, so jobs of other patterns are pooled apart. */
	uint64_t writes_per_flush;
	uint64_t jobs, readings;
	uint64_t reads, writes, flushes;
	char *verdict;
	char *why;
	RESULT_OP_COSTS
	double misfit;
};

/* The spread of a phase's current readings, mA: percentiles within 1 % of the reading
 * (energy/current_hist.h), min and max exact; n readings. */
struct result_ma_stats {
	uint64_t n;
	double min, p1, median, p99, max;
};

/* One point of an operation's mean power above idle: t_s from its completion. */
struct result_trace_point {
	double t_s, w;
};

/*
 * A fast meter's current around each completion (docs/energy.md, "Event-locked
 * kernels"): the offset of the meter's clock (a completion shows offset_s later, within
 * offset_u_s) found by cross-correlation at `correlation`; each kind's energy per op (uJ,
 * its kernel's area, fitted by least squares with every neighbour's) with U95 from the
 * fit's covariance at the residuals' variance times `inflation` (their correlation), over
 * the ops fitted (two kinds always in step: their sum, as sum_of names it, with null
 * parts); the idle term fitted with the baseline as prior and the residuals' RMS; the
 * trace of one op of the kind with most (trace_of, or the pair): its kernel, W above
 * idle each 1 ms.
 */
struct result_event_locked {
	double offset_s, offset_u_s, correlation;
	/* How the completions were placed on the meter's clock: "marker" (the --mark-gpio
	 * line's edges on the meter's digital input marker_input, marker_edges of them paired;
	 * offset_u_s is then U95, drift_ppm the clocks' drift when fitted) or "correlation"
	 * (alignment_note: why not the marker; NULL when none was driven), or "not known"
	 * (the meter lost samples within the job, its clock may have slipped: alignment_note
	 * says so; the per-kind figures, offset_u_s and the trace are not given).
	 * correlation_offset_s: the cross-correlation's offset either way (the check). */
	char *alignment, *alignment_note, *marker_input;
	uint64_t marker_edges;
	double drift_ppm, correlation_offset_s;
	double idle_w, idle_w_u95, residual_rms_w, inflation;
	RESULT_OP_COSTS /* a lock-step pair as a job's model gives it */
	uint64_t reads, writes, flushes;
	char *trace_of;
	struct result_trace_point *trace;
	size_t ntrace;
	/* The power model fitted to the same readings averaged over 100 ms (NULL: none) and
	 * the check against it: 1 when every kind both price lies within their combined U95,
	 * 0 when not, RESULT_NULL_BOOL when none could be compared; the kind furthest apart
	 * for its interval, event-locked less model and the combined U95 (uJ). */
	struct result_energy_model *model;
	int agrees_with_model;
	char *check_kind;
	double difference_uj, combined_u95_uj;
	/* The windows' highest share holding one count of a set of kinds (in step at 0.8). */
	double in_step_share;
	/* The energy balance: the ops' energy event-locked (its kernels' in the bins fitted)
	 * against the readings' above the idle baseline there (uJ, each with U95); 1 when
	 * within their combined U95, 0 when not, RESULT_NULL_BOOL when not judged. */
	double ops_energy_uj, ops_energy_uj_u95, above_idle_uj, above_idle_uj_u95;
	int agrees_with_trace;
};

struct result_power {
	char *meter;
	char *estimator; /* "integration" or "model": where the energy figures come from */
	RESULT_POWER_FIGURES(RESULT_FIGURE_MEMBER) /* result_figures.h */
	char *note; /* NULL: no note */
	struct result_phase_counts out_of_range; /* readings dropped as impossible */
	struct result_idle_baseline *idle_baseline; /* NULL: none (no idle readings of W) */
	struct result_energy_model *energy_model; /* NULL: not fitted (no series, fast meter) */
	struct result_event_locked *event_locked; /* NULL: not a fast meter, or no ops */
	/* NULL: the phase had no current readings (or an older result) */
	struct result_ma_stats *idle_ma_stats, *active_ma_stats, *tail_ma_stats;
};

struct result_efficiency {
	RESULT_EFFICIENCY_FIGURES(RESULT_FIGURE_MEMBER)
};

/* The headline figure's uncertainty budget: relative standard uncertainties (k = 1). */
struct result_unc_budget {
	double gain, offset, resolution, noise, discretisation, baseline;
	double sampling; /* what a meter of its period can miss of the activity (NAN: unknown) */
};

/* How well the job's headline figure is known, and what limits it. */
struct result_uncertainty {
	char *figure;	  /* "j_per_gb", or "iops_per_ma" for a meter without voltage */
	double u95_rel;	  /* its expanded uncertainty over its value; NAN: unknown */
	double limit;	  /* max_uncertainty: above it the job is `uncertain` */
	char *dominant;	  /* "UM25C resolution 1 mW at 61 mW mean"; NULL: none */
	struct result_unc_budget budget;
};

struct result_validity {
	int valid;
	double coverage;
	uint64_t samples_active;
	char **reasons;
	size_t nreasons;
	int emulated, manual;
	int uncertain;	/* the headline figure's u95 exceeds the limit */
	struct result_uncertainty *uncertainty; /* NULL: not judged (older results) */
};

/* A job's figures from one meter. */
struct result_meter_figures {
	char *spec;
	struct result_power power;
	struct result_efficiency efficiency;
	struct result_validity validity;
};

/*
 * The benchmark's own CPU cost: its worker threads' CPU time over the job (their CPU
 * clocks; user_s and sys_s split it as their rusage samples it) and per I/O; process_s
 * is all of iowatt (meter threads, main thread) over the active phase. A meter on the
 * board's supply sees this CPU work too.
 */
struct result_cpu {
	unsigned threads;
	double cpu_s, user_s, sys_s, per_io_us, process_s;
};

/*
 * size=auto: what the calibration measured and what it chose (run/size_auto.h). Times
 * in seconds; requested_s and meter_s are NAN when there was no such need.
 */
/* One try of a size=auto calibration: what it measured, and why it was retried. */
struct result_calib_try {
	double wait_s; /* waited for the device to be quiet before it */
	double seconds;
	uint64_t bytes, ios;
	double rate_bytes_per_s;
	char *rejected; /* why it was not taken; NULL: taken */
};

struct result_size_auto {
	double requested_s, meter_s, target_s;
	char *meter; /* the slowest meter's spec; NULL: none */
	double calibration_s;
	uint64_t calibration_bytes;
	double rate_bytes_per_s;
	uint64_t size, extent; /* per thread: bytes moved, bytes of file it wraps around in */
	char *from;	       /* "calibration", or the result file whose size was larger */
	char *reason;
	double expected_s; /* size x threads at rate_bytes_per_s */
	/* what the job of that size took and moved per second: its I/O (NAN: not run) */
	double job_s, job_rate_bytes_per_s;
	/* what the calibration was checked against (NAN, NULL: nothing to check with) */
	double reference_rate_bytes_per_s;
	char *reference;
	struct result_calib_try *tries;
	size_t ntries;
	char *note; /* a calibration taken although it failed its checks: why; NULL: none */
	char *retake; /* the calibrated size ran too short or too uncertain and was run
		       * again: why, and what became of that run; NULL: not run again */
};

/*
 * Whether the slowest meter can measure the job's pattern, judged before it runs
 * (plan/meter_fit.h): verdict "ok", "coarse", "too short" or "aliased", what goes wrong
 * and what to change (NULL when nothing).
 */
/*
 * The power model's per-op U95 the plan forecast for the job (docs/energy.md, "Before
 * running: the meter fit"): per kind (NAN: none, or only a lock-step pair's sum), the
 * largest share of its assumed cost, whether that is above max_uncertainty and the I/Os
 * that would bring it within (0: none needed); the noise simulated (assumed: the meter
 * declared none), the readings and those holding I/O.
 */
struct result_model_forecast {
	/* the costs simulated (uJ) and where from: --costs-from's result, else assumed */
	double read_uj_per_op, write_uj_per_op, flush_uj_per_op;
	char *costs_from;
	double read_uj_per_op_u95, write_uj_per_op_u95, flush_uj_per_op_u95;
	char *sum_of;
	double sum_uj_per_op_u95;
	double u95_rel;
	int uncertain;
	uint64_t need_ios;
	double noise_w;
	int noise_assumed;
	uint64_t readings, readings_with_ops;
	uint64_t in_step_phases; /* of the 8 simulated: each reading the same count of ops */
	/* the fit simulated: residuals over noise, window, hold, lag; assumed or the
	 * --costs-from result's */
	double misfit, window_s, hold_s, lag_s;
	int misfit_assumed, window_assumed;
};

struct result_meter_fit {
	char *verdict;
	double meter_period_s;
	char *pattern;
	double activity_hz; /* NAN for a stream */
	uint64_t bursts;
	double duration_s, samples; /* expected; NAN: not known before running */
	double bursts_u95_rel;	    /* the bursts' energy above idle, relative, k = 2 */
	char *why, *fix;
	struct result_model_forecast *model; /* NULL: not forecast (a stream, an older result) */
};

struct result_temp {
	double start, end, max;
};

struct result_temps {
	struct result_temp soc_c, drive_c;
};

/* One reading of the run's temperature series; NAN where that sensor is absent. */
struct result_temp_sample {
	uint64_t t_ns;
	double soc_c, drive_c;
};

/* A health field read at both ends of a job (wear.c): "used_pct", "life_time_a", ... */
struct result_health_change {
	char *key;
	int64_t start, end;
};

/*
 * What reached the device over a job: the whole disk's diskstats sectors written from the
 * active phase's start to the tail's end (a partition's or a file's writes count on the
 * disk under it, with the filesystem's journal and metadata), over the bytes the job
 * wrote; NVMe's own count where the drive has one.
 */
struct result_wear {
	char *device;		    /* the whole disk counted */
	uint64_t job_bytes;	    /* the job's writes */
	int64_t device_bytes;	    /* diskstats sectors written x 512; null: unreadable */
	double write_amplification; /* device_bytes / job_bytes; NAN: no writes or unknown */
	int64_t smart_bytes;	    /* NVMe data units written x 512000 over the job; null elsewhere */
	double span_s;		    /* the span counted */
	struct result_health_change *health_changes;
	size_t nhealth_changes;
	char *note; /* why the figure is in doubt; NULL: no doubt known */
};

struct job_result {
	char *jobname;
	unsigned round; /* 1.. (--repeat); 0 in results older than rounds: read as 1 */
	unsigned loop;
	int status; /* enum result_status */
	char *error;
	struct result_opt *options; /* NULL for measure */
	size_t noptions;
	struct result_dir *read, *write; /* NULL for an unprepared job and measure without
					  * an I/O source */
	struct result_sync *sync;
	char **command; /* measure: the command line; NULL for run */
	size_t ncommand;
	char *io_source; /* measure: where read/write come from ("fio", "diskstats"), or NULL */
	struct result_phases *phases;
	int64_t exit_status, exit_signal; /* measure; RESULT_NULL_INT: left out */
	struct result_descendants *descendants; /* measure: NULL when none was left running */
	struct result_marker *marker;
	struct result_event *events;
	size_t nevents;
	/* The first meter's figures; every meter's in meters[]. NULL without a meter. */
	struct result_power *power;
	struct result_efficiency *efficiency;
	struct result_validity *validity;
	struct result_meter_figures *meters;
	size_t nmeters;
	struct result_temps *temperatures;
	struct result_cpu *cpu; /* NULL for measure and a job that never started */
	struct result_size_auto *size_auto; /* NULL: size was given */
	struct result_meter_fit *meter_fit; /* NULL: not judged (no meter, unknown length) */
	char *pace; /* a paced job that could not keep its rate, in words; NULL: it kept it */
	struct result_wear *wear;	    /* NULL: no disk under the target (tmpfs), or none read */
};

/*
 * One figure over a job's valid entries (rounds x loops): the spread from run to run.
 * u95 is the entries' mean measurement uncertainty (the meter's part, which repeating
 * does not average away); NAN for figures without one.
 */
struct result_stat {
	uint64_t n;
	double mean, stddev, cv, min, max, ci95_lo, ci95_hi, u95;
};

/* One result_stat per row of the figure table that has statistics (result_figures.h). */
struct result_summary_figures {
	RESULT_JOB_FIGURES(RESULT_STAT_MEMBER)
	RESULT_POWER_FIGURES(RESULT_STAT_MEMBER)
	RESULT_EFFICIENCY_FIGURES(RESULT_STAT_MEMBER)
};

/* SNIA PTS steady state over a job's rounds (steady=). */
struct result_steady {
	char *metric;	/* "iops", "bw", "j_per_gb" */
	int reached;
	unsigned first_round, last_round; /* the window; the closest one when not reached; 0: none */
	double mean, range_rel, slope_rel;
};

struct result_job_summary {
	char *jobname;
	unsigned entries; /* rounds x loops run */
	unsigned valid;	  /* those the statistics use */
	unsigned invalid; /* left out: failed, interrupted or invalid power figures */
	struct result_summary_figures figures;
	struct result_steady *steady; /* NULL: no steady= */
};

struct run_result {
	int schema_version;
	struct result_tool tool;
	char *created, *command;
	char *profile; /* NULL: left out (no profile) */
	char *label;   /* run --label: the user's name for the device; NULL: left out */
	int status;    /* enum result_status */
	uint64_t t0_ns;
	int emulated;
	struct result_context *context;
	struct result_meter *meters;
	size_t nmeters;
	struct result_files files;
	struct job_result *jobs;
	size_t njobs;
	/* Per job name over its rounds; NULL when every job ran once (result_summarize). */
	struct result_job_summary *summary;
	size_t nsummary;
	int manual;
	struct result_event *events; /* the run's events: NULL until the run has ended */
	size_t nevents;
	/* Every temperature reading of the run, oldest first; NULL without a sensor. */
	struct result_temp_sample *temp_series;
	size_t ntemp_series;
	/* Per meter and block size, pooled over the jobs (docs/energy.md); NULL: none. */
	struct result_device_model *energy_models;
	size_t nenergy_models;
};

void result_free(struct run_result *r);

/* The events a result event stands for (1 unless coalesced), and the last one's time. */
static inline uint64_t result_event_count(const struct result_event *ev)
{
	return ev->count ? ev->count : 1;
}

static inline uint64_t result_event_last_ns(const struct result_event *ev)
{
	return ev->t_last_ns > ev->t_ns ? ev->t_last_ns : ev->t_ns;
}

/* A result larger than this is refused: a year of 1 s intervals is a few MiB. */
#define RESULT_MAX_BYTES (256ULL * MIB)
/*
 * Load a result file: a regular file of at most RESULT_MAX_BYTES, schema_version
 * checked, a "jobs" array required. 0 or -errno (logged: "is a directory", ...).
 */
int result_load(const char *path, struct run_result *out);
/* Serialise and write atomically (result_file_write). 0 or -errno. */
int result_write(const char *path, const struct run_result *r);
/* "results/iowatt-20261129-204912-quick.json" under dir; caller frees. */
char *result_default_path(const char *dir, const char *stem);

/* Free the run's meter list (result_builder_write rebuilds it as the run goes). */
void result_meters_free(struct run_result *r);
/* Free the run's pooled device models (energy_pool_run rebuilds them before each write). */
void result_device_models_free(struct run_result *r);

/* Append a zeroed job (exit_status/exit_signal null); pointers to earlier jobs may move. */
struct job_result *result_add_job(struct run_result *r);
/* Frees the last job of r and takes it off the list (a run the result leaves out). */
void result_drop_last_job(struct run_result *r);
/* Frees what j owns (a job taken off a result's list by value). */
void result_job_free(struct job_result *j);
const char *result_status_name(int status);

/* Deep copies, for the job-level figures that repeat meters[0]'s. */
struct result_power *result_power_dup(const struct result_power *p);
struct result_efficiency *result_efficiency_dup(const struct result_efficiency *e);
struct result_validity *result_validity_dup(const struct result_validity *v);
/*
 * Figures not measured: every figure and its _u95 NAN ("not known", never 0, which would
 * claim an exact figure), the rest zero. By the key table, so a new figure needs no line.
 */
void result_power_unknown(struct result_power *p);
void result_efficiency_unknown(struct result_efficiency *e);
/* Append a reason (copied). */
void result_validity_add(struct result_validity *v, const char *reason);

/* An option by name, NULL if the job has none of that name. */
const struct result_opt *result_opt_find(const struct job_result *j, const char *key);

/* Every key path the serialiser can write ("jobs[].power.active_w"); keys that are data
 * (option names, percentiles) are "*". Calls fn once per path, in document order. */
void result_key_paths(void (*fn)(const char *path, void *arg), void *arg);

#endif
