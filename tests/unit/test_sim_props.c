// SPDX-License-Identifier: GPL-2.0
/* Properties of the simulated machine over random workloads built directly (no recording). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "test.h"
#include "em_builders.h"
#include "sim_builders.h"

#define MS 1000000ull
#define ROUNDS 40

static __u64 rnd(__u64 *s, __u64 n)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return n ? *s % n : 0;
}

/*
 * Up to 12 tasks, each with up to 40 activations over 300 ms: work from 0
 * to 30 ms (bursts that do not fit little CPUs, and empty ones), now and
 * then a fork, an affinity mask, an exit; the window sometimes ends before
 * the last activations are done.
 */
static void random_workload(struct fs_sim_workload *wl, const struct fs_em *em, __u64 *s)
{
	const int nt = 1 + (int)rnd(s, 12), n = em->nr_cpus;
	const __u64 all = (1ull << n) - 1;

	fs_test_wl_init(wl, n, nt, (__u64)nt * 40, rnd(s, 2) ? 300 * MS : 150 * MS);
	for (int ti = 0; ti < nt; ti++) {
		struct fs_sim_task *t = &wl->tasks[ti];
		const int na = (int)rnd(s, 40);
		__u64 at = rnd(s, 20 * MS);

		t->init_cpu = (int)rnd(s, (__u64)n);
		t->init_util = (__u32)rnd(s, 600);
		t->init_util_est = (__u32)rnd(s, 600);
		t->cpus_allowed = rnd(s, 4) ? 0 : (rnd(s, all) | (1ull << rnd(s, (__u64)n))) & all;
		t->exit_ns = rnd(s, 5) ? FS_SIM_NEVER : rnd(s, 300 * MS);
		for (int i = 0; i < na; i++) {
			fs_test_wl_act(wl, ti, at, rnd(s, 8) ? rnd(s, 4 * MS) : rnd(s, 30 * MS));
			at += rnd(s, 16 * MS);
		}
		if (na && !rnd(s, 4))
			wl->acts[t->first_act].flags |= FS_SIM_ACT_FORK;
	}
}

static const char *random_policy(__u64 *s)
{
	return fs_policy_at((int)rnd(s, (__u64)fs_policy_count()))->name;
}

static void random_em(struct fs_em *em, __u64 *s)
{
	switch (rnd(s, 3)) {
	case 0:
		fs_test_em_2pd(em);
		break;
	case 1:
		fs_test_em_pixel4(em, FS_POWER_UW);
		em->pd[0].flags = em->pd[1].flags = em->pd[2].flags = FS_EM_PD_SKIP_INEFFICIENT;
		break;
	default:
		fs_test_em_1p1(em, 100, 400);
	}
}

/* energy is the sum over PDs and OPPs of busy time x that OPP's power; the CPUs' busy time is the OPPs'. */
FS_TEST(sim_prop_energy_is_busy_times_power)
{
	__u64 seed = 0x5eed0001;

	for (int round = 0; round < ROUNDS; round++) {
		struct fs_sim_workload wl;
		struct fs_sim_result r;
		struct fs_em em;
		unsigned __int128 x = 0;
		__u64 busy = 0, opp_busy = 0;

		random_em(&em, &seed);
		random_workload(&wl, &em, &seed);
		fs_test_sim(&wl, &em, random_policy(&seed), rnd(&seed, 2) ? FS_SIM_LAB : FS_SIM_DEVICE, &r);
		for (int pd = 0; pd < em.nr_pd; pd++)
			for (int s = 0; s < em.pd[pd].nr_ps; s++) {
				x += (unsigned __int128)r.opp_busy_ns[pd][s] * em.pd[pd].ps[s].power;
				opp_busy += r.opp_busy_ns[pd][s];
			}
		for (int c = 0; c < em.nr_cpus; c++)
			busy += r.busy_ns[c];
		EXPECT_TRUE((double)x / 1e9 == r.energy);
		EXPECT_EQ_U64(busy, opp_busy);
		if (em.unit == FS_POWER_UW)
			EXPECT_TRUE(fabs(r.energy_mj - r.energy / 1000) <= 1e-12 * r.energy);
		fs_sim_result_free(&r);
		fs_test_wl_free(&wl);
	}
}

