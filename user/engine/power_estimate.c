// SPDX-License-Identifier: GPL-2.0
/*
 * fs_system_power_uw(): a policy-independent estimate of the CPUs' power
 * with the waking task on dst_cpu, for energy accounting (docs/power-estimate.md).
 *
 * Per CPU i online:   u_i = min(cap_i, cfs_i + rt_i + dl_i + irq_i)
 *   where cfs_i = util_avg_i - task_util (i == task_cpu, saturating) + task_util_est (i == dst)
 * Per PD:             m = max u_i; state = lowest with f >= fmax * (m + m/4) / cap, else the top
 *                     busy_i = min(u_i * fmax, cap * f)              (u_i / capacity at f, <= 1)
 *                     P_pd = P_uW(state) * sum(busy_i) / (cap * f)   (floor)
 * Result:             sum over PDs of P_pd.
 * task_util / task_util_est are taken after the PELT sync, with the MSB flag rule.
 *
 * A placement only changes the PD of dst (task_cpu's PD has the task removed
 * whatever dst is), so fs_power_ctx computes every PD once without the task
 * and then one PD per asked-for dst: same sums, same per-PD floors.
 */
#include "feec_ctx.h"
#include "pelt.h"
#include "power_estimate.h"

static __u64 power_uw(const struct fs_em *em, const struct fs_em_ps *ps)
{
	return em->unit == FS_POWER_MW ? ps->power * 1000 : ps->power;
}

/* u_i of CPU i with the task on it or not. */
static inline __u64 cpu_u(const struct fs_power_ctx *x, int i, bool on, __u64 cap)
{
	const struct fs_cpu *c = &x->w->cpu[i];
	__u64 cfs = c->util_avg;

	if (i == x->w->task_cpu)
		cfs = cfs > x->task_util ? cfs - x->task_util : 0;
	if (on)
		cfs += x->task_est;
	__u64 v = cfs + c->rt_util + c->dl_util + c->irq_util;
	return v < cap ? v : cap;
}

/* Lowest state with f >= fmax * 1.25 m / cap, else the top. */
static int pd_state(const struct fs_em_pd *pd, __u64 fmax, __u64 m, __u64 cap)
{
	__u64 want = fmax * (m + (m >> 2)) / cap;
	int s;

	for (s = 0; s < pd->nr_ps - 1; s++)
		if (pd->ps[s].frequency >= want)
			break;
	return s;
}

/* pd_state() from the table where it covers m, else searched. */
static int pd_state_of(const struct fs_power_ctx *x, int pdi, __u64 fmax, __u64 m, __u64 cap)
{
	if (x->lut && m < FS_POWER_LUT)
		return x->lut->state[pdi][m];
	return pd_state(&x->em->pd[pdi], fmax, m, cap);
}

static void pd_const(const struct fs_em *em, int pdi, struct fs_power_pd_const *k)
{
	const struct fs_em_pd *pd = &em->pd[pdi];
	int first = fs_em_pd_first_cpu(pd);

	k->usable = pd->nr_ps > 0 && first >= 0 && first < FS_MAX_CPUS && em->capacity[first];
	k->cap = k->usable ? em->capacity[first] : 0;
	k->fmax = k->usable ? pd->ps[pd->nr_ps - 1].frequency : 0;
}

void fs_power_lut_build(struct fs_power_lut *lut, const struct fs_em *em)
{
	lut->em = em;
	for (int p = 0; p < em->nr_pd && p < FS_MAX_PDS; p++) {
		const struct fs_em_pd *pd = &em->pd[p];
		const struct fs_power_pd_const *k = &lut->pdc[p];

		pd_const(em, p, &lut->pdc[p]);
		for (__u64 m = 0; m < FS_POWER_LUT; m++)
			lut->state[p][m] = k->usable ? (__u8)pd_state(pd, k->fmax, m, k->cap) : 0;
	}
}

