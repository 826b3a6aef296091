/* SPDX-License-Identifier: MIT */
/* What meter drivers see: the device, the driver descriptor and its ops, its keys, core services. */
#ifndef IOWATT_METER_INTERNAL_H
#define IOWATT_METER_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/options.h"
#include "meters/meter.h"

/*
 * A driver's keys are rows of core/options.h's opt_desc into a struct of its own (its
 * args): meter_parse_spec() applies the rows' defaults, parses each key=value of the spec
 * through its row (known, well-formed, in range, required ones given) before open(), and
 * the driver reads the typed struct from dev->args. `iowatt meters --help`, the man page
 * and completion print the same rows. METER_KEYS(table, struct type) in a descriptor.
 */
#define METER_KEYS(tab, type) \
	.keys = (tab), .nkeys = sizeof(tab) / sizeof((tab)[0]), .args_size = sizeof(type)

/* One model a driver reads, as data: its name, what its datasheet says it measures and
 * how well (accuracy.source NULL: not declared). */
struct meter_model {
	const char *name;	  /* "UM25C" */
	struct meter_range range; /* NAN where the datasheet gives no limit */
	const char *source;	  /* where the range comes from */
	struct meter_accuracy accuracy;
};

/* A descriptor's models: a table of struct meter_model, or of protocol rows that hold
 * one as `meta` (um_models[]), walked with the row's size as stride. */
#define METER_MODEL_TABLE(first, tab) \
	.models = (first), .nmodels = sizeof(tab) / sizeof((tab)[0]), .model_size = sizeof((tab)[0])
#define METER_MODELS(tab) METER_MODEL_TABLE(&(tab)[0], tab)
#define METER_MODELS_META(tab) METER_MODEL_TABLE(&(tab)[0].meta, tab)

enum meter_conn_rule {
	METER_CONN_REQUIRED, /* "um25c:/dev/rfcomm0" */
	METER_CONN_NONE,     /* "manual:idle_ma=85,..." */
};

/* No read(): start() begins delivery with meter_deliver() from the driver's own thread or
 * its library's callback; stop() returns once no meter_deliver() runs or will follow. */
#define METER_DRV_PUSH (1u << 0)
/* The connection is a serial port: a device, a pty, rfc2217:// or tcp:// (ser2net), opened by
 * meter_std_serial_open; completion offers the ports and the two prefixes. */
#define METER_DRV_SERIAL (1u << 1)

/*
 * A driver: what it is (listing, help, spec checks) and its ops. Ops return 0 / a count,
 * or -errno after logging once, where the failure is seen.
 *
 * open() fills `info` (zeroed, spec and driver set, range NAN): model, emulated, manual,
 * period_ns, lag_ns, range. It runs on the main thread first and on the sampling thread
 * for each reconnect; the core publishes `info` when it succeeds.
 *
 * read() (polled drivers) blocks at most timeout_ms and returns how many samples it
 * stored (0 = none yet). It sets each t_ns to when the reading was taken: its arrival
 * minus the driver's lag estimate, or 0 to let the core stamp it with the arrival. The
 * core keeps the timestamps it delivers non-decreasing. -ENODEV, -EIO, -EPIPE, -ENXIO,
 * -EREMOTEIO mean the link is lost: the core stops, closes, records a gap and reconnects
 * with back-off (open and start again). Push drivers say the same through
 * meter_deliver_error().
 */
struct meter_driver {
	const char *name;    /* spec prefix */
	const char *desc;    /* one line */
	const char *conn;    /* what follows the colon, for help; NULL with METER_CONN_NONE */
	enum meter_conn_rule conn_rule;
	const char *example; /* a spec to paste */
	unsigned flags;
	const struct opt_desc *keys; /* METER_KEYS(): the spec's keys into the args struct */
	size_t nkeys, args_size;
	const struct meter_model *models;      /* METER_MODELS(table) or METER_MODELS_META() */
	size_t nmodels, model_size;

	/* Optional: checks of the keys together (each row was checked); no device touched. */
	int (*check)(const struct meter_dev *dev);
	int (*open)(struct meter_dev *dev, struct meter_info *info);
	int (*start)(struct meter_dev *dev); /* optional */
	int (*read)(struct meter_dev *dev, struct meter_sample *out, unsigned max, int timeout_ms);
	void (*stop)(struct meter_dev *dev); /* optional for polled drivers */
	void (*close)(struct meter_dev *dev);
	/* Optional: print what this machine has for this driver (iowatt meters). */
	void (*scan)(const char *sysfs_root, FILE *out);
};

struct meter_core;
struct serial_port;

