// SPDX-License-Identifier: GPL-2.0
/* The verdict that leads: the closed loop's where it ran, else the per-decision one (verdict_lead.h). */
#include <math.h>
#include "verdict_lead.h"

__s64 fs_sim_fj_per_unit_ns(const struct fs_em *em)
{
	/* 1 mW x 1 ns = 1e-12 J = 1000 fJ; 1 uW x 1 ns = 1 fJ */
	return em->unit == FS_POWER_MW ? 1000 : em->unit == FS_POWER_UW ? 1 : 0;
}

bool fs_verdict_lead(const struct fs_report *r, int v, struct fs_verdict *out, const char **why)
{
	const struct fs_sim_report *s = r->sim;
	const __s64 f = fs_sim_fj_per_unit_ns(r->em);

	*out = r->verdicts[v];
	if (!s || !s->ran || v >= s->answer.nr_verdicts) {
		*why = !s ? "not simulated yet" : !s->ran ? "not simulated" : "no simulated verdict";
		return false;
	}
	if (s->acts_unknown_work >= s->activations) {
		/* no activations, or an input without CPU times (every one's work unknown): nothing simulated */
		*why = "no CPU times to simulate";
		return false;
	}
	if (!f) {
		*why = "a bogoWatt EM has no energy unit";
		return false;
	}
	const struct fs_sim_verdict *S = &s->answer.v[v];

	out->delta_fj = (fs_fj_t)S->delta_x * f;
	out->units = S->blocks;
	out->block_ns = S->block_ns;
	if (!isnan(S->lo)) { /* EM unit x s -> unit x ns -> fJ */
		out->lo_fj = (fs_fj_t)(S->lo * 1e9 * (double)f);
		out->hi_fj = (fs_fj_t)(S->hi * 1e9 * (double)f);
	} else { /* fewer than FS_VERDICT_MIN_UNITS blocks: "too short to tell" */
		out->lo_fj = out->hi_fj = out->delta_fj;
	}
	out->measurable = fs_verdict_has_interval(out) && (out->lo_fj > 0 || out->hi_fj < 0);
	*why = NULL;
	return true;
}
