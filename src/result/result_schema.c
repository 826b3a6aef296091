/* SPDX-License-Identifier: MIT */
/* The result document's key tables: the one place that pairs JSON keys with result fields. */
#include <stddef.h>

#include "core/mem.h"
#include "result/result.h"
#include "result/result_schema.h"
#include "result/result_schema_rows.h"

static const char *const status_names[] = {
	[RESULT_OK] = "ok",
	[RESULT_FAILED] = "failed",
	[RESULT_INTERRUPTED] = "interrupted",
	[RESULT_RUNNING] = "running",
};

#define STATUS(T, M) FIELD(T, "status", M, RF_ENUM, .names = status_names, \
			   .nnames = ARRAY_SIZE(status_names))

const char *result_status_name(int status)
{
	return status >= 0 && (size_t)status < ARRAY_SIZE(status_names) ? status_names[status]
									 : "failed";
}

#define T struct meter_acc_q
static const struct result_field acc_q_fields[] = {
	FIELD(T, "gain", gain, RF_REAL),
	FIELD(T, "offset", offset, RF_REAL),
	FIELD(T, "resolution", resolution, RF_REAL),
	FIELD(T, "noise", noise, RF_REAL),
};
#undef T
static SCHEMA(acc_q_schema, struct meter_acc_q, acc_q_fields);

#define T struct result_acc_range
static const struct result_field acc_range_fields[] = {
	FIELD(T, "a_max", a_max, RF_REAL),
	FIELD(T, "a", a, RF_OBJ, .sub = &acc_q_schema),
};
#undef T
static SCHEMA(acc_range_schema, struct result_acc_range, acc_range_fields);

#define T struct result_accuracy
static const struct result_field accuracy_fields[] = {
	FIELD(T, "source", source, RF_STR),
	FIELD(T, "v", v, RF_OBJ, .sub = &acc_q_schema),
	FIELD(T, "a", a, RF_OBJ, .sub = &acc_q_schema),
	FIELD(T, "w", w, RF_OBJ, .sub = &acc_q_schema),
	LIST(T, "ranges", ranges, nranges, RF_ARRAY, .sub = &acc_range_schema),
};
#undef T
static SCHEMA(accuracy_schema, struct result_accuracy, accuracy_fields);

#define T struct result_meter
static const struct result_field meter_fields[] = {
	FIELD(T, "spec", spec, RF_STR),
	FIELD(T, "driver", driver, RF_STR),
	FIELD(T, "model", model, RF_STR),
	FIELD(T, "accuracy", accuracy, RF_PTR, .sub = &accuracy_schema),
	FIELD(T, "board_level", board_level, RF_BOOL),
	FIELD(T, "emulated", emulated, RF_BOOL),
	FIELD(T, "manual", manual, RF_BOOL),
	FIELD(T, "period_ms", period_ms, RF_REAL),
	FIELD(T, "samples", samples, RF_U64),
	FIELD(T, "frames_bad", frames_bad, RF_U64),
	FIELD(T, "gaps", gaps, RF_U64),
	FIELD(T, "reconnects", reconnects, RF_U64),
	FIELD(T, "overruns", overruns, RF_U64),
	FIELD(T, "out_of_range", out_of_range, RF_U64),
	FIELD(T, "counter_jumps", counter_jumps, RF_U64),
	FIELD(T, "counter_lost", counter_lost, RF_U64),
	FIELD(T, "link_rtt_ms", link_rtt_ms, RF_REAL),
	FIELD(T, "processing", processing, RF_STR),
	FIELD(T, "signed", signed_q, RF_STR),
};
#undef T
SCHEMA(result_meter_schema, struct result_meter, meter_fields);

#define T struct result_files
static const struct result_field files_fields[] = {
	FIELD(T, "intervals", intervals, RF_STR),
	FIELD(T, "samples", samples, RF_STR, .absent = RF_OMIT),
};
#undef T
static SCHEMA(files_schema, struct result_files, files_fields);

#define T struct result_descendants
static const struct result_field descendants_fields[] = {
	FIELD(T, "running", running, RF_U64),
	FIELD(T, "ended", ended, RF_BOOL),
};
#undef T
static SCHEMA(descendants_schema, struct result_descendants, descendants_fields);