struct meter_dev {
	const struct meter_driver *drv;
	char *spec; /* as the user wrote it */
	char *conn; /* "/dev/rfcomm0" */
	void *args;	/* the driver's struct of its keys' values (defaults where not given) */
	uint64_t given; /* bit i: keys[i] was in the spec */
	const char *sysfs_root;	    /* "" = the real /sys, or a test tree */
	struct event_queue *events; /* gaps, reconnects, resets go here; NULL = nowhere */
	void *priv;		    /* the driver's */
	/* Set by the core while open() runs on the sampling thread after a lost link: log
	 * failures at debug level then (meter_log_level()), the gap event tells the user. */
	int reconnecting;
	const atomic_int *cancel; /* meter_set_cancel(): the user's stop */
	/* Bumped with METER_COUNT() on the sampling side, read live by the main thread. */
	_Atomic uint64_t samples, frames_bad, gaps, reconnects, overruns, out_of_range;
	_Atomic uint64_t counter_jumps, counter_lost;
	struct meter_core *core;
};

#define METER_COUNT(field) atomic_fetch_add_explicit(&(field), 1, memory_order_relaxed)
#define METER_LOAD(field) atomic_load_explicit(&(field), memory_order_relaxed)

/* The driver of meters (a table of struct meter_entry, meters/meter.h) called name, or NULL. */
const struct meter_driver *meter_driver_find(const struct meter_entry *meters, const char *name);
/* The driver's i-th model row, or NULL past the last. */
const struct meter_model *meter_driver_model(const struct meter_driver *drv, size_t i);
/* The driver's model row called name (case-insensitive), or NULL. */
const struct meter_model *meter_driver_model_by_name(const struct meter_driver *drv,
						     const char *name);

/*
 * Whether the spec gave the key whose row stores at field (&args->in): for keys where
 * "not given" means "the driver decides" and every value is one a user may give. 0 for a
 * field no row stores at.
 */
int meter_key_given(const struct meter_dev *dev, const void *field);

/*
 * supply=drive|board for a shunt meter that can sit on either rail: on the board's supply
 * its figures include the CPU running iowatt (meter_info.board_level). dflt NULL: the
 * driver decides when the user says nothing (the field is then -1), and dflt_help says
 * how. The field is an int: enum meter_supply, or -1.
 */
enum meter_supply { METER_SUPPLY_DRIVE, METER_SUPPLY_BOARD };
extern const struct opt_choice meter_supply_choices[];
#define METER_SUPPLY_KEY(offset, dflt, dflt_help)                                          \
	{ .name = "supply", .type = OPT_ENUM, .off = (offset), .def = dflt,                \
	  .choices = meter_supply_choices,                                                 \
	  .help = "the rail it measures: drive (the drive's cable) or board (the board's "    \
		  "supply, which includes the CPU running iowatt)" dflt_help }

/* LOG_DEBUG while reconnecting, else level: a retried open() must not flood the log. */
int meter_log_level(const struct meter_dev *dev, int level);
/* 1 once meter_thread_stop() was asked for: a driver waiting long in open() gives up. */
int meter_stopping(const struct meter_dev *dev);
/* The phase the main thread announced and (since_ns, may be NULL) when it began. */
int meter_get_phase(const struct meter_dev *dev, uint64_t *since_ns);

/*
 * The push entry point, for drivers whose library runs its own loop (HID streams,
 * libsigrok sessions, a 100 kS/s PPK2). Called between start() and the return of stop(),
 * by one thread at a time. Samples are stamped and stored in the ring like read()'s;
 * those with t_ns 0 get the core's sample clock: a batch continues the last one at
 * period_ns spacing and ends no later than its arrival minus lag_ns, re-anchored when
 * it falls more than METER_GRID_SLACK_NS behind. Returns how many were stored; a full
 * ring drops the newest and counts them in overruns. Never blocks.
 */
unsigned meter_deliver(struct meter_dev *dev, struct meter_sample *s, unsigned n);
/*
 * A push driver learnt from the device that n samples were lost before its next batch (a
 * sample counter that skipped): counted in overruns, the next batch's sample clock skips
 * them, and its first sample is marked SAMPLE_AFTER_LOSS. Same thread as meter_deliver().
 */
