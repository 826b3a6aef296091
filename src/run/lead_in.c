/* SPDX-License-Identifier: MIT */
/* What runs for a job outside its phases (file layout, size=auto calibration), timed for its result. */
#include <string.h>

#include "core/clock.h"
#include "run/run.h"

int run_prepare_job(struct run_ctx *rc, size_t j, const struct job_opts *jo)
{
	const struct target *tg = &rc->tg;
	uint64_t t0 = now_ns(), laid = tg->laid_out, read = tg->read_to, ext = tg->extent;
	uint64_t written = tg->written_to;
	int err = target_prepare_job(&rc->tg, jo);

	if (!err && (tg->laid_out != laid || tg->read_to != read || tg->extent != ext ||
		     tg->written_to != written)) {
		rc->lead_in[j].prep_start_ns = t0;
		rc->lead_in[j].prep_end_ns = now_ns();
	}
	return err;
}

void run_lead_in_calib(struct run_ctx *rc, size_t j, uint64_t t0)
{
	if (!rc->sizes[j].ntries)
		return;
	rc->lead_in[j].calib_start_ns = t0;
	rc->lead_in[j].calib_end_ns = now_ns();
}

void run_lead_in_retaken(struct run_ctx *rc, size_t j, const struct job_result *first)
{
	const struct result_phases *ph = first->phases;
	const struct result_span *from = !ph ? NULL : ph->idle ? ph->idle : ph->active;
	const struct result_span *to = !ph ? NULL : ph->tail ? ph->tail : ph->active;

	if (!from || !to)
		return;
	rc->lead_in[j].retaken_start_ns = from->t_start_ns;
	rc->lead_in[j].retaken_end_ns = to->t_end_ns;
}

void run_lead_in_give(struct run_ctx *rc, size_t j)
{
	struct run_result *rep = &rc->rb.rep;

	if (rep->njobs)
		result_job_lead_in(&rep->jobs[rep->njobs - 1], &rc->lead_in[j]);
	memset(&rc->lead_in[j], 0, sizeof(rc->lead_in[j]));
}
