// SPDX-License-Identifier: GPL-2.0
/*
 * sim_check: a developer's look at the simulation's self-check. Loads a
 * recording, builds its workload, runs the machine under one policy and
 * physics, and prints the recording and the simulation side by side: busy
 * time per CPU and PD, wake-up placements per CPU (overutilized or not),
 * migrations by kind, overutilized time, OPP residency, and the top tasks'
 * CPU time per PD.
 *
 *   build/tests/sim_check [-p POLICY] [-l] [-n TOP] [-t PID] [-r US] [-u MS] RECORDING
 *     -p  the policy to simulate (default: the recorded kernel's)
 *     -l  LAB physics (default DEVICE)
 *     -n  tasks to list (default 12)
 *     -t  list one pid's activations: recorded and simulated CPU
 *     -r  schedutil's rate_limit_us, the machine's and the workload's
 *         frequencies' (default 0: every update)
 *     -u  the first MS ms: each simulated tick's cpu_util_cfs() per CPU and
 *         the overutilized flag, then each recorded wake-up's landscape
 *         (max(util_avg, util_est) per CPU) and the recorded flag, and
 *         the recorded sched_overutilized_tp records; a CPU over
 *         fits_capacity() is marked '*'
 * Exit: 0, 1 on a bad recording or argument.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "pipeline.h"
#include "records/recording.h"
#include "em/em_io.h"
#include "sim/sim.h"
#include "sim/compare.h"
#include "engine/pelt.h"

/* What the tool counts from the recorded wake-ups beside the workload. */
struct rec_counts {
	__u64 wakeups_cpu[FS_MAX_CPUS], ou_wakeups_cpu[FS_MAX_CPUS];
	__u64 ou_wakeups, known, wake_mig, ou_wake_mig;
	__u64 prev_idle_kept; /* overutilized placements on prev_cpu */
	/* overutilized placements by what the landscape says of the CPUs */
	__u64 ou_prev_idle, ou_prev_busy_kept, ou_to_waker, ou_to_idle, ou_to_busy, ou_sic_agree;
	__u64 ou_cpu_over[FS_MAX_CPUS]; /* overutilized wake-ups at which this CPU was (util_cfs vs capacity_of) */
	__u64 cap_sum[FS_MAX_CPUS], irq_sum[FS_MAX_CPUS], n_land;
	/* the flag after the CPUs stopped being overutilized: wake-ups with it set and no CPU over */
	__u64 ou_stale, last_over_ts, tails, tail_ns_sum, tail_hist[8];
	bool in_ou;
	/* freqstat: the first and last time_in_state per policy CPU */
	int nr_fq[FS_MAX_CPUS];
	struct fs_freqstat fq_first[FS_MAX_CPUS], fq_last[FS_MAX_CPUS];
};

static int trace_pid;
static unsigned int timeline_ms; /* -u */
/* the recorded wake-ups of the first timeline_ms: when, each CPU's util and capacity, the flag */
struct rec_land {
	__u64 ts_ns;
	__u32 util[FS_MAX_CPUS], cap[FS_MAX_CPUS];
	int nr_cpus, pid, chosen;
	bool ou, workrun;
};
static struct rec_land rec_land[8192];
static int nr_rec_land;
/* the recorded sched_overutilized_tp records (each root-domain rewrite, set or clear): when, the value */
static __u64 rec_ou_ts[8192];
static bool rec_ou_val[8192];
static int nr_rec_ou;
static __u64 rate_limit_ns; /* -r: schedutil's rate_limit_us x 1000 */
/* the traced pid's recorded wake-ups: synced util_avg and task_util_est() */
static __u32 trace_util[4096], trace_ue[4096];
static int trace_n;

/* fits_capacity() */
static bool fits(__u64 util, __u64 cap)
{
	return util * 1280 < cap * 1024;
}

static __u64 task_util_est(const struct fs_wakeup *w)
{
	__u64 ue = w->task.util_est_ewma > w->task.util_est_enqueued ? w->task.util_est_ewma
								    : w->task.util_est_enqueued;

	return ue > w->task.util_avg ? ue : w->task.util_avg;
}

/*
 * select_idle_capacity() from prev_cpu over the allowed CPUs, on the
 * recorded landscape: the first idle CPU the task fits, else the idle one of
 * highest capacity, else prev.
 */
