// SPDX-License-Identifier: GPL-2.0
/* Hand-built EMs and wake-ups for the engine tests. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "em_builders.h"

static void finish(struct fs_em *em)
{
	em->nr_cpus = 0;
	for (int c = 0; c < FS_MAX_CPUS; c++)
		em->cpu_pd[c] = -1;
	for (int p = 0; p < em->nr_pd; p++)
		for (int c = 0; c < FS_MAX_CPUS; c++)
			if (em->pd[p].cpus & (1ull << c)) {
				em->cpu_pd[c] = (__s8)p;
				if (c + 1 > em->nr_cpus)
					em->nr_cpus = c + 1;
			}
}

void fs_test_add_state(struct fs_em_pd *pd, __u64 khz, __u64 power)
{
	pd->ps[pd->nr_ps].frequency = khz;
	pd->ps[pd->nr_ps].power = power;
	pd->nr_ps++;
}

void fs_test_em_2pd(struct fs_em *em)
{
	memset(em, 0, sizeof(*em));
	em->unit = FS_POWER_MW;
	snprintf(em->source, sizeof(em->source), "test 2pd");
	em->nr_pd = 2;
	strcpy(em->pd[0].name, "little");
	em->pd[0].cpus = 0x3;
	fs_test_add_state(&em->pd[0], 500000, 50);
	fs_test_add_state(&em->pd[0], 1000000, 150);
	strcpy(em->pd[1].name, "big");
	em->pd[1].cpus = 0xc;
	fs_test_add_state(&em->pd[1], 500000, 200);
	fs_test_add_state(&em->pd[1], 1000000, 400);
	fs_test_add_state(&em->pd[1], 2000000, 1200);
	em->capacity[0] = em->capacity[1] = 512;
	em->capacity[2] = em->capacity[3] = 1024;
	finish(em);
}

void fs_test_em_2pd_v6_9(struct fs_em *em)
{
	fs_test_em_2pd(em);
	em->unit = FS_POWER_UW;
	for (int p = 0; p < em->nr_pd; p++) {
		struct fs_em_pd *pd = &em->pd[p];
		__u64 cap = em->capacity[fs_em_pd_first_cpu(pd)], fmax = pd->ps[pd->nr_ps - 1].frequency;

		for (int s = 0; s < pd->nr_ps; s++) {
			struct fs_em_ps *ps = &pd->ps[s];

			ps->power *= 1000;
			ps->performance = cap * ps->frequency / fmax;
			ps->cost = ps->power * 10 / ps->performance;
		}
	}
}

/* Frequencies (kHz) and voltages (uV) of tests/fixtures/em-data/pixel4_sm8150.tsv. */
static const unsigned int px_silver[][2] = {
	{ 300000, 600000 }, { 403200, 600000 }, { 499200, 600000 }, { 576000, 600000 },
	{ 672000, 600000 }, { 768000, 620000 }, { 844800, 632000 }, { 940800, 648000 },
	{ 1036800, 668000 }, { 1113600, 680000 }, { 1209600, 700000 }, { 1305600, 720000 },
	{ 1382400, 736000 }, { 1478400, 756000 }, { 1555200, 756000 }, { 1632000, 776000 },
	{ 1708800, 800000 }, { 1785600, 816000 },
};
static const unsigned int px_gold[][2] = {
	{ 710400, 756000 }, { 825600, 756000 }, { 940800, 756000 }, { 1056000, 756000 },
	{ 1171200, 756000 }, { 1286400, 756000 }, { 1401600, 756000 }, { 1497600, 776000 },
	{ 1612800, 804000 }, { 1708800, 824000 }, { 1804800, 844000 }, { 1920000, 860000 },
	{ 2016000, 888000 }, { 2131200, 920000 }, { 2227200, 944000 }, { 2323200, 972000 },
	{ 2419200, 1000000 },
};
static const unsigned int px_prime[][2] = {
	{ 825600, 756000 }, { 940800, 756000 }, { 1056000, 756000 }, { 1171200, 756000 },
	{ 1286400, 756000 }, { 1401600, 756000 }, { 1497600, 756000 }, { 1612800, 756000 },
	{ 1708800, 756000 }, { 1804800, 772000 }, { 1920000, 792000 }, { 2016000, 808000 },
	{ 2131200, 828000 }, { 2227200, 840000 }, { 2323200, 860000 }, { 2419200, 884000 },
	{ 2534400, 912000 }, { 2649600, 936000 }, { 2745600, 960000 }, { 2841600, 984000 },
};

/* drivers/opp/of.c _get_power(): coef * mV^2 * MHz, then / 1e9 (mW, v5.x) or / 1e6 (uW, v6.0+). */
static void px_pd(struct fs_em_pd *pd, const char *name, __u64 cpus, unsigned int coef,
		  const unsigned int (*t)[2], int n, enum fs_power_unit unit)
{
	strcpy(pd->name, name);
	pd->cpus = cpus;
	for (int i = 0; i < n; i++) {
		__u64 mv = t[i][1] / 1000, mhz = t[i][0] / 1000;
		__u64 x = (__u64)coef * mv * mv * mhz;
		fs_test_add_state(pd, t[i][0], unit == FS_POWER_MW ? x / 1000000000ull : x / 1000000ull);
	}
}

