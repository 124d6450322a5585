/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The simulated machine's state, shared by its parts (docs/simulation.md,
 * "The machine"): rq.c runqueues and time sharing, pelt_run.c PELT and
 * util_est, sugov.c schedutil, balance.c overutilized and the balancer's
 * pulls, place.c wake-up placement, events.c the event loop, machine.c
 * set-up and results, kernel.c the policy's kernel.
 */
#ifndef FEECSCOPE_SIM_INTERNAL_H
#define FEECSCOPE_SIM_INTERNAL_H

#include "sim.h"
#include "../engine/pelt.h"
#include "../engine/power_estimate.h"

/* What the policy's kernel does where the machine's rules differ by version (kernel.c). */
struct sim_kernel {
	enum fs_power_dvfs dvfs; /* schedutil's headroom form */
	bool skip_inefficient;   /* v5.16+: cpufreq skips inefficient OPPs */
	bool runnable_boost;     /* v6.5+: schedutil takes max(util, runnable) */
	bool ue_fastup;          /* v5.5+: util_est's ewma jumps up to a larger dequeued util */
	bool ue_bit0;            /* v5.0 - v5.12: _task_util_est() ORs UTIL_AVG_UNCHANGED (bit 0) */
	bool ue_single;          /* v6.8+: util_est is one word (the record's enqueued = ewma) */
	bool ue_cap_skip;        /* v5.13+: no util_est update from a util above the CPU's capacity */
	bool ue_runnable_skip;   /* v6.7+: the ewma stays while runnable_avg > util_avg + margin */
	bool ue_enqueued_moves;  /* v5.13+: a util within the ewma's margin still becomes enqueued */
	bool eevdf;              /* v6.6+: EEVDF's base slice in place of CFS's latency and granularities */
};

struct sim_task {
	const struct fs_sim_task *t;
	int cpu;                 /* the rq holding its PELT (task_cpu(p)), -1 when not attached */
	bool queued;             /* on its rq: running or waiting */
	bool exited;
	struct fs_pelt_avg avg;  /* p->se.avg */
	__u32 ue_enqueued, ue_ewma;
	bool ue_unchanged;       /* UTIL_AVG_UNCHANGED: util_avg not recomputed since util_est's update */
	bool aged_at_enqueue;    /* its next enqueue ages it across a period though sim_attach() joined it now */
	__u32 woken;             /* activations woken so far (relative to first_act) */
	__u32 head;              /* the activation being worked on while queued */
	__u64 work_left;         /* of the head activation */
	__u64 head_wait_ns;      /* runnable wait of the head activation */
	unsigned __int128 energy_x; /* EM power unit x ns */
	__u64 run_ns, wait_ns, acts_done;
	__u64 run_pd_ns[FS_MAX_PDS];
	int via;                 /* how it came to its CPU: 0 wake-up, 1 misfit push, 2 idle pull */
};

struct sim_cpu {
	int *q;                  /* q[0] runs when nr > 0; q[1..nr) wait in order */
	int nr;
	__u64 util_est;          /* cfs_rq's util_est: the queued tasks' _task_util_est(), kept at enqueue/dequeue */
	int pd;
	__u32 cap;
	__u64 clock_pelt, lost_idle_time; /* rq_clock_pelt() = clock_pelt - lost_idle_time */
	struct fs_pelt_avg avg;  /* rq->cfs.avg */
	struct fs_pelt_avg seen; /* idle: rq->cfs.avg as its last blocked-load update left it (nohz.c) */
	__u64 picked_ns;         /* when q[0] started its turn */
	bool misfit;             /* rq->misfit_task_load != 0 */
	__u64 next_balance;      /* idle: the tick of its next root balance (rq->next_balance, balance.c) */
	__u32 balance_ms;        /* its root sched_domain's balance_interval, ms */
	bool balancing;          /* balances the root domain as an idle CPU at this tick */
	unsigned __int128 energy_x;
};

