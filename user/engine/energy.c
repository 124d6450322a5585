// SPDX-License-Identifier: GPL-2.0
/*
 * EM cost tables per era (kernel/power/energy_model.c em_create_perf_table /
 * em_compute_costs) and the energy estimate of one PD
 * (include/linux/energy_model.h em_pd_energy / em_cpu_energy).
 */
#include <stdio.h>
#include <string.h>
#include "energy.h"
#include "state_lut.h"

__u64 fs_era_power(const struct fs_em *em, const struct fs_em_ps *ps, const struct fs_feec_rules *r)
{
	if (em->unit == FS_POWER_BOGO)
		return ps->power; /* abstract scale: no conversion makes sense */
	if (r->unit_uw)
		return em->unit == FS_POWER_MW ? ps->power * 1000 : ps->power;
	return em->unit == FS_POWER_UW ? ps->power / 1000 : ps->power;
}

/*
 * The era's state search for a key (see FS_STATE_LUT), from state `from`:
 * every state below it must already fail the key (the table build passes a
 * smaller key's answer: the wanted frequency or performance never falls as
 * the key grows, so a state that failed once fails again).
 */
static int search_state_from(const struct fs_pd_table *t, enum fs_energy_fn fn, __u64 key, int from)
{
	__u64 fmax = t->freq[t->nr - 1];
	int i;

	switch (fn) {
	case FS_EM_PD_ENERGY_5_0: {
		/* map_util_freq() of v5.0 - v5.13: headroom on the frequency, then scale;
		 * first state at or above it, never skipping. */
		__u64 freq = (fmax + (fmax >> 2)) * key / t->scale_cpu;
		for (i = from; i < t->nr - 1; i++)
			if (t->freq[i] >= freq)
				break;
		return i;
	}
	case FS_EM_CPU_ENERGY_5_14:
	case FS_EM_CPU_ENERGY_6_9:
	default: {
		/* em_pd_get_efficient_state(): by frequency in v5.16 - v6.8 (v5.14/15
		 * never skip), by performance from v6.9. v6.13+ min/max_perf_state
		 * window is the full table unless a vendor module calls
		 * em_update_performance_limits() (none in tree to v7.1). */
		const bool by_freq = fn == FS_EM_CPU_ENERGY_5_14;
		const __u64 *col = by_freq ? t->freq : t->perf;
		const __u64 want = by_freq ? fmax * key / t->scale_cpu : key;

		for (i = from; i < t->nr; i++) {
			if (col[i] < want)
				continue;
			if (t->skip_inefficient && t->inefficient[i])
				continue;
			return i;
		}
		return t->nr - 1;
	}
	}
}

int fs_pd_table_search(const struct fs_pd_table *t, enum fs_energy_fn fn, __u64 key)
{
	return search_state_from(t, fn, key, 0);
}

/*
 * Whether the wanted value grows with the key over the whole table: true
 * unless the era's frequency product wraps in 64 bits (a fuzzed or absurd EM),
 * where each key is searched from state 0 as state_of() would.
 */
static bool want_monotone(const struct fs_pd_table *t, enum fs_energy_fn fn)
{
	__u64 fmax = t->freq[t->nr - 1], f, x;

	switch (fn) {
	case FS_EM_PD_ENERGY_5_0:
		return !__builtin_add_overflow(fmax, fmax >> 2, &f) &&
		       !__builtin_mul_overflow(f, (__u64)FS_STATE_LUT, &x);
	case FS_EM_CPU_ENERGY_5_14:
		return !__builtin_mul_overflow(fmax, (__u64)FS_STATE_LUT, &x);
	default:
		return true;
	}
}

/* The table's search (fs_state_lut_fill): its own era's. */
static int lut_search(const void *table, __u64 key, int from)
{
	const struct fs_pd_table *t = table;

	return search_state_from(t, t->energy, key, from);
}

/* The table answers for the era it was built for; anything else searches. */
static int state_of(const struct fs_pd_table *t, enum fs_energy_fn fn, __u64 key)
{
	return key < FS_STATE_LUT && fn == t->energy ? t->state_lut[key] : fs_pd_table_search(t, fn, key);
}