#define T struct result_event
static const struct result_field event_fields[] = {
	FIELD(T, "t_ns", t_ns, RF_U64),
	FIELD(T, "t_end_ns", t_end_ns, RF_U64),
	FIELD(T, "count", count, RF_U64, .absent = RF_OMIT_ZERO),
	FIELD(T, "t_last_ns", t_last_ns, RF_U64, .absent = RF_OMIT_ZERO),
	FIELD(T, "kind", kind, RF_EVKIND),
	FIELD(T, "source", source, RF_STR),
	FIELD(T, "text", text, RF_STR),
	FIELD(T, "end_source", end_source, RF_STR, .absent = RF_OMIT),
};
#undef T
static SCHEMA(event_schema, struct result_event, event_fields);

#define T struct result_lat
static const struct result_field lat_fields[] = {
	FIELD(T, "min", min_ns, RF_U64),
	FIELD(T, "max", max_ns, RF_U64),
	FIELD(T, "mean", mean_ns, RF_REAL),
	FIELD(T, "stddev", stddev_ns, RF_REAL),
	LIST(T, "percentile", pct, npct, RF_PCT),
};
#undef T
static SCHEMA(lat_schema, struct result_lat, lat_fields);

#define T struct result_dir
static const struct result_field dir_fields[] = {
	FIELD(T, "io_bytes", io_bytes, RF_U64),
	FIELD(T, "bw_bytes", bw_bytes, RF_U64),
	FIELD(T, "iops", iops, RF_REAL),
	FIELD(T, "total_ios", total_ios, RF_U64),
	FIELD(T, "runtime", runtime_ms, RF_U64),
	FIELD(T, "clat_ns", clat, RF_OBJ, .sub = &lat_schema),
	FIELD(T, "lat_ns", lat, RF_OBJ, .sub = &lat_schema),
};
#undef T
static SCHEMA(dir_schema, struct result_dir, dir_fields);

#define T struct result_sync
static const struct result_field sync_fields[] = {
	FIELD(T, "total_ios", total_ios, RF_U64),
	FIELD(T, "lat_ns", lat, RF_OBJ, .sub = &lat_schema),
};
#undef T
static SCHEMA(sync_schema, struct result_sync, sync_fields);

#define T struct result_span
static const struct result_field span_fields[] = {
	FIELD(T, "t_start_ns", t_start_ns, RF_U64),
	FIELD(T, "t_end_ns", t_end_ns, RF_U64),
};
#undef T
static SCHEMA(span_schema, struct result_span, span_fields);

#define T struct result_phases
static const struct result_field phases_fields[] = {
	FIELD(T, "active", active, RF_PTR, .sub = &span_schema, .absent = RF_OMIT),
	FIELD(T, "idle", idle, RF_PTR, .sub = &span_schema, .absent = RF_OMIT),
	FIELD(T, "tail", tail, RF_PTR, .sub = &span_schema, .absent = RF_OMIT),
	FIELD(T, "prepare", prepare, RF_PTR, .sub = &span_schema, .absent = RF_OMIT),
	FIELD(T, "calibration", calibration, RF_PTR, .sub = &span_schema, .absent = RF_OMIT),
	FIELD(T, "retaken", retaken, RF_PTR, .sub = &span_schema, .absent = RF_OMIT),
};
#undef T
static SCHEMA(phases_schema, struct result_phases, phases_fields);

#define T struct result_marker
static const struct result_field marker_fields[] = {
	FIELD(T, "spec", spec, RF_STR),
	FIELD(T, "pulse_ns", pulse_ns, RF_U64),
	FIELD(T, "rise_ns", rise_ns, RF_U64),
	FIELD(T, "fall_ns", fall_ns, RF_U64),
};
#undef T
static SCHEMA(marker_schema, struct result_marker, marker_fields);

#define T struct result_phase_counts
static const struct result_field phase_counts_fields[] = {
	FIELD(T, "idle", idle, RF_U64),
	FIELD(T, "active", active, RF_U64),
	FIELD(T, "tail", tail, RF_U64),
};
#undef T
static SCHEMA(phase_counts_schema, struct result_phase_counts, phase_counts_fields);

#define T struct result_idle_baseline
static const struct result_field idle_baseline_fields[] = {
	FIELD(T, "estimator", estimator, RF_STR),
	FIELD(T, "readings", readings, RF_U64),
	FIELD(T, "quiet", quiet, RF_U64),
	FIELD(T, "excluded", excluded, RF_U64),
	FIELD(T, "exclusion_s", exclusion_s, RF_REAL),
	FIELD(T, "extended_s", extended_s, RF_REAL),
	FIELD(T, "watched", watched, RF_STR),
	FIELD(T, "reason", reason, RF_STR),
};
#undef T
static SCHEMA(idle_baseline_schema, struct result_idle_baseline, idle_baseline_fields);

