// SPDX-License-Identifier: GPL-2.0
/*
 * feec of v5.4 - v5.19 (eb92692b2544 "Speed-up energy-aware wake-ups"):
 * energies per PD as deltas against that PD's base energy; the base joins
 * the margin: move iff prev_d - best_d > (prev_d + base) >> 4. The rules pick
 * the stable range: v5.4.0 sums the base of EVERY PD, lets prev compete for
 * max spare and wraps the deltas; v5.14+ (8d4c97c105ca, 619e090c8e40) sums
 * only candidate PDs, excludes prev and keeps prev when an energy falls below
 * its base. Late 5.10.y / 5.15.y add the 6.2 uclamp backports.
 *
 * A deliberate per-version copy: this body follows its kernel range's
 * find_energy_efficient_cpu() line for line (the feec_v*.c files share
 * only what feec_common.c holds).
 */
#include "top2.h"
#include "util.h"

/*
 * compute_energy(p, dst, pd) of v5.4 - v5.19: busy time from ENERGY_UTIL,
 * frequency from FREQUENCY_UTIL with p's clamps on dst; max is the arch
 * capacity of the PD's first CPU (online or not). v5.12+ counts p on dst as
 * util_running; v5.14+ clamps both per CPU at that capacity minus the first
 * CPU's thermal pressure and hands it to em_cpu_energy() as the allowed cap.
 *
 * cpu_util_next(cpu, p, dst) takes one value when dst is the CPU and another
 * for every other dst (-1 included), so a wake-up's PD is scanned once
 * (pd_scan) without p, and compute_energy(dst) is that sum with dst's term
 * swapped and the max of dst's own value and the others' (top two): the same
 * integers as the kernel's loop over the PD for each dst. The same pass runs
 * the candidate scan, which reads cpu_util_next(cpu, p, cpu) of each CPU.
 */
struct pd_energy {
	int pdi;
	__u64 cpus;                /* the PD's online CPUs */
	__u64 cpu_cap, tcap;       /* arch cap of the first CPU; minus its thermal pressure (v5.14+) */
	__u64 sum;                 /* sum of ENERGY utils, p nowhere */
	struct fs_top2 freq;       /* the two largest FREQUENCY utils, p nowhere */
	__u64 e_off[FS_MAX_CPUS];  /* each CPU's ENERGY util, p elsewhere */
	__u64 u_off[FS_MAX_CPUS];  /* cpu_util_next(cpu, p, -1) */
	__u64 u_on[FS_MAX_CPUS];   /* cpu_util_next(cpu, p, cpu) */
};

/* v5.14+: per CPU at most the thermally capped capacity. */
static __u64 thermal_clamp(const struct fs_feec_ctx *c, const struct pd_energy *pe, __u64 u)
{
	return c->r->energy_thermal_cap && u > pe->tcap ? pe->tcap : u;
}

/*
 * The fit test of one CPU. The stable form max-aggregates the rq clamps into
 * umin and umax, which start from p's clamps per PD and carry over to the
 * PD's later CPUs whose rq is idle (e26fd28db828 as backported).
 */
static bool cpu_fits(const struct fs_feec_ctx *c, int cpu, __u64 util, __u64 cap, __u64 *umin,
		     __u64 *umax)
{
	const struct fs_cpu *rq = &c->w->cpu[cpu];

	switch (c->r->fit) {
	case FS_FIT_PLAIN:
		return fs_fits_capacity(util, cap);
	case FS_FIT_UCLAMP_UTIL:
		return fs_fits_capacity(fs_uclamp_rq_util_with(c, cpu, util, true), cap);
	case FS_FIT_STABLE_UCLAMP:
	default:
		if (c->uclamp_used && !(rq->flags & FS_CPU_UCLAMP_IDLE)) {
			*umin = rq->uclamp_min > c->p_min ? rq->uclamp_min : c->p_min;
			*umax = rq->uclamp_max > c->p_max ? rq->uclamp_max : c->p_max;
		}
		return fs_util_fits_cpu_stable(c, util, *umin, *umax, cpu);
	}
}

/*
 * One pass over a PD's online CPUs, lowest first: the energy sums without p
 * and the candidate scan. Returns the max-spare CPU (-1: none), sets *prev_in.
 */
