/* SPDX-License-Identifier: MIT */
/* Event-locked energies per op checked against the power model fitted to the same readings at 100 ms. */
#ifndef IOWATT_EVENT_CHECK_H
#define IOWATT_EVENT_CHECK_H

#include "core/completions.h"
#include "energy/event_locked.h"
#include "result/result.h"

/* The readings' 1 ms means are averaged over this many for the model's windows. */
#define EL_CHECK_BINS 100

/*
 * Checks r's ops' energy against s's readings above the idle baseline idle_w (standard
 * uncertainty idle_u_w): r->agrees_with_trace. Fits the power model
 * (energy/energy_model.h) to s's readings averaged over 100 ms, with the completions ops,
 * r's own idle as its prior (idle_w where r has none) and no gain term (the same meter's
 * gain moves both alike), into r->model; compares each kind's
 * energy per op with r's: r->agrees_with_model 1 when every kind both give lies within
 * their combined U95, 0 when one does not (r->disagree_kind, the difference and the
 * combined U95 of the one furthest apart), RESULT_NULL_BOOL when no kind has both. Kinds
 * whose summed count is the same in (almost) every 100 ms window are in step with them:
 * the model's verdict becomes "not identifiable" and they are not compared.
 */
void event_locked_check(struct result_event_locked *r, const struct el_series *s,
			const struct completions *ops, double idle_w, double idle_u_w);
/* Event-locked and model further apart than their combined U95: the job is uncertain,
 * its largest term says so first. */
void event_locked_judge(const struct result_event_locked *r, struct result_validity *v);

#endif
