// SPDX-License-Identifier: GPL-2.0
/*
 * PELT and util_est on the simulated machine: each rq's PELT clock, the
 * cfs_rq's and the tasks' sched_avg (engine/pelt.c's arithmetic), attach and
 * detach on migration, and util_est's update when a task sleeps.
 */
#include "sim_internal.h"

__u64 sim_rq_clock_pelt(const struct sim_cpu *c)
{
	return c->clock_pelt - c->lost_idle_time;
}

/*
 * update_rq_clock_pelt() (kernel/sched/pelt.h, v5.1 - v7.1): while the CPU
 * runs, its PELT clock advances by the elapsed time scaled by the CPU's
 * capacity and by f/fmax (arch_set_freq_scale()'s (f << 10) / fmax), so a
 * span of PELT time is the same amount of work everywhere; idle, it is the
 * task clock. The kernel does this whatever the physics: under LAB the
 * work takes the same time on every CPU, PELT does not know.
 */
void sim_clock_advance(struct sim *s, int cpu, __u64 dt)
{
	struct sim_cpu *c = &s->cpu[cpu];

	if (!c->nr) {
		c->clock_pelt = s->now + dt;
		return;
	}
	const struct sim_pd *pd = &s->pd[c->pd];
	__u64 fscale = (sim_pd_freq(s, c->pd) << 10) / pd->fmax;

	dt = (dt * c->cap) >> 10;
	dt = (dt * fscale) >> 10;
	c->clock_pelt += dt;
}

/*
 * update_idle_rq_clock_pelt() (v5.1 - v7.1), when the CPU goes idle: a CPU
 * that ran without a gap (util_sum at its ceiling) had no idle time its
 * scaled clock could give back, so the gap to the task clock is lost idle
 * time rather than decay; then the PELT clock rejoins the task clock.
 */
void sim_idle_enter(struct sim *s, int cpu)
{
	struct sim_cpu *c = &s->cpu[cpu];
	const __u32 divider = ((FS_LOAD_AVG_MAX - 1024) << 10) - FS_LOAD_AVG_MAX;

	if (c->avg.util_sum >= divider)
		c->lost_idle_time += s->now - c->clock_pelt;
	c->clock_pelt = s->now;
}

/*
 * update_cfs_rq_load_avg() of the root cfs_rq: weight = nr_running nice-0
 * tasks, runnable = h_nr_running, running = curr != NULL (kernel/sched/pelt.c
 * __update_load_avg_cfs_rq(), v5.7 - v7.1).
 */
void sim_rq_pelt_update(struct sim *s, int cpu)
{
	struct sim_cpu *c = &s->cpu[cpu];

	fs_pelt_update(&c->avg, sim_rq_clock_pelt(c), (__u64)c->nr * 1024, (__u64)c->nr, c->nr > 0);
}

/*
 * __update_load_avg_se() (v5.7 - v7.1): load = on_rq, runnable = on_rq,
 * running = curr == se. Averages recomputed while queued clear util_est's
 * UTIL_AVG_UNCHANGED (cfs_se_util_change()); a blocked update (a migrating
 * task's sync) does not, the enqueue's does (sim_task_pelt_enqueue()).
 */
void sim_task_pelt_update(struct sim *s, int ti)
{
	struct sim_task *t = &s->task[ti];

	if (t->cpu < 0)
		return;
	const struct sim_cpu *c = &s->cpu[t->cpu];
	const bool running = t->queued && c->nr && c->q[0] == ti;

	if (fs_pelt_update(&t->avg, sim_rq_clock_pelt(c), t->queued, t->queued, running) && t->queued)
		t->ue_unchanged = false;
}

/*
 * The enqueue's update_load_avg() (v4.17 - v7.1, kernel/sched/fair.c): a
 * task that slept on this rq is aged by __update_load_avg_se(), which clears
 * UTIL_AVG_UNCHANGED (cfs_se_util_change()) when the update crosses a PELT
 * period, whether or not the task is on_rq yet; feec's sync
 * (__update_load_avg_blocked_se()) does not. So a task that slept a period
 * or more gets its util_est updated at its next sleep however short it ran.
 * A migrated task is not aged (migrate_task_rq_fair() zeroes its
 * last_update_time; sim_attach() joins it at the rq's present), so its flag
 * stays. A task at its first wake-up in the workload also joined at the
 * present, with the workload's synced PELT: whether its sleep before
 * crossed a period is the workload's (aged_at_enqueue, from init_aged).
 */
