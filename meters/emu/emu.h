/* SPDX-License-Identifier: MIT */
/* The emulator core: a pty at a link, the current model, faults, truth log; protocols plug in. */
#ifndef IOWATT_EMU_H
#define IOWATT_EMU_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct emu;
struct opt_desc;
struct meter_accuracy;
struct meter_entry;

/*
 * One emulated meter, as data plus the hooks of the protocol it speaks (the meter
 * family's folder holds it, next to the driver: meters/um/um_emu.c). The core owns the
 * pty, the link, the current model, the truth log and the faults: during a stall it
 * neither passes the host's bytes on nor calls push(); during a hang-up there is no pty.
 */
struct emu_protocol {
	const char *name;    /* "um25c": `iowatt emulate NAME`, and the spec's driver unless: */
	const char *driver;  /* the spec's driver where it differs ("atorch" for atorch-dc) */
	const char *title;   /* "UM25C": the banner's and the registry's model */
	const char *summary; /* one line for the usage text */
	unsigned spec_vdd_max_mv; /* not 0: the banner's spec gives vdd= (mV) from --volts, up to this (PPK2) */
	uint64_t push_ns;    /* a meter that reports on its own this often; 0: it answers */
	/* Bytes the host wrote; replies go out with emu_write(). */
	void (*input)(struct emu *e, const uint8_t *buf, size_t n, uint64_t now);
	/* A pushing meter's report, every push_ns. */
	void (*push)(struct emu *e, uint64_t now);
	const void *data; /* the protocol's own row (a struct um_model) */
	/* What the meter's datasheet declares (its driver's model row): --noise draws its
	 * errors from it. NULL: --noise is refused. */
	const struct meter_accuracy *accuracy;
};

/* The i-th emulator of meters (meters/registry/registry.h), in row order; NULL past the
 * last. */
const struct emu_protocol *meter_emulator(const struct meter_entry *meters, size_t i);
/* The emulator of meters called name (`iowatt emulate NAME`), or NULL. */
const struct emu_protocol *emu_protocol_find(const struct meter_entry *meters, const char *name);

/* What the emulated meter measures: its last internal update and running totals. */
struct emu_reading {
	double v, a;
	double mah, mwh;
	double elapsed_s; /* since the emulator started */
};

/* Services for protocols. */
const struct emu_protocol *emu_proto(const struct emu *e);
/* What the meter reads now: the model's values, with the datasheet's errors under --noise
 * (then v and a are no longer the truth, which the truth log keeps). */
void emu_reading(struct emu *e, uint64_t now, struct emu_reading *r);
/* The model's amps at t_ns. A model that follows the device's completions prices each
 * in the update interval that saw it (the first update at or after t_ns), so a 1 ms
 * operation is 1 ms at its charge; a constant or stepped one holds each update's value
 * from then on. A meter that sends many samples at once gives each its own time's
 * current, not all the send's. */
double emu_amps_at(const struct emu *e, uint64_t t_ns);
/* Until when the current is known at now: the last update for a model that prices the
 * past, else now; never later than now less --hold-ms (a meter that sends late). */
uint64_t emu_known_until_ns(const struct emu *e, uint64_t now);
/* The digital inputs at t_ns (calls in time order; 0 without --logic-wire), after
 * emu_logic_poll() read what the wire's file gained (once per report). */
uint8_t emu_logic_at(struct emu *e, uint64_t t_ns);
void emu_logic_poll(struct emu *e);
/* 1 if this reply is to be broken (--corrupt-pct), counted; the protocol picks how. */
int emu_corrupt(struct emu *e);
/* A uniform number in [0, 1) from the --seed sequence. */
double emu_rand(struct emu *e);
/* One reply or report to the host, counted. */
void emu_write(struct emu *e, const void *buf, size_t n);
/* As much of buf as the pty takes now, without waiting: the count written. A streaming
 * meter keeps the rest, as a device's buffer does while the host is slow. */
size_t emu_write_some(struct emu *e, const void *buf, size_t n);
/*
 * The protocol's own state, size bytes, zeroed on first use and again each time the pty
 * comes back after a hang-up (the meter was re-plugged).
 */
void *emu_priv(struct emu *e, size_t size);
/* A truth-log line: t_ns,v,a,w,kind (update, reply, corrupt, resync...). */
void emu_truth(struct emu *e, uint64_t t_ns, double v, double a, double w, const char *kind);

/*
 * What the command's signal handlers tell the run: stop (SIGINT/SIGTERM, its number),
 * and a stall (SIGUSR1) or a hang-up (SIGUSR2) to start now, which the run takes and
 * clears. Signals put faults in the order of what a test has seen, not at fixed times.
 */
struct emu_signals {
	volatile sig_atomic_t stop;
	volatile sig_atomic_t stall, hangup;
};

/*
 * `iowatt emulate` (src/cli/cmd_emulate.c): argv, parsed as line says (its options are
 * emu_options()) -> an emulator of one of meters' emulators, 1 after printing help, or
 * -EINVAL after naming the option. emu_run() serves
 * until the duration ends or sig->stop is set: 0 or -errno.
 */
struct cmdline;
int emu_from_args(const struct meter_entry *meters, const struct cmdline *line, int argc,
		  char **argv, struct emu **out);
int emu_run(struct emu *e, struct emu_signals *sig);
void emu_free(struct emu *e);
/* The options of `iowatt emulate`, which line (src/cli/cmd_emulate.c) documents. */
const struct opt_desc *emu_options(size_t *n);

#endif