void fs_test_em_pixel4(struct fs_em *em, enum fs_power_unit unit)
{
	memset(em, 0, sizeof(*em));
	em->unit = unit;
	snprintf(em->source, sizeof(em->source), "test pixel4");
	em->nr_pd = 3;
	px_pd(&em->pd[0], "silver", 0x0f, 232, px_silver, 18, unit);
	px_pd(&em->pd[1], "gold", 0x70, 369, px_gold, 17, unit);
	px_pd(&em->pd[2], "prime", 0x80, 421, px_prime, 20, unit);
	for (int c = 0; c < 4; c++)
		em->capacity[c] = 306;
	for (int c = 4; c < 7; c++)
		em->capacity[c] = 871;
	em->capacity[7] = 1024;
	finish(em);
}

void fs_test_wakeup(struct fs_wakeup *w, const struct fs_em *em, const unsigned int *util, int prev,
		    unsigned int task_util)
{
	memset(w, 0, sizeof(*w));
	w->hdr.type = FS_REC_WAKEUP;
	w->hdr.nr_cpus = (__u16)em->nr_cpus;
	w->hdr.size = (__u32)fs_wakeup_size(em->nr_cpus);
	w->pid = w->tgid = 100;
	strcpy(w->comm, "test");
	w->prev_cpu = w->task_cpu = prev;
	w->waker_cpu = 0;
	w->chosen_cpu = -1;
	w->cpus_allowed = (em->nr_cpus >= 64) ? ~0ull : ((1ull << em->nr_cpus) - 1);
	w->nr_cpus_allowed = (__u32)em->nr_cpus;
	w->task.last_update_time = w->task.cfs_rq_last_update_time = 1000000;
	w->task.util_avg = task_util;
	w->task.util_est_enqueued = w->task.util_est_ewma = task_util;
	w->task.uclamp_min = 0;
	w->task.uclamp_max = 1024;
	w->task.runnable_avg = task_util;
	for (int c = 0; c < em->nr_cpus; c++) {
		struct fs_cpu *k = &w->cpu[c];
		k->util_avg = util[c] + (c == prev ? task_util : 0);
		k->util_est = util[c];
		k->runnable_avg = k->util_avg;
		k->capacity = k->capacity_orig = em->capacity[c];
		k->uclamp_max = 1024;
		k->flags = FS_CPU_ONLINE | FS_CPU_IN_SD;
	}
}

void fs_test_run(const char *policy, const struct fs_em *em, const struct fs_wakeup *w,
		 struct fs_feec_result *out)
{
	struct fs_policy p;
	char err[256];
	const struct fs_policy_desc *d = fs_policy_find(policy);

	if (!d || fs_policy_init(&p, d, em, err, sizeof(err))) {
		fprintf(stderr, "    policy %s: %s\n", policy, d ? err : "not found");
		exit(1);
	}
	fs_policy_feec(&p, w, out);
	fs_policy_fini(&p);
}

static __u32 rnd(__u64 *s, __u32 n)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return n ? (__u32)(*s % n) : 0;
}

/* 1 in n */
static bool one_in(__u64 *s, __u32 n)
{
	return rnd(s, n) == 0;
}

static void random_cpu(struct fs_cpu *k, __u32 cap, bool uclamp, __u64 *s)
{
	k->util_est = one_in(s, 3) ? rnd(s, cap) : k->util_est;
	k->runnable_avg = k->util_avg + (one_in(s, 2) ? rnd(s, 300) : 0);
	k->rt_util = one_in(s, 4) ? rnd(s, 150) : 0;
	k->dl_util = one_in(s, 6) ? rnd(s, 100) : 0;
	k->dl_running_bw = one_in(s, 6) ? rnd(s, 1u << 18) : 0;
	k->irq_util = one_in(s, 5) ? rnd(s, 80) : 0;
	if (one_in(s, 150))
		k->irq_util = cap + rnd(s, 10); /* no time left for anything */
	if (one_in(s, 4))
		k->capacity = cap - rnd(s, cap / 4 + 1);
	k->thermal_pressure = one_in(s, 4) ? rnd(s, cap / 4 + 1) : 0;
	k->hw_load_avg = one_in(s, 4) ? rnd(s, cap / 4 + 1) : 0;
	k->cpufreq_pressure = one_in(s, 4) ? rnd(s, cap / 4 + 1) : 0;
	if (uclamp) {
		k->uclamp_min = one_in(s, 3) ? (__u16)rnd(s, 1025) : 0;
		k->uclamp_max = one_in(s, 3) ? (__u16)rnd(s, 1025) : 1024;
	}
	if (one_in(s, 8))
		k->flags |= FS_CPU_RT_RUNNABLE;
	if (one_in(s, 4))
		k->flags |= FS_CPU_UCLAMP_IDLE;
	if (one_in(s, 30))
		k->flags &= ~FS_CPU_IN_SD;
	if (one_in(s, 25))
		k->flags &= ~(FS_CPU_ONLINE | FS_CPU_IN_SD);
}

