/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The physics of tests/ab/workrun.c, as pure functions the host unit test
 * (tests/unit/test_work_physics.c) checks: how much work a span of CPU time does
 * on a CPU of a given capacity at a given OPP, and how the runner accounts its
 * quanta. No I/O, no clocks.
 *
 * One work unit is 1 ns of running at capacity 1024 at the biggest CPU's top OPP.
 * A CPU's cpu_capacity already holds its own top OPP against the biggest CPU's
 * (topology_normalize_cpu_scale(): capacity-dmips-mhz x its max frequency), so on
 * a CPU of capacity cap running at f of its own fmax one ns of CPU time does
 * cap/1024 x f/fmax units, and W units take W x 1024/cap x fmax/f ns.
 */
#ifndef FS_WORK_PHYSICS_H
#define FS_WORK_PHYSICS_H

#include <stdbool.h>
#include <stdint.h>

/* What one CPU does per ns of its time: its capacity (0..1024) and its
 * policy's current and top frequencies (kHz, scaling_cur_freq and
 * cpuinfo_max_freq). */
struct fsw_rate {
	uint32_t cap;
	uint32_t khz;
	uint32_t max_khz;
};

/* Work units done by ns of CPU time at rate r, rounded down:
 * ns x cap x khz / (1024 x max_khz). 0 for a rate that does nothing. */
static inline uint64_t fsw_work_of(uint64_t ns, struct fsw_rate r)
{
	if (!r.cap || !r.khz || !r.max_khz)
		return 0;
	return (uint64_t)((unsigned __int128)ns * r.cap * r.khz / ((unsigned __int128)1024 * r.max_khz));
}

/* CPU time (ns) that work units take at rate r, rounded up:
 * work x 1024 x max_khz / (cap x khz). UINT64_MAX for a rate that does nothing. */
static inline uint64_t fsw_time_for(uint64_t work, struct fsw_rate r)
{
	unsigned __int128 den = (unsigned __int128)r.cap * r.khz;

	if (!den || !r.max_khz)
		return UINT64_MAX;
	unsigned __int128 t = ((unsigned __int128)work * 1024 * r.max_khz + den - 1) / den;
	return t > UINT64_MAX ? UINT64_MAX : (uint64_t)t;
}

/*
 * A piece of work in progress. The runner spins in quanta: before each it
 * samples the rate (its CPU's capacity and current frequency), spins for
 * fsw_next_spin() of its own CPU time (CLOCK_THREAD_CPUTIME_ID: time it was
 * preempted is not work), and then credits all the CPU time the quantum took,
 * the sampling and the clock reads included, at the sampled rate. So the busy
 * time of W units is W / rate to within one clock read, whatever the
 * runner's own overhead, and a frequency change or a migration inside a
 * quantum costs at most one quantum at the old rate.
 */
struct fsw_work {
	uint64_t left;   /* units still to do */
	uint64_t done;   /* units credited (may pass the goal by the last spin's overshoot) */
	uint64_t busy;   /* ns of CPU time credited */
	uint32_t quanta; /* quanta accounted */
	/* The fraction of a unit the last quanta left over, rem / (1024 x max_khz of
	 * rem_max_khz): carried while the CPU's top frequency stays the same, so
	 * quanta at one rate add up to exactly the work of their total time. */
	uint64_t rem;
	uint32_t rem_max_khz;
};

/* The carried fraction's numerator at rate r's denominator (1024 x max_khz). */
static inline uint64_t fsw_rem_at(const struct fsw_work *w, struct fsw_rate r)
{
	return w->rem_max_khz == r.max_khz ? w->rem : 0;
}

/* CPU time (ns) to spin next at rate r: one quantum, or less when the work
 * left takes less. 0 once the work is done. */
static inline uint64_t fsw_next_spin(const struct fsw_work *w, struct fsw_rate r, uint64_t quantum_ns)
{
	unsigned __int128 den = (unsigned __int128)r.cap * r.khz, t;

	if (!w->left)
		return 0;
	if (!den || !r.max_khz)
		return quantum_ns;
	/* ceil((left x 1024 x max_khz - rem) / (cap x khz)) */
	t = ((unsigned __int128)w->left * 1024 * r.max_khz - fsw_rem_at(w, r) + den - 1) / den;
	return t < quantum_ns ? (uint64_t)t : quantum_ns;
}

/* Credit a quantum: ns of CPU time ran at rate r (sampled before it began).
 * Returns true when the work is done. */
static inline bool fsw_account(struct fsw_work *w, struct fsw_rate r, uint64_t ns)
{
	unsigned __int128 den = (unsigned __int128)1024 * r.max_khz, num;
	uint64_t did = 0;

	if (r.cap && r.khz && r.max_khz) {
		num = (unsigned __int128)ns * r.cap * r.khz + fsw_rem_at(w, r);
		did = (uint64_t)(num / den);
		w->rem = (uint64_t)(num % den);
		w->rem_max_khz = r.max_khz;
	}
	w->done += did;
	w->busy += ns;
	w->quanta++;
	w->left = did >= w->left ? 0 : w->left - did;
	return !w->left;
}

/*
 * A thread's account over its activations. Under QEMU's -icount the vCPUs run in
 * turn in one host thread and share the virtual clock, so a thread's CPU clock
 * jumps by the other vCPUs' turns (docs/ab.md, "The overshoot"), and the quantum
 * that ends an activation credits the whole jump: the activation does more work
 * than it asked, by jump x rate. The runner cannot stop a jump, and the guest's
 * kernel saw the thread run all that time, so the work stays CPU time x rate;
 * what goes past the activation's goal is kept as a credit and the same thread's
 * next activations do that much less. The thread's work over the run is then what
 * its activations asked, plus the credit left at the end (at most one
 * activation's overshoot).
 */
struct fsw_ledger {
	uint64_t asked;    /* units the activations asked for */
	uint64_t done;     /* units credited (CPU time x rate) */
	uint64_t credit;   /* units done past earlier goals, not yet used */
	uint64_t over;     /* the overshoots past each activation's goal, summed */
	uint64_t over_max; /* the largest one */
	uint64_t acts;     /* activations */
};

/* The goal of an activation asking `units`: what it asks less the credit, which
 * it uses up to what it asks (an activation whose goal is 0 does no work). */
static inline uint64_t fsw_goal(struct fsw_ledger *l, uint64_t units)
{
	uint64_t use = l->credit < units ? l->credit : units;

	l->credit -= use;
	l->asked += units;
	l->acts++;
	return units - use;
}

/* Close an activation whose goal was `goal` and which credited `done` units
 * (done >= goal once its work is done): the overshoot becomes credit. */
static inline void fsw_settle(struct fsw_ledger *l, uint64_t goal, uint64_t done)
{
	uint64_t over = done > goal ? done - goal : 0;

	l->done += done;
	l->credit += over;
	l->over += over;
	if (over > l->over_max)
		l->over_max = over;
}

#endif
