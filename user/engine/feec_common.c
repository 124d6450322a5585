// SPDX-License-Identifier: GPL-2.0
/* Pieces every feec era shares: the task's synced utilization, CPU masks, entry gates, result bookkeeping. */
#include <string.h>
#include "feec_ctx.h"
#include "pelt.h"
#include "util.h"

void fs_feec_ctx_init(struct fs_feec_ctx *c, const struct fs_em *em, const struct fs_wakeup *w,
		      const struct fs_feec_rules *r, const struct fs_era_tables *t)
{
	__u64 ue;

	memset(c, 0, sizeof(*c));
	c->em = em;
	c->w = w;
	c->r = r;
	c->t = t;
	/* sync_entity_load_avg(&p->se) runs before any utilization is read. */
	c->task_util = fs_sync_entity_util_avg(&w->task);
	if (r->boost_task_runnable)
		c->task_runnable = fs_sync_entity_runnable_avg(&w->task);
	ue = w->task.util_est_ewma > w->task.util_est_enqueued ? w->task.util_est_ewma
							       : w->task.util_est_enqueued;
	/* v4.17 - v5.12 OR UTIL_AVG_UNCHANGED (bit 0) into _task_util_est(). */
	if (r->ue_flag == FS_UE_BIT0_OR)
		ue |= 1;
	c->task_ue = ue;
	c->task_util_est = c->task_util > ue ? c->task_util : ue;
	c->uclamp_used = w->flags & FS_WAKE_UCLAMP_USED;
	c->util_est_on = !(w->flags & FS_WAKE_UTIL_EST_OFF);
	c->p_min = c->uclamp_used ? w->task.uclamp_min : 0;
	c->p_max = c->uclamp_used ? w->task.uclamp_max : FS_SCHED_CAPACITY_SCALE;
	/* The CPU predicates as masks (struct fs_feec_ctx), for the bodies' per-PD loops. */
	int n = w->hdr.nr_cpus < em->nr_cpus ? w->hdr.nr_cpus : em->nr_cpus;
	__u64 in_sd = 0;
	if (n > FS_MAX_CPUS)
		n = FS_MAX_CPUS;
	for (int i = 0; i < n; i++) {
		__u32 f = w->cpu[i].flags;
		c->online |= (__u64)!!(f & FS_CPU_ONLINE) << i;
		in_sd |= (__u64)!!(f & FS_CPU_IN_SD) << i;
	}
	if (w->flags & FS_WAKE_EAS_UNKNOWN) { /* every online CPU with a PD */
		in_sd = 0;
		for (int p = 0; p < em->nr_pd; p++)
			in_sd |= em->pd[p].cpus;
	}
	c->cand_mask = c->online & in_sd & w->cpus_allowed;
}

static bool em_is_asym(const struct fs_em *em)
{
	for (int i = 1; i < em->nr_cpus; i++)
		if (em->capacity[i] != em->capacity[0])
			return true;
	return false;
}

bool fs_feec_entry_exit(const struct fs_feec_ctx *c, struct fs_feec_result *out)
{
	const struct fs_wakeup *w = c->w;

	out->cpu = -1;
	out->best_cpu = -1;
	out->prev_delta = UINT64_MAX;
	out->best_delta = UINT64_MAX;
	out->task_util = (__u32)c->task_util_est;
	if (w->flags & FS_WAKE_FORK) {
		out->reason = FS_FEEC_FORK; /* WF_FORK never reaches feec */
		return true;
	}
	if (w->nr_cpus_allowed == 1) {
		out->reason = FS_FEEC_AFFINE; /* select_task_rq() skips the class hook */
		return true;
	}
	/*
	 * v6.6+ select_task_rq_fair(): a WF_TTWU wake-up with WF_CURRENT_CPU
	 * returns the waker's CPU when p may run there, before the EAS test
	 * (sched_energy_enabled() in 6.6 - 6.9, is_rd_overutilized() from
	 * 6.10; read in 6.6.9, 6.12, 6.19, 7.1.3) and so before feec's own
	 * gates. The caller is the live kernel's: every policy takes it.
	 */
	if (w->flags & FS_WAKE_CURRENT_CPU) {
		out->reason = FS_FEEC_CURRENT_CPU;
		return true;
	}
	if ((w->flags & FS_WAKE_NO_PD) || c->em->nr_pd == 0) {
		out->reason = FS_FEEC_NO_PD;
		return true;
	}
	/* <= v6.9 tested inside feec, v6.10+ by select_task_rq_fair(): same outcome.
	 * Emulated gates: this era's cpu_overutilized() on the landscape. */
	if ((w->flags & FS_WAKE_OU_EMULATED) ? fs_rd_overutilized(c) : (w->flags & FS_WAKE_OVERUTILIZED)) {
		out->reason = FS_FEEC_OVERUTILIZED;
		return true;
	}
	bool no_asym = (w->flags & FS_WAKE_EAS_UNKNOWN) ? !em_is_asym(c->em)
							: (w->flags & FS_WAKE_NO_ASYM);
	if (no_asym || w->prev_cpu < 0 || w->prev_cpu >= FS_MAX_CPUS) {
		out->reason = FS_FEEC_NO_ASYM;
		return true;
	}
	return false;
}

