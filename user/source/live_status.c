// SPDX-License-Identifier: GPL-2.0
/* The collector's status lines and end report (live_status.h). */
#include <string.h>
#include "live_status.h"
#include "cli.h"
#include "em/kernel_fs.h"

/* Why fentry on select_task_rq_fair is not there, when it is not. */
static const char *no_fentry_why(const struct fs_live_features *f, const struct fs_live_bpf_opts *bo)
{
	if (bo->raw_tp)
		return "--raw-tp";
	if (!f->kernel_btf)
		return "no kernel BTF";
	return "the kernel refused it; -v says why";
}

int fs_live_status_lines(const struct fs_live_features *f, const struct fs_live_bpf_opts *bo,
			 const struct fs_em *em, bool emulate_eas, const char *em_watch, char (*lines)[320],
			 int max)
{
	int n = 0;

#define LINE(...) do { if (n < max) snprintf(lines[n++], sizeof(lines[0]), __VA_ARGS__); } while (0)
	LINE("EM: %s", em->source);
	if (emulate_eas)
		LINE("EAS emulated: the EM is not this kernel's own; the gates come from the landscape");
	if (em_watch)
		LINE("EM changes: %s", em_watch);
	if (fs_kernel_fs_mounted())
		LINE("mounted by feecscope: %s", fs_kernel_fs_mounted());
	LINE("collector: %s%s, struct rq from %s, %d/%d CPUs%s%s, programs %d/%d, start-up %.2f s",
	     f->tp_btf ? "tp_btf" : "raw_tp", f->fentry_select ? " + fentry select_task_rq_fair" : "",
	     f->ksym_runqueues ? "the runqueues ksym" : "cfs_rq->rq", f->rq_known, f->nr_cpus,
	     f->overutilized_tp ? ", sched_overutilized_tp" : "", bo->btf_path ? ", BTF from --btf" : "",
	     f->progs_loaded, f->progs_wanted, f->startup_ns / 1e9);
	if (n < max && fs_live_fallback_line(f, bo, lines[n], sizeof(lines[0])))
		n++;
#undef LINE
	return n;
}

bool fs_live_fallback_line(const struct fs_live_features *f, const struct fs_live_bpf_opts *bo, char *buf,
			   size_t len)
{
	/* what a program the kernel could not run costs, as the collector noted it */
	if (f->lost[0])
		snprintf(buf, len, "collector fallback: %.290s", f->lost);
	else if (!f->fentry_select)
		snprintf(buf, len, "collector fallback: no fentry on select_task_rq_fair (%s): wake flags unknown, "
			 "wakelist wake-ups counted as decisions", no_fentry_why(f, bo));
	else
		return false;
	return true;
}

/* text at the start of a line, wrapped within FS_CLI_COLUMNS, the lines after the first indented by 2 */
static void wrapped(FILE *out, const char *text)
{
	int col = 0;

	for (const char *p = text; *p;) {
		const char *e = strchr(p, ' ');
		int wl = e ? (int)(e - p) : (int)strlen(p);

		if (col && col + 1 + wl > FS_CLI_COLUMNS)
			col = fprintf(out, "\n ") - 1;
		if (col)
			col += fprintf(out, " ");
		col += fprintf(out, "%.*s", wl, p);
		p += wl;
		while (*p == ' ')
			p++;
	}
	fputc('\n', out);
}

/* Busy time at each frequency: on or why not, its unknown frequencies and (bpf_stats) its cost. */
static void busy_report(FILE *out, struct fs_live_bpf *b, const __u64 *cnt)
{
	const struct fs_live_features *f = fs_live_bpf_features(b);
	__u64 run_ns = 0, run_cnt = 0;

	if (!f->busyfreq) {
		fprintf(out, "busyfreq: off (%.60s)\n", f->busyfreq_off);
		return;
	}
	fprintf(out, "busyfreq: on; changes to a frequency outside the EM %llu; frequency records %s\n",
		(unsigned long long)cnt[FS_CNT_BUSY_UNKNOWN_FREQ], f->freq_records ? "on" : "off");
	/* kernel.bpf_stats_enabled=1: what it adds (tests/bench/lab_cost.sh) */
	if (!fs_live_bpf_busy_stats(b, &run_ns, &run_cnt) && run_ns && run_cnt)
		fprintf(out, "bpf-stats: busyfreq %.0f ns per run (%llu runs, %.3f ms)\n",
			(double)run_ns / run_cnt, (unsigned long long)run_cnt, run_ns / 1e6);
}

