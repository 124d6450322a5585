// SPDX-License-Identifier: GPL-2.0
/*
 * `feecscope live`: observe this machine's wake-ups with the BPF collector,
 * replay feec under several policies as they happen, show the live view, and
 * leave a CSV / recording that replays to the same numbers.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>
#include "commands.h"
#include "output/out_file.h"
#include "pipeline.h"
#include "em/em_io.h"
#include "source/live_bpf.h"
#include "source/cpufreq_pressure.h"
#include "source/live_pair.h"
#include "source/proc_stats.h"
#include "source/recording.h"
#include "output/live_view.h"
#include "output/outputs_open.h"

#define PAIR_EXPIRE_NS (100ull * 1000 * 1000) /* a wake-up is placed within µs; 100 ms is generous */

static volatile sig_atomic_t g_stop;

static void on_signal(int sig)
{
	(void)sig;
	g_stop = 1;
}

struct live_opts {
	double duration_s;   /* 0 = until Ctrl-C */
	double interval_s;
	__s32 pid;
	const char *comm;
	const char *csv;
	const char *record;
	const char *summary;
	const char *json;
	const char *perfetto;
	bool csv_wide;
	bool threads;
	const char *em_spec;
	const char *policies;
	const char *kernel_policy;
	size_t ringbuf_size;
	const char *btf;
	bool raw_tp;
	int verbose;
};

static void usage(FILE *out)
{
	fprintf(out,
"NAME\n"
"    feecscope live - watch this machine's wake-ups and what the feec margin costs\n"
"\n"
"SYNOPSIS\n"
"    feecscope live [OPTIONS]        (root, or CAP_BPF + CAP_PERFMON)\n"
"\n"
"DESCRIPTION\n"
"    Loads BPF programs on sched_waking, sched_wakeup(_new) and sched_migrate_task.\n"
"    Each wake-up's task utilization and every CPU's landscape, as feec would see\n"
"    them, are paired with the CPU the kernel chose, then replayed through the\n"
"    feec policies against the Energy Model. The view is refreshed every interval;\n"
"    when stdout is not a terminal it prints one line per interval instead.\n"
"    On Ctrl-C, SIGTERM, SIGHUP or --duration the ring buffer is drained, the\n"
"    files are completed and the final summary (the same text `feecscope replay`\n"
"    prints for the recording) goes to stdout; collector statistics to stderr.\n"
"\n"
"    Without a kernel Energy Model (no EAS, as on most x86 machines) a built-in\n"
"    profile sized to this machine's CPUs is used and EAS is emulated; the banner\n"
"    says so.\n"
"\n"
"OPTIONS\n"
"    -d, --duration SEC     stop after SEC seconds (default: until Ctrl-C)\n"
"    -i, --interval SEC     refresh period (default 1)\n"
"    -p, --pid PID          only wake-ups of this pid\n"
"    -c, --comm NAME        only wake-ups of tasks with this comm\n"
"        --csv FILE         decision CSV, a row per wake-up and policy in wake-up order\n"
"                           (docs/csv.md), written at the end; FILE.gz: gzip\n"
"        --csv-layout wide  the older layout: a row per wake-up, columns per policy\n"
"    -w, --record FILE      binary recording (flushed every interval), for `feecscope replay`\n"
"        --summary FILE     also write the final summary to FILE\n"
"        --json FILE        the final report as JSON (docs/json.md); '-' = stdout\n"
"                           (the summary then stays off stdout)\n"
"        --perfetto FILE    a Perfetto trace for ui.perfetto.dev (docs/perfetto.md);\n"
"                           FILE ending in .gz is written gzip-compressed\n"
"        --threads          list each process's threads in the summary\n"
"        --em SPEC          Energy Model: a built-in profile name, a saved EM file or a\n"
"                           debugfs-layout directory (default: the kernel's debugfs EM,\n"
"                           else a built-in profile for this CPU count)\n"
"        --kernel-policy P  the policy the running kernel follows, run as the reference\n"
"                           [0] with its twin (with/without the margin); default: the\n"
"                           policy for uname -r\n"
"        --policies LIST    comma-separated policies to run instead; the first is the\n"
"                           reference [0] (see `feecscope policies`)\n"
"        --ringbuf-size N   BPF ring buffer bytes in all, power of two, K/M suffix\n"
"                           (default 8M), split into one ring per CPU (>= 16K each)\n"
"        --btf FILE         vmlinux BTF for CO-RE when the kernel has no\n"
"                           /sys/kernel/btf/vmlinux (events then use raw tracepoints:\n"
"                           tp_btf needs the kernel's own BTF)\n"
"        --raw-tp           attach raw tracepoints and probe-read task fields even\n"
"                           where tp_btf works, as on a kernel without BTF; no fentry\n"
"    -v, --verbose          -v probes and collector counters, -vv one line per record,\n"
"                           -vvv also libbpf's own log (verifier output)\n"
"    -h, --help             this text\n"
"\n"
"FILES\n"
"    No output may be the --em or --btf file or another output (the same file by\n"
"    any name): refused before anything loads (exit 2). The CSV, summary and JSON\n"
"    appear under their names only when complete; the recording is written in\n"
"    place and, if live is killed, replays up to its last flushed chunk.\n"
"\n"
"EXIT STATUS\n"
"    0 ok, 1 failure (the message says what), 2 usage, 3 missing privileges.\n");
}

