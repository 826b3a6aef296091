/* SPDX-License-Identifier: MIT */
/* iowatt stats' window figures from samples files written by the test: raw CSV, binned CSV, binary. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/window_stats.h"
#include "core/clock.h"
#include "tap.h"

static char dir[64];

static char *path_of(const char *name)
{
	static char p[128];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return p;
}

/* Raw rows every 100 ms over 10 s: 5 V, 1 A, except 3 A from 4.0 s to 4.2 s (three rows). */
static double amps_at(int i)
{
	return i >= 40 && i <= 42 ? 3.0 : 1.0;
}

static void test_raw(void)
{
	struct window_stats st;
	FILE *f = fopen(path_of("raw.csv"), "w");
	int i;

	fprintf(f, "t_ns,meter,v,a,w,flags\n");
	for (i = 0; i <= 100; i++)
		fprintf(f, "%llu,0,5.0,%.3f,,\n", (unsigned long long)i * 100 * NS_PER_MS, amps_at(i));
	fclose(f);

	/* a flat window whose edges fall between rows: 1 A x 2.5 s exactly */
	ok(!window_stats_read(path_of("raw.csv"), 550 * NS_PER_MS, 3050 * NS_PER_MS, &st),
	   "raw CSV reads");
	is_dbl(st.m[0].charge_c, 2.5, 1e-9, "1 A over 0.55..3.05 s: 2.5 C, edges interpolated");
	is_dbl(st.m[0].energy_j, 12.5, 1e-9, "W = V x A where the file has no W: 12.5 J");
	is_dbl(st.m[0].a_s, 2.5, 1e-9, "over 2.5 s");
	is_int((int)st.m[0].readings, 25, "rows at 0.6..3.0 s inside: 25");
	is_dbl(st.m[0].a_max, 1.0, 0, "max 1 A");
	ok(st.m[0].bin_ns == 0, "raw rows: no bins");

	/* over the spike: ramps 3.9->4.0 and 4.2->4.3 are trapezoids */
	window_stats_read(path_of("raw.csv"), 3 * NS_PER_SEC, 5 * NS_PER_SEC, &st);
	is_dbl(st.m[0].charge_c, 2.0 + 0.2 * 2 + 2 * 0.1 * 1.0, 1e-9,
	       "3..5 s: 2 C of floor, 0.4 C of plateau, 0.2 C of ramps");
	is_dbl(st.m[0].a_max, 3.0, 0, "max is the spike");
	is_dbl(st.m[0].a_min, 1.0, 0, "min is the floor");
	ok(st.m[1].readings == 0 && st.m[1].span_s == 0, "no second meter");
}

/* Binned rows: 1 ms bins of 100 readings, mean 10 mA, one bin holding a 500 mA spike. */
static void test_binned(void)
{
	struct window_stats st;
	FILE *f = fopen(path_of("bins.csv"), "w");
	int i;

	fprintf(f, "t_ns,meter,v,a,w,flags,n,v_min,v_max,a_min,a_max,w_min,w_max\n");
	for (i = 0; i < 1000; i++)
		fprintf(f, "%llu,0,3.3,%.6f,,emulated|w_computed,100,3.3,3.3,%.6f,%.6f,,\n",
			(unsigned long long)i * NS_PER_MS, i == 500 ? 0.0149 : 0.010,
			0.009, i == 500 ? 0.5 : 0.011);
	fclose(f);
	ok(!window_stats_read(path_of("bins.csv"), 100 * NS_PER_MS, 900 * NS_PER_MS, &st),
	   "binned CSV reads");
	is_int((int)st.m[0].readings, 800 * 100, "readings: the bins' n summed");
	is_int((int)st.m[0].rows, 800, "800 bins");
	ok(st.m[0].bin_ns == NS_PER_MS, "the bin width found: 1 ms");
	is_dbl(st.m[0].a_max, 0.5, 0, "the spike survives as the bin's max");
	is_dbl(st.m[0].a_min, 0.009, 0, "min from the bins' a_min");
	is_dbl(st.m[0].charge_c, 0.8 * 0.010 + 0.0049 * 0.001, 1e-9,
	       "charge from the bins' means: 8 mC + the spike bin's extra 4.9 uC");
	is_dbl(st.m[0].energy_j, st.m[0].charge_c * 3.3, 1e-12, "energy = 3.3 V x charge");
}

static void put_le(unsigned char *b, uint64_t x, int n)
{
	int i;

	for (i = 0; i < n; i++)
		b[i] = (unsigned char)(x >> (8 * i));
}

static void put_double(unsigned char *b, double d)
{
	uint64_t x;

	memcpy(&x, &d, sizeof(x));
	put_le(b, x, 8);
}

/* The binary records of the raw file above, packed by hand from docs/results.md's layout. */
static void test_binary(void)
{
	struct window_stats st;
	unsigned char rec[40];
	FILE *f = fopen(path_of("s.bin"), "wb");
	int i;

	fwrite("IOWATTS1", 1, 8, f);
	for (i = 0; i <= 100; i++) {
		memset(rec, 0, sizeof(rec));
		put_le(rec, (uint64_t)i * 100 * NS_PER_MS, 8);
		put_le(rec + 8, 0, 4);
		put_le(rec + 12, 1, 4);
		put_double(rec + 16, 5.0);
		put_double(rec + 24, amps_at(i));
		put_double(rec + 32, NAN);
		fwrite(rec, 1, sizeof(rec), f);
	}
	fclose(f);
	ok(!window_stats_read(path_of("s.bin"), 3 * NS_PER_SEC, 5 * NS_PER_SEC, &st),
	   "binary samples read");
	is_dbl(st.m[0].charge_c, 2.6, 1e-9, "the same 2.6 C as the CSV");
	is_dbl(st.m[0].a_max, 3.0, 0, "and the same max");
}

static void test_refused(void)
{
	struct window_stats st;
	FILE *f = fopen(path_of("junk.csv"), "w");

	fprintf(f, "hello\n");
	fclose(f);
	ok(window_stats_read(path_of("junk.csv"), 0, UINT64_MAX, &st) == -ENODATA,
	   "a file that is not samples is refused");
	ok(window_stats_read(path_of("absent.csv"), 0, UINT64_MAX, &st) < 0, "a missing file fails");
}

int main(void)
{
	char cmd[128];

	/* mkdtemp's template: a private folder under $TMPDIR (the suite's own), else /tmp. */
	snprintf(dir, sizeof(dir), "%s/iowatt-win.XXXXXX",
		 getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir))
		return 1;
	test_raw();
	test_binned();
	test_binary();
	test_refused();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", dir);
	return done_testing();
}
