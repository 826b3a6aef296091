/* SPDX-License-Identifier: MIT */
/* A job's verdict as every table shows it: one word, its dominant cause in a few words, the full text. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/results_read.h"
#include "core/events.h"

/*
 * A reason the run writes (energy_validity, the idle judge, the uncertainty's largest
 * term, an invalidating event) and the few words a table cell has room for. match is a
 * prefix, or with a leading '*' a part found anywhere; short_fmt may take the two counts
 * sscanf reads with scan from the reason's start ("6 samples < 20"), or without scan the
 * reason's first word as "%.*s" (the meter's model: "INA219 offset").
 */
struct cause {
	const char *match;
	const char *scan; /* NULL: short_fmt has no numbers */
	const char *short_fmt;
};

static const struct cause causes[] = {
	{ "*: the meter gave none for", "active phase has %" SCNu64 " samples (< %" SCNu64 ")",
	  "%" PRIu64 " samples < %" PRIu64 " (meter stalled)" },
	{ "active phase has ", "active phase has %" SCNu64 " samples (< %" SCNu64 ")",
	  "%" PRIu64 " samples < %" PRIu64 },
	{ "meter covered ", NULL, "meter missed part of the active phase" },
	{ "meter samples lost", NULL, "meter samples lost" },
	{ "*could not be true", NULL, "impossible meter readings dropped" },
	{ "*beyond their difference", NULL, "idle above active" },
	{ "*the net figures' sign is not known", NULL, "idle above active" },
	{ "idle baseline: no quiet reading", NULL, "idle not quiet" },
	{ "*quiet readings (< ", NULL, "idle not quiet" },
	{ "the job was interrupted", NULL, "interrupted" },
	{ "energy shared with ", NULL, "energy shared with another fio job" },
	{ "the job failed", NULL, "job failed" },
	{ "*its energy cannot be known", NULL, "sampling cannot see the activity" },
	{ "*: aliased", NULL, "activity aliased by the sampling" },
	{ "meter accuracy not declared", NULL, "meter accuracy not declared" },
	{ "time discretisation", NULL, "too few readings per change" },
	{ "idle baseline: ", NULL, "idle baseline" },
	{ "* gain ", NULL, "%.*s gain" },
	{ "* offset", NULL, "%.*s offset" },
	{ "* resolution ", NULL, "%.*s resolution" },
	{ "* noise over ", NULL, "%.*s noise" },
};

/* An invalidating event's reason: "undervoltage during the active phase at +1.2 s (...)". */
#define EVENT_MARK " during the active phase"

static int cause_matches(const struct cause *c, const char *reason)
{
	if (c->match[0] == '*')
		return strstr(reason, c->match + 1) != NULL;
	return !strncmp(reason, c->match, strlen(c->match));
}

void rr_ellipsis(const char *text, size_t max, char *buf, size_t len)
{
	size_t n = strlen(text), cut;

	if (n <= max) {
		snprintf(buf, len, "%s", text);
		return;
	}
	/* at the last space that leaves room for "...", so no word is cut in half */
	cut = max > 3 ? max - 3 : 0;
	while (cut > max / 2 && text[cut] != ' ')
		cut--;
	if (text[cut] != ' ')
		cut = max > 3 ? max - 3 : 0;
	while (cut && (text[cut - 1] == ' ' || text[cut - 1] == ';' || text[cut - 1] == ',' ||
		       text[cut - 1] == ':'))
		cut--;
	snprintf(buf, len, "%.*s...", (int)cut, text);
}

void rr_cause_short(const char *reason, char *buf, size_t len)
{
	const char *ev = strstr(reason, EVENT_MARK);
	uint64_t a, b;
	size_t i;

	for (i = 0; i < sizeof(causes) / sizeof(causes[0]); i++) {
		const struct cause *c = &causes[i];

		if (!cause_matches(c, reason))
			continue;
		if (c->scan && sscanf(reason, c->scan, &a, &b) == 2)
			snprintf(buf, len, c->short_fmt, a, b);
		else if (!c->scan && strstr(c->short_fmt, "%.*s"))
			snprintf(buf, len, c->short_fmt, (int)strcspn(reason, " "), reason);
		else if (!c->scan)
			snprintf(buf, len, "%s", c->short_fmt);
		else
			continue;
		return;
	}
	if (ev && (size_t)(ev - reason) < RR_CAUSE_MAX / 2) {
		snprintf(buf, len, "%.*s during the job", (int)(ev - reason), reason);
		return;
	}
	rr_ellipsis(reason, RR_CAUSE_MAX, buf, len);
}