struct sim_pd {
	int opp;
	__u64 last_change_ns;    /* sugov's last_freq_update_time */
	bool changed_once;
	__u64 skip;              /* OPPs cpufreq never picks (bit s) */
	__u64 fmax;
	__u32 cap;
	__u64 cpus;
};

/* The energy of each time block so far (EM unit x ns) at `ns` a block, grown as the timeline reaches new blocks. */
struct sim_blocks {
	unsigned __int128 *e;
	size_t n, cap;
	__u64 ns;
};

/* An activation waking (events.c). */
struct sim_ev {
	__u64 ns;
	__u32 act;  /* index into the workload's acts */
	__s32 task;
};

/*
 * The event loop's state at the top of an iteration, so a run can stop
 * between two events and go on with a longer workload (resume.c): nothing
 * in it depends on the workload past `now` (docs/simulation.md, "Live").
 */
struct sim_loop {
	struct sim_blocks blk;
	__u64 next_tick;
	bool skip_due;        /* a tick just ran: skip_idle_ticks() at the next top, with the next activation then known */
	struct sim_ev *ev;    /* the activations not woken yet, in time order (rebuilt on resuming) */
	__u64 n, i;
};

struct sim {
	const struct fs_sim_workload *wl;
	const struct fs_sim_params *p;
	const struct fs_em *em;
	struct fs_policy pol;
	struct sim_kernel k;
	int ncpu;
	struct sim_cpu cpu[FS_MAX_CPUS];
	struct sim_pd pd[FS_MAX_PDS];
	struct sim_task *task;
	__u64 now;
	__u64 tick_ns, wakeup_gran_ns, latency_ns, min_gran_ns;
	bool overutilized;
	bool overload;           /* rd->overload: a rq had a second task since the last root balance */
	__u64 ticks, balance_ticks; /* ticks so far; the root domain's balance interval in ticks */
	__u64 busy_balance_ticks;   /* a busy CPU's root balance interval in ticks (balance.c) */
	__u64 next_kick, next_busy; /* the tick from which the next kicked / busy root balance is due */
	bool balance_due;        /* this tick balances the root domain */
	__u64 next_blocked;      /* nohz.next_blocked, in ticks (nohz.c) */
	__u64 blocked_ticks;     /* msecs_to_jiffies(LOAD_AVG_PERIOD) */
	bool busy_due;           /* ... at a busy CPU's own interval: busy CPUs balance too (balance.c) */
	bool kicked;             /* ... as the kicked idle balance, which updates blocked load first (nohz.c) */
	unsigned __int128 energy_x;
	struct fs_sim_result *r;
	struct fs_wakeup w;      /* the landscape handed to feec */
	int how;                 /* how sim_place() decided (fs_sim_result.act_how) */
	struct fs_sim_act_dec dec; /* and what feec said (fs_sim_result.act_dec) */
	struct sim_loop lp;
	bool own_pol;            /* pol is this machine's (a resumed one shares its owner's, resume.c) */
};

/* machine.c */
__u64 sim_ms_to_ticks(const struct sim *s, __u32 ms);

/* kernel.c */
void sim_kernel_of(const struct fs_policy_desc *d, struct sim_kernel *k);

/* pelt_run.c */
__u64 sim_rq_clock_pelt(const struct sim_cpu *c);
void sim_clock_advance(struct sim *s, int cpu, __u64 dt);
void sim_idle_enter(struct sim *s, int cpu);
void sim_rq_pelt_update(struct sim *s, int cpu);
void sim_task_pelt_update(struct sim *s, int ti);
void sim_task_pelt_enqueue(struct sim *s, int ti);
void sim_attach(struct sim *s, int ti, int cpu);
void sim_rq_traced_start(struct sim *s, int cpu, __u32 util);
void sim_detach(struct sim *s, int ti);
void sim_util_est_dequeue(struct sim *s, int ti);
__u32 sim_task_ue(const struct sim *s, int ti);
__u32 sim_task_util_est(const struct sim *s, int ti);
__u64 sim_cpu_util_est(const struct sim *s, int cpu);
__u64 sim_cpu_util_cfs(const struct sim *s, int cpu);