static int parse_double(const char *s, double *out, double min)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v < min)
		return -1;
	*out = v;
	return 0;
}

static int parse_size(const char *s, size_t *out)
{
	char *end;
	unsigned long long v;
	long page = sysconf(_SC_PAGESIZE);

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return -1;
	if (*end == 'K' || *end == 'k')
		v <<= 10, end++;
	else if (*end == 'M' || *end == 'm')
		v <<= 20, end++;
	if (*end || v < (unsigned long long)page || (v & (v - 1)) || v > (1ull << 30))
		return -1;
	*out = v;
	return 0;
}

static int parse_args(int argc, char **argv, struct live_opts *o)
{
	enum { O_CSV = 256, O_SUMMARY, O_EM, O_KPOL, O_POLS, O_RB, O_BTF, O_RAW_TP, O_JSON, O_THREADS, O_PERFETTO, O_CSV_LAYOUT };
	static const struct option longopts[] = {
		{ "duration", required_argument, NULL, 'd' },
		{ "interval", required_argument, NULL, 'i' },
		{ "pid", required_argument, NULL, 'p' },
		{ "comm", required_argument, NULL, 'c' },
		{ "csv", required_argument, NULL, O_CSV },
		{ "record", required_argument, NULL, 'w' },
		{ "summary", required_argument, NULL, O_SUMMARY },
		{ "json", required_argument, NULL, O_JSON },
		{ "perfetto", required_argument, NULL, O_PERFETTO },
		{ "csv-layout", required_argument, NULL, O_CSV_LAYOUT },
		{ "threads", no_argument, NULL, O_THREADS },
		{ "em", required_argument, NULL, O_EM },
		{ "kernel-policy", required_argument, NULL, O_KPOL },
		{ "policies", required_argument, NULL, O_POLS },
		{ "ringbuf-size", required_argument, NULL, O_RB },
		{ "btf", required_argument, NULL, O_BTF },
		{ "raw-tp", no_argument, NULL, O_RAW_TP },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int c;
	long pid;
	char *end;

	memset(o, 0, sizeof(*o));
	o->interval_s = 1.0;
	o->ringbuf_size = 8u << 20;
	optind = 1;
	if (fs_policies_list_asked(argc, argv)) { /* `--policies` alone or `--policies list` */
		fs_policies_print(stdout);
		return 1;
	}
	while ((c = getopt_long(argc, argv, "d:i:p:c:w:vh", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			if (parse_double(optarg, &o->duration_s, 0) || o->duration_s == 0) {
				fprintf(stderr, "feecscope live: --duration '%s': expected seconds > 0\n", optarg);
				return -1;
			}
			break;
		case 'i':
			if (parse_double(optarg, &o->interval_s, 0.05)) {
				fprintf(stderr, "feecscope live: --interval '%s': expected seconds >= 0.05\n", optarg);
				return -1;
			}
			break;
		case 'p':
			errno = 0;
			pid = strtol(optarg, &end, 10);
			if (errno || *end || end == optarg || pid <= 0 || pid > INT_MAX) {
				fprintf(stderr, "feecscope live: --pid '%s': expected a positive pid\n", optarg);
				return -1;
			}
			o->pid = (__s32)pid;
			break;
		case 'c':
			if (!*optarg || strlen(optarg) >= FS_COMM_LEN) {
				fprintf(stderr, "feecscope live: --comm '%s': expected 1 to %d characters\n",
					optarg, FS_COMM_LEN - 1);
				return -1;
			}
			o->comm = optarg;
			break;
		case O_CSV: o->csv = optarg; break;
		case 'w': o->record = optarg; break;
		case O_SUMMARY: o->summary = optarg; break;
		case O_JSON: o->json = optarg; break;
		case O_PERFETTO: o->perfetto = optarg; break;
		case O_CSV_LAYOUT:
			if (fs_csv_layout_wide(optarg) < 0) {
				fprintf(stderr, "feecscope live: --csv-layout '%s': expected long or wide\n", optarg);
				return -1;
			}
			o->csv_wide = fs_csv_layout_wide(optarg);
			break;
		case O_THREADS: o->threads = true; break;
		case O_EM: o->em_spec = optarg; break;
		case O_KPOL: o->kernel_policy = optarg; break;
		case O_POLS: o->policies = optarg; break;
		case O_RB:
			if (parse_size(optarg, &o->ringbuf_size)) {
				fprintf(stderr, "feecscope live: --ringbuf-size '%s': expected a power of two "
					"between the page size and 1G (K/M suffix allowed)\n", optarg);
				return -1;
			}
			break;
		case O_BTF: o->btf = optarg; break;
		case O_RAW_TP: o->raw_tp = true; break;
		case 'v': o->verbose++; break;
		case 'h': usage(stdout); return 1;
		default: usage(stderr); return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "feecscope live: unexpected argument '%s'\n", argv[optind]);
		return -1;
	}
	/* No output may be an input or another output: checked before anything is written. */
	const struct fs_io_path io[] = {
		{ o->em_spec, "--em", false }, { o->btf, "--btf", false }, { o->record, "--record", true },
		{ o->csv, "--csv", true }, { o->summary, "--summary", true }, { o->json, "--json", true },
		{ o->perfetto, "--perfetto", true },
	};
	char err[512];
	if (fs_paths_check(io, sizeof(io) / sizeof(io[0]), err, sizeof(err))) {
		fprintf(stderr, "feecscope live: %s\n", err);
		return -1;
	}
	return 0;
}

/* MAJOR.MINOR of a release string ("6.12.0-13-arm64") is at least major.minor. */
static bool release_at_least(const char *release, int major, int minor)
{
	int a = 0, b = 0;

	if (sscanf(release, "%d.%d", &a, &b) != 2)
		return false;
	return a > major || (a == major && b >= minor);
}

static void update_cpufreq_pressure(struct fs_pair *pair, const __u32 *cap, int nr_cpus)
{
	__u32 pr[FS_MAX_CPUS];

	fs_cpufreq_pressure(NULL, cap, nr_cpus, pr);
	fs_pair_set_cpufreq_pressure(pair, pr);
}

/* arch_scale_cpu_capacity as sysfs shows it (arm64 DT); 1024 where there is no file (x86 SMP). */
static void read_cpu_capacities(__u32 *cap, int nr)
{
	for (int cpu = 0; cpu < nr; cpu++) {
		char path[96];
		unsigned int v;
		FILE *f;

		cap[cpu] = FS_SCHED_CAPACITY_SCALE;
		snprintf(path, sizeof(path), FS_SYSFS_CPU "/cpu%d/cpu_capacity", cpu);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fscanf(f, "%u", &v) == 1 && v > 0 && v <= FS_SCHED_CAPACITY_SCALE)
			cap[cpu] = v;
		fclose(f);
	}
}

/* As replay does: --policies is the whole list (first = reference), else the kernel's policy and its twin. */
static int pick_policies(const struct live_opts *o, const char *release, struct fs_pipeline_opts *po,
			 char *head, size_t headlen, char *err, size_t errlen)
{
	const struct fs_policy_desc *k;
	char why[512] = "";

	po->nr_policies = 0;
	if (o->policies) {
		char *list = strdup(o->policies), *save = NULL;

		if (!list) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			const struct fs_policy_desc *d = fs_policy_find(tok);

			if (!d)
				snprintf(err, errlen, "--policies: '%s' is not a policy (see `feecscope policies`)", tok);
			else if (po->nr_policies >= FS_MAX_POLICIES)
				snprintf(err, errlen, "--policies: at most %d policies", FS_MAX_POLICIES);
			if (!d || po->nr_policies >= FS_MAX_POLICIES) {
				free(list);
				return -1;
			}
			po->policies[po->nr_policies++] = d;
		}
		free(list);
		if (!po->nr_policies) {
			snprintf(err, errlen, "--policies: empty list");
			return -1;
		}
		return 0;
	}
	if (o->kernel_policy) {
		k = fs_policy_find(o->kernel_policy);
		if (!k) {
			snprintf(err, errlen, "--kernel-policy '%s': no such policy (see `feecscope policies`)",
				 o->kernel_policy);
			return -1;
		}
		snprintf(why, sizeof(why), "--kernel-policy %s", o->kernel_policy);
	} else {
		k = fs_policy_for_release(release, why, sizeof(why));
		if (!k) {
			snprintf(err, errlen, "no policy follows kernel %s (%s); use --kernel-policy", release, why);
			return -1;
		}
	}
	po->policies[po->nr_policies++] = k;
	const struct fs_policy_desc *t = k->twin ? fs_policy_find(k->twin) : NULL;

	if (t)
		po->policies[po->nr_policies++] = t;
	/* the line `feecscope replay` prints above the summary for the same choice */
	snprintf(head, headlen, "policies: %s (reference: %s)%s%s", k->name, why, t ? ", twin " : "",
		 t ? t->name : "");
	return 0;
}

