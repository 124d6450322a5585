// SPDX-License-Identifier: GPL-2.0
/* The margin verdicts and the per-process view (verdict.h). */
#include <stdlib.h>
#include <string.h>
#include "verdict.h"

int fs_verdict_pairs(const struct fs_policy_desc *const *pols, int n, struct fs_verdict *out)
{
	int nv = 0;

	for (int i = 0; i < n && nv < FS_MAX_VERDICTS; i++) {
		if (!pols[i]->has_margin || !pols[i]->twin)
			continue;
		for (int j = 0; j < n; j++)
			if (j != i && !strcmp(pols[j]->name, pols[i]->twin) && !pols[j]->has_margin) {
				memset(&out[nv], 0, sizeof(out[nv]));
				out[nv].pol = i;
				out[nv].twin = j;
				nv++;
				break;
			}
	}
	return nv;
}

static fs_fj_t fj_abs(fs_fj_t v)
{
	return v < 0 ? -v : v;
}

static int cmp_proc(const void *pa, const void *pb)
{
	const struct fs_process *a = pa, *b = pb;

	if (a->rank_fj != b->rank_fj)
		return a->rank_fj > b->rank_fj ? -1 : 1;
	if (a->runtime_ns != b->runtime_ns)
		return a->runtime_ns > b->runtime_ns ? -1 : 1;
	return a->tgid < b->tgid ? -1 : (a->tgid > b->tgid);
}

struct task_ref {
	const struct fs_task_acct *t;
	size_t pos; /* creation order */
};

static int cmp_ref(const void *pa, const void *pb)
{
	const struct task_ref *a = pa, *b = pb;

	if (a->t->tgid != b->t->tgid)
		return a->t->tgid < b->t->tgid ? -1 : 1;
	return a->pos < b->pos ? -1 : (a->pos > b->pos);
}

/* The process's name: its leader's comm, else its busiest thread's (the earliest on ties). */
static void name_process(struct fs_process *g, const struct task_ref *r, size_t n)
{
	const struct fs_task_acct *pick = r[0].t;

	for (size_t i = 0; i < n; i++) {
		if (r[i].t->pid == g->tgid) {
			pick = r[i].t;
			break;
		}
		if (r[i].t->runtime_ns > pick->runtime_ns)
			pick = r[i].t;
	}
	memcpy(g->comm, pick->comm, FS_COMM_LEN);
}

int fs_processes_build(const struct fs_acct *a, const struct fs_verdict *v, int nv, int nr_policies,
		       struct fs_process **out, size_t *nr)
{
	size_t nt = fs_acct_nr_tasks(a), np = 0;
	struct task_ref *r = malloc((nt + 1) * sizeof(*r));
	struct fs_process *p = calloc(nt + 1, sizeof(*p));

	*out = NULL;
	*nr = 0;
	if (!r || !p) {
		free(r);
		free(p);
		return -1;
	}
	for (size_t i = 0; i < nt; i++)
		r[i] = (struct task_ref){ fs_acct_task_at_c(a, i), i };
	qsort(r, nt, sizeof(*r), cmp_ref);
	for (size_t i = 0, first = 0; i < nt; i++) {
		const struct fs_task_acct *k = r[i].t;
		struct fs_process *g;

		if (!np || p[np - 1].tgid != k->tgid) {
			first = i;
			g = &p[np++];
			g->tgid = k->tgid;
			g->uid = FS_NO_UID;
		} else {
			g = &p[np - 1];
		}
		g->nr_threads++;
		g->wakeups += k->wakeups;
		g->runtime_ns += k->runtime_ns;
		if (g->uid == FS_NO_UID)
			g->uid = k->uid;
		for (int q = 0; q < nr_policies; q++)
			g->energy_fj[q] += k->energy_fj[q];
		for (int q = 0; q < nv; q++)
			g->delta_fj[q] += k->energy_fj[v[q].pol] - k->energy_fj[v[q].twin];
		if (i + 1 == nt || r[i + 1].t->tgid != k->tgid) {
			name_process(g, &r[first], i + 1 - first);
			g->rank_fj = fj_abs(nv ? g->delta_fj[0] : nr_policies > 1 ? g->energy_fj[1] : 0);
		}
	}
	free(r);
	qsort(p, np, sizeof(*p), cmp_proc);
	*out = p;
	*nr = np;
	return 0;
}