/* busy_i = u_i / capacity at f, scaled by cap * f. */
static __u64 busy_term(__u64 u, __u64 fmax, __u64 capf)
{
	__u64 b = u * fmax;
	return b < capf ? b : capf;
}

/*
 * Sum of busy_i over cpus at cap * f, where m is the largest u_i and sum_u
 * their sum: when m's term is not clipped no term is, and the sum is fmax *
 * sum_u (same integers, one multiply instead of a loop).
 */
static unsigned __int128 busy_sum(const struct fs_power_ctx *x, __u64 cpus, __u64 m, __u64 sum_u,
				  __u64 fmax, __u64 capf)
{
	unsigned __int128 busy = 0;

	if ((unsigned __int128)m * fmax <= capf)
		return (unsigned __int128)sum_u * fmax;
	for (__u64 left = cpus; left; left &= left - 1)
		busy += busy_term(x->u[__builtin_ctzll(left)], fmax, capf);
	return busy;
}

static __u64 pd_watts(const struct fs_em *em, const struct fs_em_pd *pd, int s, unsigned __int128 busy,
		      __u64 capf)
{
	__u64 pw = power_uw(em, &pd->ps[s]), prod;

	/* Same floor either way; the 64-bit division is the common, cheap case. */
	if (busy <= UINT64_MAX && !__builtin_mul_overflow(pw, (__u64)busy, &prod))
		return prod / capf;
	return (__u64)((unsigned __int128)pw * busy / capf);
}

/* P_pd with the task nowhere; keeps what fs_power_ctx_at() reuses. */
static __u64 pd_base(struct fs_power_ctx *x, int pdi)
{
	const struct fs_em *em = x->em;
	const struct fs_em_pd *pd = &em->pd[pdi];
	struct fs_power_pd *b = &x->pd[pdi];
	struct fs_power_pd_const k;

	if (x->lut)
		k = x->lut->pdc[pdi];
	else
		pd_const(em, pdi, &k);
	b->cpus = pd->cpus & x->online;
	b->usable = k.usable && b->cpus;
	if (!b->usable)
		return 0;
	b->cap = k.cap;
	b->fmax = k.fmax;
	fs_top2_init(&b->top);
	b->sum_u = 0;
	for (__u64 left = b->cpus; left; left &= left - 1) {
		int i = __builtin_ctzll(left);
		__u64 u = cpu_u(x, i, false, b->cap);

		x->u[i] = u;
		b->sum_u += u;
		fs_top2_add(&b->top, i, u);
	}
	int s = pd_state_of(x, pdi, b->fmax, b->top.v[0], b->cap);
	__u64 f = pd->ps[s].frequency;
	b->state = s;
	b->busy = 0;
	if (!f)
		return 0;
	b->busy = busy_sum(x, b->cpus, b->top.v[0], b->sum_u, b->fmax, b->cap * f);
	return pd_watts(em, pd, s, b->busy, b->cap * f);
}

/*
 * P_pd with the task on dst, a CPU of the PD: only u_dst differs from the
 * base, so m is u_dst against the others' top, and at the base's state the
 * busy sum swaps one term.
 */
static __u64 pd_with_task(const struct fs_power_ctx *x, int pdi, int dst)
{
	const struct fs_em_pd *pd = &x->em->pd[pdi];
	const struct fs_power_pd *b = &x->pd[pdi];
	__u64 u = cpu_u(x, dst, true, b->cap);
	__u64 m = fs_top2_without(&b->top, dst);

	if (u > m)
		m = u;
	int s = pd_state_of(x, pdi, b->fmax, m, b->cap);
	__u64 f = pd->ps[s].frequency;
	if (!f)
		return 0;
	__u64 capf = b->cap * f;
	unsigned __int128 busy;
	if (s == b->state) {
		busy = b->busy - busy_term(x->u[dst], b->fmax, capf) + busy_term(u, b->fmax, capf);
	} else if ((unsigned __int128)m * b->fmax <= capf) {
		busy = (unsigned __int128)(b->sum_u - x->u[dst] + u) * b->fmax;
	} else {
		busy = busy_term(u, b->fmax, capf);
		for (__u64 left = b->cpus & ~(1ull << dst); left; left &= left - 1)
			busy += busy_term(x->u[__builtin_ctzll(left)], b->fmax, capf);
	}
	return pd_watts(x->em, pd, s, busy, capf);
}