static int sic(const struct fs_wakeup *w)
{
	const int n = w->hdr.nr_cpus;
	const __u64 u = task_util_est(w);
	int best = -1;

	for (int i = 0; i < n; i++) {
		const int c = (w->prev_cpu + i) % n;

		if (!((w->cpus_allowed >> c) & 1) || w->cpu[c].nr_running)
			continue;
		if (fits(u, w->cpu[c].capacity_orig))
			return c;
		if (best < 0 || w->cpu[c].capacity_orig > w->cpu[best].capacity_orig)
			best = c;
	}
	return best < 0 ? w->prev_cpu : best;
}

static void count_landscape(struct rec_counts *rc, const struct fs_wakeup *w, bool ou)
{
	const int n = w->hdr.nr_cpus < FS_MAX_CPUS ? w->hdr.nr_cpus : FS_MAX_CPUS;
	const int ch = w->chosen_cpu, prev = w->prev_cpu;

	bool over = false;

	rc->n_land++;
	if (timeline_ms && nr_rec_land < 8192) {
		struct rec_land *l = &rec_land[nr_rec_land++];

		*l = (struct rec_land){ .ts_ns = w->hdr.ts_ns, .nr_cpus = n, .pid = (int)w->pid, .chosen = ch, .ou = ou,
					  .workrun = !(w->flags & FS_WAKE_FORK) && !strncmp(w->comm, "workrun", FS_COMM_LEN) };
		for (int c = 0; c < n; c++) {
			const __u64 u = w->cpu[c].util_avg > w->cpu[c].util_est ? w->cpu[c].util_avg : w->cpu[c].util_est;

			l->util[c] = (__u32)u;
			l->cap[c] = (__u32)w->cpu[c].capacity;
		}
	}
	for (int c = 0; c < n; c++) {
		const struct fs_cpu *k = &w->cpu[c];
		const __u64 u = k->util_avg > k->util_est ? k->util_avg : k->util_est;

		rc->cap_sum[c] += k->capacity;
		rc->irq_sum[c] += k->irq_util + k->rt_util;
		if (!fits(u, k->capacity)) {
			over = true;
			if (ou)
				rc->ou_cpu_over[c]++;
		}
	}
	if (over)
		rc->last_over_ts = w->hdr.ts_ns;
	if (ou && !over)
		rc->ou_stale++;
	if (rc->in_ou && !ou && rc->last_over_ts) {
		/* how long the flag outlived the last landscape with a CPU over, in 4 ms steps (log2) */
		const __u64 d = w->hdr.ts_ns - rc->last_over_ts;
		int b = 0;

		for (__u64 v = d / 4000000; v && b < 7; v >>= 1)
			b++;
		rc->tail_hist[b]++;
		rc->tails++;
		rc->tail_ns_sum += d;
	}
	rc->in_ou = ou;
	if (!ou || ch < 0 || ch >= n || prev < 0 || prev >= n)
		return;
	if (ch == prev)
		*(w->cpu[prev].nr_running ? &rc->ou_prev_busy_kept : &rc->ou_prev_idle) += 1;
	else if (ch == w->waker_cpu)
		rc->ou_to_waker++;
	else
		*(w->cpu[ch].nr_running ? &rc->ou_to_busy : &rc->ou_to_idle) += 1;
	if (sic(w) == ch)
		rc->ou_sic_agree++;
}

static void count_wakeup(struct rec_counts *rc, const struct fs_wakeup *w)
{
	const bool ou = w->flags & FS_WAKE_OVERUTILIZED;

	count_landscape(rc, w, ou);
	if (trace_pid && w->pid == trace_pid && trace_n < 4096) {
		trace_util[trace_n] = fs_sync_entity_util_avg(&w->task);
		trace_ue[trace_n++] = (__u32)task_util_est(w);
	}

	if (ou)
		rc->ou_wakeups++;
	if (w->chosen_cpu < 0 || w->chosen_cpu >= FS_MAX_CPUS)
		return;
	rc->known++;
	rc->wakeups_cpu[w->chosen_cpu]++;
	if (ou) {
		rc->ou_wakeups_cpu[w->chosen_cpu]++;
		if (w->chosen_cpu == w->prev_cpu)
			rc->prev_idle_kept++;
	}
	if (w->chosen_cpu != w->prev_cpu) {
		rc->wake_mig++;
		if (ou)
			rc->ou_wake_mig++;
	}
}

