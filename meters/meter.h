/* SPDX-License-Identifier: MIT */
/* Meters as the run layer sees them: specs, the sampling thread, samples, a device's description. */
#ifndef IOWATT_METER_H
#define IOWATT_METER_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/accuracy.h"
#include "core/sample.h"

struct event_queue;
struct meter_driver;
struct emu_protocol;
/* One meter from one spec; its fields are the drivers' business (meters/meter-internal.h). */
struct meter_dev;

/*
 * One meter iowatt knows: its driver and the emulators of its models (`iowatt emulate
 * NAME`), NULL after the last. The table of them, ended by a row whose driver is NULL, is
 * the registry (meters/registry/registry.h), above every driver folder: the layers above
 * it pass it down to the lookups of the meter core, which cannot link to it.
 */
#define METER_EMULATORS_MAX 2
struct meter_entry {
	const struct meter_driver *driver;
	const struct emu_protocol *emulators[METER_EMULATORS_MAX];
};


/* What a meter can measure, from its datasheet and configuration; NAN where none is known. */
struct meter_range {
	double v_min, v_max; /* volts */
	double a_min, a_max; /* amps; a negative a_min: the meter reads reverse current */
	double w_max;	     /* watts */
};

#define METER_MODEL_LEN 48
#define METER_PROCESSING_LEN 96

/*
 * A device as its driver described it at open(). The core publishes a new one after each
 * successful open (a reconnect may find another model) and never changes a published
 * one, so the main thread reads it while the sampling thread reconnects. A pointer from
 * meter_info() stays valid until meter_free().
 */
struct meter_info {
	const char *spec;   /* as the user wrote it: "um25c:/dev/rfcomm0,interval=500ms" */
	const char *driver; /* the spec's prefix */
	char model[METER_MODEL_LEN]; /* "UM25C", "INA219 @0x40, 0.1 mA/LSB"; "" before open */
	int emulated;	    /* iowatt's emulator: every output says so */
	int manual;	    /* hand readings */
	uint64_t period_ns; /* nominal time between real updates, for gap detection */
	uint64_t lag_ns;    /* estimated age of a reading at its arrival */
	/* A network port's round trip at open (the kernel's TCP estimate), ms; NAN: local. */
	double link_rtt_ms;
	struct meter_range range;
	struct meter_accuracy accuracy; /* source NULL: unknown */
	int board_level;    /* measures the board's supply: its figures include the CPU */
	int frame_vaw;	    /* V, A and W come from one frame: W must agree with V x A */
	/* What the driver does to the readings beyond converting them ("spike filter after
	 * range switches ..."): the result keeps it; "" none. */
	char processing[METER_PROCESSING_LEN];
	/* METER_SIGNED_* bits: quantities this meter reads with their sign (a bidirectional
	 * supply, a battery charged and discharged, an electronic load's signed current). A
	 * negative reading of an unsigned quantity cannot be true and is dropped. */
	unsigned signed_q;
};

#define METER_SIGNED_V (1u << 0)
#define METER_SIGNED_A (1u << 1)
#define METER_SIGNED_W (1u << 2)

/*
 * 0 when s is a reading this meter can give; else -1 and why ("655.4 V above the UM25C's
 * 24 V"): a quantity beyond the declared range (with a 5 % margin and the reading's
 * resolution), a negative voltage, current or power where the meter does not declare
 * that quantity signed (signed_q; iowatt measures loads), or, for meters whose
 * frame holds all three, W that disagrees with V x A beyond the resolutions and 5 %.
 * The core drops such readings before they reach the ring and counts them (out_of_range).
 */
int meter_sample_check(const struct meter_info *in, const struct meter_sample *s, char *why,
		       size_t len);

/* Counts the sampling thread keeps; read at any time. */
struct meter_counters {
	uint64_t samples;    /* delivered (stored in the ring; overruns are not) */
	uint64_t frames_bad; /* dropped: bad check, short, timeout */
	uint64_t gaps;	     /* periods with no data longer than 2 * period_ns */
	uint64_t reconnects;
	uint64_t overruns;   /* samples lost: the ring was full, or the device dropped them */
	uint64_t out_of_range; /* readings dropped as impossible (meter_sample_check) */
	/* Meters with a sample counter (PPK2): samples whose counter did not follow the
	 * previous one's, and samples the counter showed lost by the vendor's rule (also in
	 * overruns); a corrupt counter jumps without a loss. */
	uint64_t counter_jumps, counter_lost;
};

