/* SPDX-License-Identifier: MIT */
/* The meter's clock from a GPIO marker's edges on a synthetic 100 kS/s meter's digital inputs. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "energy/event_marker.h"
#include "tap.h"
#include "test_rng.h"

#define PERIOD_NS 10000ULL /* 100 kS/s */
#define T0 7000000000ULL
#define JOB_NS 13000000000ULL
/* The meter's clock against the host's: t on the host reads t + OFFSET_NS on the meter. */
#define OFFSET_NS 2345678LL
#define HALF_NS 20000ULL /* half a set call */

/* One job's marker as the host drives it: the start pulse, the active phase's edges. */
static size_t job_marks(uint64_t t, struct el_mark *m)
{
	m[0] = (struct el_mark){ t, HALF_NS, 1 };
	m[1] = (struct el_mark){ t + 1000000, HALF_NS, 0 };
	m[2] = (struct el_mark){ t + 3000000000ULL, HALF_NS, 1 };
	m[3] = (struct el_mark){ t + JOB_NS, HALF_NS, 0 };
	return 4;
}

/*
 * The meter's readings from T0 for JOB_NS + 1 s: input `input` follows the marks (each
 * edge somewhere inside its set call, drift_ppm the meter's clock's rate error), input 5
 * toggles every 7 ms on its own (another signal on the header).
 */
static void feed(struct el_logic *l, const struct el_mark *m, size_t nm, int input,
		 double drift_ppm)
{
	uint64_t t, edge[8];
	size_t k, next = 0;
	int level = 0;
	uint8_t in;

	for (k = 0; k < nm; k++)
		edge[k] = m[k].t_ns - HALF_NS + (uint64_t)(uniform() * 2 * HALF_NS);
	el_logic_reset(l, PERIOD_NS);
	for (t = T0 - 500000000ULL; t < T0 + JOB_NS + 1000000000ULL; t += PERIOD_NS) {
		/* the reading the meter stamps t was taken at host time t - offset */
		double host = (double)t - OFFSET_NS - drift_ppm * 1e-6 * ((double)t - T0);

		while (next < nm && (double)edge[next] <= host)
			level = m[next++].level;
		in = (uint8_t)((input >= 0 ? level << input : 0) | ((t / 7000000) & 1) << 5);
		el_logic_add(l, t, in);
	}
}

int main(void)
{
	static struct el_logic l;
	struct el_mark m[8];
	struct el_align a;
	size_t nm = job_marks(T0, m);
	double err_max = 0;
	int i, cover = 0;

	rng = 7;
	/* many runs: the offset within its U95 in nearly all (each edge's place in its call
	 * is drawn anew) */
	for (i = 0; i < 40; i++) {
		feed(&l, m, nm, 2, 0);
		el_marker_align(&l, m, nm, -1, &a);
		if (a.ok && a.input == 2 && a.edges == 4 &&
		    fabs(a.offset_s - OFFSET_NS / 1e9) <= a.u95_s)
			cover++;
		err_max = fmax(err_max, fabs(a.offset_s - OFFSET_NS / 1e9));
	}
	ok(cover >= 36, "auto finds D2 of D0-D7 (D5 toggles on its own) and the offset within U95 "
	   "in %d of 40 runs (worst %.1f us, U95 %.1f us)", cover, err_max * 1e6, a.u95_s * 1e6);
	ok(a.u95_s < 4 * HALF_NS / 1e9 && a.u95_s > PERIOD_NS / 1e9 / 10,
	   "U95 from the calls and the sample period: %.1f us", a.u95_s * 1e6);
	ok(!isfinite(a.drift_ppm) || fabs(a.drift_ppm) < 20, "no drift to speak of (%.2f ppm)",
	   a.drift_ppm);

	feed(&l, m, nm, 2, 0);
	el_marker_align(&l, m, nm, 2, &a);
	ok(a.ok && a.input == 2, "the input named: D2");
	el_marker_align(&l, m, nm, 3, &a);
	ok(!a.ok && strstr(a.why, "no edge on D3"), "a wrong input named says so: %s", a.why);

	/* a 200 ppm clock: 2.6 ms over the job; the drift is fitted and widens U95 */
	feed(&l, m, nm, 0, 200);
	el_marker_align(&l, m, nm, -1, &a);
	ok(a.ok && isfinite(a.drift_ppm) && fabs(a.drift_ppm - 200) < 10,
	   "a drifting clock: %.1f ppm fitted", a.drift_ppm);
	ok(a.ok && a.u95_s > 200e-6 * JOB_NS / 1e9 / 4, "... and its U95 widens for it (%.0f us)",
	   a.u95_s * 1e6);

	/* the active phase's two edges alone (what a run passes), the meter's stamps wandering
	 * 0.3 ms between them: the drift they draw, U95 reaching both ends */
	feed(&l, m, nm, 0, 30);
	el_marker_align(&l, m + 2, 2, -1, &a);
	ok(a.ok && a.edges == 2 && fabs(a.drift_ppm - 30) < 10 &&
		   fabs(a.offset_s - (OFFSET_NS + 90000) / 1e9) <= a.u95_s &&
		   fabs(a.offset_s - (OFFSET_NS + 390000) / 1e9) <= a.u95_s,
	   "rise and fall 0.3 ms apart: %.1f +- %.1f us from the truth at the rise, %.1f ppm",
	   (a.offset_s - OFFSET_NS / 1e9) * 1e6 - 90, a.u95_s * 1e6, a.drift_ppm);

	/* the host's record of an edge 1 ms off the line's: the edges disagree */
	feed(&l, m, nm, 0, 0);
	m[2].t_ns += 1000000;
	el_marker_align(&l, m, nm, 0, &a);
	ok(!a.ok && strstr(a.why, "disagree"), "an edge 1 ms off: not used (%s)", a.why);
	/* 5 ms off: not the same edge; the other three still place the clock */
	m[2].t_ns += 4000000;
	el_marker_align(&l, m, nm, 0, &a);
	ok(a.ok && a.edges == 3 && fabs(a.offset_s - OFFSET_NS / 1e9) <= a.u95_s,
	   "an edge 5 ms off: unpaired, %u edges used", a.edges);
	job_marks(T0, m);

	feed(&l, m, nm, -1, 0);
	el_marker_align(&l, m, nm, -1, &a);
	ok(!a.ok && strstr(a.why, "no edge on the meter's digital inputs"),
	   "nothing wired: %s", a.why);
	el_logic_reset(&l, PERIOD_NS);
	el_marker_align(&l, m, nm, -1, &a);
	ok(!a.ok && strstr(a.why, "carry no digital inputs"), "a meter without inputs: %s", a.why);
	el_marker_align(&l, m, 0, -1, &a);
	ok(!a.ok && strstr(a.why, "no marker edges"), "no marker edges: %s", a.why);
	return done_testing();
}
