/* SPDX-License-Identifier: MIT */
/* The metrics compare ranks and prints: each one's key, unit, direction and where its figure is. */
#include <ctype.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "core/mem.h"
#include "core/si_units.h"
#include "core/units.h"

/* Total latency (fio's lat); clat only for rows from results that have no total. */
static double p99_lat_ns(const struct job_result *j)
{
	return rr_lat_ns(j, 99);
}

static double p99_clat_ns(const struct job_result *j)
{
	return rr_clat_ns(j, 99);
}

/* Has a completion latency but no total: a result written before lat_ns. */
static int no_lat(const struct job_result *j)
{
	return !rr_has_lat(j) && !isnan(rr_clat_ns(j, 99));
}

static int mixed_lat(const struct job_result *j)
{
	return rr_mixed(j) && rr_has_lat(j);
}

static int mixed_no_lat(const struct job_result *j)
{
	return rr_mixed(j) && no_lat(j);
}

/* A mixed job's directions apart, and a synced job's sync calls (fio's "sync"). */
static double read_iops(const struct job_result *j)
{
	return rr_dir_iops(j, 0);
}

static double write_iops(const struct job_result *j)
{
	return rr_dir_iops(j, 1);
}

static double read_p99_ns(const struct job_result *j)
{
	return rr_dir_lat_ns(j, 0, 99);
}

static double write_p99_ns(const struct job_result *j)
{
	return rr_dir_lat_ns(j, 1, 99);
}

static double read_p99_clat_ns(const struct job_result *j)
{
	return rr_dir_clat_ns(j, 0, 99);
}

static double write_p99_clat_ns(const struct job_result *j)
{
	return rr_dir_clat_ns(j, 1, 99);
}

static double sync_p99_ns(const struct job_result *j)
{
	return rr_sync_lat_ns(j, 99);
}

static int has_soc_c(const struct job_result *j)
{
	return !isnan(rr_soc_max_c(j));
}

static int has_drive_c(const struct job_result *j)
{
	return !isnan(rr_drive_max_c(j));
}

/* A figure of widely varying size (IOPS/mA of 4 KiB and of 16 MiB records): digits. */
#define SIG(n) NULL, n
#define FMT(f) f, 0
#define JOB(k, h, fn, sc, f, lb, br) { k, h, FROM_JOB, 0, fn, sc, f, lb, br, NULL, NULL, 0, NULL }
#define WHEN(k, h, fn, sc, f, lb, when)                                                     \
	{ k, h, FROM_JOB, 0, fn, sc, f, lb, 0, NULL, when, 0, NULL }
