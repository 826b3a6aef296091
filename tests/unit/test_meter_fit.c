/* SPDX-License-Identifier: MIT */
/* The plan's meter fit: which job patterns a meter of a given period cannot measure. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "core/clock.h"
#include "core/options.h"
#include "io/job.h"
#include "plan/meter_fit.h"
#include "tap.h"

#define HZ2 (500 * NS_PER_MS)
#define HZ10 (100 * NS_PER_MS)

static struct job_opts logger(double dither)
{
	struct job_opts jo;

	job_defaults(&jo);
	jo.bs = 4096;
	jo.size = 128 * 4096;
	jo.rate_iops = 2;
	jo.rate_dither = dither;
	jo.fdatasync = 1;
	return jo;
}

static struct job_opts bursts(uint64_t n, double dither)
{
	struct job_opts jo;

	job_defaults(&jo);
	jo.bs = 65536;
	jo.size = n * 65536;
	jo.fdatasync = 1;
	jo.thinktime_ns = 8 * NS_PER_SEC;
	jo.thinktime_dither = dither;
	return jo;
}

static void test_paced(void)
{
	struct job_opts jo = logger(0);
	struct meter_fit f;

	meter_fit_judge(&jo, HZ2, 0, &f);
	ok(f.judged && f.verdict == METER_FIT_ALIASED, "2 records/s at 2 Hz, undithered: aliased");
	ok(strstr(f.why, "in step") && strstr(f.fix, "rate_dither=100%"),
	   "it says why and the fix: %s; %s", f.why, f.fix);
	is_dbl(f.activity_hz, 2.0, 1e-12, "activity at 2 Hz");
	is_int(f.bursts, 128, "128 records");
	is_dbl(f.duration_s, 63.5 + 0.01, 1e-9, "127 half-seconds and the last record's 10 ms");
	jo = logger(1);
	meter_fit_judge(&jo, HZ2, 0, &f);
	ok(f.verdict == METER_FIT_UNCERTAIN && strstr(f.why, "5 % limit"),
	   "dithered 100 %%: measurable, but UNCERTAIN at the 5 %% limit (bursts' energy "
	   "+-%.0f %%): %s; fix: %s", f.u95_rel * 100, f.why, f.fix);
	jo.max_uncertainty = 0.6;
	meter_fit_judge(&jo, HZ2, 0, &f);
	ok(f.verdict == METER_FIT_OK, "against a 60 %% limit: ok");
	/* the binomial spread: 2 sqrt((1 - 0.2) / (0.2 x 128)) = 35 % */
	ok(fabs(f.u95_rel - 0.354) < 0.12, "u95 %.3f near 2 sqrt(0.8 / 25.6) = 0.354", f.u95_rel);
	jo = logger(0);
	meter_fit_judge(&jo, 3 * HZ2 / 5 + 7 * NS_PER_MS, 0, &f);
	ok(f.verdict != METER_FIT_ALIASED, "the same records under a 307 ms meter walk over its "
	   "phases: not aliased (%s)", f.why);
	meter_fit_judge(&jo, 0, 0, &f);
	ok(!f.judged, "no meter: nothing judged");
}

static void test_bursts(void)
{
	struct job_opts jo = bursts(8, 1);
	struct meter_fit f;
	uint64_t size = 0;
	char why[256];

	meter_fit_judge(&jo, HZ2, 0, &f);
	ok(f.verdict == METER_FIT_COARSE, "8 dithered bursts at 2 Hz: coarse (+-%.0f %%): %s",
	   f.u95_rel * 100, f.why);
	ok(strstr(f.fix, "size=auto") != NULL, "the fix: more bursts: %s", f.fix);
	meter_fit_judge(&jo, HZ10, 0, &f);
	ok(f.verdict == METER_FIT_OK, "the same at 10 Hz (readings cover the time): ok");
	jo = bursts(8, 0);
	meter_fit_judge(&jo, HZ2, 0, &f);
	ok(f.verdict == METER_FIT_ALIASED, "undithered bursts every 8 s (16 periods): aliased");
	ok(strstr(f.fix, "thinktime_dither=100%") != NULL, "fix names thinktime_dither");

	jo = bursts(8, 1);
	ok(meter_fit_auto_size(&jo, HZ2, 20 * NS_PER_SEC, &size, why, sizeof(why)),
	   "size=auto keeps the pattern: %s", why);
	ok(size % (64 * 1024) == 0 && size / 65536 >= 79,
	   "at 2 Hz, %llu bursts of 64 KiB: enough for +-50 %% with a margin",
	   (unsigned long long)(size / 65536));
	jo.size = size;
	meter_fit_judge(&jo, HZ2, 0, &f);
	ok(f.verdict == METER_FIT_UNCERTAIN && f.u95_rel < 0.5,
	   "so sized: within +-50 %% (+-%.0f %%), uncertain at 5 %%", f.u95_rel * 100);
	jo.size_auto_ns = OPT_AUTO_BARE;
	jo.size = 0;
	meter_fit_judge(&jo, HZ2, 0, &f);
	ok(f.verdict == METER_FIT_UNCERTAIN && f.bursts * 65536 == size,
	   "a size=auto job is judged at the size it will get (%llu bursts)",
	   (unsigned long long)f.bursts);
	jo = bursts(8, 1);
	ok(meter_fit_auto_size(&jo, HZ10, 4 * NS_PER_SEC, &size, why, sizeof(why)) &&
	   size / 65536 == 2, "at 10 Hz only the length counts: 4 s of 8 s pauses is 2 bursts (%s)",
	   why);
}

static void test_stream(void)
{
	struct job_opts jo;
	struct meter_fit f;
	uint64_t size = 0;
	char why[64];

	job_defaults(&jo);
	jo.bs = 65536;
	jo.size = 512 * 1024;
	ok(!meter_fit_auto_size(&jo, HZ2, 20 * NS_PER_SEC, &size, why, sizeof(why)),
	   "a stream has no pattern: the calibration sizes it");
	meter_fit_judge(&jo, HZ2, 0, &f);
	ok(!f.judged, "a fixed-size stream of unknown speed: not judged");
	meter_fit_judge(&jo, HZ2, 10e6, &f);
	ok(f.judged && f.verdict == METER_FIT_SHORT, "512 KiB at 10 MB/s: too short: %s", f.why);
	jo.size = 512ULL << 20;
	meter_fit_judge(&jo, HZ2, 10e6, &f);
	ok(f.verdict == METER_FIT_OK, "512 MiB at 10 MB/s: %.0f readings, ok", f.samples);
}

int main(void)
{
	test_paced();
	test_bursts();
	test_stream();
	return done_testing();
}
