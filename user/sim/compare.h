/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the closed-loop simulation's results say (docs/simulation.md): the
 * self-check, the recorded kernel's own policy simulated against what the
 * recording saw (selfcheck.c), and the answer, each policy's energy and each
 * margin's closed-loop cost with its processes (compare.c). Pure C.
 */
#ifndef FEECSCOPE_SIM_COMPARE_H
#define FEECSCOPE_SIM_COMPARE_H

#include "sim.h"
#include "../engine/fj.h"
#include "../engine/verdict.h"

/* ---- the self-check (issue 29 point 5) ---- */

/* The simulation reproduces the recording when busy time per PD and energy are this close (%). */
#define FS_SIM_CHECK_PCT 5.0

struct fs_sim_selfcheck {
	int nr_pd;
	__u64 busy_obs_ns[FS_MAX_PDS];  /* the recording: its activations' CPU time per PD */
	__u64 busy_sim_ns[FS_MAX_PDS];  /* the simulation of the recorded kernel's policy */
	double busy_pct[FS_MAX_PDS];    /* (sim - obs) / obs x 100; NAN where obs is 0 */
	int worst_pd;                   /* the PD with the largest |busy_pct|; -1: no PD had busy time */
	double busy_worst_pct;          /* busy_pct[worst_pd], NAN if none */
	__u64 mig_obs, mig_sim;         /* migrations: wake-up placements off prev_cpu + balancer moves */
	double mig_pct;                 /* NAN if mig_obs is 0 */
	double energy_obs, energy_sim;  /* EM unit x s (fs_sim_result.energy); energy_obs NAN if unknown */
	double energy_pct;              /* NAN if unknown */
	bool reproduces;                /* |busy_worst_pct| and |energy_pct| (when known) <= FS_SIM_CHECK_PCT */
	bool eas_emulated;              /* fs_sim_observed.eas_emulated: not a test of the kernel */
	/*
	 * Against the recording's busyfreq records (fs_sim_observed.busyfreq): the
	 * CPUs' own busy time per PD (the collector's and unobserved tasks' too)
	 * and the busy-weighted OPP residency, half the sum of |share sim - share
	 * recorded| over the PD's OPPs (0..100; NAN where either has none).
	 */
	bool busyfreq;
	__u64 busy_bf_ns[FS_MAX_PDS];
	double busy_bf_pct[FS_MAX_PDS];
	double opp_pct[FS_MAX_PDS];
};

/*
 * Compare obs (the workload's observed figures) and the recording's CPU
 * energy rec_energy (EM unit x s, NAN if the recording has none: see
 * fs_sim_energy_of_fj) with r, the simulation of the recorded kernel's policy.
 */
void fs_sim_selfcheck(const struct fs_em *em, const struct fs_sim_observed *obs, double rec_energy,
		      const struct fs_sim_result *r, struct fs_sim_selfcheck *c);
/*
 * The summary's line against the busyfreq records, e.g. "against the CPUs'
 * busy time: PD big +4 %, OPP residency of little 12 % apart" (the worst
 * PD of each); 0 and nothing written without them.
 */
int fs_sim_selfcheck_busyfreq_line(const struct fs_sim_selfcheck *c, const struct fs_em *em, char *buf, size_t len);
/*
 * The summary's line, at most 80 columns, e.g. "simulation reproduces the
 * recording: PD busy time within 3 %, energy within 4 %". Returns its
 * length (as snprintf).
 */
int fs_sim_selfcheck_line(const struct fs_sim_selfcheck *c, const struct fs_em *em, char *buf, size_t len);
/* fJ (µW x ns, as cpu_energy.c sums) in fs_sim_result.energy's unit: the EM's power unit x s. */
double fs_sim_energy_of_fj(const struct fs_em *em, fs_fj_t fj);

/* ---- the answer (issue 29 point 4) ---- */

#define FS_SIM_UNATTRIBUTED (-1) /* a process row's tgid: the machine's energy beyond its tasks' shares */

struct fs_sim_verdict {
	int pol, twin;       /* the margin policy and its no-margin twin, indices as given */
	__int128 delta_x;    /* E(pol) - E(twin), EM unit x ns, exact */
	double delta;        /* the same in EM unit x s: positive when the margin costs */
	double delta_mj;     /* the same in mJ; NAN for a bogoWatt EM */
	/* The 95 % interval (interval.c), EM unit x s and mJ; NAN without one (fewer than 4 blocks) */
	double lo, hi, lo_mj, hi_mj;
	size_t blocks;       /* the time blocks it came from */
	__u64 block_ns;      /* their width */
	double *block_delta; /* blocks entries: E(pol) - E(twin) in each, EM unit x s (owned by the answer) */
	bool measurable;     /* there is an interval and it excludes 0 */
	unsigned int replicas; /* replicas whose spread widened the interval (replicas.h); 0: batch means alone */
	double rep_sd;       /* the replicas' verdicts' standard deviation, EM unit x s; NAN without replicas */
	size_t df;           /* the degrees of freedom of the interval's t: report sums recordings' variances */
};