static int pd_scan(const struct fs_feec_ctx *c, int pdi, struct pd_energy *pe, bool *prev_in)
{
	const struct fs_em_pd *pd = &c->em->pd[pdi];
	const struct fs_pd_table *t = &c->t->pd[pdi];
	const int prev = c->w->prev_cpu;
	__u64 max_spare = 0, umin = c->p_min, umax = c->p_max;
	int cpu, ms = -1;

	*prev_in = false;
	pe->pdi = pdi;
	pe->cpus = pd->cpus & c->online;
	pe->cpu_cap = pe->tcap = fs_arch_cap(c, t->first_cpu);
	/* Unsigned as in the kernel (pressure never exceeds the capacity). */
	if (c->r->energy_thermal_cap)
		pe->tcap -= c->w->cpu[t->first_cpu].thermal_pressure;
	pe->sum = 0;
	fs_top2_init(&pe->freq);
	fs_for_each_cpu(cpu, pe->cpus, left) {
		__u64 u_off = fs_cpu_util_next(c, cpu, -1, false), e, f;

		pe->u_off[cpu] = u_off;
		fs_effective_cpu_util_old_ef(c, cpu, u_off, pe->cpu_cap, &e, &f);
		e = thermal_clamp(c, pe, e);
		f = thermal_clamp(c, pe, f);
		pe->e_off[cpu] = e;
		pe->sum += e;
		fs_top2_add(&pe->freq, cpu, f);

		if (!(c->cand_mask & (1ull << cpu)))
			continue;
		__u64 util = fs_cpu_util_next(c, cpu, cpu, false);
		__u64 cap = fs_capacity_of(c, cpu);
		/* v5.4 - v5.9 wrap when a uclamp fit let util exceed cap. */
		__u64 spare = c->r->spare_lsub ? fs_lsub(cap, util) : cap - util;

		pe->u_on[cpu] = util;
		if (!cpu_fits(c, cpu, util, cap, &umin, &umax))
			continue;
		if (cpu == prev) {
			*prev_in = true;
			/* v5.14+: prev is a candidate of its own, never the max-spare one. */
			if (c->r->scan == FS_SCAN_CANDIDATE_BASE)
				continue;
		}
		/* v5.4 - v5.13: when prev wins, no other CPU of its PD is evaluated. */
		if (spare > max_spare) {
			max_spare = spare;
			ms = cpu;
		}
	}
	return ms;
}

/* compute_energy(p, dst, pd): dst -1 is the base; else a candidate pd_scan() met. */
static __u64 compute_energy(const struct fs_feec_ctx *c, const struct pd_energy *pe, int dst)
{
	const struct fs_pd_table *t = &c->t->pd[pe->pdi];
	__u64 sum = pe->sum, max = pe->freq.v[0];

	if (dst >= 0) {
		__u64 util_freq = pe->u_on[dst], util_run = util_freq;
		/* max(cpu, cpu_est) + max(task, task_est), not max of the sums */
		if (c->r->util_running)
			util_run = pe->u_off[dst] + c->task_util_est;
		__u64 e = fs_effective_cpu_util_old(c, dst, util_run, pe->cpu_cap, FS_ENERGY_UTIL, false);
		__u64 f = fs_effective_cpu_util_old(c, dst, util_freq, pe->cpu_cap, FS_FREQUENCY_UTIL, true);

		sum = sum - pe->e_off[dst] + thermal_clamp(c, pe, e);
		max = fs_top2_without(&pe->freq, dst);
		f = thermal_clamp(c, pe, f);
		if (f > max)
			max = f;
	}
	return fs_em_energy(c->r, t, max, sum, pe->tcap);
}

void fs_feec_v5_4(const struct fs_feec_ctx *c, struct fs_feec_result *out)
{
	const int prev = c->w->prev_cpu;
	const bool cand_base = c->r->scan == FS_SCAN_CANDIDATE_BASE;
	__u64 prev_delta = UINT64_MAX, best_delta = UINT64_MAX, base_energy = 0;
	int best = prev;
	bool any = false;

	if (fs_feec_entry_exit(c, out))
		return;
	/* Dead before the v5.13 flag move (_task_util_est() ORs bit 0); the
	 * 6.2 series backport also keeps going for a uclamp_min boost. */
	if (fs_feec_zero_util_exit(c, out, !c->task_util_est && !(c->r->zero_exit_uclamp_min && c->p_min)))
		return;

	for (int i = c->em->nr_pd - 1; i >= 0; i--) {
		struct pd_energy pe;
		bool prev_in;
		int ms = pd_scan(c, i, &pe, &prev_in);

		if (cand_base && ms < 0 && !prev_in)
			continue; /* v5.14+: this PD adds nothing to the base */
		__u64 base_pd = compute_energy(c, &pe, -1);
		base_energy += base_pd;

		if (prev_in) {
			__u64 e = compute_energy(c, &pe, prev);
			fs_feec_add_cand(out, prev, i, 1, e, base_pd,
					 cand_base && e < base_pd ? 0 : e - base_pd);
			any = true;
			if (cand_base && e < base_pd)
				goto util_changed;
			prev_delta = e - base_pd; /* v5.4 - v5.13: wraps below the base */
			if (prev_delta < best_delta)
				best_delta = prev_delta;
		}
		if (ms >= 0 && ms != prev) {
			__u64 e = compute_energy(c, &pe, ms);
			fs_feec_add_cand(out, ms, i, 1, e, base_pd, cand_base && e < base_pd ? 0 : e - base_pd);
			any = true;
			if (cand_base && e < base_pd)
				goto util_changed;
			__u64 cur = e - base_pd;
			if (cur < best_delta) {
				best_delta = cur;
				best = ms;
			}
		}
	}

	fs_feec_conclude(c, out, base_energy, prev_delta, best_delta,
			 (struct fs_feec_rule_in){ .valid = true, .prev = prev, .best = any ? best : -1 });
	return;

util_changed:
	fs_feec_util_changed(out, prev, base_energy, prev_delta, best_delta);
}
