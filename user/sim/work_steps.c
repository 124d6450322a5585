// SPDX-License-Identifier: GPL-2.0
/*
 * A recording's frequency steps (work_steps.h): each PD's frequency from
 * its FS_REC_FREQ records, integrated over a stretch of CPU time. The
 * kernel traces cpu_frequency after the change took effect
 * (cpufreq_notify_transition()'s CPUFREQ_POSTCHANGE, and
 * cpufreq_driver_fast_switch(); drivers/cpufreq/cpufreq.c, v5.0 - v6.x), so
 * a step holds from its record on, as the trace readers take it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "work_steps.h"
#include "work_pelt.h"
#include "sim_internal.h"

int ws_add(struct ws_line *l, __u64 ts, __u32 khz)
{
	if (l->n && l->v[l->n - 1].khz == khz)
		return 0;
	if (l->n && ts < l->v[l->n - 1].since)
		ts = l->v[l->n - 1].since; /* never step back in time */
	if (fs_sim_grow((void **)&l->v, &l->cap, l->n + 1, sizeof(*l->v)))
		return -1;
	l->v[l->n++] = (struct ws_step){ ts, khz };
	return 0;
}

bool ws_covers(const struct ws_line *l, __u64 ts)
{
	return l->n && l->v[0].since <= ts;
}

/* The index of the step that holds at ts (l covers ts). */
static size_t step_at(const struct ws_line *l, __u64 ts)
{
	return fs_sim_first_after(l->v, l->n, sizeof(*l->v), offsetof(struct ws_step, since), ts) - 1;
}

void ws_integrate(const struct ws_line *l, __u64 ts, __u64 ns, __u64 fmax, unsigned __int128 *khz_ns,
		  unsigned __int128 *scale_ns)
{
	__u64 t = ts, end = ts + ns < ts ? UINT64_MAX : ts + ns;

	*khz_ns = *scale_ns = 0;
	for (size_t k = step_at(l, ts); t < end; k++) {
		__u64 next = k + 1 < l->n && l->v[k + 1].since < end ? l->v[k + 1].since : end;

		*khz_ns += (unsigned __int128)(next - t) * l->v[k].khz;
		*scale_ns += (unsigned __int128)(next - t) * wp_freq_scale(l->v[k].khz, fmax);
		t = next;
	}
}

int ws_dup(struct ws_line *dst, const struct ws_line *src)
{
	memset(dst, 0, sizeof(*dst));
	if (!src->n)
		return 0;
	if (!(dst->v = fs_sim_dup_items(src->v, src->n, sizeof(*src->v))))
		return -1;
	dst->n = dst->cap = src->n;
	return 0;
}

void ws_free(struct ws_line *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}
