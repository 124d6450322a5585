/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The closed-loop simulation (docs/simulation.md): a recording's workload,
 * replayed on a simulated machine whose wake-ups are placed by one feec
 * policy, so each policy's energy comes from what it would have made the
 * workload do, not from pricing the recorded kernel's decisions one by one.
 * Pure C on the engine: no I/O, no libbpf.
 *
 * Two halves meet here:
 *   workload.c  records -> struct fs_sim_workload (tasks and activations)
 *   machine.c   fs_sim_workload + policy + EM -> struct fs_sim_result
 */
#ifndef FEECSCOPE_SIM_H
#define FEECSCOPE_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include "../record.h"
#include "../engine/em.h"
#include "../engine/policy.h"

/*
 * How long work takes on a CPU.
 *   DEVICE: as on silicon, time = work * 1024 / capacity * fmax_pd / f.
 *   LAB:    as under QEMU -icount: every CPU at every OPP runs the same
 *           instructions a nanosecond, time = work (the kernel still scales
 *           PELT by capacity and frequency: it does not know).
 */
enum fs_sim_physics { FS_SIM_DEVICE = 0, FS_SIM_LAB };

/*
 * Work unit: nanoseconds of running on a CPU of capacity 1024 at its PD's
 * highest frequency (DEVICE). Under LAB physics the unit is plain CPU ns.
 */
#define FS_SIM_NO_TASK (-1)
#define FS_SIM_NEVER   (~0ull)

/* One activation: the task woke at wake_ns and ran `work` before it slept. */
struct fs_sim_act {
	__u64 wake_ns;   /* since the workload's t0 */
	__u64 work;      /* work units (above) */
	__u64 rec_cpu_ns;/* the CPU time the recorded kernel gave it (self-check) */
	__s32 rec_cpu;   /* CPU the recorded kernel placed it on, -1 unknown */
	__s32 waker;     /* task index of the waker, FS_SIM_NO_TASK if unknown */
	__u32 flags;     /* FS_SIM_ACT_* */
	__s32 waker_cpu; /* the CPU the recorded waker ran on (the recorded kernel's, not the simulation's) */
	__u32 traced_util; /* with FS_SIM_ACT_UTIL_TRACED: the task's util_avg a trace gave at this wake-up */
};
#define FS_SIM_ACT_FORK        (1u << 0) /* the task's first activation is its fork (no feec) */
#define FS_SIM_ACT_SYNC        (1u << 1) /* WF_SYNC as recorded */
/* No reading closed it: work and rec_cpu_ns hold what readings covered (0 for the whole) */
#define FS_SIM_ACT_UNKNOWN     (1u << 2)
#define FS_SIM_ACT_BALANCED    (1u << 3) /* the recorded kernel's balancer moved it part-way */
#define FS_SIM_ACT_CPU_GUESSED (1u << 4) /* placement not recorded: work derived on the kernel policy's CPU */
#define FS_SIM_ACT_UTIL_TRACED (1u << 5) /* traced_util holds a trace's PELT of the task at this wake-up */

struct fs_sim_task {
	__s32 pid, tgid;
	__u32 uid;               /* FS_NO_UID if unknown */
	char comm[FS_COMM_LEN];
	__u64 cpus_allowed;      /* mask as first recorded */
	__u16 uclamp_min, uclamp_max;
	__u32 init_util;         /* PELT util_avg at its first recorded wake-up (synced) */
	__u32 init_util_est;     /* util_est (ewma) then */
	__s32 init_cpu;          /* prev_cpu at its first recorded wake-up; a fork's: the kernel's placement */
	/*
	 * Its PELT last updated a period or more before its first recorded
	 * wake-up (not a fork's): the enqueue there, on the CPU it slept on,
	 * recomputes its averages and clears util_est's UTIL_AVG_UNCHANGED.
	 * False where the source cannot tell (traces).
	 */
	bool init_aged;
	__u64 exit_ns;           /* since t0, FS_SIM_NEVER if it did not exit */
	__u32 first_act, nr_act; /* its activations: acts[first_act .. first_act + nr_act) */
};

