// SPDX-License-Identifier: GPL-2.0
/*
 * sync_entity_load_avg() for a sleeping task: decay its util_sum and
 * runnable_sum to the cfs_rq clock and recompute util_avg and runnable_avg. Follows kernel/sched/pelt.c
 * (___update_load_sum, accumulate_sum, decay_load, ___update_load_avg), which
 * is arithmetically identical from v5.0 to v7.1 for a blocked entity.
 */
#include <stdbool.h>
#include "pelt.h"

/* 2^32 * y^n, y = 0.5^(1/32), truncated: kernel/sched/sched-pelt.h (v5.0 - v7.1). */
static const __u32 yn_inv[FS_LOAD_AVG_PERIOD] = {
	0xffffffff, 0xfa83b2da, 0xf5257d14, 0xefe4b99a, 0xeac0c6e6, 0xe5b906e6,
	0xe0ccdeeb, 0xdbfbb796, 0xd744fcc9, 0xd2a81d91, 0xce248c14, 0xc9b9bd85,
	0xc5672a10, 0xc12c4cc9, 0xbd08a39e, 0xb8fbaf46, 0xb504f333, 0xb123f581,
	0xad583ee9, 0xa9a15ab4, 0xa5fed6a9, 0xa2704302, 0x9ef5325f, 0x9b8d39b9,
	0x9837f050, 0x94f4efa8, 0x91c3d373, 0x8ea4398a, 0x8b95c1e3, 0x88980e80,
	0x85aac367, 0x82cd8698,
};

__u32 fs_pelt_yn_inv(unsigned int n)
{
	return n < FS_LOAD_AVG_PERIOD ? yn_inv[n] : 0;
}

__u64 fs_decay_load(__u64 val, __u64 n)
{
	/* Beyond 63 half-lives every 64-bit value has decayed to 0. */
	if (n > FS_LOAD_AVG_PERIOD * 63)
		return 0;
	if (n >= FS_LOAD_AVG_PERIOD) {
		val >>= n / FS_LOAD_AVG_PERIOD;
		n %= FS_LOAD_AVG_PERIOD;
	}
	/* mul_u64_u32_shr(val, inv, 32): a 96-bit product, keep the top. */
	return (__u64)(((unsigned __int128)val * yn_inv[n]) >> 32);
}

/*
 * ___update_load_sum() of a blocked entity up to the cfs_rq clock: true and
 * the decay when at least one 1024 us period ended; false when the kernel
 * leaves the *_avg fields as they are (clock behind, or no period crossed).
 */
static bool sync_periods(const struct fs_task *t, __u64 *periods, __u32 *contrib)
{
	__u64 delta = t->cfs_rq_last_update_time - t->last_update_time;

	/* Clock went backwards (migration, cfs_rq reset): last_update_time is
	 * re-based and nothing decays. */
	if ((__s64)delta < 0)
		return false;
	delta >>= 10; /* ns -> ~us: PELT counts 1024 ns units */
	if (!delta)
		return false;
	delta += t->period_contrib;
	*periods = delta / 1024;
	/* periods == 0: accumulate_sum() returns 0 and ___update_load_avg() is
	 * not called, so the averages stay as they were. */
	*contrib = (__u32)(delta % 1024);
	return *periods != 0;
}

bool fs_sync_entity_crosses_period(const struct fs_task *t)
{
	__u64 periods;
	__u32 contrib;

	return sync_periods(t, &periods, &contrib);
}

__u32 fs_sync_entity_util_avg(const struct fs_task *t)
{
	__u64 periods;
	__u32 contrib;

	if (!sync_periods(t, &periods, &contrib))
		return t->util_avg;
	/* A blocked entity (load = running = 0) only decays: no new contribution.
	 * get_pelt_divider(): LOAD_AVG_MAX - 1024 + period_contrib. util_sum is
	 * a u32 in the kernel (the decayed value never grows). */
	__u64 util_sum = fs_decay_load((__u64)t->util_sum, periods);
	return (__u32)((__u32)util_sum / (FS_LOAD_AVG_MAX - 1024 + contrib));
}

__u32 fs_sync_entity_runnable_avg(const struct fs_task *t)
{
	__u64 periods;
	__u32 contrib;

	if (!sync_periods(t, &periods, &contrib))
		return t->runnable_avg;
	/* runnable_avg = div_u64(runnable_sum, divider); runnable_sum is a u64. */
	return (__u32)(fs_decay_load(t->runnable_sum, periods) / (FS_LOAD_AVG_MAX - 1024 + contrib));
}

/*
 * __accumulate_pelt_segments(): the contribution of a span that crossed
 * `periods` period boundaries: d1 (the rest of the first period) decayed
 * periods times, the full periods in between (LOAD_AVG_MAX's series minus
 * its first and last terms), and d3 (the part of the current period) as is.
 */
static __u32 accumulate_segments(__u64 periods, __u32 d1, __u32 d3)
{
	__u32 c1 = (__u32)fs_decay_load((__u64)d1, periods);
	__u32 c2 = FS_LOAD_AVG_MAX - (__u32)fs_decay_load(FS_LOAD_AVG_MAX, periods) - 1024;

	return c1 + c2 + d3;
}

/*
 * accumulate_sum(): decay the sums by the periods that ended, then add this
 * span's contribution; util_sum counts running time and runnable_sum the
 * runnable count, both << SCHED_CAPACITY_SHIFT. No capacity or frequency
 * factor here: from v5.1 (23127296889f) invariance is in the PELT clock.
 */
static __u64 accumulate_sum(__u64 delta, struct fs_pelt_avg *sa, __u64 load, __u64 runnable, int running)
{
	__u32 contrib = (__u32)delta;
	__u64 periods;

	delta += sa->period_contrib;
	periods = delta / 1024;
	if (periods) {
		sa->load_sum = fs_decay_load(sa->load_sum, periods);
		sa->runnable_sum = fs_decay_load(sa->runnable_sum, periods);
		sa->util_sum = (__u32)fs_decay_load((__u64)sa->util_sum, periods);
		delta %= 1024;
		if (load)
			contrib = accumulate_segments(periods, 1024 - sa->period_contrib, (__u32)delta);
	}
	sa->period_contrib = (__u32)delta;
	if (load)
		sa->load_sum += load * contrib;
	if (runnable)
		sa->runnable_sum += runnable * contrib << 10;
	if (running)
		sa->util_sum += contrib << 10;
	return periods;
}

int fs_pelt_update(struct fs_pelt_avg *sa, __u64 now, __u64 load, __u64 runnable, int running)
{
	__u64 delta = now - sa->last_update_time;

	/* A clock behind the entity's (a re-based rq clock): re-base, no decay. */
	if ((__s64)delta < 0) {
		sa->last_update_time = now;
		return 0;
	}
	delta >>= 10;
	if (!delta)
		return 0;
	sa->last_update_time += delta << 10;
	/* A blocked entity neither runs nor is runnable, whatever the caller says. */
	if (!load)
		runnable = running = 0;
	if (!accumulate_sum(delta, sa, load, runnable, running))
		return 0;
	/* ___update_load_avg(): the sums over the divider of a full series
	 * (load_avg as a cfs_rq's: an entity's weight factor is the caller's). */
	__u32 divider = fs_pelt_divider(sa);

	sa->load_avg = sa->load_sum / divider;
	sa->runnable_avg = (__u32)(sa->runnable_sum / divider);
	sa->util_avg = sa->util_sum / divider;
	return 1;
}