/* The running state the ring-buffer callbacks reach. */
struct live {
	struct live_opts o;
	struct fs_pipeline *pipe;
	struct fs_pair *pair;
	struct fs_live_bpf *bpf;
	int feed_rc;
	char feed_err[512];
	__u64 lost_reported;
	__u64 records;
};

static void dump_record(const struct fs_rec_hdr *h)
{
	if (h->type == FS_REC_WAKEUP) {
		const struct fs_wakeup *w = (const void *)h;

		fprintf(stderr, "wakeup ts=%llu decided=%llu pid=%d comm=%s prev=%d task_cpu=%d waker=%d chosen=%d flags=%#x "
			"util_avg=%u util_est=%u/%u lut=%llu cfs_rq_lut=%llu allowed=%#llx",
			(unsigned long long)h->ts_ns, (unsigned long long)w->decided_ns, w->pid, w->comm, w->prev_cpu, w->task_cpu, w->waker_cpu,
			w->chosen_cpu, w->flags, w->task.util_avg, w->task.util_est_enqueued, w->task.util_est_ewma,
			(unsigned long long)w->task.last_update_time,
			(unsigned long long)w->task.cfs_rq_last_update_time, (unsigned long long)w->cpus_allowed);
		for (int i = 0; i < h->nr_cpus; i++)
			fprintf(stderr, " cpu%d[u=%u ue=%u rt=%u cap=%u/%u nr=%u f=%#x]", i, w->cpu[i].util_avg,
				w->cpu[i].util_est, w->cpu[i].rt_util, w->cpu[i].capacity, w->cpu[i].capacity_orig,
				w->cpu[i].nr_running, w->cpu[i].flags);
		fprintf(stderr, "\n");
	} else if (h->type == FS_REC_MIGRATE) {
		const struct fs_migrate *m = (const void *)h;

		fprintf(stderr, "migrate ts=%llu pid=%d %d->%d\n", (unsigned long long)h->ts_ns, m->pid,
			m->orig_cpu, m->dest_cpu);
	} else {
		fprintf(stderr, "record type=%u ts=%llu size=%u\n", h->type, (unsigned long long)h->ts_ns, h->size);
	}
}