#define T struct result_ma_stats
static const struct result_field ma_stats_fields[] = {
	FIELD(T, "n", n, RF_U64),
	FIELD(T, "min", min, RF_REAL),
	FIELD(T, "p1", p1, RF_REAL),
	FIELD(T, "median", median, RF_REAL),
	FIELD(T, "p99", p99, RF_REAL),
	FIELD(T, "max", max, RF_REAL),
};
#undef T
static SCHEMA(ma_stats_schema, struct result_ma_stats, ma_stats_fields);
/* RESULT_OP_COSTS's keys, in a job's energy_model, a device's energy_models and
 * event_locked alike. */
#define OP_COST_FIELDS(T)                                                                  \
	FIELD(T, "read_uj_per_op", read_uj_per_op, RF_REAL),                               \
	FIELD(T, "read_uj_per_op_u95", read_uj_per_op_u95, RF_REAL),                       \
	FIELD(T, "write_uj_per_op", write_uj_per_op, RF_REAL),                             \
	FIELD(T, "write_uj_per_op_u95", write_uj_per_op_u95, RF_REAL),                     \
	FIELD(T, "flush_uj_per_op", flush_uj_per_op, RF_REAL),                             \
	FIELD(T, "flush_uj_per_op_u95", flush_uj_per_op_u95, RF_REAL),                     \
	FIELD(T, "sum_uj_per_op", sum_uj_per_op, RF_REAL),                                 \
	FIELD(T, "sum_uj_per_op_u95", sum_uj_per_op_u95, RF_REAL),                         \
	FIELD(T, "sum_ratio", sum_ratio, RF_REAL),                                         \
	FIELD(T, "sum_of", sum_of, RF_STR),

#define T struct result_energy_model
static const struct result_field energy_model_fields[] = {
	FIELD(T, "verdict", verdict, RF_STR),
	FIELD(T, "why", why, RF_STR),
	OP_COST_FIELDS(T)
	FIELD(T, "awake_w", awake_w, RF_REAL),
	FIELD(T, "idle_w", idle_w, RF_REAL),
	FIELD(T, "idle_w_u95", idle_w_u95, RF_REAL),
	FIELD(T, "readings", readings, RF_U64),
	FIELD(T, "residual_rms_w", residual_rms_w, RF_REAL),
	FIELD(T, "noise_rms_w", noise_rms_w, RF_REAL),
	FIELD(T, "lag_s", lag_s, RF_REAL),
	FIELD(T, "window_s", window_s, RF_REAL),
	FIELD(T, "hold_s", hold_s, RF_REAL),
	FIELD(T, "lag_fitted", lag_fitted, RF_BOOL),
	FIELD(T, "energy_net_j", energy_net_j, RF_REAL),
	FIELD(T, "energy_net_j_u95", energy_net_j_u95, RF_REAL),
};
#undef T
static SCHEMA(energy_model_schema, struct result_energy_model, energy_model_fields);

#define T struct result_trace_point
static const struct result_field trace_point_fields[] = {
	FIELD(T, "t_s", t_s, RF_REAL),
	FIELD(T, "w", w, RF_REAL),
};
#undef T
static SCHEMA(trace_point_schema, struct result_trace_point, trace_point_fields);