const char *rr_verdict_word(const struct result_validity *v, int status)
{
	if (!v)
		return "-";
	if (!v->valid || status != RESULT_OK)
		return "INVALID";
	if (v->uncertain)
		return "UNCERTAIN";
	if (v->manual)
		return "MANUAL";
	return v->emulated ? "EMULATED" : "valid";
}

/* A share as a reader takes it: "12.5 %", "1240 %" (not 1.24e+03); "" when unknown. */
static void pct(double frac, char *buf, size_t len)
{
	double p = frac * 100;

	if (!isfinite(p))
		snprintf(buf, len, "%s", "");
	else if (fabs(p) >= 100)
		snprintf(buf, len, "%.0f %%", p);
	else
		snprintf(buf, len, "%.3g %%", p);
}

/* What made the figure uncertain: the idle judge's first reason, else the interval over
 * its limit and the largest term ("+-12 % > 5 %: meter noise"). */
static void uncertain_cause(const struct result_uncertainty *u, char *buf, size_t len)
{
	char term[RR_CAUSE_MAX + 8], got[24], lim[24];

	if (!u || !u->dominant) {
		snprintf(buf, len, "interval above the job's limit");
		return;
	}
	rr_cause_short(u->dominant, term, sizeof(term));
	pct(u->u95_rel, got, sizeof(got));
	pct(u->limit, lim, sizeof(lim));
	if (!strncmp(term, "idle", 4) || !(u->u95_rel > u->limit) || !*got || !*lim)
		snprintf(buf, len, "%s", term);
	else
		snprintf(buf, len, "+-%s > %s: %s", got, lim, term);
}

void rr_verdict_short(const struct result_validity *v, int status, char *buf, size_t len)
{
	const char *word = rr_verdict_word(v, status);
	char cause[RR_VERDICT_SHORT] = "";

	if (!v || (v->valid && status == RESULT_OK && !v->uncertain)) {
		snprintf(buf, len, "%s", word);
		return;
	}
	if (status == RESULT_INTERRUPTED)
		snprintf(cause, sizeof(cause), "interrupted");
	else if (status == RESULT_FAILED)
		snprintf(cause, sizeof(cause), "job failed");
	else if (status != RESULT_OK)
		snprintf(cause, sizeof(cause), "did not finish");
	else if (!v->valid && v->nreasons)
		rr_cause_short(v->reasons[0], cause, sizeof(cause));
	else if (v->uncertain)
		uncertain_cause(v->uncertainty, cause, sizeof(cause));
	snprintf(buf, len, "%s%s%s", word, *cause ? ": " : "", cause);
}

static void append_reason(char *buf, size_t len, const char *text)
{
	size_t used = strlen(buf);

	if (strstr(buf, text))
		return;
	snprintf(buf + used, len - used, "%s%s", used ? "; " : "", text);
}

void rr_verdict_text(const struct result_validity *v, int status, char *buf, size_t len)
{
	const struct result_uncertainty *u = v ? v->uncertainty : NULL;
	char unc[RR_REASONS_MAX], got[24], lim[24];
	size_t i;

	buf[0] = '\0';
	for (i = 0; v && i < v->nreasons; i++)
		append_reason(buf, len, v->reasons[i]);
	if (v && v->valid && v->uncertain && u && u->figure) {
		pct(u->u95_rel, got, sizeof(got));
		pct(u->limit, lim, sizeof(lim));
		/* A figure whose interval is unknown (two estimators disagree) is named by
		 * the reason alone, not with "+-nan %". */
		if (*got && *lim)
			snprintf(unc, sizeof(unc), "%s +-%s (limit %s): %s", u->figure, got, lim,
				 u->dominant ? u->dominant : "?");
		else
			snprintf(unc, sizeof(unc), "%s: %s", u->figure,
				 u->dominant ? u->dominant : "?");
		append_reason(buf, len, unc);
	} else if (v && v->valid && v->uncertain) {
		append_reason(buf, len, "the headline figure's interval is above the job's limit");
	}
	if (v && v->emulated)
		append_reason(buf, len, "figures from an emulated meter");
	if (v && v->manual)
		append_reason(buf, len, "figures from readings typed in by hand");
	if (status != RESULT_OK)
		append_reason(buf, len, result_status_name(status));
}

void rr_reasons(const struct job_result *j, char *buf, size_t len)
{
	size_t i;

	rr_verdict_text(j->validity, j->status, buf, len);
	for (i = 0; i < j->nevents; i++)
		if (event_invalidates(j->events[i].kind))
			append_reason(buf, len, event_kind_name(j->events[i].kind));
}

int rr_uncertain(const struct job_result *j)
{
	return rr_valid(j) > 0 && j->validity->uncertain;
}