/* The work woken is done or still queued; each activation done left one latency and one wait sample. */
FS_TEST(sim_prop_work_conserved)
{
	__u64 seed = 0x5eed0002;

	for (int round = 0; round < ROUNDS; round++) {
		struct fs_sim_workload wl;
		struct fs_sim_result r;
		struct fs_em em;
		__u64 given = 0, done = 0, lat = 0, wait = 0, left = 0;

		random_em(&em, &seed);
		random_workload(&wl, &em, &seed);
		fs_test_sim(&wl, &em, random_policy(&seed), rnd(&seed, 2) ? FS_SIM_LAB : FS_SIM_DEVICE, &r);
		for (__u64 i = 0; i < wl.nr_acts; i++)
			given += wl.acts[i].wake_ns < wl.end_ns ? wl.acts[i].work : 0;
		for (int i = 0; i < FS_SIM_LAT_BUCKETS; i++) {
			lat += r.lat_hist[i];
			wait += r.wait_hist[i];
		}
		for (int ti = 0; ti < r.nr_tasks; ti++) {
			done += r.task[ti].acts_done;
			left += r.task[ti].work_left;
		}
		EXPECT_EQ_U64(r.work_given, given);
		EXPECT_EQ_U64(r.work_given, r.work_done + r.work_left);
		EXPECT_EQ_U64(r.work_left, left);
		EXPECT_EQ_U64(lat, done);
		EXPECT_EQ_U64(wait, done);
		fs_sim_result_free(&r);
		fs_test_wl_free(&wl);
	}
}

/* Two runs of the same workload, EM and policy give the same figures, field by field. */
FS_TEST(sim_prop_deterministic)
{
	__u64 seed = 0x5eed0003;

	for (int round = 0; round < ROUNDS; round++) {
		struct fs_sim_workload wl;
		struct fs_sim_result a, b;
		struct fs_em em;

		random_em(&em, &seed);
		random_workload(&wl, &em, &seed);
		const char *pol = random_policy(&seed);
		const enum fs_sim_physics ph = rnd(&seed, 2) ? FS_SIM_LAB : FS_SIM_DEVICE;

		fs_test_sim(&wl, &em, pol, ph, &a);
		fs_test_sim(&wl, &em, pol, ph, &b);
		struct fs_sim_task_result *ta = a.task, *tb = b.task;

		__s32 *ca = a.act_cpu, *cb = b.act_cpu;
		__s8 *ha = a.act_how, *hb = b.act_how;
		__u32 *ua = a.act_util, *ub = b.act_util;

		a.task = b.task = NULL;
		a.act_cpu = b.act_cpu = NULL;
		a.act_how = b.act_how = NULL;
		a.act_util = b.act_util = NULL;
		EXPECT_TRUE(!memcmp(&a, &b, sizeof(a)));
		EXPECT_TRUE(!memcmp(ta, tb, (size_t)a.nr_tasks * sizeof(*ta)));
		EXPECT_TRUE(!memcmp(ca, cb, (size_t)wl.nr_acts * sizeof(*ca)));
		EXPECT_TRUE(!memcmp(ha, hb, (size_t)wl.nr_acts));
		EXPECT_TRUE(!memcmp(ua, ub, (size_t)wl.nr_acts * sizeof(*ua)));
		a.task = ta;
		b.task = tb;
		a.act_cpu = ca;
		b.act_cpu = cb;
		a.act_how = ha;
		b.act_how = hb;
		a.act_util = ua;
		b.act_util = ub;
		fs_sim_result_free(&a);
		fs_sim_result_free(&b);
		fs_test_wl_free(&wl);
	}
}

/* The tasks' energies (each busy ns charged to the task that ran) add up to the machine's. */
FS_TEST(sim_prop_task_energies_sum_to_total)
{
	__u64 seed = 0x5eed0004;

	for (int round = 0; round < ROUNDS; round++) {
		struct fs_sim_workload wl;
		struct fs_sim_result r;
		struct fs_em em;
		double sum = 0;
		__u64 run = 0, busy = 0;

		random_em(&em, &seed);
		random_workload(&wl, &em, &seed);
		fs_test_sim(&wl, &em, random_policy(&seed), rnd(&seed, 2) ? FS_SIM_LAB : FS_SIM_DEVICE, &r);
		for (int ti = 0; ti < r.nr_tasks; ti++) {
			sum += r.task[ti].energy;
			run += r.task[ti].run_ns;
		}
		for (int c = 0; c < em.nr_cpus; c++)
			busy += r.busy_ns[c];
		EXPECT_TRUE(fabs(sum - r.energy) <= 1e-9 * r.energy);
		EXPECT_EQ_U64(run, busy);
		fs_sim_result_free(&r);
		fs_test_wl_free(&wl);
	}
}