#define T struct result_event_locked
static const struct result_field event_locked_fields[] = {
	FIELD(T, "offset_s", offset_s, RF_REAL),
	FIELD(T, "offset_u_s", offset_u_s, RF_REAL),
	FIELD(T, "correlation", correlation, RF_REAL),
	FIELD(T, "alignment", alignment, RF_STR),
	FIELD(T, "alignment_note", alignment_note, RF_STR),
	FIELD(T, "marker_input", marker_input, RF_STR),
	FIELD(T, "marker_edges", marker_edges, RF_U64),
	FIELD(T, "drift_ppm", drift_ppm, RF_REAL),
	FIELD(T, "correlation_offset_s", correlation_offset_s, RF_REAL),
	FIELD(T, "idle_w", idle_w, RF_REAL),
	FIELD(T, "idle_w_u95", idle_w_u95, RF_REAL),
	FIELD(T, "residual_rms_w", residual_rms_w, RF_REAL),
	FIELD(T, "inflation", inflation, RF_REAL),
	OP_COST_FIELDS(T)
	FIELD(T, "reads", reads, RF_U64),
	FIELD(T, "writes", writes, RF_U64),
	FIELD(T, "flushes", flushes, RF_U64),
	FIELD(T, "trace_of", trace_of, RF_STR),
	LIST(T, "trace", trace, ntrace, RF_ARRAY, .sub = &trace_point_schema),
	FIELD(T, "model", model, RF_PTR, .sub = &energy_model_schema),
	FIELD(T, "agrees_with_model", agrees_with_model, RF_TRI),
	FIELD(T, "check_kind", check_kind, RF_STR),
	FIELD(T, "difference_uj", difference_uj, RF_REAL),
	FIELD(T, "combined_u95_uj", combined_u95_uj, RF_REAL),
	FIELD(T, "in_step_share", in_step_share, RF_REAL),
	FIELD(T, "ops_energy_uj", ops_energy_uj, RF_REAL),
	FIELD(T, "ops_energy_uj_u95", ops_energy_uj_u95, RF_REAL),
	FIELD(T, "above_idle_uj", above_idle_uj, RF_REAL),
	FIELD(T, "above_idle_uj_u95", above_idle_uj_u95, RF_REAL),
	FIELD(T, "agrees_with_trace", agrees_with_trace, RF_TRI),
};
#undef T
static SCHEMA(event_locked_schema, struct result_event_locked, event_locked_fields);

#define T struct result_power
static const struct result_field power_fields[] = {
	FIELD(T, "meter", meter, RF_STR),
	FIELD(T, "estimator", estimator, RF_STR, .absent = RF_OMIT),
	RESULT_POWER_FIGURES(FIGURE)
	FIELD(T, "note", note, RF_STR, .absent = RF_OMIT),
	FIELD(T, "out_of_range", out_of_range, RF_OBJ, .sub = &phase_counts_schema),
	FIELD(T, "idle_baseline", idle_baseline, RF_PTR, .sub = &idle_baseline_schema),
	FIELD(T, "energy_model", energy_model, RF_PTR, .sub = &energy_model_schema,
	      .absent = RF_OMIT),
	FIELD(T, "event_locked", event_locked, RF_PTR, .sub = &event_locked_schema,
	      .absent = RF_OMIT),
	FIELD(T, "idle_ma_stats", idle_ma_stats, RF_PTR, .sub = &ma_stats_schema,
	      .absent = RF_OMIT),
	FIELD(T, "active_ma_stats", active_ma_stats, RF_PTR, .sub = &ma_stats_schema,
	      .absent = RF_OMIT),
	FIELD(T, "tail_ma_stats", tail_ma_stats, RF_PTR, .sub = &ma_stats_schema,
	      .absent = RF_OMIT),
};
#undef T
SCHEMA(result_power_schema, struct result_power, power_fields);

#define T struct result_efficiency
static const struct result_field efficiency_fields[] = {
	RESULT_EFFICIENCY_FIGURES(FIGURE)
};
#undef T
SCHEMA(result_efficiency_schema, struct result_efficiency, efficiency_fields);

#define T struct result_unc_budget
static const struct result_field budget_fields[] = {
	FIELD(T, "gain", gain, RF_REAL),
	FIELD(T, "offset", offset, RF_REAL),
	FIELD(T, "resolution", resolution, RF_REAL),
	FIELD(T, "noise", noise, RF_REAL),
	FIELD(T, "discretisation", discretisation, RF_REAL),
	FIELD(T, "baseline", baseline, RF_REAL),
	FIELD(T, "sampling", sampling, RF_REAL),
};
#undef T
static SCHEMA(budget_schema, struct result_unc_budget, budget_fields);

#define T struct result_uncertainty
static const struct result_field uncertainty_fields[] = {
	FIELD(T, "figure", figure, RF_STR),
	FIELD(T, "u95_rel", u95_rel, RF_REAL),
	FIELD(T, "limit", limit, RF_REAL),
	FIELD(T, "dominant", dominant, RF_STR),
	FIELD(T, "budget", budget, RF_OBJ, .sub = &budget_schema),
};
#undef T
static SCHEMA(uncertainty_schema, struct result_uncertainty, uncertainty_fields);