static __u64 splitmix64(__u64 *s)
{
	__u64 z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void swap_fj(fs_fj_t *a, fs_fj_t *b)
{
	fs_fj_t t = *a;

	*a = *b;
	*b = t;
}

/*
 * Put the k-th smallest of a[lo..hi] at a[k], smaller ones before it,
 * larger after: quickselect with a three-way partition, so runs of equal
 * sums (a verdict of 0 draws only zeros) cost one pass.
 */
static void select_kth(fs_fj_t *a, int lo, int hi, int k)
{
	while (lo < hi) {
		fs_fj_t x = a[lo], y = a[lo + (hi - lo) / 2], z = a[hi];
		fs_fj_t pivot = x < y ? (y < z ? y : x < z ? z : x) : (x < z ? x : y < z ? z : y);
		int lt = lo, i = lo, gt = hi;

		while (i <= gt) {
			if (a[i] < pivot)
				swap_fj(&a[lt++], &a[i++]);
			else if (a[i] > pivot)
				swap_fj(&a[i], &a[gt--]);
			else
				i++;
		}
		if (k < lt)
			hi = lt - 1;
		else if (k > gt)
			lo = gt + 1;
		else
			return;
	}
}

/* Uniform index below n (n > 0) without modulo bias worth a thought: n << 2^64. */
static size_t draw(__u64 *s, size_t n)
{
	return (size_t)(((unsigned __int128)splitmix64(s) * n) >> 64);
}

/*
 * Per thread (feecscope report replays recordings in parallel), and one for
 * both bootstraps: every thread's TLS comes out of its stack, and the gzip
 * writer's thread has 64 KiB (output/gzip_stream.c).
 */
static _Thread_local fs_fj_t boot_sums[FS_BOOTSTRAP_ROUNDS];

void fs_bootstrap_sum(const fs_fj_t *units, size_t n, int rounds, fs_fj_t *lo_fj, fs_fj_t *hi_fj)
{
	fs_fj_t *sums = boot_sums;
	__u64 seed = FS_BOOTSTRAP_SEED;

	if (rounds < 40 || rounds > FS_BOOTSTRAP_ROUNDS)
		rounds = FS_BOOTSTRAP_ROUNDS;
	if (!n) {
		*lo_fj = *hi_fj = 0;
		return;
	}
	/*
	 * Every unit the same (no block where the policies differ is common):
	 * every draw sums n copies of it, so both bounds are that one sum.
	 */
	size_t same = 1;

	while (same < n && units[same] == units[0])
		same++;
	if (same == n) {
		fs_fj_t s = 0;

		for (size_t i = 0; i < n; i++)
			s += units[0];
		*lo_fj = *hi_fj = s;
		return;
	}
	for (int b = 0; b < rounds; b++) {
		fs_fj_t s = 0;

		for (size_t i = 0; i < n; i++)
			s += units[draw(&seed, n)];
		sums[b] = s;
	}
	/* percentile bounds: the 51st and the 1950th of 2000 ordered sums (indices 50, 1949) */
	int lo = rounds / 40, hi = rounds - 1 - rounds / 40;

	select_kth(sums, 0, rounds - 1, lo);
	select_kth(sums, lo + 1, rounds - 1, hi);
	*lo_fj = sums[lo];
	*hi_fj = sums[hi];
}

/*
 * A sum over strata (recordings), each resampled within itself: every round
 * draws n[j] of stratum j's units for each j. One stratum draws exactly as
 * fs_bootstrap_sum() does, so a group of one recording has its interval.
 */
void fs_bootstrap_strata(const fs_fj_t *const *units, const size_t *n, size_t k, int rounds, fs_fj_t *lo_fj,
			 fs_fj_t *hi_fj)
{
	fs_fj_t *sums = boot_sums;
	__u64 seed = FS_BOOTSTRAP_SEED;
	size_t total = 0;

	for (size_t j = 0; j < k; j++)
		total += n[j];
	if (k == 1 || !total) {
		fs_bootstrap_sum(k ? units[0] : NULL, k ? n[0] : 0, rounds, lo_fj, hi_fj);
		return;
	}
	if (rounds < 40 || rounds > FS_BOOTSTRAP_ROUNDS)
		rounds = FS_BOOTSTRAP_ROUNDS;
	for (int b = 0; b < rounds; b++) {
		fs_fj_t s = 0;

		for (size_t j = 0; j < k; j++)
			for (size_t i = 0; i < n[j]; i++)
				s += units[j][draw(&seed, n[j])];
		sums[b] = s;
	}
	int lo = rounds / 40, hi = rounds - 1 - rounds / 40;

	select_kth(sums, 0, rounds - 1, lo);
	select_kth(sums, lo + 1, rounds - 1, hi);
	*lo_fj = sums[lo];
	*hi_fj = sums[hi];
}
