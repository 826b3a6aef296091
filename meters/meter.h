/* SPDX-License-Identifier: MIT */
/* Meter driver interface: samples, devices, the ops every driver fills, the registry. */
#ifndef IOWATT_METER_H
#define IOWATT_METER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct event_queue;

/* One reading. Quantities a meter lacks are NAN. */
struct meter_sample {
	uint64_t t_ns; /* CLOCK_MONOTONIC when the reading was taken (arrival minus lag) */
	double v;      /* volts */
	double a;      /* amps */
	double w;      /* watts: measured, or v * a with SAMPLE_W_COMPUTED */
	uint32_t flags;
};

#define SAMPLE_W_COMPUTED (1u << 0) /* w = v * a, the meter has no power register */
#define SAMPLE_AFTER_GAP (1u << 1)  /* first sample after a reconnect or stall */
#define SAMPLE_EMULATED (1u << 2)   /* from iowatt's own emulator */
#define SAMPLE_MANUAL (1u << 3)	    /* typed in from a display, not measured */
#define SAMPLE_RAIL_SUM (1u << 4)   /* a sum of rails (Pi 5 PMIC), not the input */

#define METER_MAX_PARAMS 16

struct meter_param {
	char *key;
	char *val;
};

struct meter_driver;

struct meter_dev {
	const struct meter_driver *drv;
	char *spec; /* as the user wrote it: "um25c:/dev/rfcomm0,interval=500ms" */
	char *conn; /* "/dev/rfcomm0" */
	struct meter_param params[METER_MAX_PARAMS];
	unsigned nparams;
	const char *sysfs_root; /* "" = the real /sys, or a test tree */
	struct event_queue *events; /* gaps, reconnects, resets go here; NULL = nowhere */

	/* Filled by the driver's open(). */
	char model[48];	     /* "UM25C", "INA219", "hwmon ina226 (hwmon3)" */
	int emulated;	     /* iowatt's emulator: every output says so */
	int manual;	     /* hand readings */
	uint64_t period_ns;  /* nominal time between real updates, for gap detection */
	uint64_t lag_ns;     /* reading age at arrival, subtracted from t_ns */
	void *priv;
	/* Set by the core while it retries open() after a lost link: log failures at
	 * debug level then, the gap event already tells the user. */
	int reconnecting;

	/* Kept by the meter core (meter.c); read by the main thread after stop. */
	uint64_t samples;    /* delivered (stored in the ring; overruns are not) */
	uint64_t frames_bad; /* dropped: bad check, short, timeout */
	uint64_t gaps;	     /* periods with no data longer than 2 * period_ns */
	uint64_t reconnects;
	uint64_t overruns;   /* samples lost because the ring was full */
	void *core;	     /* meter core state (thread, ring) */
};

/*
 * Driver hooks. All return 0 / a count, or -errno after logging once.
 * read() blocks at most timeout_ms, returns how many samples it stored (0 = none yet).
 * read() sets each sample's t_ns to when the reading was taken: its arrival minus the
 * driver's lag_ns, subtracted by the driver itself (0 = let the core stamp it with
 * now). lag_ns only records that estimate; the core never subtracts it again. The core
 * keeps the timestamps it delivers non-decreasing. Counters such as frames_bad are
 * bumped with METER_COUNT() because the main thread reads them live (iowatt probe).
 * -ENODEV, -EIO, -EPIPE, -ENXIO, -EREMOTEIO from read() mean the link is lost: the core
 * closes, records a gap and reconnects with back-off (open + start again).
 */
struct meter_driver {
	const char *name; /* spec prefix */
	const char *desc;
	int (*open)(struct meter_dev *dev);
	int (*start)(struct meter_dev *dev);
	int (*read)(struct meter_dev *dev, struct meter_sample *out, unsigned max, int timeout_ms);
	void (*stop)(struct meter_dev *dev);
	void (*close)(struct meter_dev *dev);
	/* Optional: print what this machine has for this driver (iowatt meters). */
	void (*scan)(const char *sysfs_root, FILE *out);
};

/* Counters the sampling thread bumps and the main thread reads while it runs. */
#define METER_COUNT(field) __atomic_fetch_add(&(field), 1, __ATOMIC_RELAXED)
#define METER_LOAD(field) __atomic_load_n(&(field), __ATOMIC_RELAXED)

/* Samples the core's ring holds per meter (power of two); more are counted as overruns. */
#define METER_RING_CAP 16384u

/* Explicit registry (meters/registry.c), NULL-terminated. */
extern const struct meter_driver *const meter_drivers[];
const struct meter_driver *meter_driver_find(const char *name);

/* Spec "DRIVER:CONNECTION[,key=value...]" -> dev (not opened). -EINVAL names the spec. */
int meter_parse_spec(const char *spec, const char *sysfs_root, struct meter_dev **out);
const char *meter_param(const struct meter_dev *dev, const char *key);
/* Mark params used; meter_check_params() rejects unknown keys naming the spec. */
int meter_check_params(const struct meter_dev *dev, const char *const *known);
void meter_free(struct meter_dev *dev);
/* A dev for a driver that is not in the registry (tests' fake drivers). */
struct meter_dev *meter_dev_new(const struct meter_driver *drv, const char *conn,
				const char *sysfs_root);
/* "um25c, um34c, manual, ..." for error messages. */
void meter_driver_names(char *buf, size_t len);

/*
 * Meter core: one thread per meter reads samples into a lock-free single-producer ring
 * that the main thread drains. The core never blocks the main thread and stops
 * promptly (within ~100 ms) when asked.
 */
int meter_open(struct meter_dev *dev);		/* driver open, with a clear error */
int meter_thread_start(struct meter_dev *dev);	/* start(), then the sampling thread */
/* Pop samples taken before `before_ns` (in order); returns how many. */
unsigned meter_pop(struct meter_dev *dev, struct meter_sample *out, unsigned max,
		   uint64_t before_ns);
void meter_thread_stop(struct meter_dev *dev);
/*
 * The run's current phase (enum phase in core/phase.h) and the boundary's time, set by the
 * main thread at each boundary. Only the manual meter reads it: it turns hand readings into samples.
 */
/* 1 once meter_thread_stop() was asked for: a driver waiting long in open() gives up. */
int meter_stopping(const struct meter_dev *dev);
void meter_set_phase(struct meter_dev *dev, int phase, uint64_t t_ns);
/* The phase and (since_ns, may be NULL) the boundary time it began at. */
int meter_get_phase(const struct meter_dev *dev, uint64_t *since_ns);
void meter_close(struct meter_dev *dev);

#endif
