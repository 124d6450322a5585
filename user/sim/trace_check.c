// SPDX-License-Identifier: GPL-2.0
/* The trace's self-check (trace_check.h): placements and OPP residency, simulated against traced. */
#include <math.h>
#include <string.h>
#include "trace_check.h"

int fs_sim_opp_of_khz(const struct fs_em *em, int pd, __u32 khz)
{
	const struct fs_em_pd *d = &em->pd[pd];

	for (int i = 0; i < d->nr_ps; i++)
		if (d->ps[i].frequency >= khz)
			return i;
	return d->nr_ps > 0 ? d->nr_ps - 1 : 0;
}

static void agreement(const struct fs_sim_workload *wl, const struct fs_sim_result *r, struct fs_sim_trace_check *c)
{
	for (__u64 i = 0; i < wl->nr_acts; i++) {
		const struct fs_sim_act *a = &wl->acts[i];

		/* a fork is placed by select_task_rq's fork path, not feec: left out */
		if (a->rec_cpu < 0 || r->act_cpu[i] < 0 || r->act_how[i] == 3 || (a->flags & FS_SIM_ACT_FORK))
			continue;
		c->placed++;
		c->agree += r->act_cpu[i] == a->rec_cpu;
	}
	c->agree_pct = c->placed ? (double)c->agree * 100.0 / (double)c->placed : NAN;
}

/*
 * The simulation's util_avg at each wake-up the trace gave one for
 * (r->act_util's low half: the task synced to its wake-up, events.c)
 * against the trace's; forks and activations it did not place are left.
 */
static void pelt_apart(const struct fs_sim_workload *wl, const struct fs_sim_result *r, struct fs_sim_trace_check *c)
{
	double abs_sum = 0, sum = 0, traced = 0;

	for (__u64 i = 0; i < wl->nr_acts; i++) {
		const struct fs_sim_act *a = &wl->acts[i];

		if (!(a->flags & FS_SIM_ACT_UTIL_TRACED) || (a->flags & FS_SIM_ACT_FORK) || r->act_cpu[i] < 0)
			continue;
		double d = (double)(r->act_util[i] & 0xffff) - (double)a->traced_util;

		c->util_n++;
		abs_sum += fabs(d);
		sum += d;
		traced += a->traced_util;
	}
	c->util_mad = c->util_n ? abs_sum / (double)c->util_n : NAN;
	c->util_bias = c->util_n ? sum / (double)c->util_n : NAN;
	c->util_traced_mean = c->util_n ? traced / (double)c->util_n : NAN;
}

/* Busy-time weighted mean frequency (MHz) of one PD's residency row; NAN if no busy time. */
static double mean_mhz(const struct fs_em_pd *d, const __u64 *ns, __u64 total)
{
	double s = 0;

	for (int i = 0; i < d->nr_ps; i++)
		s += (double)ns[i] * (double)d->ps[i].frequency;
	return total ? s / (double)total / 1000.0 : NAN;
}

static void residency(const struct fs_em *em, const struct fs_sim_workload *wl, const struct fs_sim_result *r,
		      int pd, struct fs_sim_trace_check *c)
{
	const struct fs_em_pd *d = &em->pd[pd];
	const __u64 *obs = wl->observed.opp_busy_ns[pd], *sim = r->opp_busy_ns[pd];
	__u64 to = 0, ts = 0;
	double dist = 0;

	for (int i = 0; i < d->nr_ps; i++) {
		to += obs[i];
		ts += sim[i];
	}
	c->opp_known[pd] = to > 0;
	c->mhz_obs[pd] = mean_mhz(d, obs, to);
	c->mhz_sim[pd] = mean_mhz(d, sim, ts);
	c->opp_pct[pd] = NAN;
	if (!to || !ts)
		return;
	for (int i = 0; i < d->nr_ps; i++)
		dist += fabs((double)sim[i] / (double)ts - (double)obs[i] / (double)to);
	c->opp_pct[pd] = dist * 50.0;
}

void fs_sim_trace_check(const struct fs_em *em, const struct fs_sim_workload *wl, const struct fs_sim_result *r,
			struct fs_sim_trace_check *c)
{
	memset(c, 0, sizeof(*c));
	agreement(wl, r, c);
	pelt_apart(wl, r, c);
	c->nr_pd = em->nr_pd;
	for (int pd = 0; pd < em->nr_pd && pd < FS_MAX_PDS; pd++)
		residency(em, wl, r, pd, c);
	fs_sim_rails_model(em, &wl->observed, r, c->energy_traced, c->energy_sim);
}