static int on_complete(void *ctx, const struct fs_rec_hdr *rec)
{
	struct live *L = ctx;

	L->records++;
	if (L->o.verbose >= 2)
		dump_record(rec);
	if (L->feed_rc)
		return 0;
	if (fs_pipeline_feed(L->pipe, rec, L->feed_err, sizeof(L->feed_err))) {
		L->feed_rc = -1;
		g_stop = 1;
	}
	return 0;
}

static int on_ring_record(void *ctx, const void *data, size_t size)
{
	struct live *L = ctx;
	const struct fs_lplace *e = data;

	if (L->o.verbose >= 2 && size == sizeof(*e) && e->hdr.type == FS_LREC_PLACE &&
	    e->kind == FS_PLACE_RUNNABLE)
		fprintf(stderr, "runnable ts=%llu pid=%d cpu=%d\n", (unsigned long long)e->hdr.ts_ns, e->pid, e->cpu);
	return fs_pair_feed(L->pair, data, size);
}

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Deliver what the kernel lost since the last call as one FS_REC_LOST record:
 * ring-buffer drops and events skipped because our program was already active
 * on that CPU. Either way an observation is missing from every figure.
 */
static void report_lost(struct live *L, const __u64 *cnt)
{
	__u64 lost = cnt[FS_CNT_LOST] + cnt[FS_CNT_NESTED];

	if (lost <= L->lost_reported)
		return;
	struct fs_lost l = {
		.hdr = { .type = FS_REC_LOST, .size = sizeof(l), .ts_ns = fs_live_boot_ns() },
		.count = lost - L->lost_reported,
	};

	L->lost_reported = lost;
	fs_pair_feed(L->pair, &l, sizeof(l));
}