#define T struct result_validity
static const struct result_field validity_fields[] = {
	FIELD(T, "valid", valid, RF_BOOL),
	FIELD(T, "coverage", coverage, RF_REAL),
	FIELD(T, "samples_active", samples_active, RF_U64),
	LIST(T, "reasons", reasons, nreasons, RF_STRS),
	FIELD(T, "emulated", emulated, RF_BOOL),
	FIELD(T, "manual", manual, RF_BOOL),
	FIELD(T, "uncertain", uncertain, RF_BOOL),
	FIELD(T, "uncertainty", uncertainty, RF_PTR, .sub = &uncertainty_schema,
	      .absent = RF_OMIT),
};
#undef T
SCHEMA(result_validity_schema, struct result_validity, validity_fields);

#define T struct result_meter_figures
static const struct result_field figures_fields[] = {
	FIELD(T, "spec", spec, RF_STR),
	FIELD(T, "power", power, RF_OBJ, .sub = &result_power_schema),
	FIELD(T, "efficiency", efficiency, RF_OBJ, .sub = &result_efficiency_schema),
	FIELD(T, "validity", validity, RF_OBJ, .sub = &result_validity_schema),
};
#undef T
static SCHEMA(figures_schema, struct result_meter_figures, figures_fields);

#define T struct result_temp
static const struct result_field temp_fields[] = {
	FIELD(T, "start", start, RF_REAL),
	FIELD(T, "end", end, RF_REAL),
	FIELD(T, "max", max, RF_REAL),
};
#undef T
static SCHEMA(temp_schema, struct result_temp, temp_fields);

#define T struct result_temps
static const struct result_field temps_fields[] = {
	FIELD(T, "soc_c", soc_c, RF_OBJ, .sub = &temp_schema),
	FIELD(T, "drive_c", drive_c, RF_OBJ, .sub = &temp_schema),
};
#undef T
static SCHEMA(temps_schema, struct result_temps, temps_fields);

#define T struct result_cpu
static const struct result_field cpu_fields[] = {
	FIELD(T, "threads", threads, RF_UINT),
	FIELD(T, "cpu_s", cpu_s, RF_REAL),
	FIELD(T, "user_s", user_s, RF_REAL),
	FIELD(T, "sys_s", sys_s, RF_REAL),
	FIELD(T, "per_io_us", per_io_us, RF_REAL),
	FIELD(T, "process_s", process_s, RF_REAL),
};
#undef T
static SCHEMA(cpu_schema, struct result_cpu, cpu_fields);

#define T struct result_calib_try
static const struct result_field calib_try_fields[] = {
	FIELD(T, "wait_s", wait_s, RF_REAL),
	FIELD(T, "seconds", seconds, RF_REAL),
	FIELD(T, "bytes", bytes, RF_U64),
	FIELD(T, "ios", ios, RF_U64),
	FIELD(T, "rate_bytes_per_s", rate_bytes_per_s, RF_REAL),
	FIELD(T, "rejected", rejected, RF_STR),
};
#undef T
static SCHEMA(calib_try_schema, struct result_calib_try, calib_try_fields);

#define T struct result_size_auto
static const struct result_field size_auto_fields[] = {
	FIELD(T, "requested_s", requested_s, RF_REAL),
	FIELD(T, "meter_s", meter_s, RF_REAL),
	FIELD(T, "target_s", target_s, RF_REAL),
	FIELD(T, "meter", meter, RF_STR),
	FIELD(T, "calibration_s", calibration_s, RF_REAL),
	FIELD(T, "calibration_bytes", calibration_bytes, RF_U64),
	FIELD(T, "rate_bytes_per_s", rate_bytes_per_s, RF_REAL),
	FIELD(T, "size", size, RF_U64),
	FIELD(T, "extent", extent, RF_U64),
	FIELD(T, "from", from, RF_STR),
	FIELD(T, "reason", reason, RF_STR),
	FIELD(T, "expected_s", expected_s, RF_REAL),
	FIELD(T, "job_s", job_s, RF_REAL),
	FIELD(T, "job_rate_bytes_per_s", job_rate_bytes_per_s, RF_REAL),
	FIELD(T, "reference_rate_bytes_per_s", reference_rate_bytes_per_s, RF_REAL),
	FIELD(T, "reference", reference, RF_STR),
	LIST(T, "tries", tries, ntries, RF_ARRAY, .sub = &calib_try_schema, .absent = RF_OMIT),
	FIELD(T, "note", note, RF_STR),
	FIELD(T, "retake", retake, RF_STR, .absent = RF_OMIT),
};
#undef T
static SCHEMA(size_auto_schema, struct result_size_auto, size_auto_fields);

