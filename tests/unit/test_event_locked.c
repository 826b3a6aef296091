/* SPDX-License-Identifier: MIT */
/* Event-locked averaging on a synthetic 100 kS/s stream: the offset found, each kind's charge and its shape. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/completions.h"
#include "core/mem.h"
#include "energy/event_locked.h"
#include "tap.h"
#include "test_rng.h"

#define T0 5000000000ULL
#define IDLE_W 0.45
#define NOISE_W 0.02
#define SPAN_S 30
#define RATE_NS 20000ULL /* 50 kS/s */
/* The meter's clock runs this far behind the completions' (ns) */
#define OFFSET_NS 3000000ULL
/* Each op's energy is spread evenly over this long after its completion shows */
#define PULSE_NS 4000000ULL

static const double cost_j[COMPL_KINDS] = { 200e-6, 600e-6, 300e-6 };

struct op {
	uint64_t t_ns;
	int kind;
};

int main(void)
{
	size_t nops = (size_t)SPAN_S * 10, i, next = 0;
	struct op *ops = xcalloc(nops, sizeof(*ops));
	struct el_series *s = xcalloc(1, sizeof(*s));
	struct completions c;
	struct el_fit f;
	uint64_t t;
	double w, area = 0;
	int k, l;

	rng = 3;
	/* paced at 10/s, each slot's op at a random point of its first half, of a random
	 * kind: no two within the averaging window */
	completions_init(&c, T0);
	for (i = 0; i < nops; i++) {
		ops[i].t_ns = T0 + i * 100000000ULL + (uint64_t)(uniform() * 5e7);
		ops[i].kind = (int)(uniform() * 3);
		completions_add(&c, ops[i].kind, ops[i].t_ns);
	}
	el_series_reset(s);
	for (t = T0; t < T0 + (uint64_t)SPAN_S * 1000000000ULL; t += RATE_NS) {
		w = IDLE_W + NOISE_W * gauss();
		while (next < nops && ops[next].t_ns + OFFSET_NS + PULSE_NS < t)
			next++;
		for (i = next; i < nops && ops[i].t_ns + OFFSET_NS <= t; i++)
			if (t < ops[i].t_ns + OFFSET_NS + PULSE_NS)
				w += cost_j[ops[i].kind] / ((double)PULSE_NS / 1e9);
		el_series_add(s, t, w);
	}
	is_int(event_locked_fit(s, &c, IDLE_W, &f), 0, "fitted");
	printf("# offset %.4f +- %.4f s (r %.2f)\n", f.lag_s, f.lag_u_s, f.r_peak);
	ok(fabs(f.lag_s - (OFFSET_NS + PULSE_NS / 2) / 1e9) <= f.lag_u_s + 0.001,
	   "the meter's offset found: %.1f ms +- %.1f (pulse centre %.1f ms)", f.lag_s * 1e3,
	   f.lag_u_s * 1e3, (OFFSET_NS + PULSE_NS / 2) / 1e6);
	ok(f.r_peak > 0.1, "the counts correlate with the power at it (r %.2f)", f.r_peak);
	for (k = 0; k < COMPL_KINDS; k++) {
		ok(fabs(f.j_per_op[k] - cost_j[k]) <= f.u95_j[k],
		   "%s: %.1f +- %.1f uJ against %.1f (%.0f ops)", k == 0 ? "read" : k == 1 ? "write" : "flush",
		   f.j_per_op[k] * 1e6, f.u95_j[k] * 1e6, cost_j[k] * 1e6, f.ops[k]);
		ok(f.u95_j[k] < 0.2 * cost_j[k], "its U95 under 20 %% of it");
	}
	ok(f.trace_kind >= 0, "a trace of one op (%d)", f.trace_kind);
	for (l = 0; l < EL_TRACE_BINS; l++) {
		area += f.trace_w[l] * EL_BIN_NS / 1e9;
		printf("# t %+3d ms  %8.4f W\n", l - EL_PRE_BINS, f.trace_w[l]);
	}
	is_dbl(area, f.j_per_op[f.trace_kind], 1e-9, "the trace holds the op's energy");
	ok(f.trace_w[EL_PRE_BINS] > 0.5 * cost_j[f.trace_kind] / ((double)PULSE_NS / 1e9),
	   "and peaks where the completion shows");
	completions_free(&c);
	free(ops);
	free(s);
	return done_testing();
}