static void collector_report(FILE *out, const struct live *L, const __u64 *cnt)
{
	const struct fs_pair_stats *ps = fs_pair_stats(L->pair);

	fprintf(out,
		"collector: sched_waking %llu, snapshots %llu, ring-buffer drops %llu, nested misses %llu; skipped: rt/dl %llu, "
		"still runnable %llu, never reached select %llu, own threads %llu, rq unknown %llu\n"
		"pairing: paired %llu (via migrate %llu), unplaced/expired %llu (superseded %llu), "
		"placements without snapshot %llu, migrate/wakeup CPU mismatch %llu, malformed %llu, "
		"load-balance migrations %llu\n"
		"events: sched_wakeup %llu, sched_wakeup_new %llu, sched_migrate_task %llu; "
		"per-CPU ring merge: late %llu\n",
		(unsigned long long)cnt[FS_CNT_WAKING], (unsigned long long)cnt[FS_CNT_SNAPSHOT],
		(unsigned long long)cnt[FS_CNT_LOST], (unsigned long long)cnt[FS_CNT_NESTED],
		(unsigned long long)cnt[FS_CNT_NOT_FAIR],
		(unsigned long long)cnt[FS_CNT_RUNNABLE], (unsigned long long)cnt[FS_CNT_NO_SELECT],
		(unsigned long long)cnt[FS_CNT_SELF], (unsigned long long)cnt[FS_CNT_RQ_UNKNOWN],
		(unsigned long long)ps->paired, (unsigned long long)ps->via_migrate,
		(unsigned long long)ps->expired, (unsigned long long)ps->superseded,
		(unsigned long long)ps->place_unpaired, (unsigned long long)ps->place_mismatch,
		(unsigned long long)ps->malformed, (unsigned long long)ps->migrations,
		(unsigned long long)cnt[FS_CNT_WAKEUP], (unsigned long long)cnt[FS_CNT_WAKEUP_NEW],
		(unsigned long long)cnt[FS_CNT_MIGRATE],
		(unsigned long long)fs_live_bpf_late_records(L->bpf));
	const struct fs_live_features *f = fs_live_bpf_features(L->bpf);

	fprintf(out, "programs: %d of %d loaded (%d load%s), start-up %.2f s\n", f->progs_loaded,
		f->progs_wanted, f->loads, f->loads == 1 ? "" : "s: a fallback verified them again",
		f->startup_ns / 1e9);
	if (f->lost[0])
		fprintf(out, "collector fallback: %s\n", f->lost);
	__u64 run_ns = 0, run_cnt = 0;

	/* kernel.bpf_stats_enabled=1: the BPF cost per snapshot (tests/bench/lab_cost.sh) */
	if (!fs_live_bpf_prog_stats(L->bpf, &run_ns, &run_cnt) && run_ns && cnt[FS_CNT_SNAPSHOT])
		fprintf(out, "bpf-stats: %llu ns in %llu program runs, %.0f ns per snapshot (%llu snapshots, %d CPUs)\n",
			(unsigned long long)run_ns, (unsigned long long)run_cnt,
			(double)run_ns / cnt[FS_CNT_SNAPSHOT], (unsigned long long)cnt[FS_CNT_SNAPSHOT], f->nr_cpus);
}

