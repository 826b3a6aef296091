/* SPDX-License-Identifier: MIT */
/* A minimal TAP producer for C unit tests: ok, is_int, is_dbl, is_str, skip, done. */
#ifndef IOWATT_TAP_H
#define IOWATT_TAP_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

static inline void tap_result(int pass, const char *file, int line, const char *fmt, va_list ap)
{
	tap_n++;
	if (!pass)
		tap_failed++;
	printf("%sok %d - ", pass ? "" : "not ", tap_n);
	vprintf(fmt, ap);
	printf("\n");
	if (!pass)
		printf("#   failed at %s:%d\n", file, line);
	fflush(stdout);
}

static inline __attribute__((format(printf, 4, 5))) int tap_ok(int pass, const char *file, int line,
							      const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_result(pass, file, line, fmt, ap);
	va_end(ap);
	return pass;
}

#define ok(cond, ...) tap_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

#define is_int(got, want, ...)                                                              \
	do {                                                                                \
		long long g_ = (long long)(got), w_ = (long long)(want);                    \
		if (!tap_ok(g_ == w_, __FILE__, __LINE__, __VA_ARGS__))                     \
			printf("#   got %lld, want %lld\n", g_, w_);                        \
	} while (0)

#define is_dbl(got, want, eps, ...)                                                         \
	do {                                                                                \
		double g_ = (double)(got), w_ = (double)(want);                             \
		if (!tap_ok(fabs(g_ - w_) <= (eps), __FILE__, __LINE__, __VA_ARGS__))       \
			printf("#   got %.9g, want %.9g (eps %g)\n", g_, w_, (double)(eps));    \
	} while (0)

#define is_str(got, want, ...)                                                              \
	do {                                                                                \
		const char *g_ = (got), *w_ = (want);                                       \
		if (!tap_ok(g_ && w_ && !strcmp(g_, w_), __FILE__, __LINE__, __VA_ARGS__))  \
			printf("#   got '%s', want '%s'\n", g_ ? g_ : "(null)",              \
			       w_ ? w_ : "(null)");                                         \
	} while (0)

#define skip(why)                                                                           \
	do {                                                                                \
		tap_n++;                                                                    \
		printf("ok %d # skip %s\n", tap_n, why);                                     \
	} while (0)

static inline int done_testing(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