#define T struct result_model_forecast
static const struct result_field model_forecast_fields[] = {
	FIELD(T, "read_uj_per_op", read_uj_per_op, RF_REAL),
	FIELD(T, "write_uj_per_op", write_uj_per_op, RF_REAL),
	FIELD(T, "flush_uj_per_op", flush_uj_per_op, RF_REAL),
	FIELD(T, "costs_from", costs_from, RF_STR),
	FIELD(T, "read_uj_per_op_u95", read_uj_per_op_u95, RF_REAL),
	FIELD(T, "write_uj_per_op_u95", write_uj_per_op_u95, RF_REAL),
	FIELD(T, "flush_uj_per_op_u95", flush_uj_per_op_u95, RF_REAL),
	FIELD(T, "sum_of", sum_of, RF_STR),
	FIELD(T, "sum_uj_per_op_u95", sum_uj_per_op_u95, RF_REAL),
	FIELD(T, "u95_rel", u95_rel, RF_REAL),
	FIELD(T, "uncertain", uncertain, RF_BOOL),
	FIELD(T, "need_ios", need_ios, RF_U64),
	FIELD(T, "noise_w", noise_w, RF_REAL),
	FIELD(T, "noise_assumed", noise_assumed, RF_BOOL),
	FIELD(T, "readings", readings, RF_U64),
	FIELD(T, "readings_with_ops", readings_with_ops, RF_U64),
	FIELD(T, "in_step_phases", in_step_phases, RF_U64, .absent = RF_OMIT_ZERO),
	FIELD(T, "misfit", misfit, RF_REAL),
	FIELD(T, "misfit_assumed", misfit_assumed, RF_BOOL),
	FIELD(T, "window_s", window_s, RF_REAL),
	FIELD(T, "hold_s", hold_s, RF_REAL),
	FIELD(T, "lag_s", lag_s, RF_REAL),
	FIELD(T, "window_assumed", window_assumed, RF_BOOL),
};
#undef T
static SCHEMA(model_forecast_schema, struct result_model_forecast, model_forecast_fields);

#define T struct result_meter_fit
static const struct result_field meter_fit_fields[] = {
	FIELD(T, "verdict", verdict, RF_STR),
	FIELD(T, "meter_period_s", meter_period_s, RF_REAL),
	FIELD(T, "pattern", pattern, RF_STR),
	FIELD(T, "activity_hz", activity_hz, RF_REAL),
	FIELD(T, "bursts", bursts, RF_U64),
	FIELD(T, "duration_s", duration_s, RF_REAL),
	FIELD(T, "samples", samples, RF_REAL),
	FIELD(T, "bursts_u95_rel", bursts_u95_rel, RF_REAL),
	FIELD(T, "why", why, RF_STR),
	FIELD(T, "fix", fix, RF_STR),
	FIELD(T, "model", model, RF_PTR, .sub = &model_forecast_schema, .absent = RF_OMIT),
};
#undef T
static SCHEMA(meter_fit_schema, struct result_meter_fit, meter_fit_fields);

#define T struct result_temp_sample
static const struct result_field temp_sample_fields[] = {
	FIELD(T, "t_ns", t_ns, RF_U64),
	FIELD(T, "soc_c", soc_c, RF_REAL),
	FIELD(T, "drive_c", drive_c, RF_REAL),
};
#undef T
static SCHEMA(temp_sample_schema, struct result_temp_sample, temp_sample_fields);

#define T struct result_health_change
static const struct result_field health_change_fields[] = {
	FIELD(T, "key", key, RF_STR),
	FIELD(T, "start", start, RF_I64),
	FIELD(T, "end", end, RF_I64),
};
#undef T
static SCHEMA(health_change_schema, struct result_health_change, health_change_fields);