int fs_em_cost_form(const struct fs_em *em)
{
	bool perf = false;

	for (int i = 0; i < em->nr_pd; i++)
		for (int s = 0; s < em->pd[i].nr_ps; s++) {
			if (!em->pd[i].ps[s].cost)
				return -1;
			perf |= em->pd[i].ps[s].performance != 0;
		}
	if (!em->nr_pd || perf)
		return em->nr_pd ? FS_COST_UW_PERF : -1;
	if (em->unit == FS_POWER_UW)
		return FS_COST_UW;
	/* mW: 5.15 - 5.19 (and 5.10.65+) scale power by 1000 before the division. */
	const struct fs_em_pd *pd = &em->pd[0];
	const struct fs_em_ps *top = &pd->ps[pd->nr_ps - 1];
	return top->cost >= 100 * top->power ? FS_COST_MW_X1000 : FS_COST_MW;
}

/*
 * ARTIFICIAL and runtime-modified tables are not derivable: costs as read,
 * flags too (else em_compute_costs()'s rule on those costs).
 */
static void costs_as_read(const struct fs_em_pd *pd, const struct fs_feec_rules *r, struct fs_pd_table *pt)
{
	__u64 prev_cost = UINT64_MAX;

	for (int s = pd->nr_ps - 1; s >= 0; s--) {
		pt->cost[s] = pd->ps[s].cost;
		if (pd->has_inefficient)
			pt->inefficient[s] = r->mark_inefficient && pd->ps[s].inefficient;
		else if (r->mark_inefficient && pt->cost[s] >= prev_cost)
			pt->inefficient[s] = true;
		else
			prev_cost = pt->cost[s];
	}
}

/*
 * em_compute_costs() walks from the fastest state down (v5.16+ marks a
 * state inefficient when a faster one is no more expensive).
 */
static int compute_costs(const struct fs_em *em, const struct fs_em_pd *pd, const struct fs_feec_rules *r,
			 struct fs_pd_table *pt, char *err, size_t errlen)
{
	__u64 fmax = pd->ps[pd->nr_ps - 1].frequency;
	__u64 prev_cost = UINT64_MAX;

	for (int s = pd->nr_ps - 1; s >= 0; s--) {
		__u64 c;

		switch (r->cost) {
		case FS_COST_MW:        /* v5.0 - v5.14 */
		case FS_COST_UW:        /* v6.0 - v6.8 */
			c = fmax * pt->power[s] / pt->freq[s];
			break;
		case FS_COST_MW_X1000:  /* v5.15 - v5.19: em_scale_power() on 64-bit */
			c = fmax * (pt->power[s] * 1000) / pt->freq[s];
			break;
		case FS_COST_UW_PERF:   /* v6.9+: "increase resolution" by 10 */
		default:
			if (!pt->perf[s]) {
				snprintf(err, errlen, "EM %s: %s: state %d has performance 0 (frequency %llu kHz too low for capacity %llu)",
					 em->source, pd->name, s, (unsigned long long)pt->freq[s],
					 (unsigned long long)pt->scale_cpu);
				return -1;
			}
			c = pt->power[s] * 10 / pt->perf[s];
			break;
		}
		pt->cost[s] = c;
		if (r->mark_inefficient && c >= prev_cost)
			pt->inefficient[s] = true;
		else
			prev_cost = c;
	}
	return 0;
}

/* Each state's frequency, power and (v6.9+) performance; 0, or -1 for a state at 0 kHz. */
static int fill_states(const struct fs_em *em, const struct fs_em_pd *pd, const struct fs_feec_rules *r,
		       bool as_read, struct fs_pd_table *pt, char *err, size_t errlen)
{
	__u64 fmax = pd->ps[pd->nr_ps - 1].frequency;

	for (int s = 0; s < pd->nr_ps; s++) {
		pt->freq[s] = pd->ps[s].frequency;
		pt->power[s] = fs_era_power(em, &pd->ps[s], r);
		if (!pt->freq[s]) {
			snprintf(err, errlen, "EM %s: %s: state %d has frequency 0", em->source, pd->name, s);
			return -1;
		}
		/* v6.9+ em_init_performance(): arch capacity scaled by f / fmax. */
		pt->perf[s] = r->cost == FS_COST_UW_PERF ? pt->scale_cpu * pt->freq[s] / fmax : 0;
		if (as_read && pd->ps[s].performance)
			pt->perf[s] = pd->ps[s].performance;
	}
	return 0;
}