/*
 * Per-CPU and overall figures of the recording the workload came from, for
 * the self-check (the simulation under the recorded kernel's policy against
 * what the recorded kernel did).
 */
struct fs_sim_observed {
	__u64 busy_ns[FS_MAX_CPUS]; /* CPU time of the activations by the CPU it ran on (guessed CPUs too) */
	__u64 wakeups;              /* activations with a known placement */
	__u64 migrations;           /* wake-ups placed off prev_cpu (forks not counted) + balance moves */
	__u64 balance_migrations;   /* FS_MIG_BALANCE records */
	/*
	 * EAS was emulated (the builder's emulate_eas): the recorded kernel did
	 * not place with this EM, so the self-check compares the machine with a
	 * kernel that ran other rules, not a test of the recorded kernel.
	 */
	bool eas_emulated;
	/*
	 * Busy time at each OPP: a trace's from cpu_frequency (sim/trace_check.h),
	 * a recording's from its busyfreq records (the growth from each CPU's first
	 * to its latest; 0 without them)
	 */
	__u64 opp_busy_ns[FS_MAX_PDS][FS_MAX_PS];
	/* a recording's busyfreq records: every CPU with a PD had two (rec_busy_ns is theirs) */
	bool busyfreq;
	__u64 rec_busy_ns[FS_MAX_CPUS]; /* busy time, any frequency: the machine's, the collector's too */
};

struct fs_sim_workload {
	__u64 t0_ns, end_ns;         /* recording time of t0; end = length since t0 */
	int nr_cpus;
	enum fs_sim_physics physics; /* the unit `work` was derived in */
	int nr_tasks;
	struct fs_sim_task *tasks;
	__u64 nr_acts;
	struct fs_sim_act *acts;     /* grouped by task, each task's in wake order */
	struct fs_sim_observed observed;
	/* What the recording could not give (docs/simulation.md, "What a recording cannot tell"). */
	__u64 acts_unknown_work;     /* activations with FS_SIM_ACT_UNKNOWN */
	__u64 tasks_never_woke;      /* tasks with records but no wake-up in the window: not simulated */
	__u64 never_woke_ns;         /* their CPU time between their first and last reading */
	__u64 pre_wake_ns;           /* CPU time tasks ran before their first wake-up (balance readings) */
	__u64 acts_cpu_guessed;      /* activations with FS_SIM_ACT_CPU_GUESSED */
	__u64 affinity_changed;      /* tasks whose cpus_allowed changed after their first wake-up */
	__u64 pid_reuses;            /* a pid's wake-up was another task (exit seen or lost; pipeline's rule) */
	__u64 rec_cpu_ns;            /* sum of the activations' rec_cpu_ns */
	__u64 work;                  /* sum of the activations' work */
	/*
	 * DEVICE work the busyfreq records corrected (docs/simulation.md, "Work
	 * against the busyfreq records"): its stretches of CPU time, their work
	 * as estimated and as corrected (all 0 without busyfreq records).
	 */
	__u64 bf_segs, bf_work_est, bf_work_meas;
	/*
	 * DEVICE work at the recording's frequency steps (FS_REC_FREQ;
	 * work_steps.c): its stretches of CPU time and their work (0 without)
	 */
	__u64 step_segs, step_work;
	/*
	 * DEVICE activations whose work their task's PELT bounds (work_pelt.c):
	 * how many, their work before and after, how many the bounds moved
	 */
	__u64 pelt_acts, pelt_work_est, pelt_work, pelt_moved;
	/* activations at the frequency steps whose PELT said no wait: their work stays the steps' */
	__u64 pelt_steps_kept;
	/*
	 * A trace's root cfs_rq util_avg of each CPU in init_rq_traced (mask),
	 * the first it gave: the simulated rq's PELT starts from it (0: from
	 * the tasks it holds alone, as for a recording).
	 */
	__u64 init_rq_traced;
	__u32 init_rq_util[FS_MAX_CPUS];
};

struct fs_sim_builder;

/* Records are fed in timestamp order, as fs_pipeline_feed() gets them. */
struct fs_sim_builder *fs_sim_builder_new(const struct fs_em *em, enum fs_sim_physics physics);

