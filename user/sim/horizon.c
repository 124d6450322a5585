// SPDX-License-Identifier: GPL-2.0
/*
 * How far the simulated machine's time can run on a workload
 * (closed_loop.h, fs_sim_horizon_ns()): what the closed loop weighs against
 * its limit before it starts a simulation.
 */
#include "closed_loop.h"

/*
 * ns a work unit takes on the slowest CPU at its PD's lowest OPP: DEVICE's
 * 1024 x fmax / (capacity x f) of rq.c's work_in(), 1 under LAB physics.
 * In double: an EM's values may be any 64-bit numbers, and a bound needs no
 * exact ns.
 */
static double slowest_ns_per_unit(const struct fs_em *em, enum fs_sim_physics physics)
{
	double worst = 1.0;

	if (physics == FS_SIM_LAB)
		return worst;
	for (int c = 0; c < em->nr_cpus && c < FS_MAX_CPUS; c++) {
		const int pd = em->cpu_pd[c];

		if (pd < 0 || pd >= em->nr_pd || em->pd[pd].nr_ps <= 0)
			continue;
		const struct fs_em_pd *d = &em->pd[pd];
		const double k = (double)em->capacity[c] * (double)d->ps[0].frequency;
		const double ns = k > 0 ? 1024.0 * (double)d->ps[d->nr_ps - 1].frequency / k : 0.0;

		worst = ns > worst ? ns : worst;
	}
	return worst;
}

__u64 fs_sim_horizon_ns(const struct fs_sim_workload *wl, const struct fs_em *em, enum fs_sim_physics physics)
{
	double work = 0.0;
	__u64 last_wake = 0;

	if (wl->end_ns)
		return wl->end_ns; /* the loop stops there (events.c, sim_loop_run()) */
	for (__u64 i = 0; i < wl->nr_acts; i++) {
		work += (double)wl->acts[i].work;
		last_wake = wl->acts[i].wake_ns > last_wake ? wl->acts[i].wake_ns : last_wake;
	}
	/*
	 * Past its last wake-up the machine never idles while work is queued:
	 * every queued task sits on a CPU that runs one of them, at the slowest
	 * speed or faster (rounding aside: a few ns a tick).
	 */
	const double t = (double)last_wake + work * slowest_ns_per_unit(em, physics);

	return t >= 18446744073709551615.0 ? FS_SIM_NEVER : (__u64)t;
}