void meter_deliver_lost(struct meter_dev *dev, uint64_t n);
/* The extra channels' latest readings as text (D+, D-, temperature), for meter_extras(). */
void meter_set_extras(struct meter_dev *dev, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A push driver lost its link (-EIO, -ENODEV...): the core stops, closes and reconnects. */
void meter_deliver_error(struct meter_dev *dev, int err);
#define METER_GRID_SLACK_NS (100 * 1000000ULL)

/*
 * A push driver's reading thread: step() reads what the device sends (blocking at most
 * ~50 ms, so stop is prompt) and delivers it; a negative return is a lost link, reported
 * with meter_deliver_error(), and ends the thread. start() calls meter_pump_start(),
 * stop() meter_pump_stop(), which returns once no step runs.
 */
struct meter_pump {
	pthread_t thread;
	atomic_int stop;
	int running;
	struct meter_dev *dev;
	int (*step)(struct meter_dev *dev);
};
int meter_pump_start(struct meter_pump *p, struct meter_dev *dev, int (*step)(struct meter_dev *));
void meter_pump_stop(struct meter_pump *p);

/* Samples the ring of a started meter holds (a power of two, sized from its rate). */
unsigned meter_ring_capacity(const struct meter_dev *dev);
/* A dev for a driver that is not in the registry (tests' fake drivers); params unchecked. */
struct meter_dev *meter_dev_new(const struct meter_driver *drv, const char *conn,
				const char *sysfs_root);

/* Shared driver helpers (meters/core/meter_std.c), as libsigrok's std.c. */
/* info->range from a model row. */
void meter_std_range(struct meter_info *info, const struct meter_model *m);
/* info->accuracy from a model row. */
void meter_std_accuracy(struct meter_info *info, const struct meter_model *m);
/*
 * Accuracy for meters whose maker states none (fuel gauges, RAPL, the Pi 5 PMIC, hwmon
 * chips iowatt has no datasheet for): +-5 % of reading on V, A and W, readings of the
 * given steps. An assumption, not a datasheet figure; docs/energy.md says so.
 */
#define METER_ACC_ASSUMED_GAIN 0.05
void meter_std_assumed_accuracy(struct meter_info *info, double v_step, double a_step,
				double w_step);
/*
 * Opens dev->conn as a serial port (a device, or rfc2217:// or tcp:// for a meter behind
 * ser2net) at baud 8N1, failures logged at meter_log_level(dev, LOG_ERR); a network
 * connect gives up quietly with -ECANCELED once meter_stopping(dev).
 */
int meter_std_serial_open(const struct meter_dev *dev, unsigned baud, struct serial_port **out);
/*
 * A polled driver's wait for its reply: serial_read() of what the port has, waiting until
 * until (the reply's deadline or the next poll) but not past deadline (read()'s own bound),
 * both on the monotonic clock as now is.
 */
int meter_std_read_until(struct serial_port *sp, void *buf, size_t len, uint64_t now,
			 uint64_t until, uint64_t deadline);
/* The same for a path the driver made from dev->conn (a default port added). */
int meter_std_serial_open_path(const struct meter_dev *dev, const char *path, unsigned baud,
			       struct serial_port **out);
/*
 * info->model and emulated for a serial meter: iowatt's emulator on a registered pty says
 * "(emulated)", another pty "via pty bridge" (socat, ser2net), a network port "via
 * rfc2217 HOST:PORT" (with its round trip logged), a real port the name. sp may be NULL
 * (a HID meter on a pty).
 */
void meter_std_serial_label(const struct meter_dev *dev, const struct serial_port *sp,
			    struct meter_info *info, const char *model);
/*
 * For a polled meter (request, then reply): a round trip over half the poll interval
 * (a slow network or Bluetooth link) stretches the meter's period, since a poll goes out
 * only after the last reply. Said once at open, as a warning and an info event, so the
 * readings' spacing is never stretched silently. Nothing below the bound.
 */
void meter_std_poll_latency(const struct meter_dev *dev, uint64_t round_trip_ns,
			    uint64_t interval_ns, uint64_t reply_timeout_ns);
/* close() for drivers whose priv is one allocation with nothing open; the last step of the
 * others' close(), once they closed what priv holds. */
void meter_std_free_priv(struct meter_dev *dev);
/* The same for a serial meter whose priv holds the port sp: sp closed, then priv freed (an
 * open() that gives up after its probe, and close()). */
void meter_std_serial_close(struct meter_dev *dev, struct serial_port *sp);
/*
 * scan() for meters that are entries of one sysfs class directory (power_supply, i2c-dev
 * buses, RAPL zones): for each entry of dir under sysfs_root whose name starts with
 * prefix, in natural order, show() prints its lines given the entry's attribute attr
 * ("type", "name"), or NULL where that cannot be read.
 */
void meter_std_scan_sysfs(const char *sysfs_root, const char *dir, const char *prefix,
			  const char *attr, FILE *out,
			  void (*show)(FILE *out, const char *entry, const char *attr_val));

#endif