#define POWER(k, h, field, sc, f, lb, br, pw, u)                                            \
	{ k, h, FROM_POWER, offsetof(struct result_power, field), NULL, sc, f, lb, br, pw, NULL, \
	  offsetof(struct result_power, field##_u95), u }
#define EFF(k, h, field, sc, f, lb, br, pw, u)                                              \
	{ k, h, FROM_EFF, offsetof(struct result_efficiency, field), NULL, sc, f, lb, br, pw,    \
	  NULL, offsetof(struct result_efficiency, field##_u95), u }

/* Units of the power figures: W, mA and J/GB printed 0.003, 1 and 0.0 for a sleep current. */
static const struct compare_unit u_active_w = { SI_POWER, 1, "%s", "active_%s" };
static const struct compare_unit u_active_ma = { SI_CURRENT, 1e-3, "%s", "active_%s" };
static const struct compare_unit u_idle_w = { SI_POWER, 1, "idle %s", "idle_%s" };
static const struct compare_unit u_j_per_gb = { SI_ENERGY, 1, "%s/GB", "%s_per_gb" };
static const struct compare_unit u_j_per_gb_net = { SI_ENERGY, 1, "%s/GB net", "%s_per_gb_net" };
static const struct compare_unit u_uj_per_io = { SI_ENERGY, 1e-6, "%s/IO", "%s_per_io" };
static const struct compare_unit u_uah_per_io = { SI_CHARGE, 1e-6, "%s/IO", "%s_per_io" };
static const struct compare_unit u_uah_per_mb = { SI_CHARGE, 1e-6, "%s/MB", "%s_per_mb" };

const struct compare_column compare_columns[] = {
	JOB("bw_bytes", "MB/s", rr_bw_bytes, 1e-6, FMT("%.1f"), 0, 1),
	JOB("iops", "IOPS", rr_iops, 1, FMT("%.0f"), 0, 1),
	JOB("lat_p99_ns", "p99 lat ms", p99_lat_ns, 1e-6, FMT("%.2f"), 1, 1),
	WHEN("clat_p99_ns", "p99 clat ms", p99_clat_ns, 1e-6, FMT("%.2f"), 1, no_lat),
	WHEN("read_iops", "r IOPS", read_iops, 1, SIG(3), 0, rr_mixed),
	WHEN("write_iops", "w IOPS", write_iops, 1, SIG(3), 0, rr_mixed),
	WHEN("read_lat_p99_ns", "r p99 lat ms", read_p99_ns, 1e-6, FMT("%.2f"), 1, mixed_lat),
	WHEN("write_lat_p99_ns", "w p99 lat ms", write_p99_ns, 1e-6, FMT("%.2f"), 1, mixed_lat),
	WHEN("read_clat_p99_ns", "r p99 clat ms", read_p99_clat_ns, 1e-6, FMT("%.2f"), 1,
	     mixed_no_lat),
	WHEN("write_clat_p99_ns", "w p99 clat ms", write_p99_clat_ns, 1e-6, FMT("%.2f"), 1,
	     mixed_no_lat),
	WHEN("sync_lat_p99_ns", "sync p99 ms", sync_p99_ns, 1e-6, FMT("%.2f"), 1, rr_syncs),
	POWER("active_w", "W", active_w, 1, SIG(3), 1, 1, NULL, &u_active_w),
	POWER("active_ma", "mA", active_ma, 1, SIG(3), 1, 1, "active_w", &u_active_ma),
	POWER("idle_w", "idle W", idle_w, 1, SIG(3), 1, 0, NULL, &u_idle_w),
	EFF("iops_per_ma", "IOPS/mA", iops_per_ma, 1, SIG(3), 0, 1, "iops_per_w", NULL),
	EFF("iops_per_w", "IOPS/W", iops_per_w, 1, SIG(4), 0, 0, NULL, NULL),
	EFF("mbps_per_w", "MB/s/W", mbps_per_w, 1, SIG(3), 0, 0, NULL, NULL),
	EFF("j_per_gb", "J/GB", j_per_gb, 1, SIG(3), 1, 1, NULL, &u_j_per_gb),
	EFF("j_per_gb_net", "J/GB net", j_per_gb_net, 1, SIG(3), 1, 0, NULL, &u_j_per_gb_net),
	EFF("uj_per_io", "uJ/IO", uj_per_io, 1, SIG(4), 1, 0, NULL, &u_uj_per_io),
	EFF("uah_per_io", "uAh/IO", uah_per_io, 1, SIG(4), 1, 0, "uj_per_io", &u_uah_per_io),
	EFF("uah_per_mb", "uAh/MB", uah_per_mb, 1, SIG(4), 1, 0, "j_per_gb", &u_uah_per_mb),
	WHEN("soc_c_max", "SoC C", rr_soc_max_c, 1, FMT("%.1f"), 1, has_soc_c),
	WHEN("drive_c_max", "disk C", rr_drive_max_c, 1, FMT("%.1f"), 1, has_drive_c),
};

const size_t compare_ncolumns = ARRAY_SIZE(compare_columns);

#define P99_COLUMN (&compare_columns[2])

double compare_value(const struct compare_column *c, const struct job_result *j)
{
	const void *obj;

	if (c->from == FROM_JOB)
		return c->fn(j);
	obj = c->from == FROM_POWER ? (const void *)rr_power(j) : (const void *)rr_eff(j);
	return *(const double *)(const void *)((const char *)obj + c->off);
}

const struct compare_column *compare_column_find(const char *key)
{
	size_t i;

	for (i = 0; i < compare_ncolumns; i++)
		if (!strcmp(compare_columns[i].key, key))
			return &compare_columns[i];
	if (!strcmp(key, "p99"))
		return P99_COLUMN;
	return NULL;
}

/* A value as table and markdown print it; "-" when missing. */
void compare_format_value(const struct compare_column *c, double v, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (!c->fmt)
		fmt_sig(v * c->scale, c->sig, buf, len);
	else
		snprintf(buf, len, c->fmt, v * c->scale);
}

void compare_cell(const struct compare_column *c, const struct job_result *j, char *buf,
		  size_t len)
{
	compare_format_value(c, compare_value(c, j), buf, len);
}

void compare_format_in(const struct compare_column *c, const struct si_unit *u, double v,
		       char *buf, size_t len)
{
	struct si_unit own;

	if (!c->unit || isnan(v)) {
		compare_format_value(c, v, buf, len);
		return;
	}
	if (!u) {
		own = compare_column_unit(c, &v, 1);
		u = &own;
	}
	si_fmt(u, v * c->unit->to_base, c->sig, buf, len);
}

struct si_unit compare_column_unit(const struct compare_column *c, const double *v, size_t n)
{
	double *base = xcalloc(n + 1, sizeof(*base));
	struct si_unit u;
	size_t i;

	for (i = 0; i < n; i++)
		base[i] = v[i] * c->unit->to_base;
	u = si_unit_for(c->unit->q, base, n);
	free(base);
	return u;
}

void compare_column_head(const struct compare_column *c, const struct si_unit *u, char *buf,
			 size_t len)
{
	if (c->unit && u)
		snprintf(buf, len, c->unit->head_fmt, u->text);
	else
		snprintf(buf, len, "%s", c->head);
}

void compare_column_key(const struct compare_column *c, const struct si_unit *u, char *buf,
			size_t len)
{
	char unit[sizeof(u->ascii)];
	size_t i;

	if (!c->unit || !u) {
		snprintf(buf, len, "%s", c->key);
		return;
	}
	for (i = 0; i + 1 < sizeof(unit) && u->ascii[i]; i++)
		unit[i] = (char)tolower((unsigned char)u->ascii[i]);
	unit[i] = '\0';
	snprintf(buf, len, c->unit->key_fmt, unit);
}

double compare_in_unit(const struct compare_column *c, const struct si_unit *u, double v)
{
	return c->unit && u ? v * c->unit->to_base * u->per_base : v;
}
