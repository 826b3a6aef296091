/* SPDX-License-Identifier: MIT */
/* Verdict text as printed in summaries, compare and the page: intervals as a reader reads them. */
#include <math.h>
#include <string.h>

#include "analysis/results_read.h"
#include "result/result.h"
#include "tap.h"

static void texts(double u95_rel, char *dominant, char *longer, char *shorter)
{
	char figure[] = "j_per_gb";
	struct result_uncertainty u = { .figure = figure, .u95_rel = u95_rel, .limit = 0.05,
					.dominant = dominant };
	struct result_validity v = { .valid = 1, .uncertain = 1, .uncertainty = &u };

	rr_verdict_text(&v, RESULT_OK, longer, RR_REASONS_MAX);
	rr_verdict_short(&v, RESULT_OK, shorter, RR_VERDICT_SHORT);
}

int main(void)
{
	char l[RR_REASONS_MAX], s[RR_VERDICT_SHORT], fit[] = "model fit: 32 readings",
		apart[] = "event-locked and model disagree: write 853 uJ per op apart";

	texts(0.125, fit, l, s);
	ok(!strcmp(l, "j_per_gb +-12.5 % (limit 5 %): model fit: 32 readings"), "a share: %s", l);
	ok(!strcmp(s, "UNCERTAIN: +-12.5 % > 5 %: model fit: 32 readings"), "short: %s", s);
	texts(12.4, fit, l, s);
	ok(strstr(l, "+-1240 % (limit 5 %)") && !strstr(l, "e+"), "a wide one in plain digits: %s", l);
	ok(strstr(s, "+-1240 % > 5 %") != NULL, "short too: %s", s);
	texts(NAN, apart, l, s);
	ok(!strstr(l, "nan") && !strcmp(l, "j_per_gb: event-locked and model disagree: write 853 uJ "
			"per op apart"), "an unknown interval is not printed as +-nan: %s", l);
	ok(!strstr(s, "nan") && strstr(s, "disagree") != NULL, "short: %s", s);
	return done_testing();
}
