// SPDX-License-Identifier: GPL-2.0
/*
 * The replicas of a workload (replicas.h). Two runs of the same workload
 * differ most in when each activation wakes: its timer expires at another
 * point of the tick, the waker ran a little earlier or later. A closed
 * loop is sensitive to that (a wake-up on either side of a tick sees
 * another utilization, another OPP), so the verdict of one simulation is
 * one draw; the replicas draw more.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "replicas.h"

static __u64 mix(__u64 h, __u64 v)
{
	/* FNV-1a over the value's 8 bytes */
	for (int i = 0; i < 8; i++, v >>= 8)
		h = (h ^ (v & 0xff)) * 0x100000001b3ull;
	return h;
}

__u64 fs_sim_workload_hash(const struct fs_sim_workload *wl)
{
	__u64 h = mix(0xcbf29ce484222325ull, (__u64)wl->nr_tasks);

	h = mix(h, wl->end_ns);
	for (__u64 i = 0; i < wl->nr_acts; i++)
		h = mix(mix(h, wl->acts[i].wake_ns), wl->acts[i].work);
	return h;
}

/* splitmix64: a seeded stream that does not depend on the platform's libc */
static __u64 next(__u64 *s)
{
	__u64 z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

int fs_sim_replica(const struct fs_sim_workload *wl, __u64 seed, unsigned int k, __u64 jitter_ns,
		   struct fs_sim_workload *out)
{
	/* the sum of two uniforms on [0, a) less a: triangular on (-a, a), sd a / sqrt 6 */
	const __u64 a = jitter_ns * 2449 / 1000;
	__u64 s = seed ^ ((__u64)(k + 1) * 0xd1342543de82ef95ull);

	*out = *wl;
	out->acts = malloc((wl->nr_acts ? wl->nr_acts : 1) * sizeof(*out->acts));
	if (!out->acts)
		return -1;
	memcpy(out->acts, wl->acts, wl->nr_acts * sizeof(*out->acts));
	for (int ti = 0; ti < wl->nr_tasks; ti++) {
		const struct fs_sim_task *t = &wl->tasks[ti];
		__u64 prev = 0;

		for (__u32 j = 0; j < t->nr_act; j++) {
			struct fs_sim_act *x = &out->acts[t->first_act + j];
			const __s64 d = a ? (__s64)(next(&s) % a + next(&s) % a) - (__s64)a : 0;
			__u64 w = d < 0 && (__u64)-d > x->wake_ns ? 0 : (__u64)((__s64)x->wake_ns + d);

			x->wake_ns = w = w < prev ? prev : w; /* the task's own order stays */
			prev = w;
		}
	}
	return 0;
}

void fs_sim_replica_free(struct fs_sim_workload *out)
{
	free(out->acts);
	out->acts = NULL;
}

/* One replica: each verdict's E(pol) - E(twin) into delta[v * nr + k]. */
static int one_replica(const struct fs_sim_workload *rw, const struct fs_sim_params *base,
		       const struct fs_policy_desc *const *pols, const struct fs_sim_answer *a, unsigned int k,
		       unsigned int nr, double *delta, char *err, size_t errlen)
{
	struct fs_sim_result res[FS_MAX_POLICIES];
	bool ran[FS_MAX_POLICIES] = { false };
	int ret = -1;

	for (int v = 0; v < a->nr_verdicts; v++) {
		const int pv[2] = { a->v[v].pol, a->v[v].twin };

		for (int j = 0; j < 2; j++) {
			struct fs_sim_params p = *base;

			if (ran[pv[j]])
				continue;
			p.policy = pols[pv[j]];
			if (fs_sim_run(rw, &p, &res[pv[j]], err, errlen))
				goto out;
			ran[pv[j]] = true;
		}
		delta[(size_t)v * nr + k] = (double)((__int128)res[pv[0]].energy_x - (__int128)res[pv[1]].energy_x) / 1e9;
	}
	ret = 0;
out:
	for (int i = 0; i < FS_MAX_POLICIES; i++)
		if (ran[i])
			fs_sim_result_free(&res[i]);
	return ret;
}

/* Some verdict's n replicas all came out alike: their variance is 0 and says nothing. */
static bool some_alike(const struct fs_sim_answer *a, const double *delta, unsigned int stride, unsigned int n)
{
	for (int v = 0; v < a->nr_verdicts; v++) {
		unsigned int k = 1;

		while (k < n && delta[(size_t)v * stride + k] == delta[(size_t)v * stride])
			k++;
		if (k == n)
			return true;
	}
	return false;
}

int fs_sim_replicas_widen(const struct fs_sim_workload *wl, const struct fs_sim_params *base,
			  const struct fs_policy_desc *const *pols, unsigned int nr, double mj_per_unit,
			  struct fs_sim_answer *a, char *err, size_t errlen)
{
	struct fs_sim_params p = *base;
	const __u64 seed = fs_sim_workload_hash(wl);
	const unsigned int max = nr * FS_SIM_REPLICAS_MORE;
	double *delta;
	int ret = 0;

	if (!nr || !a->nr_verdicts)
		return 0;
	delta = calloc((size_t)a->nr_verdicts * max, sizeof(*delta));
	if (!delta) {
		snprintf(err, errlen, "simulation: out of memory");
		return -1;
	}
	p.block_ns = 0; /* a replica's verdict is its total: no time blocks */
	p.keep_decisions = false;
	for (unsigned int k = 0; k < nr && !ret; k++) {
		struct fs_sim_workload rw;

		if (fs_sim_replica(wl, seed, k, FS_SIM_REPLICA_JITTER_NS, &rw)) {
			snprintf(err, errlen, "simulation: out of memory");
			ret = -1;
			break;
		}
		ret = one_replica(&rw, &p, pols, a, k, max, delta, err, errlen);
		fs_sim_replica_free(&rw);
		/* all alike after nr: draw more before the interval trusts a zero spread (replicas.h) */
		if (!ret && k + 1 == nr && nr < max && some_alike(a, delta, max, nr))
			nr = max;
	}
	for (int v = 0; v < a->nr_verdicts && !ret; v++)
		fs_sim_verdict_widen(&a->v[v], delta + (size_t)v * max, nr, mj_per_unit);
	free(delta);
	return ret;
}