/* The header's collector line; a second line says what a refused program costs. */
static void describe_collector(char *buf, size_t len, const struct fs_live_features *f, const char *btf)
{
	snprintf(buf, len, "%s%s, struct rq from %s, %d/%d CPUs%s%s, programs %d/%d, start-up %.2f s%s%s",
		 f->tp_btf ? "tp_btf" : "raw_tp", f->fentry_select ? " + fentry select_task_rq_fair" : "",
		 f->ksym_runqueues ? "the runqueues ksym" : "cfs_rq->rq", f->rq_known, f->nr_cpus,
		 f->overutilized_tp ? ", sched_overutilized_tp" : "", btf ? ", BTF from --btf" : "",
		 f->progs_loaded, f->progs_wanted, f->startup_ns / 1e9,
		 f->lost[0] ? "\ncollector fallback: " : "", f->lost);
}

/* Feed a record live made itself (not from the BPF rings) straight to the pipeline. */
static void feed_own(struct live *L, const struct fs_rec_hdr *rec)
{
	if (!L->feed_rc && fs_pipeline_feed(L->pipe, rec, L->feed_err, sizeof(L->feed_err)))
		L->feed_rc = -1;
}

static void feed_cpu_stats(struct live *L, int nr_cpus)
{
	struct fs_cpustat cs;
	static struct fs_freqstat fq[FS_MAX_CPUS];
	__u64 now = fs_live_boot_ns();

	if (!fs_proc_cpustat(&cs, nr_cpus, now))
		feed_own(L, &cs.hdr);
	int n = fs_proc_freqstats(fq, FS_MAX_CPUS, now);

	for (int i = 0; i < n; i++)
		feed_own(L, &fq[i].hdr);
}

/* fs_pipeline_open_tasks() callback: a task still placed, its CPU time from /proc. */
static void feed_task_time(void *ctx, __s32 pid, __s32 tgid)
{
	struct live *L = ctx;
	struct fs_task_time tt;

	if (!fs_proc_task_time(pid, tgid, fs_live_boot_ns(), &tt))
		feed_own(L, &tt.hdr);
}

/* The files asked for, and the summary on stdout (unless the JSON goes there). */
static int open_outputs(const struct live_opts *o, struct fs_pipeline_opts *po, const struct fs_em *em,
			const char *release, char *err, size_t errlen)
{
	struct fs_rec_meta m = { .nr_cpus = em->nr_cpus, .em_is_kernel = !po->emulate_eas };
	struct fs_output_paths out = {
		.record = o->record, .record_meta = &m, .csv = o->csv, .summary = o->summary, .json = o->json,
		.perfetto = o->perfetto, .csv_wide = o->csv_wide,
		.summary_out = o->json && !strcmp(o->json, "-") ? NULL : stdout,
	};

	snprintf(m.feecscope_version, sizeof(m.feecscope_version), "%s", FS_VERSION_STRING);
	snprintf(m.kernel_release, sizeof(m.kernel_release), "%.*s", (int)sizeof(m.kernel_release) - 1, release);
	if (o->record) {
		FILE *mf = open_memstream(&m.em_text, &m.em_len);

		if (!mf || fs_em_write(mf, em) < 0 || fclose(mf)) {
			snprintf(err, errlen, "%s: cannot serialise the EM", o->record);
			free(m.em_text);
			return -1;
		}
	}
	int rc = fs_outputs_open(po, &out, err, errlen);

	free(m.em_text);
	return rc;
}