static void count_freqstat(struct rec_counts *rc, const struct fs_freqstat *f)
{
	if (f->cpu < 0 || f->cpu >= FS_MAX_CPUS)
		return;
	if (!rc->nr_fq[f->cpu]++)
		rc->fq_first[f->cpu] = *f;
	rc->fq_last[f->cpu] = *f;
}

static double pct(double sim, double obs)
{
	return obs > 0 ? (sim - obs) / obs * 100 : NAN;
}

static void print_opps(const struct fs_em *em, const struct rec_counts *rc, const struct fs_sim_result *r)
{
	printf("\nOPP residency (share of the PD's busy time; recorded: time_in_state, idle included)\n");
	for (int p = 0; p < em->nr_pd; p++) {
		const struct fs_em_pd *pd = &em->pd[p];
		int first = -1;
		__u64 sim_tot = 0, rec_tot = 0, rec[FS_MAX_PS] = { 0 };

		for (int c = 0; c < em->nr_cpus; c++)
			if (em->cpu_pd[c] == p && first < 0)
				first = c;
		for (int s = 0; s < pd->nr_ps; s++)
			sim_tot += r->opp_busy_ns[p][s];
		if (first >= 0 && rc->nr_fq[first] >= 2) {
			const struct fs_freqstat *a = &rc->fq_first[first], *b = &rc->fq_last[first];

			for (__u32 i = 0; i < b->nr && i < FS_MAX_FREQS; i++)
				for (int s = 0; s < pd->nr_ps; s++)
					if (pd->ps[s].frequency == b->st[i].khz) {
						__u64 d = b->st[i].ns;

						for (__u32 j = 0; j < a->nr && j < FS_MAX_FREQS; j++)
							if (a->st[j].khz == b->st[i].khz)
								d -= a->st[j].ns < d ? a->st[j].ns : d;
						rec[s] += d;
						rec_tot += d;
					}
		}
		printf("  PD %-8s", pd->name);
		for (int s = 0; s < pd->nr_ps; s++)
			printf(" %5lu:%3.0f/%3.0f", (unsigned long)(pd->ps[s].frequency / 1000),
			       rec_tot ? 100.0 * (double)rec[s] / (double)rec_tot : NAN,
			       sim_tot ? 100.0 * (double)r->opp_busy_ns[p][s] / (double)sim_tot : NAN);
		printf("   (MHz:rec%%/sim%%)\n");
	}
}

struct task_row {
	int ti;
	__u64 rec_ns, rec_pd[FS_MAX_PDS];
};

static int by_rec_desc(const void *a, const void *b)
{
	const struct task_row *x = a, *y = b;

	return x->rec_ns < y->rec_ns ? 1 : x->rec_ns > y->rec_ns ? -1 : x->ti - y->ti;
}

static void print_tasks(const struct fs_em *em, const struct fs_sim_workload *wl, const struct fs_sim_result *r,
			int top)
{
	struct task_row *rows = calloc((size_t)wl->nr_tasks + 1, sizeof(*rows));

	if (!rows)
		return;
	for (int ti = 0; ti < wl->nr_tasks; ti++) {
		const struct fs_sim_task *t = &wl->tasks[ti];

		rows[ti].ti = ti;
		for (__u32 k = 0; k < t->nr_act; k++) {
			const struct fs_sim_act *a = &wl->acts[t->first_act + k];

			rows[ti].rec_ns += a->rec_cpu_ns;
			if (a->rec_cpu >= 0 && a->rec_cpu < em->nr_cpus)
				rows[ti].rec_pd[em->cpu_pd[a->rec_cpu]] += a->rec_cpu_ns;
		}
	}
	qsort(rows, (size_t)wl->nr_tasks, sizeof(*rows), by_rec_desc);
	printf("\ntop tasks: CPU ms per PD, recorded/simulated (a balanced activation counts where it woke)\n");
	printf("  %-7s %-16s %5s", "pid", "comm", "acts");
	for (int p = 0; p < em->nr_pd; p++)
		printf(" %15.8s", em->pd[p].name);
	printf(" %15s %8s\n", "total", "wait ms");
	for (int i = 0; i < wl->nr_tasks && i < top; i++) {
		const struct fs_sim_task *t = &wl->tasks[rows[i].ti];
		const struct fs_sim_task_result *tr = &r->task[rows[i].ti];

		printf("  %-7d %-16.16s %5u", t->pid, t->comm, t->nr_act);
		for (int p = 0; p < em->nr_pd; p++)
			printf(" %7.1f/%7.1f", (double)rows[i].rec_pd[p] / 1e6, (double)tr->run_pd_ns[p] / 1e6);
		printf(" %7.1f/%7.1f %8.1f\n", (double)rows[i].rec_ns / 1e6, (double)tr->run_ns / 1e6,
		       (double)tr->wait_ns / 1e6);
	}
	free(rows);
}