/*
 * Spec "DRIVER:CONNECTION[,key=value...]" -> dev, not opened; DRIVER is one of meters'
 * drivers (the registry, or a test's own table). Every key is checked
 * through the driver's key table (known, applies to this driver, well-formed, in
 * range) and the driver's own cross-checks run, all before any device is touched:
 * -EINVAL (or -ERANGE) after one message naming the spec and the key.
 */
int meter_parse_spec(const struct meter_entry *meters, const char *spec, const char *sysfs_root,
		     struct meter_dev **out);
/*
 * A parsed, unopened meter's polling interval from its spec (its "interval" parameter, the
 * driver's default when not given): what --dry-run knows of its period. 0 for a driver
 * without one (its period is known once open: meter_info()->period_ns).
 */
uint64_t meter_spec_interval_ns(const struct meter_dev *dev);
/*
 * The accuracy a parsed, unopened meter's driver declares for the model its spec names
 * (a driver called as a model, um25c: the UM25C's row; or a driver of one model), so a
 * plan before opening (--dry-run) uses what the run will: 0 with *out, -ENOENT when the
 * model is known only once open (um: detected from the reply) or declares none.
 */
int meter_spec_accuracy(const struct meter_dev *dev, struct meter_accuracy *out);
/* Where gap, reconnect and reset events go (NULL: nowhere). Set before meter_open(). */
void meter_set_events(struct meter_dev *dev, struct event_queue *q);
/* meter_open() gives up with -ECANCELED, quietly, once *flag is non-zero: a Ctrl-C must
 * not wait out a meter that does not answer. Set before meter_open(); NULL: never. */
void meter_set_cancel(struct meter_dev *dev, const atomic_int *flag);
void meter_free(struct meter_dev *dev);

/*
 * Meter core: one thread per meter reads samples into a lock-free single-producer ring
 * that the main thread drains. The core never blocks the main thread and stops
 * promptly (within ~100 ms) when asked.
 */
int meter_open(struct meter_dev *dev);		/* driver open, with a clear error */
const struct meter_info *meter_info(const struct meter_dev *dev);
void meter_counters(const struct meter_dev *dev, struct meter_counters *out);
int meter_thread_start(struct meter_dev *dev);	/* start(), then the sampling thread */
/* Pop samples taken before `before_ns` (in order); returns how many. */
unsigned meter_pop(struct meter_dev *dev, struct meter_sample *out, unsigned max,
		   uint64_t before_ns);
void meter_thread_stop(struct meter_dev *dev);
/*
 * The run's current phase (enum phase in core/phase.h) and the boundary's time, set by the
 * main thread at each boundary. Only the manual meter reads it: it turns hand readings
 * into samples.
 */
void meter_set_phase(struct meter_dev *dev, int phase, uint64_t t_ns);
void meter_close(struct meter_dev *dev);

#define METER_EXTRAS_LEN 96
/* What the meter reads besides V, A and W, as its driver last gave it ("D+ 0.60 V, D-
 * 0.59 V, 28.5 C"): its length, 0 when the driver keeps none. Any thread. */
size_t meter_extras(const struct meter_dev *dev, char *buf, size_t len);

/* The spec keys of meters' driver called name, *n rows (NULL, 0: no such driver). */
struct opt_desc;
const struct opt_desc *meter_driver_keys(const struct meter_entry *meters, const char *name,
				       size_t *n);
/* 1 when the driver called name connects through a serial port (a device, a pty,
 * rfc2217:// or tcp://), 0 otherwise or when there is no such driver. */
int meter_driver_serial(const struct meter_entry *meters, const char *name);
/* "um25c, um34c, manual, ..." for error messages: the drivers of meters. */
void meter_driver_names(const struct meter_entry *meters, char *buf, size_t len);
/* Every driver: spec syntax, keys (key, type, default, range, help), models and ranges. */
void meter_drivers_describe(const struct meter_entry *meters, FILE *out);
/* One line per driver: its spec form and keys. */
void meter_drivers_summary(const struct meter_entry *meters, FILE *out);
/* What each driver finds on this machine, with a spec to paste (iowatt meters). */
void meter_drivers_scan(const struct meter_entry *meters, const char *sysfs_root, FILE *out);

#endif