int fs_cmd_live(int argc, char **argv)
{
	struct fs_live_bpf_opts bo = { 0 };
	struct fs_pipeline_opts po = { 0 };
	struct fs_live_view_info vi = { 0 };
	struct fs_live_view *view = NULL;
	struct sigaction sa = { 0 };
	struct utsname uts;
	struct fs_em *em = NULL;
	struct live L = { 0 };
	__u32 cap[FS_MAX_CPUS];
	__u64 cnt[FS_CNT__NR] = { 0 };
	char err[512] = "", collector[640], head[700] = "";
	bool noperm, tty;
	double t0, next;
	int rc = FS_EXIT_FAIL, nr_cpus;

	int prc = parse_args(argc, argv, &L.o);

	if (prc)
		return prc > 0 ? FS_EXIT_OK : FS_EXIT_USAGE;
	/*
	 * Catch Ctrl-C / SIGTERM from the start (a background job inherits
	 * SIGINT ignored, and start-up can take seconds): one during start-up
	 * ends the run as soon as the collector is up, outputs complete. Setup's
	 * system calls restart; the poll loop below is interrupted.
	 */
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL); /* the terminal went away: end like Ctrl-C */
	signal(SIGPIPE, SIG_IGN);     /* a closed stdout is a write error, not the end of the files */
	if (!fs_live_have_privileges(err, sizeof(err))) {
		fprintf(stderr, "feecscope live: %s\n", err);
		return FS_EXIT_NOPERM;
	}
	uname(&uts);

	nr_cpus = sysconf(_SC_NPROCESSORS_CONF);
	if (nr_cpus <= 0 || nr_cpus > FS_MAX_CPUS) {
		fprintf(stderr, "feecscope live: %d CPUs configured; feecscope records 1 to %d\n", nr_cpus, FS_MAX_CPUS);
		return FS_EXIT_FAIL;
	}
	em = calloc(1, sizeof(*em));
	if (!em)
		goto out;
	/* The kernel's own EM if there is one; else a profile for this CPU count with EAS emulated. */
	if (L.o.em_spec) {
		if (fs_em_load(L.o.em_spec, em, err, sizeof(err))) {
			fprintf(stderr, "feecscope live: --em %s: %s\n", L.o.em_spec, err);
			goto out;
		}
		po.emulate_eas = true;
	} else if (fs_em_load(NULL, em, err, sizeof(err)) == 0) {
		po.emulate_eas = false;
	} else {
		char why[512];

		snprintf(why, sizeof(why), "%s", err);
		memset(em, 0, sizeof(*em));
		if (fs_em_profile_for_cpus(nr_cpus, em, err, sizeof(err))) {
			fprintf(stderr, "feecscope live: no kernel Energy Model (%s) and no built-in profile for %d CPUs: %s\n",
				why, nr_cpus, err);
			goto out;
		}
		po.emulate_eas = true;
		fprintf(stderr, "feecscope live: this kernel has no Energy Model (%s); using the built-in profile "
			"'%s' for %d CPUs with EAS emulated: the energy numbers describe that model, not this machine\n",
			why, em->source, nr_cpus);
	}
	if (em->nr_cpus > nr_cpus) {
		fprintf(stderr, "feecscope live: the Energy Model (%s) covers %d CPUs; this machine has %d\n",
			em->source, em->nr_cpus, nr_cpus);
		goto out;
	}
	if (pick_policies(&L.o, uts.release, &po, head, sizeof(head), err, sizeof(err))) {
		fprintf(stderr, "feecscope live: %s\n", err);
		rc = FS_EXIT_USAGE;
		goto out;
	}
	po.em = em;
	po.kernel_release = uts.release;
	po.pid_filter = L.o.pid;
	po.comm_filter = L.o.comm;
	po.threads = L.o.threads;
	po.head = head[0] ? head : NULL; /* --policies: no line, as replay */

	bo.btf_path = L.o.btf;
	bo.raw_tp = L.o.raw_tp;
	bo.ringbuf_size = L.o.ringbuf_size;
	bo.verbose = L.o.verbose;
	bo.on_record = on_ring_record;
	bo.ctx = &L;
	if (fs_live_bpf_start(&L.bpf, &bo, &noperm, err, sizeof(err))) {
		fprintf(stderr, "feecscope live: %s\n", err);
		rc = noperm ? FS_EXIT_NOPERM : FS_EXIT_FAIL;
		goto out;
	}
	const struct fs_live_features *feat = fs_live_bpf_features(L.bpf);

	if (feat->nr_cpus != nr_cpus) {
		fprintf(stderr, "feecscope live: %d possible CPUs but %d configured; not supported\n",
			feat->nr_cpus, nr_cpus);
		goto out;
	}
	read_cpu_capacities(cap, nr_cpus);
	L.pair = fs_pair_new(nr_cpus, PAIR_EXPIRE_NS, cap, on_complete, &L);
	/* v6.10+ feec subtracts cpufreq_pressure (a capped scaling_max_freq): track it from sysfs. */
	bool track_cpufreq = release_at_least(uts.release, 6, 10);
	if (L.pair && track_cpufreq)
		update_cpufreq_pressure(L.pair, cap, nr_cpus);
	if (!L.pair) {
		fprintf(stderr, "feecscope live: out of memory\n");
		goto out;
	}
	if (open_outputs(&L.o, &po, em, uts.release, err, sizeof(err))) {
		fprintf(stderr, "feecscope live: %s\n", err);
		goto out;
	}
	L.pipe = fs_pipeline_new(&po, err, sizeof(err));
	if (!L.pipe) {
		fprintf(stderr, "feecscope live: %s\n", err);
		goto out;
	}
	/* busy time and frequency residency at the start: the CPU energy is their growth */
	feed_cpu_stats(&L, nr_cpus);

	describe_collector(collector, sizeof(collector), feat, L.o.btf);
	vi.kernel_release = uts.release;
	vi.em_source = em->source;
	vi.emulate_eas = po.emulate_eas;
	vi.em = em;
	vi.nr_policies = po.nr_policies;
	for (int i = 0; i < po.nr_policies; i++)
		vi.policy_names[i] = po.policies[i]->name;
	vi.collector = collector;
	vi.interval_s = L.o.interval_s;
	tty = isatty(STDOUT_FILENO);
	view = fs_live_view_new(stdout, tty, &vi);
	if (!view)
		goto out;
	if (!tty) {
		printf("feecscope live: kernel %s, EM %s%s, policies", uts.release, em->source,
		       po.emulate_eas ? " (EAS emulated)" : "");
		for (int i = 0; i < po.nr_policies; i++)
			printf(" [%d] %s", i, po.policies[i]->name);
		printf(", collector %s\n", collector);
		fflush(stdout);
	}

	sa.sa_flags = 0; /* no SA_RESTART from here: the poll returns at once */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	t0 = mono_s();
	next = t0 + L.o.interval_s;
	while (!g_stop) {
		double now = mono_s();
		int wait_ms = (int)((next - now) * 1000);

		if (L.o.duration_s > 0 && now - t0 >= L.o.duration_s)
			break;
		if (wait_ms > 50) /* bounds the ring-buffer fill between drains */
			wait_ms = 50;
		if (wait_ms > 0) {
			int n = fs_live_bpf_poll(L.bpf, wait_ms);

			if (n < 0 && n != -EINTR) {
				fprintf(stderr, "feecscope live: reading the ring buffer: %s\n", strerror(-n));
				break;
			}
			continue;
		}
		next += L.o.interval_s;
		fs_live_bpf_counters(L.bpf, cnt);
		report_lost(&L, cnt);
		if (track_cpufreq)
			update_cpufreq_pressure(L.pair, cap, nr_cpus);
		if (fs_pipeline_flush(L.pipe, err, sizeof(err))) {
			fprintf(stderr, "feecscope live: %s\n", err);
			L.feed_rc = -1;
			break;
		}
		struct fs_live_sample s = {
			.elapsed_s = now - t0,
			.st = fs_pipeline_stats(L.pipe),
			.rep = fs_pipeline_snapshot(L.pipe),
			.pair = fs_pair_stats(L.pair),
		};
		memcpy(s.cnt, cnt, sizeof(cnt));
		fs_live_view_update(view, &s);
		if (L.o.verbose)
			collector_report(stderr, &L, cnt);
	}

	/* Shutdown: stop the events, take what is in flight, complete the files. */
	fs_live_bpf_stop(L.bpf);
	fs_live_bpf_drain(L.bpf);
	fs_live_bpf_counters(L.bpf, cnt);
	report_lost(&L, cnt);
	fs_pair_flush(L.pair);
	if (L.feed_rc) {
		fprintf(stderr, "feecscope live: %s\n", L.feed_err);
		goto out;
	}
	/* The CPU time of every task still placed, and the CPU statistics, end the observation. */
	fs_pipeline_open_tasks(L.pipe, feed_task_time, &L);
	feed_cpu_stats(&L, nr_cpus);
	if (L.feed_rc) {
		fprintf(stderr, "feecscope live: %s\n", L.feed_err);
		goto out;
	}
	/* The summary and the files are exactly what replay of the recording gives. */
	if (fs_pipeline_finish(L.pipe, err, sizeof(err))) {
		fprintf(stderr, "feecscope live: %s\n", err);
		goto out;
	}
	collector_report(stderr, &L, cnt);
	rc = FS_EXIT_OK;
out:
	fs_live_view_free(view);
	fs_pipeline_free(L.pipe);
	fs_pair_free(L.pair);
	fs_live_bpf_destroy(L.bpf);
	free(em);
	return rc;
}