/* One PD's table for this era. */
static int build_pd_table(const struct fs_em *em, const struct fs_em_pd *pd, const struct fs_feec_rules *r,
			  bool as_read, struct fs_pd_table *pt, char *err, size_t errlen)
{
	int first = fs_em_pd_first_cpu(pd);

	if (pd->nr_ps <= 0 || pd->nr_ps > FS_MAX_PS || first < 0 || first >= FS_MAX_CPUS) {
		snprintf(err, errlen, "EM %s: %s: no performance states or no CPUs", em->source, pd->name);
		return -1;
	}
	pt->nr = pd->nr_ps;
	pt->first_cpu = first;
	pt->scale_cpu = em->capacity[first];
	/* The flag only exists from v5.16 on; older kernels never skip. */
	pt->skip_inefficient = r->mark_inefficient && (pd->flags & FS_EM_PD_SKIP_INEFFICIENT);
	if (!pt->scale_cpu) {
		snprintf(err, errlen, "EM %s: %s: capacity of cpu%d is 0", em->source, pd->name, first);
		return -1;
	}
	if (fill_states(em, pd, r, as_read, pt, err, errlen))
		return -1;
	if (as_read)
		costs_as_read(pd, r, pt);
	else if (compute_costs(em, pd, r, pt, err, errlen))
		return -1;
	pt->energy = r->energy;
	if (want_monotone(pt, r->energy)) {
		fs_state_lut_fill(pt->state_lut, FS_STATE_LUT, lut_search, pt);
	} else {
		for (__u64 k = 0; k < FS_STATE_LUT; k++)
			pt->state_lut[k] = (__u8)search_state_from(pt, r->energy, k, 0);
	}
	return 0;
}

int fs_energy_build_tables(const struct fs_em *em, const struct fs_feec_rules *r,
			   struct fs_era_tables *t, char *err, size_t errlen)
{
	/* The kernel's own numbers where this era holds them in the same form. */
	const bool as_read = em->cost_as_read && fs_em_cost_form(em) == (int)r->cost;

	memset(t, 0, sizeof(*t));
	t->nr_pd = em->nr_pd;
	for (int i = 0; i < em->nr_pd; i++)
		if (build_pd_table(em, &em->pd[i], r, as_read, &t->pd[i], err, errlen))
			return -1;
	return 0;
}

__u64 fs_em_pd_energy_v5_0(const struct fs_pd_table *t, __u64 max_util, __u64 sum_util)
{
	int i = state_of(t, FS_EM_PD_ENERGY_5_0, max_util);

	return t->cost[i] * sum_util / t->scale_cpu;
}

__u64 fs_em_cpu_energy_v5_14(const struct fs_pd_table *t, __u64 max_util, __u64 sum_util,
			     __u64 allowed_cap)
{
	if (!sum_util)
		return 0;
	/* map_util_perf(): the 1.25 headroom moved onto the utilization. */
	__u64 u = max_util + (max_util >> 2);
	if (u > allowed_cap)
		u = allowed_cap;
	int i = state_of(t, FS_EM_CPU_ENERGY_5_14, u);
	return t->cost[i] * sum_util / t->scale_cpu;
}

__u64 fs_em_cpu_energy_v6_9(const struct fs_pd_table *t, __u64 max_util, __u64 sum_util,
			    __u64 allowed_cap)
{
	if (!sum_util)
		return 0;
	/* Headroom is already in max_util (sugov_effective_cpu_perf, v6.8+). */
	if (max_util > allowed_cap)
		max_util = allowed_cap;
	int i = state_of(t, FS_EM_CPU_ENERGY_6_9, max_util);
	return t->cost[i] * sum_util;
}

__u64 fs_em_energy(const struct fs_feec_rules *r, const struct fs_pd_table *t, __u64 max_util,
		   __u64 sum_util, __u64 allowed_cap)
{
	switch (r->energy) {
	case FS_EM_PD_ENERGY_5_0:
		return fs_em_pd_energy_v5_0(t, max_util, sum_util);
	case FS_EM_CPU_ENERGY_5_14:
		return fs_em_cpu_energy_v5_14(t, max_util, sum_util, allowed_cap);
	case FS_EM_CPU_ENERGY_6_9:
	default:
		return fs_em_cpu_energy_v6_9(t, max_util, sum_util, allowed_cap);
	}
}