void sim_task_pelt_enqueue(struct sim *s, int ti)
{
	struct sim_task *t = &s->task[ti];

	if (t->cpu < 0)
		return;
	if (fs_pelt_update(&t->avg, sim_rq_clock_pelt(&s->cpu[t->cpu]), 0, 0, 0) || t->aged_at_enqueue)
		t->ue_unchanged = false;
	t->aged_at_enqueue = false;
}

/*
 * attach_entity_load_avg() (v5.0 - v7.1): the task joins the cfs_rq's
 * period and clock, its sums rebuilt from its averages with the rq's
 * divider, and its averages added to the rq's. update_load_avg() brings
 * the cfs_rq to its clock first (update_cfs_rq_load_avg(), then DO_ATTACH;
 * v5.0 - v6.12 kernel/sched/fair.c), and a migrated task has no
 * last_update_time to age from (migrate_task_rq_fair() zeroes it): it joins
 * at the rq's present. That matters when the rq's PELT clock has just
 * jumped to the task clock because the CPU went idle at this instant
 * (update_idle_rq_clock_pelt()): joining at the rq's last update would
 * decay the task over that jump at its next update, as if it had slept.
 */
void sim_attach(struct sim *s, int ti, int cpu)
{
	struct sim_task *t = &s->task[ti];
	struct fs_pelt_avg *rq = &s->cpu[cpu].avg;

	sim_rq_pelt_update(s, cpu);
	const __u32 divider = fs_pelt_divider(rq);

	t->avg.last_update_time = rq->last_update_time;
	t->avg.period_contrib = rq->period_contrib;
	t->avg.util_sum = t->avg.util_avg * divider;
	t->avg.runnable_sum = (__u64)t->avg.runnable_avg * divider;
	rq->util_avg += t->avg.util_avg;
	rq->util_sum += t->avg.util_sum;
	rq->runnable_avg += t->avg.runnable_avg;
	rq->runnable_sum += t->avg.runnable_sum;
	t->cpu = cpu;
}

/*
 * A trace's root cfs_rq util_avg of the CPU (LISA's sched_pelt_cfs, the
 * first the trace gave): the rq starts from it where it is above what the
 * tasks homed there brought (sim_attach()), the rest standing for blocked
 * util of tasks the workload does not hold or starts at util 0. The sum
 * follows the average with the rq's divider, as attach_entity_load_avg()
 * rebuilds an entity's (kernel/sched/fair.c, v5.13+), so it decays from
 * there as the rq's own PELT (___update_load_avg(), kernel/sched/pelt.c).
 */
void sim_rq_traced_start(struct sim *s, int cpu, __u32 util)
{
	struct fs_pelt_avg *rq = &s->cpu[cpu].avg;

	if (util > FS_SCHED_CAPACITY_SCALE)
		util = FS_SCHED_CAPACITY_SCALE; /* a cfs_rq's util_avg is at most 1024 (PELT's ceiling) */
	if (util <= rq->util_avg)
		return;
	rq->util_sum += (util - rq->util_avg) * fs_pelt_divider(rq);
	rq->util_avg = util;
}

static __u64 lsub(__u64 a, __u64 b)
{
	return a > b ? a - b : 0;
}

/*
 * remove_entity_load_avg() + update_cfs_rq_load_avg()'s "removed" branch
 * (v5.0 - v7.1), applied at once: the task is synced to its rq's clock, its
 * averages leave the rq's (saturating), and the rq's sums follow with the
 * floor of v5.17's 98b0d890220d and 95246d1ec80b (a sum never under
 * avg x PELT_MIN_DIVIDER).
 */
void sim_detach(struct sim *s, int ti)
{
	struct sim_task *t = &s->task[ti];

	if (t->cpu < 0)
		return;
	struct fs_pelt_avg *rq = &s->cpu[t->cpu].avg;
	const __u32 divider = fs_pelt_divider(rq), min_div = FS_LOAD_AVG_MAX - 1024;

	fs_pelt_update(&t->avg, rq->last_update_time, 0, 0, 0);
	rq->util_avg = (__u32)lsub(rq->util_avg, t->avg.util_avg);
	rq->util_sum = (__u32)lsub(rq->util_sum, (__u64)t->avg.util_avg * divider);
	if (rq->util_sum < (__u64)rq->util_avg * min_div)
		rq->util_sum = rq->util_avg * min_div;
	rq->runnable_avg = (__u32)lsub(rq->runnable_avg, t->avg.runnable_avg);
	rq->runnable_sum = lsub(rq->runnable_sum, (__u64)t->avg.runnable_avg * divider);
	if (rq->runnable_sum < (__u64)rq->runnable_avg * min_div)
		rq->runnable_sum = (__u64)rq->runnable_avg * min_div;
	t->cpu = -1;
}