static void print_cpus(const struct fs_em *em, const struct fs_sim_workload *wl, const struct rec_counts *rc,
		       const struct fs_sim_result *r)
{
	printf("\n%-4s %-8s %5s %9s %9s %7s   %-17s %-17s\n", "cpu", "PD", "cap", "rec ms", "sim ms", "diff",
	       "wakeups rec/sim", "overutil rec/sim");
	for (int c = 0; c < em->nr_cpus; c++)
		printf("%-4d %-8.8s %5u %9.1f %9.1f %+6.0f%%   %7llu/%-9llu %7llu/%-9llu\n", c,
		       em->pd[em->cpu_pd[c]].name, em->capacity[c], (double)wl->observed.busy_ns[c] / 1e6,
		       (double)r->busy_ns[c] / 1e6, pct((double)r->busy_ns[c], (double)wl->observed.busy_ns[c]),
		       (unsigned long long)rc->wakeups_cpu[c], (unsigned long long)r->wakeups_cpu[c],
		       (unsigned long long)rc->ou_wakeups_cpu[c], (unsigned long long)r->ou_wakeups_cpu[c]);
}

/*
 * Where the recorded kernel and the simulation placed each activation,
 * by PD, in ms of its recorded CPU time, split by how the simulation
 * decided (feec, or the fallback while overutilized).
 */
static void print_pd_matrix(const struct fs_em *em, const struct fs_sim_workload *wl, const struct fs_sim_result *r)
{
	static const char *const how[] = { "feec", "overutilized fallback", "fallback from feec -1", "fork" };
	double m[4][FS_MAX_PDS][FS_MAX_PDS] = { 0 };

	for (__u64 i = 0; i < wl->nr_acts; i++) {
		const struct fs_sim_act *a = &wl->acts[i];

		if (a->rec_cpu < 0 || r->act_cpu[i] < 0 || r->act_how[i] < 0 || r->act_how[i] > 3)
			continue;
		m[r->act_how[i]][em->cpu_pd[a->rec_cpu]][em->cpu_pd[r->act_cpu[i]]] += (double)a->rec_cpu_ns / 1e6;
	}
	double queued = 0, unknown = 0;
	__u64 nq = 0;

	for (__u64 i = 0; i < wl->nr_acts; i++) {
		if (r->act_cpu[i] < 0) {
			nq++;
			queued += (double)wl->acts[i].rec_cpu_ns / 1e6;
		} else if (wl->acts[i].rec_cpu < 0) {
			unknown += (double)wl->acts[i].rec_cpu_ns / 1e6;
		}
	}
	printf("\nsimulated activations that found their task still runnable: %llu, %.1f ms;"
	       " placed with no recorded CPU: %.1f ms\n", (unsigned long long)nq, queued, unknown);
	for (int h = 0; h < 4; h++) {
		printf("\nplaced by %s: recorded PD (rows) vs simulated PD (columns), ms of CPU time\n", how[h]);
		for (int x = 0; x < em->nr_pd; x++) {
			printf("  %-8.8s", em->pd[x].name);
			for (int y = 0; y < em->nr_pd; y++)
				printf(" %9.1f", m[h][x][y]);
			printf("\n");
		}
	}
}