/* nohz.c */
const struct fs_pelt_avg *sim_cpu_avg_seen(const struct sim *s, int cpu);
void sim_nohz_idle_enter(struct sim *s, int cpu);
void sim_nohz_tick(struct sim *s);

/* rq.c */
void sim_advance(struct sim *s, __u64 to);
__u64 sim_completion_ns(const struct sim *s, int cpu);
/* How a task joins a rq: enqueue_task_fair()'s flags as the machine needs them. */
enum sim_enqueue_how {
	SIM_ENQ_WAKEUP,  /* ttwu_do_activate(): ENQUEUE_WAKEUP, may preempt */
	SIM_ENQ_FORK,    /* wake_up_new_task(): no ENQUEUE_WAKEUP, may preempt */
	SIM_ENQ_MIGRATE, /* attach_task() from the balancer: neither */
};
void sim_enqueue(struct sim *s, int ti, int cpu, enum sim_enqueue_how how);
void sim_dequeue(struct sim *s, int ti);
void sim_tick_rotate(struct sim *s, int cpu);
bool sim_allowed(const struct sim *s, int ti, int cpu);

/* sugov.c */
void sim_sugov_init(struct sim *s);
void sim_sugov_update(struct sim *s, int pd);
__u64 sim_pd_freq(const struct sim *s, int pd);

/* balance.c */
bool sim_cpu_overutilized(const struct sim *s, int cpu);
void sim_overutilized_update(struct sim *s);
void sim_misfit_update(struct sim *s, int cpu);
void sim_balance_due(struct sim *s);
void sim_nohz_own_update(struct sim *s, int cpu);
void sim_newidle_balance(struct sim *s, int cpu);
void sim_balance_tick(struct sim *s);
void sim_newidle(struct sim *s, int cpu);
void sim_migrate(struct sim *s, int ti, int dst);

/* machine.c */
int sim_check(const struct fs_sim_workload *wl, const struct fs_sim_params *p, char *err, size_t errlen);
int sim_setup(struct sim *s, const struct fs_sim_workload *wl, const struct fs_sim_params *p,
	      struct fs_sim_result *r, char *err, size_t errlen);
void sim_teardown(struct sim *s);
void sim_results(const struct sim *s, struct fs_sim_result *r);
struct fs_sim_act_dec sim_act_dec_none(void);
int sim_home_cpu(const struct sim *s, int ti);
void sim_task_arrive(struct sim *s, int ti, int cpu);

/* events.c */
int sim_loop(struct sim *s);
int sim_loop_events(struct sim *s);
/* Run to the workload's end; top(ctx, s), if set, at each iteration's top (0 or -1 to stop with an error). */
int sim_loop_run(struct sim *s, int (*top)(void *ctx, struct sim *s), void *ctx);
int sim_loop_blocks_result(struct sim *s);
void sim_loop_free(struct sim_loop *lp);

/* workload.c: a growing table (the builder's and work_busyfreq.c's) */
int fs_sim_grow(void **v, size_t *cap, size_t need, size_t size);
/*
 * workload.c: in a table of n items of size bytes sorted by the __u64 at
 * key_off (offsetof()), the index of the first item whose key is after ts,
 * n if none: the step at or before ts is the one before it.
 */
size_t fs_sim_first_after(const void *v, size_t n, size_t size, size_t key_off, __u64 ts);
/* workload.c: a copy of n items of size, or NULL (n 0: one item's room) */
void *fs_sim_dup_items(const void *v, size_t n, size_t size);

/* place.c */
int sim_place(struct sim *s, int ti, const struct fs_sim_act *a);

#endif /* FEECSCOPE_SIM_INTERNAL_H */
