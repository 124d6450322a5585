/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The closed-loop interval's coverage (docs/simulation.md, "The interval"):
 * many workloads drawn from one known stochastic process, each simulated
 * under a margin policy and its twin; the "true" margin cost is the mean
 * of the samples' verdicts, and the coverage the share of the samples whose
 * 95 % interval holds it. Header-only, shared by the unit test (few
 * samples) and tests/bench/sim_coverage.c (many).
 */
#ifndef FEECSCOPE_TEST_SIM_COVERAGE_H
#define FEECSCOPE_TEST_SIM_COVERAGE_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/compare.h"
#include "sim/replicas.h"
#include "engine/time_blocks.h"

#define COV_MS 1000000ull

static __u64 cov_rnd(__u64 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Exponential with the given mean (ns), from the xorshift state. */
static __u64 cov_exp(__u64 *s, double mean)
{
	const double u = ((double)(cov_rnd(s) >> 11) + 0.5) / 9007199254740992.0;

	return (__u64)(-log(u) * mean);
}

/*
 * The process, on an 8-CPU 4+3+1 EM: 4 light tasks (periods 4, 8, 16 and
 * 33 ms, each gap half the period plus an exponential of half, work an
 * exponential of 5 % of the period), 2 medium ones (16 ms, 3 ms of work on
 * average) and 2 bursty ones (20 ms, 0.8 ms, one activation in 20 a burst
 * of 30 - 80 ms). Every sample is this process with another seed.
 */
static int cov_gen(struct fs_sim_workload *wl, __u64 len_ns, __u64 seed)
{
	static const __u64 period_ms[8] = { 4, 8, 16, 33, 16, 16, 20, 20 };
	const int nt = 8;
	__u64 s = seed * 0x9e3779b97f4a7c15ull + 1;

	memset(wl, 0, sizeof(*wl));
	wl->nr_cpus = 8;
	wl->end_ns = len_ns;
	wl->nr_tasks = nt;
	wl->tasks = calloc(nt, sizeof(*wl->tasks));
	wl->acts = calloc((size_t)nt * (len_ns / COV_MS + 1), sizeof(*wl->acts));
	if (!wl->tasks || !wl->acts)
		return -1;
	for (int ti = 0; ti < nt; ti++) {
		struct fs_sim_task *t = &wl->tasks[ti];
		const double p = (double)(period_ms[ti] * COV_MS);

		t->pid = t->tgid = 100 + ti;
		snprintf(t->comm, sizeof(t->comm), "cov%d", ti);
		t->uid = FS_NO_UID;
		t->init_cpu = ti;
		t->init_util = 100;
		t->init_util_est = 100;
		t->exit_ns = FS_SIM_NEVER;
		t->first_act = (__u32)wl->nr_acts;
		for (__u64 at = cov_exp(&s, p); at < len_ns; at += (__u64)(p / 2) + cov_exp(&s, p / 2)) {
			struct fs_sim_act *a = &wl->acts[wl->nr_acts++];

			a->wake_ns = at;
			a->work = ti < 4 ? cov_exp(&s, p * 0.05) : ti < 6 ? cov_exp(&s, 3e6) : 800000;
			if (ti >= 6 && cov_rnd(&s) % 20 == 0)
				a->work = (30 + cov_rnd(&s) % 51) * COV_MS;
			a->rec_cpu = -1;
			a->waker = FS_SIM_NO_TASK;
			t->nr_act++;
		}
	}
	return 0;
}

struct cov_sample {
	double delta, lo, hi; /* mJ */
};

/* Sample `seed`: the margin policy's verdict and interval. 0, or -1 with err. */
static int cov_sample(const struct fs_em *em, const struct fs_policy_desc *const pols[2], __u64 len_ns,
		      __u64 seed, enum fs_sim_physics ph, struct cov_sample *out, char *err, size_t errlen)
{
	struct fs_sim_workload wl;
	struct fs_sim_result res[2];
	struct fs_sim_answer a;
	int n = 0, ret = -1;

	if (cov_gen(&wl, len_ns, seed)) {
		snprintf(err, errlen, "coverage: out of memory");
		goto out;
	}
	const struct fs_sim_params base = { .em = em, .physics = ph, .block_ns = fs_blocks_width(len_ns) };

	for (; n < 2; n++) {
		struct fs_sim_params p = base;

		p.policy = pols[n];
		if (fs_sim_run(&wl, &p, &res[n], err, errlen))
			goto out;
	}
	if (fs_sim_answer_build(&wl, pols, res, 2, 0, &a, err, errlen))
		goto out;
	/* the final answer's interval: the replicas' spread added (replicas.h) */
	if (a.nr_verdicts == 1 && fs_sim_replicas_widen(&wl, &base, pols, FS_SIM_REPLICAS,
							res[0].energy_mj / res[0].energy, &a, err, errlen)) {
		fs_sim_answer_free(&a);
		goto out;
	}
	if (a.nr_verdicts != 1) {
		snprintf(err, errlen, "coverage: %s and %s are not a margin pair", pols[0]->name, pols[1]->name);
	} else {
		out->delta = a.v[0].delta_mj;
		out->lo = a.v[0].lo_mj;
		out->hi = a.v[0].hi_mj;
		ret = 0;
	}
	fs_sim_answer_free(&a);
out:
	while (n--)
		fs_sim_result_free(&res[n]);
	free(wl.tasks);
	free(wl.acts);
	return ret;
}

struct cov_result {
	int n, covered;
	double truth, sd;       /* the samples' mean verdict (the truth) and their standard deviation, mJ */
	double mean_half_width; /* the intervals' mean half width, mJ */
};

/* n samples (seeds 1..n); the coverage of the truth by each sample's interval. */
static int cov_measure(const struct fs_em *em, const char *margin, const char *twin, __u64 len_ns, int n,
		       enum fs_sim_physics ph, struct cov_result *r, char *err, size_t errlen)
{
	const struct fs_policy_desc *pols[2] = { fs_policy_find(margin), fs_policy_find(twin) };
	struct cov_sample *s = calloc((size_t)n, sizeof(*s));
	double sum = 0, ss = 0, hw = 0;

	memset(r, 0, sizeof(*r));
	if (!s || !pols[0] || !pols[1]) {
		snprintf(err, errlen, "coverage: %s", s ? "unknown policy" : "out of memory");
		free(s);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		if (cov_sample(em, pols, len_ns, (__u64)i + 1, ph, &s[i], err, errlen)) {
			free(s);
			return -1;
		}
		sum += s[i].delta;
	}
	r->n = n;
	r->truth = sum / n;
	for (int i = 0; i < n; i++) {
		ss += (s[i].delta - r->truth) * (s[i].delta - r->truth);
		hw += (s[i].hi - s[i].lo) / 2;
		r->covered += s[i].lo <= r->truth && r->truth <= s[i].hi;
	}
	r->sd = n > 1 ? sqrt(ss / (n - 1)) : 0;
	r->mean_half_width = hw / n;
	free(s);
	return 0;
}

#endif