struct fs_sim_builder_opts {
	/*
	 * The recorded kernel's policy: its schedutil rules pick the OPPs DEVICE
	 * work is derived at, its feec the CPU of a wake-up whose placement was
	 * not recorded. NULL: mainline schedutil, and prev_cpu.
	 */
	const struct fs_policy_desc *kernel_policy;
	bool emulate_eas; /* the EM is not the recorded kernel's (fs_pipeline_opts.emulate_eas) */
	/* each PD's schedutil rate limit, the simulation's (0: every request lands; work_freq.c) */
	__u64 rate_limit_ns[FS_MAX_PDS];
};
/* NULL with err on a policy that does not take the EM, or out of memory. o may be NULL. */
struct fs_sim_builder *fs_sim_builder_new_opts(const struct fs_em *em, enum fs_sim_physics physics,
					       const struct fs_sim_builder_opts *o, char *err, size_t errlen);
/* Returns 0, or -1 with err naming the record and what is wrong. */
int fs_sim_builder_feed(struct fs_sim_builder *b, const struct fs_rec_hdr *rec, char *err, size_t errlen);
/*
 * The workload of the records so far, as fs_sim_builder_finish() would hand
 * it over, the builder kept to take more (live's closed loop at intervals).
 */
int fs_sim_builder_snapshot(const struct fs_sim_builder *b, struct fs_sim_workload *out, char *err, size_t errlen);
/* Hands the workload over (free with fs_sim_workload_free) and frees the builder. */
int fs_sim_builder_finish(struct fs_sim_builder *b, struct fs_sim_workload *out, char *err, size_t errlen);
void fs_sim_builder_free(struct fs_sim_builder *b);
void fs_sim_workload_free(struct fs_sim_workload *wl);

/* The simulated machine's rules where kernels differ or a device chooses. */
struct fs_sim_params {
	const struct fs_em *em;
	const struct fs_policy_desc *policy; /* places every wake-up feec decides */
	enum fs_sim_physics physics;
	unsigned int hz;                     /* scheduler tick, 250 if 0 */
	__u64 sugov_rate_limit_ns;           /* schedutil rate_limit_us * 1000; 0: every update */
	/* a PD's own rate limit where bit pd of pd_rate_limit_set is set, else sugov_rate_limit_ns */
	__u64 pd_rate_limit_ns[FS_MAX_PDS];
	unsigned int pd_rate_limit_set;
	/*
	 * Time blocks of the simulated timeline for the closed-loop interval
	 * (compare.h): the energy of each block_ns from t0; 0: none kept.
	 */
	__u64 block_ns;
	/* fill fs_sim_result.act_dec (a trace's decision CSV); off: NULL, no cost */
	bool keep_decisions;
	/* fill fs_sim_result.timeline for the first this many ticks; 0: NULL, no cost */
	unsigned int timeline_ticks;
};

/* The machine as one tick left it (sim_check -u): each CPU's cpu_util_cfs() and the flag. */
struct fs_sim_tick_state {
	__u64 now_ns;                  /* since t0 */
	__u32 util[FS_MAX_CPUS];       /* cpu_util_cfs(), running and blocked */
	__u8 nr[FS_MAX_CPUS];          /* tasks on the rq, up to 255 */
	bool overutilized;             /* the root domain's flag after the tick */
};

/*
 * What feec said at one activation's wake-up in the simulation, besides
 * act_cpu / act_how / act_util: the decision CSV of a trace (docs/traces.md).
 */
struct fs_sim_act_dec {
	__u64 wake_ns;          /* when the simulation placed it, since t0 */
	__u64 prev_delta, best_delta, threshold; /* UINT64_MAX = none */
	__s32 prev_cpu;         /* the task's CPU as it woke; -1: not placed (still runnable) */
	__s32 feec_cpu;         /* feec's answer; -1: it returned -1 or did not run */
	__s32 cpu;              /* act_cpu's */
	__u32 task_util;        /* task_util_est() at the wake-up */
	__u8 reason;            /* enum fs_feec_reason */
	__s8 how;               /* act_how's */
	bool has_threshold;
};