static void print_task_acts(const struct fs_em *em, const struct fs_sim_workload *wl, const struct fs_sim_result *r,
			    int pid)
{
	(void)em;
	for (int ti = 0; ti < wl->nr_tasks; ti++) {
		const struct fs_sim_task *t = &wl->tasks[ti];

		if (t->pid != pid)
			continue;
		printf("\ntask %d %s: wake ms, recorded cpu, CPU ms, simulated cpu, how (0 feec 1 ou 2 -1 3 fork),\n"
		       "  util_avg rec/sim, task_util_est rec/sim, work us\n", t->pid, t->comm);
		for (__u32 k = 0; k < t->nr_act; k++) {
			const __u64 i = t->first_act + k;
			const struct fs_sim_act *a = &wl->acts[i];

			printf("  %10.3f %3d %8.3f %3d %2d  %4u/%-4u %4u/%-4u %9.1f%s%s\n", (double)a->wake_ns / 1e6, a->rec_cpu,
			       (double)a->rec_cpu_ns / 1e6, r->act_cpu[i], r->act_how[i],
			       (int)k < trace_n ? trace_util[k] : 0, r->act_util[i] & 0xffff,
			       (int)k < trace_n ? trace_ue[k] : 0, r->act_util[i] >> 16, (double)a->work / 1e3,
			       a->flags & FS_SIM_ACT_BALANCED ? " balanced" : "",
			       r->act_how[i] < 0 ? " task still runnable: work queued, not placed" : "");
		}
	}
}


/* -u: the simulated ticks, then the recorded wake-ups, of the first timeline_ms. */
static void print_timeline(const struct fs_em *em, const struct fs_sim_workload *wl, const struct fs_sim_result *r)
{
	printf("\nsimulated ticks: ms OU cpu_util_cfs()/nr_running per CPU ('*' over capacity x 0.8)\n");
	for (unsigned int i = 0; i < r->nr_timeline; i++) {
		const struct fs_sim_tick_state *t = &r->timeline[i];

		printf("  %7.1f %s", (double)t->now_ns / 1e6, t->overutilized ? "OU" : "--");
		for (int c = 0; c < em->nr_cpus; c++)
			printf(" %4u/%u%s", t->util[c], t->nr[c], fits(t->util[c], em->capacity[c]) ? " " : "*");
		printf("\n");
	}
	/* the share the start-up question is about: wake-ups the fallback placed, of `workrun` threads and of all */
	__u64 n[2] = { 0 }, ou[2] = { 0 }, rn[2] = { 0 }, rou[2] = { 0 };

	for (int ti = 0; ti < wl->nr_tasks; ti++) {
		const struct fs_sim_task *t = &wl->tasks[ti];
		const int wr = !strcmp(t->comm, "workrun");

		for (__u32 i = t->first_act; i < t->first_act + t->nr_act; i++) {
			if (wl->acts[i].wake_ns > (__u64)timeline_ms * 1000000 || r->act_how[i] < 0 || r->act_how[i] == 3)
				continue;
			n[0]++, n[1] += wr;
			ou[0] += r->act_how[i] == 1, ou[1] += wr && r->act_how[i] == 1;
		}
	}
	for (int i = 0; i < nr_rec_land; i++)
		if (rec_land[i].ts_ns >= wl->t0_ns && rec_land[i].ts_ns - wl->t0_ns <= (__u64)timeline_ms * 1000000) {
			rn[0]++, rn[1] += rec_land[i].workrun;
			rou[0] += rec_land[i].ou, rou[1] += rec_land[i].workrun && rec_land[i].ou;
		}
	printf("first %u ms: overutilized wake-ups (forks aside), simulated %llu of %llu (workrun %llu of %llu), "
	       "recorded %llu of %llu (workrun %llu of %llu)\n", timeline_ms, (unsigned long long)ou[0],
	       (unsigned long long)n[0], (unsigned long long)ou[1], (unsigned long long)n[1], (unsigned long long)rou[0],
	       (unsigned long long)rn[0], (unsigned long long)rou[1], (unsigned long long)rn[1]);
	printf("recorded sched_overutilized_tp (ms:value):");
	for (int i = 0; i < nr_rec_ou; i++)
		if (rec_ou_ts[i] >= wl->t0_ns && rec_ou_ts[i] - wl->t0_ns <= (__u64)timeline_ms * 1000000)
			printf(" %.1f:%d", (double)(rec_ou_ts[i] - wl->t0_ns) / 1e6, rec_ou_val[i]);
	printf("\n");
	printf("recorded wake-ups: ms OU pid->cpu, max(util_avg, util_est) per CPU ('*' over its capacity x 0.8)\n");
	for (int i = 0; i < nr_rec_land; i++) {
		const struct rec_land *l = &rec_land[i];

		if (l->ts_ns < wl->t0_ns || l->ts_ns - wl->t0_ns > (__u64)timeline_ms * 1000000)
			continue;
		printf("  %7.1f %s %6d->%d", (double)(l->ts_ns - wl->t0_ns) / 1e6, l->ou ? "OU" : "--", l->pid, l->chosen);
		for (int c = 0; c < l->nr_cpus; c++)
			printf(" %4u%s", l->util[c], fits(l->util[c], l->cap[c]) ? " " : "*");
		printf("\n");
	}
}