/*
 * One fact a line, within 80 columns up to 10-digit counts. Scripts read the
 * keys: the last "collector:" line has sched_waking, ring-buffer drops and
 * nested misses (tests/live/drops.sh, crosscheck_tracefs.py, bench
 * live_overhead.sh), "snapshots N" is on a "collector:" line (lab/eas.sh),
 * the fallback's first line names the cause (lab/matrix.sh).
 */
void fs_live_collector_report(FILE *out, struct fs_live_bpf *b, const struct fs_live_bpf_opts *bo,
			      const __u64 *cnt, const struct fs_pair_stats *ps)
{
	const struct fs_live_features *f = fs_live_bpf_features(b);
	__u64 run_ns = 0, run_cnt = 0;
	struct fs_self_quantiles q;
	char fallback[400];

#define U(x) (unsigned long long)(x)
	/* the rest at sched_waking */
	fprintf(out, "collector: snapshots %llu, of which at select_task_rq_fair %llu\n",
		U(cnt[FS_CNT_SNAPSHOT]), U(cnt[FS_CNT_SNAPSHOT_SELECT]));
	fprintf(out, "collector: sched_waking %llu, ring-buffer drops %llu, nested misses %llu\n",
		U(cnt[FS_CNT_WAKING]), U(cnt[FS_CNT_LOST]), U(cnt[FS_CNT_NESTED]));
	fprintf(out, "skipped: rt/dl %llu, still runnable %llu, own %llu\n", U(cnt[FS_CNT_NOT_FAIR]),
		U(cnt[FS_CNT_RUNNABLE]), U(cnt[FS_CNT_SELF]));
	fprintf(out, "skipped: never reached select %llu, rq unknown %llu\n", U(cnt[FS_CNT_NO_SELECT]),
		U(cnt[FS_CNT_RQ_UNKNOWN]));
	fprintf(out, "events: select_task_rq_fair %llu\n", U(cnt[FS_CNT_SELECT]));
	/* 0 where every CPU is in the waker's root domain (tests/live/landscape.sh) */
	fprintf(out, "landscape: other CPUs' online read from their own rq %llu\n",
		U(cnt[FS_CNT_ONLINE_OWN_RQ]));
	fprintf(out, "pairing: paired %llu (via migrate %llu), unplaced/expired %llu (superseded %llu)\n",
		U(ps->paired), U(ps->via_migrate), U(ps->expired), U(ps->superseded));
	fprintf(out, "unpaired: placements without snapshot %llu, malformed %llu\n", U(ps->place_unpaired),
		U(ps->malformed));
	fprintf(out, "unpaired: migrate/wakeup CPU mismatch %llu\n", U(ps->place_mismatch));
	fprintf(out, "events: sched_wakeup %llu, sched_wakeup_new %llu, sched_migrate_task %llu\n",
		U(cnt[FS_CNT_WAKEUP]), U(cnt[FS_CNT_WAKEUP_NEW]), U(cnt[FS_CNT_MIGRATE]));
	fprintf(out, "balance migrations %llu; per-CPU ring merge: late %llu\n", U(ps->migrations),
		U(fs_live_bpf_late_records(b)));
	fprintf(out, "programs: %d of %d loaded (%d load%s), start-up %.2f s\n", f->progs_loaded,
		f->progs_wanted, f->loads, f->loads == 1 ? "" : "s, after a fallback",
		f->startup_ns / 1e9);
	if (fs_live_fallback_line(f, bo, fallback, sizeof(fallback)))
		wrapped(out, fallback);
	/* kernel.bpf_stats_enabled=1: the BPF cost per snapshot (tests/bench/lab_cost.sh) */
	if (!fs_live_bpf_prog_stats(b, &run_ns, &run_cnt) && run_ns && cnt[FS_CNT_SNAPSHOT])
		/* within 80 columns up to 10-digit counts; the program runs: bpftool prog show */
		fprintf(out, "bpf-stats: %.0f ns per snapshot (%llu snapshots, %d CPUs)\n",
			(double)run_ns / cnt[FS_CNT_SNAPSHOT], U(cnt[FS_CNT_SNAPSHOT]), f->nr_cpus);
	busy_report(out, b, cnt);
	/* FS_BENCH_SELF_TIME=1: the snapshots' own clock, robust to outliers (lab_cost.sh) */
	if (!fs_live_bpf_self_times(b, &q)) /* within 80 columns up to 5-digit ns */
		fprintf(out, "bpf-self: median %llu ns per snapshot (p10 %llu, p90 %llu, %llu runs)\n",
			U(q.ns[1]), U(q.ns[0]), U(q.ns[2]), U(q.count));
#undef U
}