/* _task_util_est(): the larger of ewma and enqueued, bit 0 set until v5.12. */
__u32 sim_task_ue(const struct sim *s, int ti)
{
	const struct sim_task *t = &s->task[ti];
	__u32 ue = t->ue_ewma > t->ue_enqueued ? t->ue_ewma : t->ue_enqueued;

	return s->k.ue_bit0 ? ue | 1 : ue;
}

/* task_util_est(): max(util_avg, _task_util_est()) (v4.17 - v7.1). */
__u32 sim_task_util_est(const struct sim *s, int ti)
{
	const __u32 ue = sim_task_ue(s, ti), u = s->task[ti].avg.util_avg;

	return u > ue ? u : ue;
}

/*
 * cfs_rq->avg.util_est(.enqueued): util_est_enqueue() adds each queued
 * task's _task_util_est() and util_est_dequeue() takes it back; a queued
 * task's util_est does not change (util_est_update() runs after the dequeue).
 */
__u64 sim_cpu_util_est(const struct sim *s, int cpu)
{
	return s->cpu[cpu].util_est;
}

/* cpu_util_cfs() (v5.0 - v7.1): max(util_avg, util_est), at most the CPU's capacity. */
__u64 sim_cpu_util_cfs(const struct sim *s, int cpu)
{
	const struct sim_cpu *c = &s->cpu[cpu];
	__u64 u = sim_cpu_avg_seen(s, cpu)->util_avg, ue = sim_cpu_util_est(s, cpu);

	u = ue > u ? ue : u;
	return u < c->cap ? u : c->cap;
}

/*
 * util_est_update() at a sleep (util_est_dequeue() before v5.13): skipped
 * while UTIL_AVG_UNCHANGED (no new util_avg since the last update); else
 * enqueued takes util_avg, the ewma jumps up to it from v5.5 (fast
 * ramp-up), is left alone within 1 % (SCHED_CAPACITY_SCALE / 100), and
 * otherwise moves a quarter of the way (UTIL_EST_WEIGHT_SHIFT 2). Within
 * that 1 % the update is dropped before v5.13, enqueued and flag included;
 * from v5.13 (v6.1 kernel/sched/fair.c util_est_update(): last_enqueued_diff)
 * enqueued still takes the util where it moved by more than 1 % from the
 * last enqueued, and v6.8+'s single word sets the flag there. Two
 * filters come before the quarter step: a util above the CPU's capacity
 * leaves util_est untouched (v5.13+: no idle time, no measure), and from
 * v6.7 (50181c0cff31) a task whose runnable_avg passes its util_avg by
 * more than the margin keeps its ewma (it did not get all the CPU it
 * wanted, so its util underestimates it).
 */
void sim_util_est_dequeue(struct sim *s, int ti)
{
	struct sim_task *t = &s->task[ti];
	const __u32 util = t->avg.util_avg;

	if (t->ue_unchanged)
		return;
	if (s->k.ue_fastup && t->ue_ewma <= util) {
		t->ue_ewma = util;
	} else {
		long diff = (long)util - (long)t->ue_ewma, moved = (long)t->ue_enqueued - (long)util;

		if (diff > -10 && diff < 10) {
			if (!s->k.ue_single && !(s->k.ue_enqueued_moves && (moved <= -10 || moved >= 10)))
				return;
			t->ue_enqueued = util;
			t->ue_unchanged = true;
			return;
		}
		if (s->k.ue_cap_skip && t->cpu >= 0 && util > s->cpu[t->cpu].cap)
			return;
		if (!(s->k.ue_runnable_skip && (__u64)util + 10 < t->avg.runnable_avg))
			t->ue_ewma = (__u32)(((long)t->ue_ewma * 4 + diff) >> 2);
	}
	t->ue_enqueued = util;
	t->ue_unchanged = true;
}
