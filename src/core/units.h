/* SPDX-License-Identifier: MIT */
/* Sizes, durations and numbers: parsed from options, formatted for tables. */
#ifndef IOWATT_UNITS_H
#define IOWATT_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* Binary units: k, m, g as fio spells them, and KiB, MiB, GiB. */
#define KIB 1024ULL
#define MIB (1024ULL * KIB)
#define GIB (1024ULL * MIB)
/* Decimal units, as MB/s and J/GB print them (and as sizes spell them with a B: 50MB). */
#define KB 1000ULL
#define MB (1000ULL * KB)
#define GB (1000ULL * MB)

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
/*
 * v with 3 significant digits and an SI prefix where plain notation would need an
 * exponent or many zeros: "1.43 k" (not 1.43e+03), "2.5 M", "210 µ"; "0.5", "12.3", "999"
 * as they are. "" for NAN or an infinity (nothing to draw).
 */
const char *fmt_si_label(double v, char *buf, size_t len);

#endif