void fs_power_ctx_init(struct fs_power_ctx *x, const struct fs_em *em, const struct fs_wakeup *w)
{
	fs_power_ctx_init_lut(x, em, w, NULL);
}

void fs_power_ctx_init_lut(struct fs_power_ctx *x, const struct fs_em *em, const struct fs_wakeup *w,
			   const struct fs_power_lut *lut)
{
	__u64 ue = w->task.util_est_ewma > w->task.util_est_enqueued ? w->task.util_est_ewma
								     : w->task.util_est_enqueued;
	x->em = em;
	x->lut = lut && lut->em == em ? lut : NULL;
	x->w = w;
	x->task_util = fs_sync_entity_util_avg(&w->task);
	x->task_est = x->task_util > ue ? x->task_util : ue;
	x->online = 0;
	for (int i = 0; i < w->hdr.nr_cpus && i < FS_MAX_CPUS; i++)
		x->online |= (__u64)!!(w->cpu[i].flags & FS_CPU_ONLINE) << i;
	x->base_total = 0;
	for (int p = 0; p < em->nr_pd; p++) {
		x->base_pd[p] = pd_base(x, p);
		x->base_total += x->base_pd[p];
	}
}

__u64 fs_power_ctx_at(const struct fs_power_ctx *x, int dst_cpu)
{
	if (dst_cpu < 0 || dst_cpu >= FS_MAX_CPUS || dst_cpu >= x->em->nr_cpus)
		return x->base_total;
	int p = x->em->cpu_pd[dst_cpu];
	/* No PD, an offline dst or an unusable PD: the task adds nothing. */
	if (p < 0 || !x->pd[p].usable || !(x->pd[p].cpus & (1ull << dst_cpu)))
		return x->base_total;
	return x->base_total - x->base_pd[p] + pd_with_task(x, p, dst_cpu);
}

/* The state pd_with_task() would pick for dst, without its busy sum. */
static int state_with_task(const struct fs_power_ctx *x, int pdi, int dst)
{
	const struct fs_power_pd *b = &x->pd[pdi];
	__u64 u = cpu_u(x, dst, true, b->cap), m = fs_top2_without(&b->top, dst);

	return pd_state_of(x, pdi, b->fmax, u > m ? u : m, b->cap);
}

int fs_power_ctx_state_at(const struct fs_power_ctx *x, int cpu)
{
	int p = cpu >= 0 && cpu < x->em->nr_cpus && cpu < FS_MAX_CPUS ? x->em->cpu_pd[cpu] : -1;

	if (p < 0 || !x->pd[p].usable || !(x->pd[p].cpus & (1ull << cpu)))
		return -1;
	return state_with_task(x, p, cpu);
}

void fs_power_ctx_window(const struct fs_power_ctx *x, int cpu, int state, __u64 *num, __u64 *den)
{
	int p = cpu >= 0 && cpu < x->em->nr_cpus && cpu < FS_MAX_CPUS ? x->em->cpu_pd[cpu] : -1;

	*num = *den = 0;
	if (p < 0 || state < 0 || !x->pd[p].usable || !x->task_est)
		return;
	__u64 f = x->em->pd[p].ps[state].frequency;
	__u64 capf = x->pd[p].cap * f, ufmax = x->task_est * x->pd[p].fmax;

	if (ufmax < capf) { /* else the task is busy all the time there: β = 1 */
		*num = capf;
		*den = ufmax;
	}
}

__u64 fs_system_power_uw(const struct fs_em *em, const struct fs_wakeup *w, int dst_cpu)
{
	struct fs_power_ctx x;

	fs_power_ctx_init(&x, em, w);
	return fs_power_ctx_at(&x, dst_cpu);
}
