/* SPDX-License-Identifier: MIT */
/* The emulator's current model: idle, per-MB/s, per-kIOPS and per-operation costs, steps, cable sag. */
#ifndef IOWATT_EMULATE_H
#define IOWATT_EMULATE_H

#include <stddef.h>
#include <stdint.h>

/* The kinds of operation a charge can be set for: read, write, flush. */
enum { EMU_OP_READ, EMU_OP_WRITE, EMU_OP_FLUSH, EMU_OP_KINDS };

struct emu_step {
	double t_s; /* seconds since the emulator started */
	double ma;
};

struct emu_model {
	double idle_ma, ma_per_mbps, ma_per_kiops, cap_ma;
	/* A device with a lower idle state: after sleep_after_s without I/O it draws sleep_ma
	 * instead of idle_ma (0: never), and the first I/O after it costs wake_ma more for
	 * wake_ms. */
	double sleep_after_s, sleep_ma, wake_ma, wake_ms;
	uint64_t last_io_ns, wake_until_ns;
	int asleep;
	/* A known charge per completed read, write and flush (uC), drawn over the update that
	 * sees it complete (what the cap holds back over the next ones, op_owed_uc): the
	 * truth a per-operation fit is judged against. */
	double uc_per_op[EMU_OP_KINDS];
	double op_owed_uc;
	double volts, cable_ohms; /* source voltage, resistance of cable and connectors */
	double constant_ma;	  /* >= 0: fixed current */
	struct emu_step *steps;	  /* or time-based steps */
	size_t nsteps;
	char device[64];	  /* else follow this block device's activity */
	/* /proc/diskstats state */
	uint64_t prev_sectors, prev_ios, prev_ns, prev_ops[EMU_OP_KINDS];
	int have_prev;
	double mbps, kiops, op_ma;
};

/* "0:100,5:400,10:100" (seconds:mA, increasing times); -EINVAL with a reason. */
int emu_parse_steps(const char *s, struct emu_step **out, size_t *n, char *why, size_t len);
/* The whole-disk name holding the current directory ("sda"), via /sys/dev/block. */
int emu_cwd_device(char *buf, size_t len);
/* Sectors (512 B) read+written, I/Os completed and completions per kind (ops: may be NULL)
 * for dev; -ENOENT if not listed. */
int emu_diskstats(const char *dev, uint64_t *sectors, uint64_t *ios, uint64_t *ops);
/* The mA that draws *owed_uc over dt_s beside base_ma without passing cap_ma; what
 * stays owed is left in *owed_uc (drawn at the next update). */
double emu_op_draw_ma(double *owed_uc, double dt_s, double base_ma, double cap_ma);
/* Amps at t_s (since start); now_ns for the activity rates. */
double emu_model_amps(struct emu_model *m, double t_s, uint64_t now);
double emu_model_volts(const struct emu_model *m, double amps);

#endif
