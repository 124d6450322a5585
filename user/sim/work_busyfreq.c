// SPDX-License-Identifier: GPL-2.0
/*
 * DEVICE work against the recording's busyfreq records (docs/simulation.md,
 * "Work against the busyfreq records"). work_freq.c rebuilds each PD's
 * frequency from the wake-ups' landscapes; where the recording also holds
 * each CPU's busy time at each frequency (bpf/busyfreq.bpf.c), the busy-
 * weighted mean frequency of every interval between two such records is
 * measured, not estimated. Each stretch of CPU time the builder placed in
 * an interval keeps its estimated frequency's shape within the interval,
 * scaled so that the stretches' busy-weighted mean is the measured one.
 */
#include <stdlib.h>
#include <string.h>
#include "work_busyfreq.h"
#include "sim_internal.h"

int wb_seg_add(struct wb_log *l, const struct wb_seg *s)
{
	if (fs_sim_grow((void **)&l->seg, &l->cap, l->n + 1, sizeof(*l->seg)))
		return -1;
	l->seg[l->n++] = *s;
	return 0;
}

int wb_point_add(struct wb_log *l, int cpu, const struct wb_point *p)
{
	struct wb_line *c = &l->cpu[cpu];

	if (fs_sim_grow((void **)&c->v, &c->cap, c->n + 1, sizeof(*c->v)))
		return -1;
	c->v[c->n++] = *p;
	return 0;
}

/* The interval k (v[k].ts <= ts < v[k + 1].ts) of line c holding ts, or -1 outside them all. */
static long interval_of(const struct wb_line *c, __u64 ts)
{
	if (c->n < 2 || ts < c->v[0].ts || ts >= c->v[c->n - 1].ts)
		return -1;
	return (long)fs_sim_first_after(c->v, c->n, sizeof(*c->v), offsetof(struct wb_point, ts), ts) - 1;
}

/* The estimate's sums per interval of each CPU: ns and ns x kHz of the stretches in it. */
struct est {
	unsigned __int128 khz_ns;
	__u64 ns;
};

/*
 * The factor of interval k of line c: measured over estimated mean
 * frequency, 0 where either is not known (no busy time at an EM frequency,
 * a counter that went back as after a collector restart, no estimate).
 */
static long double factor(const struct wb_line *c, long k, const struct est *e)
{
	const struct wb_point *a = &c->v[k], *b = &c->v[k + 1];

	if (b->busy_ns <= a->busy_ns || b->khz_ns < a->khz_ns || !e->ns || !e->khz_ns)
		return 0;
	long double meas = (long double)(b->khz_ns - a->khz_ns) / (long double)(b->busy_ns - a->busy_ns);
	long double est = (long double)e->khz_ns / (long double)e->ns;

	return meas / est;
}

static void apply(const struct wb_log *l, struct est *const *est, struct fs_sim_act *acts, size_t nr_acts,
		  struct wb_stats *st)
{
	for (size_t i = 0; i < l->n; i++) {
		const struct wb_seg *s = &l->seg[i];
		const struct wb_line *c = &l->cpu[s->cpu];
		long k = interval_of(c, s->ts);

		if (k < 0 || !est[s->cpu] || s->act >= nr_acts)
			continue;
		long double f = factor(c, k, &est[s->cpu][k]);

		if (f <= 0)
			continue;
		__u64 w = (__u64)((long double)s->work * f + 0.5L);

		acts[s->act].work = acts[s->act].work - s->work + w;
		st->segs++;
		st->work_est += s->work;
		st->work_meas += w;
	}
}

int wb_correct(const struct wb_log *l, struct fs_sim_act *acts, size_t nr_acts, struct wb_stats *st)
{
	struct est *est[FS_MAX_CPUS] = { 0 };
	int rc = 0;

	memset(st, 0, sizeof(*st));
	for (int c = 0; c < FS_MAX_CPUS; c++)
		if (l->cpu[c].n >= 2 && !(est[c] = calloc(l->cpu[c].n - 1, sizeof(*est[c])))) {
			rc = -1;
			goto out;
		}
	for (size_t i = 0; i < l->n; i++) {
		const struct wb_seg *s = &l->seg[i];
		long k = s->cpu >= 0 && s->cpu < FS_MAX_CPUS ? interval_of(&l->cpu[s->cpu], s->ts) : -1;

		if (k < 0)
			continue;
		est[s->cpu][k].ns += s->ns;
		est[s->cpu][k].khz_ns += (unsigned __int128)s->ns * s->khz;
	}
	apply(l, est, acts, nr_acts, st);
out:
	for (int c = 0; c < FS_MAX_CPUS; c++)
		free(est[c]);
	return rc;
}

int wb_dup(struct wb_log *dst, const struct wb_log *src)
{
	memset(dst, 0, sizeof(*dst));
	if (!(dst->seg = fs_sim_dup_items(src->seg, src->n, sizeof(*src->seg))))
		return -1;
	dst->n = dst->cap = src->n;
	for (int c = 0; c < FS_MAX_CPUS; c++) {
		const struct wb_line *s = &src->cpu[c];

		if (!s->n)
			continue;
		if (!(dst->cpu[c].v = fs_sim_dup_items(s->v, s->n, sizeof(*s->v)))) {
			wb_free(dst);
			return -1;
		}
		dst->cpu[c].n = dst->cpu[c].cap = s->n;
	}
	return 0;
}

void wb_free(struct wb_log *l)
{
	free(l->seg);
	for (int c = 0; c < FS_MAX_CPUS; c++)
		free(l->cpu[c].v);
	memset(l, 0, sizeof(*l));
}