#define FS_SIM_LAT_BUCKETS 64 /* log2 buckets of ns, bucket i holds [2^i, 2^(i+1)) */

struct fs_sim_task_result {
	double energy;        /* the task's share: busy time it ran x its CPU's power, EM unit x s */
	unsigned __int128 energy_x; /* the same exact, EM unit x ns */
	__u64 run_ns;         /* time it ran */
	__u64 wait_ns;        /* time runnable but not running */
	__u64 run_pd_ns[FS_MAX_PDS]; /* run_ns by the PD it ran on */
	__u64 acts_done;      /* activations completed */
	__u64 work_left;      /* work still queued at the end */
};

struct fs_sim_result {
	double energy;                        /* sum over CPUs of busy time x power of its OPP, EM unit x s */
	unsigned __int128 energy_x;           /* the same exact, EM unit x ns (the tasks' sum) */
	double energy_mj;                     /* the same in mJ; NAN for a bogoWatt EM */
	__u64 busy_ns[FS_MAX_CPUS];
	__u64 opp_busy_ns[FS_MAX_PDS][FS_MAX_PS]; /* busy time of a PD's CPUs at each OPP */
	__u64 wakeups, feec_eligible, overutilized_wakeups;
	__u64 overutilized_ns;
	__u64 wakeups_cpu[FS_MAX_CPUS];       /* placements by the CPU chosen, forks included */
	__u64 ou_wakeups_cpu[FS_MAX_CPUS];    /* of those, the ones placed while overutilized */
	/* busy time per PD by how the running task came to its CPU: wake-up, misfit push, idle pull */
	__u64 busy_via_pd[3][FS_MAX_PDS];
	__u64 migrations_wakeup, migrations_misfit, migrations_newidle;
	__u64 work_given, work_done, work_left;
	__u64 lat_hist[FS_SIM_LAT_BUCKETS];   /* activation wake -> completion */
	__u64 wait_hist[FS_SIM_LAT_BUCKETS];  /* an activation's runnable wait */
	int nr_tasks;
	struct fs_sim_task_result *task;      /* nr_tasks entries, indexed as the workload's */
	/* per activation (the workload's index): where its wake-up placed it, -1 when the task was still runnable */
	__s32 *act_cpu;
	/* per activation: 0 feec, 1 fallback while overutilized, 2 fallback from feec's -1, 3 fork, -1 none */
	__s8 *act_how;
	/* per activation: the task's util_avg synced to its wake-up (task_util_est() in the high half) */
	__u32 *act_util;
	/* per activation, with params.keep_decisions (else NULL): feec's answer and its figures */
	struct fs_sim_act_dec *act_dec;
	/* with params.timeline_ticks (else NULL): the first nr_timeline ticks' states */
	struct fs_sim_tick_state *timeline;
	unsigned int nr_timeline;
	/*
	 * The machine's energy by time block (params.block_ns), EM unit x s:
	 * block b holds [b x block_ns, (b + 1) x block_ns); a span between two
	 * events is split at block edges in proportion to its time (power does
	 * not change within it). They sum to energy.
	 */
	size_t nr_blocks;
	__u64 block_ns;
	double *block_energy;
};

/* mJ in one EM power unit x s: 1 for mW, 1/1000 for uW, NAN for bogoWatts. */
static inline double fs_sim_mj_per_unit(const struct fs_em *em)
{
	return em->unit == FS_POWER_MW ? 1.0 : em->unit == FS_POWER_UW ? 1e-3 : __builtin_nan("");
}

/* Returns 0, or -1 with err set (bad params). r is freed with fs_sim_result_free. */
int fs_sim_run(const struct fs_sim_workload *wl, const struct fs_sim_params *p, struct fs_sim_result *r,
	       char *err, size_t errlen);
void fs_sim_result_free(struct fs_sim_result *r);
/* Percentile q (0..1) of a log2 histogram, the bucket's upper bound in ns. */
__u64 fs_sim_hist_quantile(const __u64 *hist, double q);

#endif /* FEECSCOPE_SIM_H */
