/* SPDX-License-Identifier: MIT */
/* Small shared helpers: allocation that aborts, the monotonic clock, unit parsers, files. */
#ifndef IOWATT_UTIL_H
#define IOWATT_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define NS_PER_SEC 1000000000ULL
#define NS_PER_MS 1000000ULL
#define NS_PER_US 1000ULL
/* Binary units: k, m, g as fio spells them, and KiB, MiB, GiB. */
#define KIB 1024ULL
#define MIB (1024ULL * KIB)
#define GIB (1024ULL * MIB)
/* Decimal units, as MB/s and J/GB print them (and as sizes spell them with a B: 50MB). */
#define KB 1000ULL
#define MB (1000ULL * KB)
#define GB (1000ULL * MB)

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t sz);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
/* Aborts on failure like xmalloc; returns an allocated, formatted string. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* CLOCK_MONOTONIC in ns: the one clock for I/O phases, intervals and meter samples. */
uint64_t now_ns(void);
/* Sleep until the monotonic deadline; returns early with -EINTR on a signal. */
int sleep_until_ns(uint64_t deadline_ns);
void sleep_ns(uint64_t ns);

/*
 * Parsers return 0 or -EINVAL / -ERANGE and never print: the caller names the option
 * or file:line in its message.
 * Sizes: plain bytes, a suffix k/m/g/t or KiB/MiB/GiB/TiB (base 1024, as fio's short
 * suffixes), or kB/MB/GB/TB (base 1000, as iowatt prints MB/s); "2300" is 2300 bytes.
 * Durations: suffix ns/us/ms/s/m/h; a bare number is in default_unit_ns.
 */
int parse_size(const char *s, uint64_t *out);
int parse_duration_ns(const char *s, uint64_t default_unit_ns, uint64_t *out);
int parse_u64(const char *s, uint64_t *out);
int parse_int(const char *s, long min, long max, long *out);
int parse_double(const char *s, double *out);
int parse_bool(const char *s, int *out);

/* "4096" -> "4 KiB", "1048576" -> "1 MiB"; buf of at least 32 bytes. */
const char *fmt_size(uint64_t bytes, char *buf, size_t len);
/* Seconds with a unit that fits: "850 ms", "12.3 s", "3 min 5 s". */
const char *fmt_duration(uint64_t ns, char *buf, size_t len);
/*
 * v with `sig` significant digits in plain notation, never an exponent: 26610 (not
 * 2.661e+04) and 0.00130 (not 0.00): a figure's size shows in its width. "-" for NAN.
 */
const char *fmt_sig(double v, int sig, char *buf, size_t len);

/* Read a whole small text file (sysfs attributes); trailing newline removed. */
int read_text_file(const char *path, char *buf, size_t len);
/* Read a sysfs integer / double attribute. */
int read_int_file(const char *path, long long *out);

/*
 * Atomic file output: write to "PATH.tmp.PID", fsync, rename over PATH, fsync the
 * directory. A reader never sees a half-written result.
 */
struct atomic_file {
	FILE *fp;
	char *path;
	char *tmp_path;
};
int atomic_file_open(struct atomic_file *af, const char *path);
int atomic_file_commit(struct atomic_file *af);
void atomic_file_abort(struct atomic_file *af);

/*
 * A new open file description of the file `fd` refers to, with other flags (O_DIRECT, a
 * different access mode): opened through /proc/self/fd/N, so a path swapped since (a
 * symlink in a world-writable directory) cannot redirect it. -errno, not logged.
 */
int fd_reopen(int fd, int flags);

/*
 * An output file iowatt writes: created new (O_EXCL), or with `replace` an existing
 * regular file truncated; never through a symbolic link (O_NOFOLLOW) and never a FIFO,
 * device or directory. fd or -errno (not logged): -EEXIST exists, -ELOOP a symlink,
 * -EISDIR a directory, -EINVAL another kind of file.
 */
int output_open(const char *path, int replace);
/* What output_open would refuse, checked without creating anything (before any I/O, so
 * a refused output costs no benchmark): 0 or the same -errno. */
int output_check(const char *path, int replace);
/* The same as a stdio stream; NULL with errno set. */
FILE *output_fopen(const char *path, int replace);
/* Why output_open refused, for "PATH: why" messages: "already exists (... --force to
 * replace it)", "a directory", strerror() for the rest. */
const char *output_strerror(int err);

/*
 * Memory this process can still allocate: the smaller of the kernel's MemAvailable and
 * what RLIMIT_AS (ulimit -v) leaves above the current address space. `what` names the
 * limit that decided ("MemAvailable", "ulimit -v"). -errno if neither is known.
 */
int mem_available(uint64_t *bytes, const char **what);

/* mkdir -p; 0 or -errno. */
int mkdir_p(const char *path, unsigned mode);

/* Normalise an option name: dashes become underscores, lower case. */
void opt_name_normalize(char *s);

#endif