#define T struct result_wear
static const struct result_field wear_fields[] = {
	FIELD(T, "device", device, RF_STR),
	FIELD(T, "job_bytes", job_bytes, RF_U64),
	FIELD(T, "device_bytes", device_bytes, RF_I64),
	FIELD(T, "write_amplification", write_amplification, RF_REAL),
	FIELD(T, "smart_bytes", smart_bytes, RF_I64),
	FIELD(T, "span_s", span_s, RF_REAL),
	LIST(T, "health_changes", health_changes, nhealth_changes, RF_ARRAY,
	     .sub = &health_change_schema),
	FIELD(T, "note", note, RF_STR),
};
#undef T
static SCHEMA(wear_schema, struct result_wear, wear_fields);

#define T struct job_result
#define OPT(K, M, TYPE, SUB) FIELD(T, K, M, TYPE, .sub = SUB, .absent = RF_OMIT)
static const struct result_field job_fields[] = {
	FIELD(T, "jobname", jobname, RF_STR),
	FIELD(T, "round", round, RF_UINT),
	FIELD(T, "loop", loop, RF_UINT),
	STATUS(T, status),
	FIELD(T, "error", error, RF_STR),
	LIST(T, "options", options, noptions, RF_OPTS, .absent = RF_OMIT),
	OPT("read", read, RF_PTR, &dir_schema),
	OPT("write", write, RF_PTR, &dir_schema),
	OPT("sync", sync, RF_PTR, &sync_schema),
	LIST(T, "command", command, ncommand, RF_STRS, .absent = RF_OMIT),
	FIELD(T, "io_source", io_source, RF_STR, .absent = RF_OMIT),
	OPT("phases", phases, RF_PTR, &phases_schema),
	OPT("exit_status", exit_status, RF_I64, NULL),
	OPT("exit_signal", exit_signal, RF_I64, NULL),
	OPT("descendants", descendants, RF_PTR, &descendants_schema),
	OPT("marker", marker, RF_PTR, &marker_schema),
	LIST(T, "events", events, nevents, RF_ARRAY, .sub = &event_schema, .absent = RF_OMIT),
	OPT("power", power, RF_PTR, &result_power_schema),
	OPT("efficiency", efficiency, RF_PTR, &result_efficiency_schema),
	OPT("validity", validity, RF_PTR, &result_validity_schema),
	LIST(T, "meters", meters, nmeters, RF_ARRAY, .sub = &figures_schema, .absent = RF_OMIT),
	OPT("temperatures", temperatures, RF_PTR, &temps_schema),
	OPT("cpu", cpu, RF_PTR, &cpu_schema),
	OPT("size_auto", size_auto, RF_PTR, &size_auto_schema),
	OPT("meter_fit", meter_fit, RF_PTR, &meter_fit_schema),
	FIELD(T, "pace", pace, RF_STR, .absent = RF_OMIT),
	OPT("wear", wear, RF_PTR, &wear_schema),
};
#undef OPT
#undef T
SCHEMA(result_job_schema, struct job_result, job_fields);

#define T struct result_stat
static const struct result_field stat_fields[] = {
	FIELD(T, "n", n, RF_U64),
	FIELD(T, "mean", mean, RF_REAL),
	FIELD(T, "stddev", stddev, RF_REAL),
	FIELD(T, "cv", cv, RF_REAL),
	FIELD(T, "min", min, RF_REAL),
	FIELD(T, "max", max, RF_REAL),
	FIELD(T, "ci95_lo", ci95_lo, RF_REAL),
	FIELD(T, "ci95_hi", ci95_hi, RF_REAL),
	FIELD(T, "u95", u95, RF_REAL),
};
#undef T
static SCHEMA(stat_schema, struct result_stat, stat_fields);

#define T struct result_summary_figures
#define STAT(M, KIND) RESULT_IF_STATS(KIND, FIELD(T, #M, M, RF_OBJ, .sub = &stat_schema), )
static const struct result_field summary_figures_fields[] = {
	RESULT_JOB_FIGURES(STAT)
	RESULT_POWER_FIGURES(STAT)
	RESULT_EFFICIENCY_FIGURES(STAT)
};
#undef STAT
#undef T
static SCHEMA(summary_figures_schema, struct result_summary_figures, summary_figures_fields);
/* Members of the summary or of efficiency that are not rows of the table stay out of the file. */
_Static_assert(ARRAY_SIZE(summary_figures_fields) == RESULT_NSTATS(RESULT_JOB_FIGURES) +
		       RESULT_NSTATS(RESULT_POWER_FIGURES) + RESULT_NSTATS(RESULT_EFFICIENCY_FIGURES) &&
	       sizeof(struct result_summary_figures) ==
		       ARRAY_SIZE(summary_figures_fields) * sizeof(struct result_stat),
	       "struct result_summary_figures: a statistic outside the figure table");