struct fs_sim_process {
	__s32 tgid;                      /* FS_SIM_UNATTRIBUTED for the remainder row */
	char comm[FS_COMM_LEN];          /* the group leader's, else its busiest thread's */
	int nr_threads;
	__u64 rec_cpu_ns;                /* its activations' recorded CPU time */
	double energy[FS_MAX_POLICIES];  /* simulated, EM unit x s, under each policy */
	double delta[FS_MAX_VERDICTS];   /* energy[pol] - energy[twin] of each verdict */
	__int128 energy_x[FS_MAX_POLICIES]; /* the same exact, EM unit x ns: the rows sum to the totals */
	__int128 delta_x[FS_MAX_VERDICTS];  /* ... and to each verdict's delta_x */
	double rank;                     /* the sort key: |delta[0]|, without a verdict |vs_ref| of another policy */
};

struct fs_sim_answer {
	int nr_policies, ref;
	double energy[FS_MAX_POLICIES];  /* each policy's simulated energy */
	double vs_ref[FS_MAX_POLICIES];  /* energy[i] - energy[ref] */
	__int128 energy_x[FS_MAX_POLICIES]; /* exact, EM unit x ns */
	int nr_verdicts;
	struct fs_sim_verdict v[FS_MAX_VERDICTS]; /* in the order the margin policies were given */
	size_t nr_procs;
	struct fs_sim_process *procs;    /* by |delta[0]| (no verdict: |vs_ref| of policy 1) descending, then tgid */
};

/*
 * The answer from res[i], the simulation of wl under pols[i] (i < n), ref
 * the reference's index. Every figure is a difference of two simulations,
 * so it does not depend on the order pols come in; the processes' energies
 * (and deltas) sum to the totals (and the verdicts), the remainder row
 * included. 0, or -1 with err (arguments, out of memory).
 */
int fs_sim_answer_build(const struct fs_sim_workload *wl, const struct fs_policy_desc *const *pols,
			const struct fs_sim_result *res, int n, int ref, struct fs_sim_answer *a,
			char *err, size_t errlen);
void fs_sim_answer_free(struct fs_sim_answer *a);

/* ---- the verdict's interval (interval.c) ---- */

/* Student's t quantile 0.975 at df degrees of freedom (NAN at 0). */
double fs_sim_t975(size_t df);
/*
 * Welch-Satterthwaite's degrees of freedom of a sum of variances v_i (df_i):
 * num = (sum v_i)^2, den = sum v_i^2 / df_i; floored (a wider t), at least
 * 1; fallback where den is 0.
 */
size_t fs_sim_welch_df(double num, double den, size_t fallback);
/*
 * A 95 % interval for the sum of d[0..n), the per-block differences of two
 * simulations: sum +- t975(m - 1) x sqrt(m s^2 + widen_sd^2), s^2 the
 * sample variance of m batches (batch means), the wider of the blocks
 * (m = n) and their pairs (m = ceil(n / 2), when at least 4). -1 and NANs
 * below FS_VERDICT_MIN_UNITS.
 */
int fs_sim_interval(const double *d, size_t n, double widen_sd, double *lo, double *hi);
/*
 * Verdict v's interval from the simulations' time blocks (res[].block_energy:
 * each block's E(pol) - E(twin)); none when they kept no blocks. 0, or -1 out of memory.
 */
int fs_sim_verdict_interval(struct fs_sim_verdict *v, const struct fs_sim_result *res, double mj_per_unit);
/*
 * fs_sim_interval() with the sample variance s_r^2 of nr replicas' verdicts
 * (rep) added to each batch scale's variance, at Welch-Satterthwaite's
 * degrees of freedom: sum +- t975(df) x sqrt(m s^2 + s_r^2). nr < 2: as
 * fs_sim_interval(). df (may be NULL): the degrees of freedom t was taken at.
 */
int fs_sim_interval_rep(const double *d, size_t n, const double *rep, size_t nr, double *lo, double *hi,
			size_t *df);
/* Verdict v's interval again, its blocks' variance with the replicas' added (fs_sim_interval_rep). */
void fs_sim_verdict_widen(struct fs_sim_verdict *v, const double *rep, size_t nr, double mj_per_unit);

#endif /* FEECSCOPE_SIM_COMPARE_H */