void fs_test_plain_wakeup(struct fs_wakeup *w, const struct fs_em *em, __s32 pid, __u64 ts, int prev)
{
	memset(w, 0, sizeof(*w));
	w->hdr = (struct fs_rec_hdr){ FS_REC_WAKEUP, (__u16)em->nr_cpus, (__u32)fs_wakeup_size(em->nr_cpus), ts };
	w->pid = pid;
	w->prev_cpu = w->task_cpu = w->waker_cpu = prev;
	w->chosen_cpu = -1;
	w->cpus_allowed = (1ull << em->nr_cpus) - 1;
	w->nr_cpus_allowed = (__u32)em->nr_cpus;
	w->task.util_avg = w->task.util_est_enqueued = 40;
	w->task.uclamp_max = 1024;
	for (int c = 0; c < em->nr_cpus; c++) {
		w->cpu[c].util_avg = 30;
		w->cpu[c].flags = FS_CPU_ONLINE | FS_CPU_IN_SD;
		w->cpu[c].uclamp_max = 1024;
	}
	w->cpu[prev].util_avg += 40;
}

void fs_test_random_wakeup(struct fs_wakeup *w, const struct fs_em *em, __u64 *s)
{
	unsigned int util[FS_MAX_CPUS];
	const int n = em->nr_cpus;
	const bool heavy = one_in(s, 4);
	bool uclamp = one_in(s, 2);

	for (int c = 0; c < n; c++)
		util[c] = rnd(s, heavy ? em->capacity[c] : em->capacity[c] / 2 + 1);
	unsigned int task_util = one_in(s, 10) ? (one_in(s, 2) ? 0 : 500 + rnd(s, 500)) : 1 + rnd(s, 400);
	fs_test_wakeup(w, em, util, (int)rnd(s, (__u32)n), task_util);
	if (one_in(s, 3)) {
		w->task.util_est_enqueued = task_util ? rnd(s, 2 * task_util) : 0;
		w->task.util_est_ewma = task_util ? rnd(s, 2 * task_util) : 0;
	}
	if (!one_in(s, 3))
		w->task_cpu = (__s32)rnd(s, (__u32)n);
	w->waker_cpu = (__s32)rnd(s, (__u32)n);
	if (uclamp) {
		w->flags |= FS_WAKE_UCLAMP_USED;
		w->task.uclamp_min = one_in(s, 3) ? (__u16)rnd(s, 1025) : 0;
		w->task.uclamp_max = one_in(s, 3) ? (__u16)rnd(s, 1025) : 1024;
	}
	w->flags |= one_in(s, 10) ? FS_WAKE_UTIL_EST_OFF : 0;
	w->flags |= one_in(s, 50) ? FS_WAKE_FORK : 0;
	w->flags |= one_in(s, 50) ? FS_WAKE_OVERUTILIZED : 0;
	w->flags |= one_in(s, 50) ? FS_WAKE_NO_ASYM : 0;
	w->flags |= one_in(s, 20) ? FS_WAKE_EAS_UNKNOWN : 0;
	if (one_in(s, 4)) {
		/* Two statements: the draws must not depend on evaluation order. */
		__u64 mask = rnd(s, 1u << n);

		mask |= 1ull << rnd(s, (__u32)n);
		w->cpus_allowed = mask & ((1ull << n) - 1);
		w->nr_cpus_allowed = (__u32)__builtin_popcountll(w->cpus_allowed);
	}
	for (int c = 0; c < n; c++)
		random_cpu(&w->cpu[c], em->capacity[c], uclamp, s);
	if (one_in(s, 8))
		w->cpu[w->waker_cpu].flags |= FS_CPU_CURR_IS_P;
	/* p's runnable_avg, derived from the state without drawing (the draws above
	 * feed every policy's fingerprint and must not shift): util_avg plus 0..255. */
	__u64 mix = (*s ^ (__u64)w->pid) * 0x9e3779b97f4a7c15ull;
	w->task.runnable_avg = w->task.util_avg + (__u32)(mix >> 56);
	w->task.runnable_sum = (__u64)w->task.runnable_avg * (47742 - 1024 + w->task.period_contrib);
	/* One in 32, from the same mix: a v6.6+ WF_CURRENT_CPU wake-up where p may run on the waker's CPU. */
	if (!((mix >> 40) & 31) && ((w->cpus_allowed >> w->waker_cpu) & 1))
		w->flags |= FS_WAKE_FLAGS_KNOWN | FS_WAKE_CURRENT_CPU;
}

const struct fs_feec_cand *fs_test_cand(const struct fs_feec_result *r, int cpu)
{
	for (int i = 0; i < r->nr_cand; i++)
		if (r->cand[i].cpu == cpu)
			return &r->cand[i];
	return NULL;
}