_Static_assert(sizeof(struct result_efficiency) == ARRAY_SIZE(efficiency_fields) * sizeof(double),
	       "struct result_efficiency: a member outside the figure table");

#define T struct result_steady
static const struct result_field steady_fields[] = {
	FIELD(T, "metric", metric, RF_STR),
	FIELD(T, "reached", reached, RF_BOOL),
	FIELD(T, "first_round", first_round, RF_UINT),
	FIELD(T, "last_round", last_round, RF_UINT),
	FIELD(T, "mean", mean, RF_REAL),
	FIELD(T, "range_rel", range_rel, RF_REAL),
	FIELD(T, "slope_rel", slope_rel, RF_REAL),
};
#undef T
static SCHEMA(steady_schema, struct result_steady, steady_fields);

#define T struct result_job_summary
static const struct result_field job_summary_fields[] = {
	FIELD(T, "jobname", jobname, RF_STR),
	FIELD(T, "entries", entries, RF_UINT),
	FIELD(T, "valid", valid, RF_UINT),
	FIELD(T, "invalid", invalid, RF_UINT),
	FIELD(T, "figures", figures, RF_OBJ, .sub = &summary_figures_schema),
	FIELD(T, "steady", steady, RF_PTR, .sub = &steady_schema, .absent = RF_OMIT),
};
#undef T
static SCHEMA(job_summary_schema, struct result_job_summary, job_summary_fields);

#define T struct result_device_model
static const struct result_field device_model_fields[] = {
	FIELD(T, "meter", meter, RF_STR),
	FIELD(T, "bs", bs, RF_U64),
	FIELD(T, "direct", direct, RF_BOOL),
	FIELD(T, "writes_per_flush", writes_per_flush, RF_U64),
	FIELD(T, "jobs", jobs, RF_U64),
	FIELD(T, "readings", readings, RF_U64),
	FIELD(T, "reads", reads, RF_U64),
	FIELD(T, "writes", writes, RF_U64),
	FIELD(T, "flushes", flushes, RF_U64),
	FIELD(T, "verdict", verdict, RF_STR),
	FIELD(T, "why", why, RF_STR),
	OP_COST_FIELDS(T)
	FIELD(T, "misfit", misfit, RF_REAL),
};
#undef T
SCHEMA(result_device_model_schema, struct result_device_model, device_model_fields);

#define T struct run_result
static const struct result_field run_fields[] = {
	FIELD(T, "schema_version", schema_version, RF_INT),
	FIELD(T, "tool", tool, RF_OBJ, .sub = &result_tool_schema),
	FIELD(T, "created", created, RF_STR),
	FIELD(T, "command", command, RF_STR),
	FIELD(T, "profile", profile, RF_STR, .absent = RF_OMIT),
	FIELD(T, "label", label, RF_STR, .absent = RF_OMIT),
	STATUS(T, status),
	FIELD(T, "t0_ns", t0_ns, RF_U64),
	FIELD(T, "emulated", emulated, RF_BOOL),
	FIELD(T, "context", context, RF_PTR, .sub = &result_context_schema, .absent = RF_EMPTY_OBJ),
	LIST(T, "meters", meters, nmeters, RF_ARRAY, .sub = &result_meter_schema),
	FIELD(T, "files", files, RF_OBJ, .sub = &files_schema),
	LIST(T, "jobs", jobs, njobs, RF_ARRAY, .sub = &result_job_schema),
	LIST(T, "summary", summary, nsummary, RF_ARRAY, .sub = &job_summary_schema,
	     .absent = RF_OMIT),
	FIELD(T, "manual", manual, RF_BOOL),
	LIST(T, "events", events, nevents, RF_ARRAY, .sub = &event_schema, .absent = RF_OMIT),
	LIST(T, "temperature_series", temp_series, ntemp_series, RF_ARRAY,
	     .sub = &temp_sample_schema, .absent = RF_OMIT),
	LIST(T, "energy_models", energy_models, nenergy_models, RF_ARRAY,
	     .sub = &result_device_model_schema, .absent = RF_OMIT),
};
#undef T
SCHEMA(result_run_schema, struct run_result, run_fields);