static int run(const char *path, const char *pol_name, enum fs_sim_physics phys, int top)
{
	char err[512] = "", why[256] = "";
	struct fs_rec_meta meta;
	struct fs_em em;
	struct fs_rec_reader *rd = fs_rec_reader_open(path, &meta, err, sizeof(err));
	struct fs_sim_builder *b = NULL;
	struct fs_pipeline *p = NULL;
	struct fs_sim_workload wl = { 0 };
	struct fs_sim_result r = { 0 };
	struct rec_counts *rc = calloc(1, sizeof(*rc));
	const struct fs_rec_hdr *h;
	int ret = 1, n;

	if (!rd || !rc) {
		fprintf(stderr, "sim_check: %s: %s\n", path, rd ? "out of memory" : err);
		goto cleanup;
	}
	if (fs_em_parse_text(meta.em_text, meta.em_len, path, &em, why, sizeof(why))) {
		fprintf(stderr, "sim_check: %s: EM: %s\n", path, why);
		goto cleanup;
	}
	const struct fs_policy_desc *kp = fs_policy_for_release(meta.kernel_release, why, sizeof(why));
	const struct fs_policy_desc *sp = pol_name ? fs_policy_find(pol_name) : kp;

	if (!kp || !sp) {
		fprintf(stderr, "sim_check: policy %s: %s\n", pol_name ? pol_name : meta.kernel_release,
			kp ? "unknown" : why);
		goto cleanup;
	}
	struct fs_sim_builder_opts bo = { .kernel_policy = kp, .emulate_eas = !meta.em_is_kernel };

	for (int pd = 0; pd < FS_MAX_PDS; pd++)
		bo.rate_limit_ns[pd] = rate_limit_ns; /* the workload's frequencies under the machine's limit */
	/*
	 * The pipeline is here for the recording's CPU energy alone: its own
	 * closed loop (replay's, under replay's settings) was a second
	 * simulation whose results nothing read, not a check of this one.
	 */
	struct fs_pipeline_opts po = { .em = &em, .nr_policies = 1, .kernel_release = meta.kernel_release,
				       .emulate_eas = !meta.em_is_kernel, .no_sim = true };

	po.policies[0] = kp;
	b = fs_sim_builder_new_opts(&em, phys, &bo, err, sizeof(err));
	p = b ? fs_pipeline_new(&po, err, sizeof(err)) : NULL;
	if (!p) {
		fprintf(stderr, "sim_check: %s\n", err);
		goto cleanup;
	}
	while ((n = fs_rec_reader_next(rd, &h, err, sizeof(err))) == 1) {
		if (h->type == FS_REC_WAKEUP)
			count_wakeup(rc, (const struct fs_wakeup *)h);
		else if (h->type == FS_REC_FREQSTAT)
			count_freqstat(rc, (const struct fs_freqstat *)h);
		else if (h->type == FS_REC_OVERUTIL && timeline_ms && nr_rec_ou < 8192) {
			rec_ou_ts[nr_rec_ou] = h->ts_ns;
			rec_ou_val[nr_rec_ou++] = ((const struct fs_overutil *)h)->overutilized != 0;
		}
		if (fs_pipeline_feed(p, h, err, sizeof(err)) || fs_sim_builder_feed(b, h, err, sizeof(err))) {
			n = -1;
			break;
		}
	}
	if (n < 0 || fs_pipeline_finish(p, err, sizeof(err))) {
		fprintf(stderr, "sim_check: %s: %s\n", path, err);
		goto cleanup;
	}
	n = fs_sim_builder_finish(b, &wl, err, sizeof(err));
	b = NULL;
	struct fs_sim_params sp_ = { .em = &em, .policy = sp, .physics = phys, .sugov_rate_limit_ns = rate_limit_ns,
				     .timeline_ticks = timeline_ms ? timeline_ms / 4 + 1 : 0 }; /* HZ 250 */

	if (n || fs_sim_run(&wl, &sp_, &r, err, sizeof(err))) {
		fprintf(stderr, "sim_check: %s\n", err);
		goto cleanup;
	}
	const struct fs_report *rep = fs_pipeline_snapshot(p);
	const double rec_e = fs_sim_energy_of_fj(&em, rep->cpu.total_fj);
	struct fs_sim_selfcheck c;
	char line[128];

	fs_sim_selfcheck(&em, &wl.observed, rec_e, &r, &c);
	fs_sim_selfcheck_line(&c, &em, line, sizeof(line));
	printf("%s: kernel %s, policy %s, %s physics, %d tasks, %llu activations, %.3f s\n", path,
	       meta.kernel_release, sp->name, phys == FS_SIM_LAB ? "LAB" : "DEVICE", wl.nr_tasks,
	       (unsigned long long)wl.nr_acts, (double)wl.end_ns / 1e9);
	printf("%s\n", line);
	printf("workload: never-woke tasks %llu (%.1f ms), pre-wake %.1f ms, unknown-work acts %llu, guessed CPU %llu\n",
	       (unsigned long long)wl.tasks_never_woke, (double)wl.never_woke_ns / 1e6, (double)wl.pre_wake_ns / 1e6,
	       (unsigned long long)wl.acts_unknown_work, (unsigned long long)wl.acts_cpu_guessed);
	if (wl.bf_segs)
		printf("workload: busyfreq records corrected %llu stretches: work %.4f x the estimate's\n",
		       (unsigned long long)wl.bf_segs, (double)wl.bf_work_meas / (double)wl.bf_work_est);
	if (wl.step_segs)
		printf("workload: %llu stretches at the recorded frequency steps (%.1f ms of work); %llu of them "
		       "ran without a wait, PELT's bounds set aside\n", (unsigned long long)wl.step_segs,
		       (double)wl.step_work / 1e6, (unsigned long long)wl.pelt_steps_kept);
	if (wl.pelt_acts)
		printf("workload: PELT bounded %llu activations' work, moved %llu: %.4f x what they had\n",
		       (unsigned long long)wl.pelt_acts, (unsigned long long)wl.pelt_moved,
		       (double)wl.pelt_work / (double)wl.pelt_work_est);
	printf("recording's CPU energy: busy from %s, frequencies from %s; cpustat busy ms:",
	       fs_busy_source_name(rep->cpu.busy_src), fs_freq_source_name(rep->cpu.freq_src));
	for (int cpu = 0; cpu < em.nr_cpus; cpu++)
		printf(" %.0f", (double)rep->cpu.busy_ns[cpu] / 1e6);
	printf("\n");
	print_cpus(&em, &wl, rc, &r);
	if (timeline_ms)
		print_timeline(&em, &wl, &r);
	printf("\n%-8s %9s %9s %7s\n", "PD", "rec ms", "sim ms", "diff");
	for (int pd = 0; pd < em.nr_pd; pd++)
		printf("%-8.8s %9.1f %9.1f %+6.1f%%\n", em.pd[pd].name, (double)c.busy_obs_ns[pd] / 1e6,
		       (double)c.busy_sim_ns[pd] / 1e6, c.busy_pct[pd]);
	printf("simulated busy ms per PD by how the task came there (wake-up, misfit push, idle pull):\n");
	for (int pd = 0; pd < em.nr_pd; pd++)
		printf("  %-8.8s %9.1f %9.1f %9.1f\n", em.pd[pd].name, (double)r.busy_via_pd[0][pd] / 1e6,
		       (double)r.busy_via_pd[1][pd] / 1e6, (double)r.busy_via_pd[2][pd] / 1e6);
	printf("mean busy power per PD, recorded (its residency) / simulated (EM unit):");
	for (int pd = 0; pd < em.nr_pd; pd++) {
		double e = 0;
		__u64 b = 0;

		for (int st = 0; st < em.pd[pd].nr_ps; st++) {
			e += (double)r.opp_busy_ns[pd][st] * (double)em.pd[pd].ps[st].power;
			b += r.opp_busy_ns[pd][st];
		}
		printf(" %s %llu/%.0f", em.pd[pd].name, (unsigned long long)rep->cpu.mean_power_uw[pd],
		       b ? e / (double)b : 0.0);
	}
	printf("\n");
	printf("energy   %9.1f %9.1f %+6.1f%%  (EM unit x s; recorded: CPU energy)\n", c.energy_obs, c.energy_sim,
	       c.energy_pct);
	printf("\nmigrations rec: %llu (wake-up %llu, %llu of them overutilized; balance %llu)\n",
	       (unsigned long long)c.mig_obs, (unsigned long long)rc->wake_mig, (unsigned long long)rc->ou_wake_mig,
	       (unsigned long long)wl.observed.balance_migrations);
	printf("migrations sim: %llu (wake-up %llu, misfit %llu, idle pulls %llu)\n", (unsigned long long)c.mig_sim,
	       (unsigned long long)r.migrations_wakeup, (unsigned long long)r.migrations_misfit,
	       (unsigned long long)r.migrations_newidle);
	printf("overutilized wake-ups rec: %llu of %llu (%llu kept prev_cpu); sim: %llu of %llu, %.3f s\n",
	       (unsigned long long)rc->ou_wakeups, (unsigned long long)wl.nr_acts,
	       (unsigned long long)rc->prev_idle_kept, (unsigned long long)r.overutilized_wakeups,
	       (unsigned long long)r.wakeups, (double)r.overutilized_ns / 1e9);
	printf("recorded overutilized placements: prev idle %llu, prev busy kept %llu, to waker's CPU %llu,\n"
	       "  to another idle CPU %llu, to a busy one %llu; select_idle_capacity(prev) agrees %llu\n",
	       (unsigned long long)rc->ou_prev_idle, (unsigned long long)rc->ou_prev_busy_kept,
	       (unsigned long long)rc->ou_to_waker, (unsigned long long)rc->ou_to_idle,
	       (unsigned long long)rc->ou_to_busy, (unsigned long long)rc->ou_sic_agree);
	printf("recorded: %llu overutilized wake-ups with no CPU over; %llu phases ended, mean %.1f ms after\n"
	       "  the last landscape with a CPU over; by 4 ms x 2^i:", (unsigned long long)rc->ou_stale,
	       (unsigned long long)rc->tails, rc->tails ? (double)rc->tail_ns_sum / 1e6 / (double)rc->tails : 0);
	for (int i = 0; i < 8; i++)
		printf(" %llu", (unsigned long long)rc->tail_hist[i]);
	printf("\n");
	printf("per CPU: overutilized at OU wake-ups / mean capacity_of / mean rt+irq util:");
	for (int c = 0; c < em.nr_cpus && rc->n_land; c++)
		printf("%s%d: %llu/%llu/%llu", c % 4 ? "  " : "\n  ", c, (unsigned long long)rc->ou_cpu_over[c],
		       (unsigned long long)(rc->cap_sum[c] / rc->n_land),
		       (unsigned long long)(rc->irq_sum[c] / rc->n_land));
	printf("\n");
	print_opps(&em, rc, &r);
	print_tasks(&em, &wl, &r, top);
	print_pd_matrix(&em, &wl, &r);
	if (trace_pid)
		print_task_acts(&em, &wl, &r, trace_pid);
	ret = 0;
cleanup:
	fs_sim_result_free(&r);
	fs_sim_workload_free(&wl);
	fs_sim_builder_free(b);
	fs_pipeline_free(p);
	if (rd) {
		fs_rec_reader_close(rd);
		fs_rec_meta_free(&meta);
	}
	free(rc);
	return ret;
}

int main(int argc, char **argv)
{
	const char *pol = NULL;
	enum fs_sim_physics phys = FS_SIM_DEVICE;
	int top = 12, opt;

	while ((opt = getopt(argc, argv, "p:ln:t:r:u:h")) != -1) {
		switch (opt) {
		case 'p':
			pol = optarg;
			break;
		case 'l':
			phys = FS_SIM_LAB;
			break;
		case 'n':
			top = atoi(optarg);
			break;
		case 't':
			trace_pid = atoi(optarg);
			break;
		case 'u':
			timeline_ms = (unsigned int)strtoul(optarg, NULL, 10);
			break;
		case 'r':
			rate_limit_ns = strtoull(optarg, NULL, 10) * 1000;
			break;
		default:
			fprintf(stderr, "usage: sim_check [-p POLICY] [-l] [-n TOP] [-t PID] [-r US] [-u MS] RECORDING\n");
			return opt == 'h' ? 0 : 1;
		}
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "usage: sim_check [-p POLICY] [-l] [-n TOP] [-t PID] [-r US] [-u MS] RECORDING\n");
		return 1;
	}
	return run(argv[optind], pol, phys, top);
}