/* Final classification shared by every era's rule; sets out->cpu too. */
static void conclude(struct fs_feec_result *out, int prev_cpu, int best_cpu, bool move,
		     bool margin_rule)
{
	out->eligible = true;
	/* best_delta = min(best_delta, prev_delta): on a tie the kernel's
	 * best_energy_cpu may name an earlier PD's CPU, but prev is as cheap. */
	if (out->prev_delta != UINT64_MAX && out->best_delta == out->prev_delta)
		best_cpu = prev_cpu;
	out->best_cpu = best_cpu;
	if (best_cpu < 0) {
		out->cpu = prev_cpu;
		out->reason = FS_FEEC_NO_CANDIDATE;
		return;
	}
	if (out->prev_delta == UINT64_MAX) {
		out->cpu = move ? best_cpu : prev_cpu;
		out->reason = move ? FS_FEEC_PREV_UNFIT : FS_FEEC_NO_CANDIDATE;
		return;
	}
	if (move && best_cpu != prev_cpu) {
		out->cpu = best_cpu;
		out->reason = FS_FEEC_MOVED;
		return;
	}
	out->cpu = prev_cpu;
	if (best_cpu == prev_cpu || out->best_delta >= out->prev_delta)
		out->reason = FS_FEEC_PREV_BEST;
	else
		out->reason = margin_rule ? FS_FEEC_MARGIN_KEPT : FS_FEEC_PREV_BEST;
}

/*
 * v6.4+ / 6.1.y: a better util_fits_cpu() level (or, both missing uclamp_min,
 * more actual capacity) moves p whatever the energy; energy decides only
 * between fully fitting CPUs.
 */
static void decide_fits(struct fs_feec_result *out, bool margin, bool energy_ok)
{
	const struct fs_feec_rule_in *in = &out->in;
	const bool prev_known = out->prev_delta != UINT64_MAX;
	bool by_fits = in->best_fits > in->prev_fits ||
		       (in->best_fits < 0 && in->best_cap > in->prev_cap);
	bool by_energy = in->best_fits > 0 && energy_ok;
	int best = in->best;
	bool move = best >= 0 && (by_fits || by_energy);

	if (best < 0 && prev_known)
		best = in->prev;
	if (move && !by_energy && prev_known) {
		/* The fits levels moved p: best_energy_cpu is returned even when
		 * best_delta, min'ed with prev_delta, ties it. */
		out->eligible = true;
		out->best_cpu = best;
		out->cpu = best;
		out->reason = FS_FEEC_FITS_RULE;
		return;
	}
	conclude(out, in->prev, best, move, margin);
	/* The fits levels, not the energy, kept prev. */
	if (!move && best >= 0 && best != in->prev && out->best_delta < out->prev_delta &&
	    in->best_fits <= 0)
		out->reason = FS_FEEC_FITS_RULE;
}

void fs_feec_decide(const struct fs_feec_rules *r, struct fs_feec_result *out)
{
	const struct fs_feec_rule_in *in = &out->in;
	const __u64 prev_d = out->prev_delta, best_d = out->best_delta;
	const bool margin = r->margin != FS_MARGIN_NONE;
	/* best_d <= prev_d whenever prev was evaluated (best is min'ed with
	 * it), so "saving > threshold" implies "best_d < prev_d". */
	bool energy_ok = best_d < prev_d;
	int best = in->best;

	if (margin && prev_d != UINT64_MAX) {
		/* v5.0 - v5.3: prev's system energy; v5.4+: prev's delta plus the base. */
		__u64 ref = r->margin == FS_MARGIN_PREV_ENERGY ? prev_d : prev_d + out->base_energy;

		out->threshold = ref >> r->margin_shift;
		out->has_threshold = true;
		energy_ok = energy_ok && prev_d - best_d > out->threshold;
	}
	if (r->fits_levels) {
		decide_fits(out, margin, energy_ok);
		return;
	}
	/* Prev unfit or not allowed: take the best, if any (conclude says which). */
	bool move = prev_d == UINT64_MAX || energy_ok;
	/* v6.0: prev was the only, hence cheapest, candidate. */
	if (best < 0 && prev_d != UINT64_MAX)
		best = in->prev;
	conclude(out, in->prev, best, move, margin);
}

static void set_figures(struct fs_feec_result *out, __u64 base, __u64 prev_delta, __u64 best_delta)
{
	out->base_energy = base;
	out->prev_delta = prev_delta;
	out->best_delta = best_delta;
}

void fs_feec_conclude(const struct fs_feec_ctx *c, struct fs_feec_result *out, __u64 base, __u64 prev_delta,
		      __u64 best_delta, struct fs_feec_rule_in in)
{
	set_figures(out, base, prev_delta, best_delta);
	out->in = in;
	fs_feec_decide(c->r, out);
}

void fs_feec_util_changed(struct fs_feec_result *out, int prev, __u64 base, __u64 prev_delta, __u64 best_delta)
{
	set_figures(out, base, prev_delta, best_delta);
	out->eligible = true;
	out->cpu = prev;
	out->reason = FS_FEEC_UTIL_CHANGED;
}
