// SPDX-License-Identifier: GPL-2.0
/*
 * Loads and runs the BPF collector: feature probes, skeleton open/load/attach
 * (tp_btf or raw_tp per event, optional fentry), struct rq harvest, ring buffer.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/sysinfo.h>
#include <bpf/bpf.h>
#include "live_btf.h"
#include "live_ksyms.h"
#include <bpf/libbpf.h>
#include "feecscope.skel.h"
#include "live_env.h"
#include "live_bpf.h"
#include "ring_merge.h"
#include "em/kernel_fs.h"
#include "cli.h"

#define KERNEL_BTF "/sys/kernel/btf/vmlinux"
#define CAP_PERFMON_BIT 38
#define CAP_BPF_BIT 39
#define CAP_SYS_ADMIN_BIT 21

/*
 * Records a program wrote before this long ago are all committed: the merge
 * releases them. A record later than that still goes out, counted as late.
 */
#define MERGE_SLACK_NS (20 * 1000000ull)
#define RING_MIN_BYTES (16u << 10)

struct ring_ctx {
	struct fs_live_bpf *b;
	unsigned int cpu;
};

struct fs_live_bpf {
	struct feecscope_bpf *skel;
	struct ring_buffer *rb;
	int ring_fd[FS_MAX_CPUS];
	struct ring_ctx rctx[FS_MAX_CPUS];
	size_t ring_bytes;      /* each CPU's ring */
	struct fs_ring_merge *merge;
	int feed_rc;            /* first non-zero on_record result */
	struct fs_live_features feat;
	int nr_possible;
	int load_errno;         /* the last refused object load's errno */
	int rings_fd;           /* the rings array, made before libbpf's load */
	__u32 landscape_cpus;   /* nr_possible, but for the cost bench */
};

static int g_verbose;
static __u64 g_t0; /* fs_live_bpf_start() entry, for -v's phase times */
static char g_refused[64]; /* the program a failed load names, for the fallback to drop */
static bool g_verifier_log; /* libbpf showed a verifier log: the verifier ran and refused */

static int log_wrapped(const char *lead, const char *fmt, va_list ap);

/* libbpf's own log only at -vvv; its warnings at -v and above. */
static int libbpf_log(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_WARN && strstr(fmt, "prog '%s': failed to load")) {
		va_list aq;

		va_copy(aq, ap);
		snprintf(g_refused, sizeof(g_refused), "%s", va_arg(aq, const char *));
		va_end(aq);
	}
	if (level == LIBBPF_WARN && strstr(fmt, "BEGIN PROG LOAD LOG"))
		g_verifier_log = true;
	if (level == LIBBPF_DEBUG && g_verbose < 3)
		return 0;
	if (level == LIBBPF_INFO && g_verbose < 2)
		return 0;
	if (level == LIBBPF_WARN && g_verbose < 1)
		return 0;
	return log_wrapped(g_t0 && level != LIBBPF_WARN ? "" : NULL, fmt, ap); /* phases on our clock */
}

/*
 * One message on stderr behind lead (NULL: none) and, once started, the
 * seconds since fs_live_bpf_start(): wrapped at 80 columns, as an adb shell
 * without a terminal shows it.
 */
static int log_wrapped(const char *lead, const char *fmt, va_list ap)
{
	char *msg = NULL, *line = NULL;
	int n = vasprintf(&msg, fmt, ap);

	if (n < 0)
		return n;
	if (!lead)
		n = asprintf(&line, "%s", msg);
	else if (g_t0)
		n = asprintf(&line, "%s[%.3f s] %s", lead, (fs_live_boot_ns() - g_t0) / 1e9, msg);
	else
		n = asprintf(&line, "%s%s", lead, msg);
	if (n >= 0)
		fs_cli_wrap_lines(stderr, line);
	free(line);
	free(msg);
	return n;
}

static void vlog(int level, const char *fmt, ...)
{
	va_list ap;

	if (g_verbose < level)
		return;
	va_start(ap, fmt);
	log_wrapped("feecscope live: ", fmt, ap);
	va_end(ap);
}

bool fs_live_have_privileges(char *why, size_t whylen)
{
	unsigned long long eff = 0;
	char line[256];
	FILE *f;

	if (geteuid() == 0)
		return true;
	f = fopen("/proc/self/status", "r");
	if (f) {
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "CapEff: %llx", &eff) == 1)
				break;
		fclose(f);
	}
	if ((eff >> CAP_SYS_ADMIN_BIT) & 1)
		return true;
	if (((eff >> CAP_BPF_BIT) & 1) && ((eff >> CAP_PERFMON_BIT) & 1))
		return true;
	snprintf(why, whylen,
		 "loading the BPF collector needs root, or CAP_BPF and CAP_PERFMON (effective set has %s%s%s); "
		 "run it with sudo, or grant them: sudo setcap cap_bpf,cap_perfmon+ep feecscope",
		 (eff >> CAP_BPF_BIT) & 1 ? "CAP_BPF" : "no CAP_BPF",
		 ", ", (eff >> CAP_PERFMON_BIT) & 1 ? "CAP_PERFMON" : "no CAP_PERFMON");
	return false;
}

/*
 * Does the kernel resolve the typed ksym `runqueues` (BTF has it; its address
 * needs CONFIG_KALLSYMS_ALL)? Asked with a 4-instruction program where the
 * kallsyms lookup program of live_ksyms.c cannot run (before v5.16).
 */
static bool ksym_loadable(int id, const char *name)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = BPF_REG_1,
		  .src_reg = BPF_PSEUDO_BTF_ID, .imm = id },
		{ 0 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int fd;

	if (id < 0)
		return false;
	char log[512] = "";
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .log_buf = log, .log_size = sizeof(log), .log_level = 1);

	fd = bpf_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, "fs_probe", "GPL", insns, 4, &opts);
	if (fd < 0) {
		vlog(1, "ksym %s not usable (%s): %s\n", name, strerror(errno), log);
		return false;
	}
	close(fd);
	return true;
}

/* Say what a program this kernel cannot run costs: the live header and summary show it. */
static void note_lost(struct fs_live_features *f, const char *fmt, ...)
{
	size_t n = strlen(f->lost);
	va_list ap;

	if (n && n + 2 < sizeof(f->lost)) {
		memcpy(f->lost + n, "; ", 3);
		n += 2;
	}
	va_start(ap, fmt);
	vsnprintf(f->lost + n, sizeof(f->lost) - n, fmt, ap);
	va_end(ap);
}

/*
 * The kernel would not load or attach the fentry: its cause from what the
 * machine says (live_env.c), so that EPERM while root does not read as a
 * missing permission. What it costs (wake flags) the summary says.
 */
static void note_no_fentry(struct fs_live_bpf *b, const char *stage, int err_no)
{
	struct fs_fentry_facts ff;
	char why[256];

	fs_fentry_facts_read(&ff, err_no);
	fs_fentry_refusal(&ff, why, sizeof(why));
	note_lost(&b->feat, "no fentry on select_task_rq_fair: %s", why);
	vlog(1, "fentry %s: %s; lockdown %s; LSMs %s; available_filter_functions %s\n", stage,
	     strerror(err_no), ff.lockdown[0] ? ff.lockdown : "unknown", ff.lsm[0] ? ff.lsm : "unknown",
	     ff.ftrace_errno < 0 ? "not read" : ff.ftrace_errno ? strerror(ff.ftrace_errno) :
	     ff.traceable ? "lists select_task_rq_fair" : "lacks select_task_rq_fair");
}

/*
 * The addresses of sched_uclamp_used and uclamp_default (data symbols:
 * CONFIG_KALLSYMS_ALL): asked of the kernel with runqueues' before the load,
 * or, before v5.16, scanned from /proc/kallsyms while libbpf loads the object.
 */
struct uclamp_scan {
	pthread_t th;
	bool wanted;    /* CONFIG_UCLAMP_TASK */
	bool started;   /* the scan thread runs */
	bool by_bpf;    /* the kernel answered, no /proc/kallsyms scan */
	__u64 addr[2];
};

static const char *const uclamp_syms[2] = { "sched_uclamp_used", "uclamp_default" };

static void *scan_uclamp(void *arg)
{
	struct uclamp_scan *u = arg;

	fs_ksyms_scan(uclamp_syms, u->addr, 2);
	return NULL;
}

/* A uclamp sysctl (0..1024), or 1024 (the kernel's default) when it cannot be read. */
static __u32 uclamp_sysctl(const char *name)
{
	char path[96];
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/sys/kernel/%s", name);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%lld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v >= 0 && v <= 1024 ? (__u32)v : 1024;
}

static bool util_est_disabled(void)
{
	char buf[4096], dbg[256], path[300];
	size_t n;
	FILE *f = NULL;

	if (!fs_kernel_fs_dir(FS_KFS_DEBUGFS, dbg, sizeof(dbg), buf, sizeof(buf))) {
		snprintf(path, sizeof(path), "%s/sched/features", dbg);
		f = fopen(path, "r");
		snprintf(path, sizeof(path), "%s/sched_features", dbg); /* before v5.13 */
		if (!f)
			f = fopen(path, "r");
	}
	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	return strstr(buf, "NO_UTIL_EST ") || strstr(buf, "NO_UTIL_EST\n");
}

/*
 * A thread pinned on one CPU that sleeps and wakes, so the harvest programs
 * run there. Its first wake-up, free to go to any CPU, passes through
 * select_task_rq_fair() (check_events_run() looks for the fentry there).
 */
static void *prime_cpu(void *arg)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
		CPU_SET(cpu, &set);
	if (!sched_setaffinity(0, sizeof(set), &set))
		usleep(500);
	CPU_ZERO(&set);
	CPU_SET((int)(long)arg, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return NULL;
	for (int i = 0; i < 20; i++)
		usleep(500);
	return NULL;
}

/* prime_cpu() on every CPU of mask, all at once; returns when they are done. */
static void prime_cpus(int nr_cpus, __u64 mask)
{
	pthread_t th[FS_MAX_CPUS];
	bool started[FS_MAX_CPUS] = { 0 };

	for (int cpu = 0; cpu < nr_cpus; cpu++)
		if ((mask >> cpu) & 1)
			started[cpu] = !pthread_create(&th[cpu], NULL, prime_cpu, (void *)(long)cpu);
	for (int cpu = 0; cpu < nr_cpus; cpu++)
		if (started[cpu])
			pthread_join(th[cpu], NULL);
}

static int count_rqs(struct fs_live_bpf *b, __u64 *unknown)
{
	/* the programs' global array, mapped: written by the harvest, never here */
	const volatile __u64 *addr = b->skel->bss->rq_addr;
	int known = 0;

	*unknown = 0;
	for (int cpu = 0; cpu < b->feat.nr_cpus && cpu < FS_MAX_CPUS; cpu++) {
		if (addr[cpu])
			known++;
		else
			*unknown |= 1ull << cpu;
	}
	return known;
}

/*
 * Attach again every harvest program that is attached: a harvest has been
 * seen to attach without error and never run, as check_events_run() has
 * seen of event programs, and a second attach cured it (docs/lab.md,
 * Things seen in this guest).
 */
static void reattach_harvest(struct feecscope_bpf *s)
{
	struct {
		struct bpf_program *prog;
		struct bpf_link **link;
	} h[] = {
		{ s->progs.harvest_ksym, &s->links.harvest_ksym },
		{ s->progs.harvest_ksym_loop, &s->links.harvest_ksym_loop },
		{ s->progs.harvest_sched_switch, &s->links.harvest_sched_switch },
		{ s->progs.harvest_pelt_cfs, &s->links.harvest_pelt_cfs },
	};

	for (size_t i = 0; i < sizeof(h) / sizeof(h[0]); i++) {
		if (!*h[i].link)
			continue;
		bpf_link__destroy(*h[i].link);
		*h[i].link = bpf_program__attach(h[i].prog);
	}
}

/*
 * The ksym harvest needs no tracepoint: one test run reads every CPU's
 * pointer, sparing an attach and a detach (each patches kernel text, slow
 * under QEMU's multi-threaded TCG). raw_tp test runs are v5.10+.
 */
static bool harvest_by_test_run(struct fs_live_bpf *b)
{
	struct bpf_program *p = b->skel->progs.harvest_ksym_loop;
	LIBBPF_OPTS(bpf_test_run_opts, run);
	__u64 unknown;

	if (!bpf_program__autoload(p))
		p = b->skel->progs.harvest_ksym;
	if (bpf_prog_test_run_opts(bpf_program__fd(p), &run)) {
		vlog(1, "test run of %s: %s; attaching it instead\n", bpf_program__name(p), strerror(errno));
		return false;
	}
	return count_rqs(b, &unknown) == b->feat.nr_cpus;
}

/* Run the harvest until every CPU's rq is known (offline CPUs cannot be learnt). */
static void harvest_rqs(struct fs_live_bpf *b)
{
	int before = -1;

	for (int round = 0; round < 5; round++) {
		b->feat.rq_known = count_rqs(b, &b->feat.rq_unknown_mask);
		if (b->feat.rq_known == b->feat.nr_cpus)
			break;
		if (b->feat.rq_known == before) { /* a round of wake-ups on those CPUs taught nothing */
			vlog(0, "warning: the struct rq harvest learnt nothing in a round; attaching it again\n");
			reattach_harvest(b->skel);
		}
		before = b->feat.rq_known;
		prime_cpus(b->feat.nr_cpus, b->feat.rq_unknown_mask);
	}
	b->feat.rq_known = count_rqs(b, &b->feat.rq_unknown_mask);
	vlog(1, "struct rq known for %d of %d CPUs (unknown mask %#llx), from %s\n",
	     b->feat.rq_known, b->feat.nr_cpus, (unsigned long long)b->feat.rq_unknown_mask,
	     b->feat.ksym_runqueues ? "the runqueues ksym" : "cfs_rq->rq of running tasks");
	/* The pointers never change; stop paying for the harvest programs. */
	bpf_link__destroy(b->skel->links.harvest_sched_switch);
	b->skel->links.harvest_sched_switch = NULL;
	bpf_link__destroy(b->skel->links.harvest_pelt_cfs);
	b->skel->links.harvest_pelt_cfs = NULL;
	bpf_link__destroy(b->skel->links.harvest_ksym);
	b->skel->links.harvest_ksym = NULL;
	bpf_link__destroy(b->skel->links.harvest_ksym_loop);
	b->skel->links.harvest_ksym_loop = NULL;
}

static int attach_one(struct bpf_program *prog, struct bpf_link **link, bool required,
		      char *err, size_t errlen)
{
	if (!bpf_program__autoload(prog))
		return 0;
	*link = bpf_program__attach(prog);
	if (*link)
		return 0;
	int e = errno;

	*link = NULL;
	if (!required) {
		vlog(1, "optional program %s not attached: %s\n", bpf_program__name(prog), strerror(e));
		errno = e;
		return 1;
	}
	snprintf(err, errlen, "attaching BPF program %s (%s): %s", bpf_program__name(prog),
		 bpf_program__section_name(prog), strerror(e));
	return -1;
}

/* Re-attaches of an event program that does not run before the run gives up. */
#define MAX_REATTACHES 3

/* An event program check_events_run() watches, in its variants (one is loaded). */
struct watched_event {
	__u32 counter;
	const char *name;
	struct bpf_program *prog[4]; /* NULL-padded */
	struct bpf_link **link[4];
	bool runs, optional;
};

#define NR_WATCHED 4

/*
 * The event programs our own threads must trigger (they are created, sleep
 * and wake on every CPU). sched_migrate_task is left out: our threads need
 * not move. The fentry on select_task_rq_fair is optional: where it never
 * runs, snapshots are taken at sched_waking instead.
 */
static void watched_events(struct feecscope_bpf *s, struct watched_event ev[NR_WATCHED])
{
	const struct watched_event all[] = {
		{ FS_CNT_WAKING, "sched_waking",
		  { s->progs.tp_btf_sched_waking, s->progs.raw_sched_waking,
		    s->progs.tp_btf_sched_waking_cast, s->progs.tp_btf_sched_waking_ksym },
		  { &s->links.tp_btf_sched_waking, &s->links.raw_sched_waking,
		    &s->links.tp_btf_sched_waking_cast, &s->links.tp_btf_sched_waking_ksym }, false, false },
		{ FS_CNT_WAKEUP, "sched_wakeup",
		  { s->progs.tp_btf_sched_wakeup, s->progs.raw_sched_wakeup },
		  { &s->links.tp_btf_sched_wakeup, &s->links.raw_sched_wakeup }, false, false },
		{ FS_CNT_WAKEUP_NEW, "sched_wakeup_new", /* our threads' creation */
		  { s->progs.tp_btf_sched_wakeup_new, s->progs.raw_sched_wakeup_new },
		  { &s->links.tp_btf_sched_wakeup_new, &s->links.raw_sched_wakeup_new }, false, false },
		{ FS_CNT_SELECT, "select_task_rq_fair",
		  { s->progs.fentry_select_task_rq_fair, s->progs.fentry_select_task_rq_fair_4args,
		    s->progs.fentry_select_task_rq_fair_cast, s->progs.fentry_select_task_rq_fair_ksym },
		  { &s->links.fentry_select_task_rq_fair, &s->links.fentry_select_task_rq_fair_4args,
		    &s->links.fentry_select_task_rq_fair_cast, &s->links.fentry_select_task_rq_fair_ksym },
		  !s->bss->select_attached, true },
	};

	_Static_assert(sizeof(all) / sizeof(all[0]) == NR_WATCHED, "NR_WATCHED is the table's size");
	memcpy(ev, all, sizeof(all));
}

/* Our threads wake on every CPU: the events seen running now are marked; returns how many are not. */
static size_t mark_running(struct fs_live_bpf *b, struct watched_event *ev, int attempt)
{
	__u64 cnt[FS_CNT__NR], before[FS_CNT__NR];
	size_t silent = 0;

	fs_live_bpf_counters(b, before);
	prime_cpus(b->nr_possible, ~0ull);
	fs_live_bpf_counters(b, cnt);
	for (size_t e = 0; e < NR_WATCHED; e++) {
		if (ev[e].runs)
			continue;
		ev[e].runs = cnt[ev[e].counter] > before[ev[e].counter];
		if (ev[e].runs && attempt)
			vlog(1, "%s runs after %d re-attach(es)\n", ev[e].name, attempt);
		silent += !ev[e].runs;
	}
	return silent;
}

/* The fentry never ran: detached, and every wake-up is snapshot at sched_waking (none parked for it). */
static void drop_fentry(struct fs_live_bpf *b, struct watched_event *e)
{
	b->skel->bss->select_attached = false; /* parks nothing from now on */
	for (int i = 0; i < 4 && e->link[i]; i++) {
		bpf_link__destroy(*e->link[i]);
		*e->link[i] = NULL;
	}
	note_lost(&b->feat, "fentry on select_task_rq_fair attached but never ran: "
		  "snapshots at sched_waking, wake flags unknown");
	b->feat.fentry_select = false;
	b->feat.progs_loaded--;
	e->runs = true;
}

/* Attach again the variant of e that is attached (one of them is loaded). */
static int reattach_event(struct watched_event *e, char *err, size_t errlen)
{
	vlog(0, "warning: the %s program attached but did not run while our threads woke on "
	     "every CPU; attaching it again\n", e->name);
	for (int i = 0; i < 4 && e->link[i]; i++) {
		if (!*e->link[i])
			continue;
		bpf_link__destroy(*e->link[i]);
		*e->link[i] = NULL;
		if (attach_one(e->prog[i], e->link[i], true, err, errlen) < 0)
			return -1;
	}
	return 0;
}

/*
 * Check that the event programs our own threads must trigger run, and
 * attach again any that does not. Programs have been seen to attach
 * without error, yet never run for the whole run (docs/lab.md, Things seen
 * in this guest): with sched_wakeup so, no wake-up that stayed on its CPU
 * was placed. An optional one (the fentry) that still does not run is
 * dropped (else every wake-up parked for it is lost); a required one fails
 * the start.
 */
static int check_events_run(struct fs_live_bpf *b, char *err, size_t errlen)
{
	struct watched_event ev[NR_WATCHED];

	watched_events(b->skel, ev);
	for (int attempt = 0; mark_running(b, ev, attempt); attempt++) {
		for (size_t e = 0; e < NR_WATCHED; e++) {
			if (ev[e].runs)
				continue;
			if (attempt < MAX_REATTACHES) {
				if (reattach_event(&ev[e], err, errlen))
					return -1;
			} else if (ev[e].optional) {
				drop_fentry(b, &ev[e]);
			} else {
				snprintf(err, errlen, "the %s program attached but never ran, even after %d "
					 "re-attaches: the placement of wake-ups would be unknown", ev[e].name,
					 MAX_REATTACHES);
				return -1;
			}
		}
	}
	return 0;
}

/*
 * Programs in the kernel, of those this kernel should run: the loaded ones
 * plus any the probes or a fallback dropped (at most the one fentry).
 */
static void count_programs(struct fs_live_bpf *b)
{
	struct bpf_program *prog;

	__u64 verified = 0;

	b->feat.progs_loaded = 0;
	bpf_object__for_each_program(prog, b->skel->obj) {
		struct bpf_prog_info info = { 0 };
		__u32 len = sizeof(info);
		int fd = bpf_program__fd(prog);

		b->feat.progs_loaded += fd >= 0;
		if (fd >= 0 && !bpf_obj_get_info_by_fd(fd, &info, &len)) {
			verified += info.verified_insns; /* v5.16+, else 0 */
			vlog(2, "  %s: %u instructions walked\n", bpf_program__name(prog),
			     info.verified_insns);
		}
	}
	vlog(1, "%d programs loaded, the verifier walked %llu instructions (v5.16+)\n",
	     b->feat.progs_loaded, (unsigned long long)verified);
	b->feat.progs_wanted = b->feat.progs_loaded +
			       (b->feat.lost[0] && b->feat.kernel_btf && !b->feat.fentry_select);
}

/*
 * The CPUs whose landscape the collector reads: all, unless the hidden
 * FS_BENCH_LANDSCAPE_CPUS (1..nr) asks for fewer: the waker's and the lowest others.
 * Only the cost bench sets it (tests/bench/landscape_cost.sh); its records
 * then lack the other CPUs, so live says so.
 */
static __u32 landscape_cpus(int nr)
{
	const char *e = getenv("FS_BENCH_LANDSCAPE_CPUS");
	char *end;
	long n;

	if (!e || !*e)
		return nr;
	n = strtol(e, &end, 10);
	if (*end || n < 1 || n > nr) {
		vlog(0, "warning: FS_BENCH_LANDSCAPE_CPUS=%s ignored (not 1..%d)\n", e, nr);
		return nr;
	}
	vlog(0, "warning: FS_BENCH_LANDSCAPE_CPUS=%ld: only the waker's CPU and the %ld lowest others are "
	     "read (a benchmark setting: placements and energy are wrong)\n", n, n - 1);
	return n;
}

/*
 * How snapshots read other CPUs' struct rq: the best this kernel offers,
 * unless the hidden FS_BENCH_RQ_READ (copy, cast or ksym) asks for one, for
 * the cost bench and the tests only (a way the kernel lacks then fails the
 * load, and the fallback copies).
 */
static int rq_read_choice(int best)
{
	static const char *const names[] = { [FS_RQ_COPY] = "copy", [FS_RQ_CAST] = "cast",
					      [FS_RQ_KSYM] = "ksym" };
	const char *e = getenv("FS_BENCH_RQ_READ");

	if (!e || !*e)
		return best;
	for (int i = 0; i < (int)(sizeof(names) / sizeof(names[0])); i++) {
		if (!strcmp(e, names[i])) {
			vlog(0, "warning: FS_BENCH_RQ_READ=%s: struct rq read this way (a benchmark "
			     "and test setting)\n", e);
			return i;
		}
	}
	vlog(0, "warning: FS_BENCH_RQ_READ=%s ignored (not copy, cast or ksym)\n", e);
	return best;
}

/* Open, configure and load the object with the programs the probes chose. */
static int open_and_load(struct fs_live_bpf *b, const struct bpf_object_open_opts *open_opts,
			 bool have_ou_tp,
			 char *err, size_t errlen)
{
	struct feecscope_bpf *s;
	const char *self_time = getenv("FS_BENCH_SELF_TIME"); /* the cost bench's own clock */
	bool t = b->feat.tp_btf;
	int rc;

	s = feecscope_bpf__open_opts(open_opts);
	if (!s) {
		snprintf(err, errlen, "opening the BPF object: %s", strerror(errno));
		return -1;
	}
	b->skel = s;
	if (bpf_map__reuse_fd(s->maps.rings, b->rings_fd)) {
		snprintf(err, errlen, "handing the ring buffer array to libbpf: %s", strerror(errno));
		return -1;
	}
	s->rodata->nr_cpus = b->nr_possible;
	s->rodata->landscape_cpus = b->landscape_cpus;
	s->rodata->self_time = self_time && !strcmp(self_time, "1");
	s->rodata->self_tgid = getpid();
	s->rodata->select_nargs = b->feat.fentry_select ? b->feat.select_nargs : 0;
	s->rodata->util_est_off = b->feat.util_est_off;
	s->rodata->sd_asym_flag = b->feat.sd_asym_flag;
	s->rodata->wakeup_bytes = b->ring_bytes / 4;
	s->rodata->freq_records = b->feat.freq_records;
	bpf_program__set_autoload(s->progs.tp_btf_sched_waking, t && b->feat.rq_read == FS_RQ_COPY);
	bpf_program__set_autoload(s->progs.tp_btf_sched_waking_cast, t && b->feat.rq_read == FS_RQ_CAST);
	bpf_program__set_autoload(s->progs.tp_btf_sched_waking_ksym, t && b->feat.rq_read == FS_RQ_KSYM);
	bpf_program__set_autoload(s->progs.tp_btf_sched_wakeup, t);
	bpf_program__set_autoload(s->progs.tp_btf_sched_wakeup_new, t);
	bpf_program__set_autoload(s->progs.tp_btf_sched_migrate_task, t);
	bpf_program__set_autoload(s->progs.tp_btf_sched_process_exit, t);
	bpf_program__set_autoload(s->progs.tp_btf_sched_overutilized, t && have_ou_tp);
	bpf_program__set_autoload(s->progs.raw_sched_waking, !t);
	bpf_program__set_autoload(s->progs.raw_sched_wakeup, !t);
	bpf_program__set_autoload(s->progs.raw_sched_wakeup_new, !t);
	bpf_program__set_autoload(s->progs.raw_sched_migrate_task, !t);
	bpf_program__set_autoload(s->progs.raw_sched_process_exit, !t);
	/* without kernel BTF we cannot tell whether the bare tracepoint exists: try it */
	bpf_program__set_autoload(s->progs.raw_sched_overutilized, !t);
	bool sel3 = b->feat.fentry_select && b->feat.select_nargs == 3;

	bpf_program__set_autoload(s->progs.fentry_select_task_rq_fair, sel3 && b->feat.rq_read == FS_RQ_COPY);
	bpf_program__set_autoload(s->progs.fentry_select_task_rq_fair_cast, sel3 && b->feat.rq_read == FS_RQ_CAST);
	bpf_program__set_autoload(s->progs.fentry_select_task_rq_fair_ksym, sel3 && b->feat.rq_read == FS_RQ_KSYM);
	bpf_program__set_autoload(s->progs.fentry_select_task_rq_fair_4args,
				  b->feat.fentry_select && b->feat.select_nargs == 4);
	bpf_program__set_autoload(s->progs.harvest_ksym_loop, b->feat.ksym_runqueues && b->feat.bpf_loop);
	bpf_program__set_autoload(s->progs.harvest_ksym, b->feat.ksym_runqueues && !b->feat.bpf_loop);
	bpf_program__set_autoload(s->progs.harvest_sched_switch, !b->feat.ksym_runqueues);
	bpf_program__set_autoload(s->progs.harvest_pelt_cfs, !b->feat.ksym_runqueues);
	bpf_program__set_autoload(s->progs.busy_sched_switch, b->feat.busyfreq);
	bpf_program__set_autoload(s->progs.busy_cpu_frequency, b->feat.busyfreq);
	bpf_program__set_autoload(s->progs.busy_cpuhp_exit, b->feat.busyfreq);

	b->feat.loads++;
	g_refused[0] = 0;
	g_verifier_log = false;
	rc = feecscope_bpf__load(s);
	if (rc) {
		b->load_errno = -rc;
		/* -2: the environment refused it */
		return fs_bpf_load_error(-rc, g_verifier_log, err, errlen);
	}
	return 0;
}

static struct fs_live_bpf_opts g_opts; /* the merge's emit context */

static int merged_cb(void *ctx, const void *data, size_t size)
{
	const struct fs_live_bpf_opts *o = ctx;

	return o->on_record(o->ctx, data, size);
}

static int ringbuf_cb(void *ctx, void *data, size_t size)
{
	struct ring_ctx *r = ctx;
	int rc = fs_ring_merge_push(r->b->merge, r->cpu, data, size);

	if (rc && !r->b->feed_rc)
		r->b->feed_rc = rc;
	return rc; /* stops this consume pass; fs_live_bpf_poll reports it */
}

/* --ringbuf-size is the total: each possible CPU gets a power-of-two share. */
static size_t ring_share(size_t total, int nr_cpus)
{
	size_t per = total / (size_t)nr_cpus, p = RING_MIN_BYTES;
	long page = sysconf(_SC_PAGESIZE);

	while (p * 2 <= per)
		p *= 2;
	return page > 0 && p < (size_t)page ? (size_t)page : p;
}

/*
 * One ring per possible CPU, each read through one ring_buffer, installed in
 * the rings array (map-in-map). They need nothing from the object, so a
 * thread makes them while libbpf loads it: zeroing megabytes of rings, and
 * each install waits for an RCU grace period (the kernel's rule for
 * map-in-map updates), both slow under QEMU's multi-threaded TCG. The array
 * itself is made here first, with CPU 0's ring as its inner template, and
 * handed to libbpf (bpf_map__reuse_fd) in place of its own.
 */
struct ring_maker {
	pthread_t th;
	bool started;
	struct fs_live_bpf *b;
	int rc;
	char err[160];
};

static int new_ring(struct fs_live_bpf *b, int cpu, char *err, size_t errlen)
{
	b->ring_fd[cpu] = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "fs_ring", 0, 0, b->ring_bytes, NULL);
	if (b->ring_fd[cpu] < 0) {
		snprintf(err, errlen, "creating CPU %d's ring buffer (%zu bytes): %s", cpu,
			 b->ring_bytes, strerror(errno));
		return -1;
	}
	return 0;
}

/* The rings array with CPU 0's ring as the template: before the object opens. */
static int make_ring_array(struct fs_live_bpf *b, char *err, size_t errlen)
{
	if (new_ring(b, 0, err, errlen))
		return -1;
	LIBBPF_OPTS(bpf_map_create_opts, opts, .inner_map_fd = b->ring_fd[0]);
	b->rings_fd = bpf_map_create(BPF_MAP_TYPE_ARRAY_OF_MAPS, "rings", sizeof(__u32), sizeof(__u32),
				     FS_MAX_CPUS, &opts);
	if (b->rings_fd < 0) {
		snprintf(err, errlen, "creating the ring buffer array: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static void *make_rings(void *arg)
{
	struct ring_maker *m = arg;
	struct fs_live_bpf *b = m->b;

	m->rc = -1;
	b->merge = fs_ring_merge_new(b->nr_possible, merged_cb, &g_opts);
	if (!b->merge) {
		snprintf(m->err, sizeof(m->err), "out of memory");
		return NULL;
	}
	for (int cpu = 0; cpu < b->nr_possible; cpu++) {
		__u32 key = cpu;

		if (cpu && new_ring(b, cpu, m->err, sizeof(m->err)))
			return NULL;
		if (bpf_map_update_elem(b->rings_fd, &key, &b->ring_fd[cpu], BPF_ANY)) {
			snprintf(m->err, sizeof(m->err), "installing CPU %d's ring buffer: %s", cpu,
				 strerror(errno));
			return NULL;
		}
		b->rctx[cpu] = (struct ring_ctx){ .b = b, .cpu = cpu };
		int rc = 0;

		if (!b->rb) {
			b->rb = ring_buffer__new(b->ring_fd[cpu], ringbuf_cb, &b->rctx[cpu], NULL);
			rc = b->rb ? 0 : -errno;
		} else {
			rc = ring_buffer__add(b->rb, b->ring_fd[cpu], ringbuf_cb, &b->rctx[cpu]);
		}
		if (rc) {
			snprintf(m->err, sizeof(m->err), "reading CPU %d's ring buffer: %s", cpu, strerror(-rc));
			return NULL;
		}
	}
	m->rc = 0;
	vlog(2, "ring buffers made\n");
	return NULL;
}

/* Wait for make_rings(); 0, or -1 with its message. */
static int rings_made(struct ring_maker *m, char *err, size_t errlen)
{
	if (!m->started)
		return 0;
	pthread_join(m->th, NULL);
	m->started = false;
	if (m->rc)
		snprintf(err, errlen, "%s", m->err);
	return m->rc;
}

/* The BTF the collector is relocated against, and what it tells; *noperm when there is none. */
static int read_btf(struct fs_live_bpf *b, const struct fs_live_bpf_opts *o, struct fs_btf_facts *bf,
		    struct bpf_object_open_opts *open_opts, bool *noperm, char *err, size_t errlen)
{
	b->feat.kernel_btf = access(KERNEL_BTF, R_OK) == 0;
	if (o->btf_path) {
		if (fs_btf_facts_read(o->btf_path, bf, err, errlen))
			return -1;
		open_opts->btf_custom_path = o->btf_path;
	} else if (b->feat.kernel_btf) {
		if (fs_btf_facts_read(KERNEL_BTF, bf, err, errlen))
			return -1;
	} else {
		snprintf(err, errlen,
			 "this kernel has no BTF (%s is missing: CONFIG_DEBUG_INFO_BTF is off), so CO-RE cannot "
			 "relocate the collector; pass --btf FILE with this kernel's BTF "
			 "(e.g. from `pahole --btf_encode_detached FILE vmlinux`)", KERNEL_BTF);
		*noperm = true;
		return -1;
	}
	vlog(1, "BTF read (%u types, %s)\n", bf->nr_types, bf->mapped ? "mapped" : "read");
	return 0;
}

/* The possible CPUs, then their ring buffers, made on a thread while the object loads. */
static int start_rings(struct fs_live_bpf *b, const struct fs_live_bpf_opts *o, struct ring_maker *rings,
		       char *err, size_t errlen)
{
	int rc = libbpf_num_possible_cpus();

	if (rc <= 0) {
		snprintf(err, errlen, "reading the possible CPU count: %s", strerror(-rc));
		return -1;
	}
	if (rc > FS_MAX_CPUS) {
		snprintf(err, errlen, "this machine has %d possible CPUs; feecscope records at most %d",
			 rc, FS_MAX_CPUS);
		return -1;
	}
	b->nr_possible = rc;
	b->feat.nr_cpus = rc;
	b->landscape_cpus = landscape_cpus(rc);
	for (int cpu = 0; cpu < FS_MAX_CPUS; cpu++)
		b->ring_fd[cpu] = -1;
	b->ring_bytes = ring_share(o->ringbuf_size, rc);
	rings->b = b;
	if (make_ring_array(b, err, errlen))
		return -1;
	if (pthread_create(&rings->th, NULL, make_rings, rings)) {
		make_rings(rings); /* no thread: make them here */
		if (rings->rc) {
			snprintf(err, errlen, "%s", rings->err);
			return -1;
		}
	} else {
		rings->started = true;
	}
	return 0;
}

/*
 * runqueues is a typed ksym (a per-CPU variable in the kernel's BTF) the
 * kernel resolves through kallsyms; CONFIG_UCLAMP_TASK's two symbols are
 * read by address. One program asks for all three.
 */
static void choose_symbols(struct fs_live_bpf *b, const struct fs_live_bpf_opts *o, const struct fs_btf_facts *bf,
			   struct uclamp_scan *uscan)
{
	const char *const syms[3] = { "runqueues", uclamp_syms[0], uclamp_syms[1] };
	__u64 addrs[3];
	bool rq_btf = b->feat.kernel_btf && !o->btf_path && bf->runqueues_id >= 0;

	uscan->wanted = bf->task_uclamp;
	uscan->by_bpf = (rq_btf || uscan->wanted) && fs_ksyms_lookup(syms, addrs, 3);
	if (uscan->by_bpf) {
		b->feat.ksym_runqueues = rq_btf && addrs[0];
		uscan->addr[0] = addrs[1];
		uscan->addr[1] = addrs[2];
	} else {
		b->feat.ksym_runqueues = rq_btf && ksym_loadable(bf->runqueues_id, "runqueues");
		if (uscan->wanted) /* found while the object loads */
			uscan->started = !pthread_create(&uscan->th, NULL, scan_uclamp, uscan);
	}
	vlog(1, "kernel symbols %s\n", uscan->by_bpf ? "asked through BPF" :
	     uscan->started ? "being read from /proc/kallsyms" : "probed");
}

/* Which programs this kernel takes, from its BTF: chosen before the one load. */
static void choose_programs(struct fs_live_bpf *b, const struct fs_live_bpf_opts *o, const struct fs_btf_facts *bf,
			    struct uclamp_scan *uscan)
{
	/* tp_btf needs the running kernel's BTF and the btf_trace_<event> typedef. */
	b->feat.tp_btf = !o->raw_tp && b->feat.kernel_btf && bf->tp_waking;
	int nargs = b->feat.kernel_btf && !o->raw_tp ? bf->select_nargs : 0;

	b->feat.fentry_select = nargs == 3 || nargs == 4;
	b->feat.select_nargs = nargs;
	/*
	 * No separate probe for fentry: a refused load (seen: EPERM on this x86
	 * 6.18 host) costs a second load without it, below; a refused attach
	 * (ENOTSUPP on Debian's arm64 6.1) only leaves it unattached.
	 */
	if (b->feat.kernel_btf && !o->raw_tp && !b->feat.fentry_select) {
		note_lost(&b->feat, "select_task_rq_fair not in BTF with 3 or 4 args (%d): wake flags unknown",
			  nargs);
	}
	choose_symbols(b, o, bf, uscan);
	b->feat.bpf_loop = bf->bpf_loop;
	b->feat.rq_read = !b->feat.tp_btf ? FS_RQ_COPY :
			  rq_read_choice(bf->rdonly_cast ? FS_RQ_CAST : b->feat.ksym_runqueues ? FS_RQ_KSYM :
					 FS_RQ_COPY);
	if (bf->sd_asym_full) {
		b->feat.sd_asym_flag = bf->sd_asym_full_val;
		b->feat.sd_asym_flag_name = "SD_ASYM_CPUCAPACITY_FULL (v5.14+)";
	} else if (bf->sd_asym) {
		b->feat.sd_asym_flag = bf->sd_asym_val;
		b->feat.sd_asym_flag_name = "SD_ASYM_CPUCAPACITY (v5.10 - v5.13)";
	} else {
		b->feat.sd_asym_flag = 0x0040;
		b->feat.sd_asym_flag_name = "SD_ASYM_CPUCAPACITY 0x40 (<= v5.9)";
	}
	b->feat.util_est_off = util_est_disabled();
	vlog(1, "BTF: %s; events as %s; fentry select_task_rq_fair: %s (%d args); runqueues ksym: %s; "
	     "asym flag %s = %#x; UTIL_EST %s; %d possible CPUs\n",
	     o->btf_path ? o->btf_path : KERNEL_BTF, b->feat.tp_btf ? "tp_btf" : "raw_tp",
	     b->feat.fentry_select ? "yes" : "no", nargs, b->feat.ksym_runqueues ? "yes" : "no",
	     b->feat.sd_asym_flag_name, b->feat.sd_asym_flag, b->feat.util_est_off ? "off" : "on",
	     b->nr_possible);
}

/*
 * Busy time at each frequency (bpf/busyfreq.bpf.c), unless the hidden
 * FS_BENCH_NO_BUSYFREQ=1 leaves it out: the cost bench's run without it.
 */
static void choose_busyfreq(struct fs_live_bpf *b)
{
	const char *e = getenv("FS_BENCH_NO_BUSYFREQ");

	b->feat.busyfreq = !(e && !strcmp(e, "1"));
	if (!b->feat.busyfreq)
		snprintf(b->feat.busyfreq_off, sizeof(b->feat.busyfreq_off), "FS_BENCH_NO_BUSYFREQ=1");
	/* the frequency changes ride on its cpu_frequency program; FS_BENCH_NO_FREQREC=1: the bench's run without */
	e = getenv("FS_BENCH_NO_FREQREC");
	b->feat.freq_records = b->feat.busyfreq && !(e && !strcmp(e, "1"));
}

/*
 * The probes chose programs this kernel accepts, so this loads once. Should
 * an optional one still be refused, each retry verifies every program
 * again: drop the optional ones one at a time, and say so.
 */
static int load_accepted(struct fs_live_bpf *b, struct bpf_object_open_opts *open_opts, bool have_ou_tp,
			 bool *noperm, char *err, size_t errlen)
{
	for (;;) {
		int lrc = open_and_load(b, open_opts, have_ou_tp, err, errlen);

		if (!lrc)
			return 0;
		feecscope_bpf__destroy(b->skel);
		b->skel = NULL;
		/* a program that loads the rq fields was refused, not the fentry: copy instead */
		bool rq_way = b->feat.rq_read != FS_RQ_COPY && strncmp(g_refused, "fentry_", 7) &&
			      (strstr(g_refused, "_cast") || strstr(g_refused, "_ksym"));

		if (b->feat.busyfreq && !strncmp(g_refused, "busy_", 5)) {
			/* the meter-like denominator only: the one before it stands (docs/accounting.md) */
			vlog(0, "warning: %s; going on without busy time at each frequency\n", err);
			snprintf(b->feat.busyfreq_off, sizeof(b->feat.busyfreq_off), "%s refused by the kernel",
				 g_refused);
			b->feat.busyfreq = false;
			b->feat.freq_records = false;
		} else if (b->feat.fentry_select && !rq_way) {
			note_no_fentry(b, "load", b->load_errno);
			/* expected where the kernel refuses fentry: the header says what it costs */
			vlog(1, "loading again without fentry on select_task_rq_fair\n");
			b->feat.fentry_select = false;
		} else if (b->feat.rq_read != FS_RQ_COPY) {
			vlog(0, "warning: %s (%s); retrying with struct rq copies, not loads\n", err,
			     g_refused[0] ? g_refused : "?");
			b->feat.rq_read = FS_RQ_COPY;
		} else if (b->feat.ksym_runqueues) {
			vlog(0, "warning: %s; retrying without the runqueues ksym\n", err);
			b->feat.ksym_runqueues = false;
		} else {
			*noperm = lrc == -2;
			return -1;
		}
	}
}

/* Learn the struct rq pointers before anything reads them. */
static int learn_rqs(struct fs_live_bpf *b, char *err, size_t errlen)
{
	struct feecscope_bpf *s = b->skel;
	bool harvested = b->feat.ksym_runqueues && harvest_by_test_run(b);

	if (!harvested &&
	    (attach_one(s->progs.harvest_ksym, &s->links.harvest_ksym, true, err, errlen) < 0 ||
	    attach_one(s->progs.harvest_ksym_loop, &s->links.harvest_ksym_loop, true, err, errlen) < 0 ||
	    attach_one(s->progs.harvest_sched_switch, &s->links.harvest_sched_switch, true, err, errlen) < 0 ||
	    attach_one(s->progs.harvest_pelt_cfs, &s->links.harvest_pelt_cfs, false, err, errlen) < 0))
		return -1;
	harvest_rqs(b);
	if (!b->feat.rq_known) {
		snprintf(err, errlen, "could not learn any CPU's struct rq (no FAIR_GROUP_SCHED path, "
			 "pelt_cfs_tp did not fire, no runqueues ksym)");
		return -1;
	}
	return 0;
}

/* uclamp's symbols (found by BPF or by the kallsyms thread) and sysctls into the programs' data. */
static void give_uclamp(struct fs_live_bpf *b, struct uclamp_scan *uscan)
{
	struct feecscope_bpf *s = b->skel;

	if (uscan->started) {
		pthread_join(uscan->th, NULL);
		uscan->started = false;
	}
	if (!uscan->wanted)
		return;
	s->bss->uclamp_used_addr = uscan->addr[0];
	s->bss->uclamp_default_addr = uscan->addr[1];
	s->data->uclamp_default_min = uclamp_sysctl("sched_util_clamp_min");
	s->data->uclamp_default_max = uclamp_sysctl("sched_util_clamp_max");
	vlog(1, "sched_uclamp_used %s; uclamp_default %s (%s)\n",
	     uscan->addr[0] ? "found in kallsyms" : "not in kallsyms: inferred",
	     uscan->addr[1] ? "found in kallsyms" : "from the sched_util_clamp sysctls",
	     uscan->by_bpf ? "asked through BPF" : "/proc/kallsyms read");
}

/* The fentry first (snapshots wait for select_task_rq_fair only once a program sees it), then the events. */
static int attach_programs(struct fs_live_bpf *b, char *err, size_t errlen)
{
	struct feecscope_bpf *s = b->skel;
	int rc;

	if (attach_one(s->progs.fentry_select_task_rq_fair, &s->links.fentry_select_task_rq_fair,
		       false, err, errlen) ||
	    attach_one(s->progs.fentry_select_task_rq_fair_cast, &s->links.fentry_select_task_rq_fair_cast,
		       false, err, errlen) ||
	    attach_one(s->progs.fentry_select_task_rq_fair_ksym, &s->links.fentry_select_task_rq_fair_ksym,
		       false, err, errlen) ||
	    attach_one(s->progs.fentry_select_task_rq_fair_4args, &s->links.fentry_select_task_rq_fair_4args,
		       false, err, errlen)) {
		note_no_fentry(b, "attach", errno);
		b->feat.fentry_select = false;
		b->feat.progs_loaded--;
	} else if (b->feat.fentry_select) {
		s->bss->select_attached = true;
	}
	if (attach_one(s->progs.tp_btf_sched_waking, &s->links.tp_btf_sched_waking, true, err, errlen) < 0 ||
	    attach_one(s->progs.tp_btf_sched_waking_cast, &s->links.tp_btf_sched_waking_cast, true, err, errlen) < 0 ||
	    attach_one(s->progs.tp_btf_sched_waking_ksym, &s->links.tp_btf_sched_waking_ksym, true, err, errlen) < 0 ||
	    attach_one(s->progs.raw_sched_waking, &s->links.raw_sched_waking, true, err, errlen) < 0 ||
	    attach_one(s->progs.tp_btf_sched_migrate_task, &s->links.tp_btf_sched_migrate_task, true, err, errlen) < 0 ||
	    attach_one(s->progs.raw_sched_migrate_task, &s->links.raw_sched_migrate_task, true, err, errlen) < 0 ||
	    attach_one(s->progs.tp_btf_sched_wakeup, &s->links.tp_btf_sched_wakeup, true, err, errlen) < 0 ||
	    attach_one(s->progs.raw_sched_wakeup, &s->links.raw_sched_wakeup, true, err, errlen) < 0 ||
	    attach_one(s->progs.tp_btf_sched_wakeup_new, &s->links.tp_btf_sched_wakeup_new, true, err, errlen) < 0 ||
	    attach_one(s->progs.raw_sched_wakeup_new, &s->links.raw_sched_wakeup_new, true, err, errlen) < 0 ||
	    attach_one(s->progs.tp_btf_sched_process_exit, &s->links.tp_btf_sched_process_exit, true, err, errlen) < 0 ||
	    attach_one(s->progs.raw_sched_process_exit, &s->links.raw_sched_process_exit, true, err, errlen) < 0)
		return -1;
	rc = attach_one(s->progs.tp_btf_sched_overutilized, &s->links.tp_btf_sched_overutilized, false, err, errlen);
	if (rc == 0 && bpf_program__autoload(s->progs.tp_btf_sched_overutilized))
		b->feat.overutilized_tp = true;
	rc = attach_one(s->progs.raw_sched_overutilized, &s->links.raw_sched_overutilized, false, err, errlen);
	if (rc == 0 && bpf_program__autoload(s->progs.raw_sched_overutilized))
		b->feat.overutilized_tp = true;
	vlog(1, "programs attached; other CPUs' struct rq %s\n",
	     b->feat.rq_read == FS_RQ_CAST ? "loaded field by field through bpf_rdonly_cast()" :
	     b->feat.rq_read == FS_RQ_KSYM ? "loaded field by field through the runqueues ksym" :
	     "copied by cache lines (bpf_probe_read_kernel)");
	return 0;
}

int fs_live_bpf_start(struct fs_live_bpf **out, const struct fs_live_bpf_opts *o,
		      bool *noperm, char *err, size_t errlen)
{
	LIBBPF_OPTS(bpf_object_open_opts, open_opts);
	struct fs_live_bpf *b;
	struct fs_btf_facts bf;
	__u64 t0 = fs_live_boot_ns();
	struct uclamp_scan uscan = { 0 };
	struct ring_maker rings = { .b = NULL };

	g_t0 = t0;
	*out = NULL;
	*noperm = false;
	g_verbose = o->verbose;
	g_opts = *o;
	libbpf_set_print(libbpf_log);
	if (!fs_live_have_privileges(err, errlen)) {
		*noperm = true;
		return -1;
	}
	b = calloc(1, sizeof(*b));
	if (!b) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	b->rings_fd = -1;
	if (read_btf(b, o, &bf, &open_opts, noperm, err, errlen) || start_rings(b, o, &rings, err, errlen))
		goto fail;
	choose_programs(b, o, &bf, &uscan);
	choose_busyfreq(b);
	if (load_accepted(b, &open_opts, bf.tp_overutilized, noperm, err, errlen))
		goto fail;
	count_programs(b);
	if (learn_rqs(b, err, errlen) || rings_made(&rings, err, errlen))
		goto fail;
	vlog(1, "ring buffers: one per CPU, %zu bytes each (--ringbuf-size %zu over %d CPUs)\n",
	     b->ring_bytes, o->ringbuf_size, b->nr_possible);
	give_uclamp(b, &uscan);
	if (attach_programs(b, err, errlen) || check_events_run(b, err, errlen))
		goto fail;
	b->feat.startup_ns = fs_live_boot_ns() - t0;
	vlog(1, "event programs seen running: collector ready\n");
	g_t0 = 0;

	*out = b;
	return 0;
fail:
	if (uscan.started)
		pthread_join(uscan.th, NULL);
	if (rings.started)
		pthread_join(rings.th, NULL);
	fs_live_bpf_destroy(b);
	return -1;
}

__u64 fs_live_boot_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (__u64)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/*
 * The collector only wakes us when a ring fills up: drain on every timeout
 * too. Every record committed before t is read by the consume that follows,
 * so all but the last MERGE_SLACK_NS before t can leave in time order.
 */
int fs_live_bpf_poll(struct fs_live_bpf *b, int timeout_ms)
{
	int n = ring_buffer__poll(b->rb, timeout_ms);

	if (n < 0 && n != -EINTR)
		return n;
	__u64 t = fs_live_boot_ns();
	int m = ring_buffer__consume(b->rb);

	if (b->feed_rc)
		return b->feed_rc;
	if (m < 0)
		return m;
	int rc = fs_ring_merge_release(b->merge, t > MERGE_SLACK_NS ? t - MERGE_SLACK_NS : 0);

	if (rc)
		return rc;
	return n < 0 ? n : n + m;
}

void fs_live_bpf_stop(struct fs_live_bpf *b)
{
	if (b && b->skel)
		feecscope_bpf__detach(b->skel);
}

int fs_live_bpf_drain(struct fs_live_bpf *b)
{
	int m = ring_buffer__consume(b->rb);
	int rc = fs_ring_merge_flush(b->merge);

	return m < 0 ? m : rc ? rc : b->feed_rc;
}

__u64 fs_live_bpf_late_records(const struct fs_live_bpf *b)
{
	return b->merge ? fs_ring_merge_stats(b->merge)->late : 0;
}

/* Sums of every loaded program's bpf_prog_info run statistics. */
struct prog_sums {
	__u64 run_ns, run_cnt;
	__u64 misses; /* hits skipped because the program was already running on that CPU (v5.12+) */
};

static void prog_sums(struct fs_live_bpf *b, struct prog_sums *sum)
{
	struct bpf_program *prog;

	memset(sum, 0, sizeof(*sum));
	bpf_object__for_each_program(prog, b->skel->obj) {
		struct bpf_prog_info info = { 0 };
		__u32 len = sizeof(info);
		int fd = bpf_program__fd(prog);

		/* busy time at each frequency has its own figure (fs_live_bpf_busy_stats) */
		if (fd < 0 || !strncmp(bpf_program__name(prog), "busy_", 5) ||
		    bpf_obj_get_info_by_fd(fd, &info, &len))
			continue;
		sum->run_ns += info.run_time_ns;
		sum->run_cnt += info.run_cnt;
		sum->misses += info.recursion_misses;
	}
}

int fs_live_bpf_counters(struct fs_live_bpf *b, __u64 out[FS_CNT__NR])
{
	int fd = bpf_map__fd(b->skel->maps.counters);
	__u64 vals[FS_MAX_CPUS]; /* nr_possible <= FS_MAX_CPUS, checked at start */

	for (__u32 k = 0; k < FS_CNT__NR; k++) {
		out[k] = 0;
		if (bpf_map_lookup_elem(fd, &k, vals))
			continue;
		for (int c = 0; c < b->nr_possible; c++)
			out[k] += vals[c];
	}
	struct prog_sums sum;

	prog_sums(b, &sum);
	out[FS_CNT_NESTED] = sum.misses;
	return 0;
}

int fs_live_bpf_busy_maps(struct fs_live_bpf *b, int *slot_fd, int *cpu_fd)
{
	if (!b->feat.busyfreq)
		return -1;
	*slot_fd = bpf_map__fd(b->skel->maps.busy_slot);
	if (cpu_fd)
		*cpu_fd = bpf_map__fd(b->skel->maps.busy_cpu);
	return 0;
}

int fs_live_bpf_freq_map(struct fs_live_bpf *b)
{
	return b->feat.busyfreq && b->feat.freq_records ? bpf_map__fd(b->skel->maps.freq_policy) : -1;
}

int fs_live_bpf_busy_attach(struct fs_live_bpf *b, char *why, size_t whylen)
{
	struct feecscope_bpf *s = b->skel;

	if (attach_one(s->progs.busy_sched_switch, &s->links.busy_sched_switch, true, why, whylen) < 0 ||
	    attach_one(s->progs.busy_cpu_frequency, &s->links.busy_cpu_frequency, true, why, whylen) < 0) {
		bpf_link__destroy(s->links.busy_sched_switch);
		s->links.busy_sched_switch = NULL;
		fs_live_bpf_busy_off(b, why);
		return -1;
	}
	/* without it a CPU that goes offline during the run stays busy (bpf/busyfreq.bpf.c) */
	if (attach_one(s->progs.busy_cpuhp_exit, &s->links.busy_cpuhp_exit, false, why, whylen) > 0)
		vlog(0, "warning: busy time at each frequency: a CPU that goes offline counts busy "
			"until it is back\n");
	return 0;
}

void fs_live_bpf_busy_off(struct fs_live_bpf *b, const char *why)
{
	b->feat.busyfreq = false;
	b->feat.freq_records = false;
	snprintf(b->feat.busyfreq_off, sizeof(b->feat.busyfreq_off), "%s", why);
}

int fs_live_bpf_busy_stats(struct fs_live_bpf *b, __u64 *run_ns, __u64 *run_cnt)
{
	struct bpf_program *p[2] = { b->skel->progs.busy_sched_switch, b->skel->progs.busy_cpu_frequency };

	*run_ns = *run_cnt = 0;
	if (!b->feat.busyfreq)
		return -1;
	for (int i = 0; i < 2; i++) {
		struct bpf_prog_info info = { 0 };
		__u32 len = sizeof(info);

		if (bpf_obj_get_info_by_fd(bpf_program__fd(p[i]), &info, &len))
			return -1;
		*run_ns += info.run_time_ns;
		*run_cnt += info.run_cnt;
	}
	return 0;
}

const struct fs_live_features *fs_live_bpf_features(const struct fs_live_bpf *b)
{
	return &b->feat;
}

int fs_live_bpf_prog_stats(struct fs_live_bpf *b, __u64 *run_ns, __u64 *run_cnt)
{
	struct prog_sums sum;

	prog_sums(b, &sum);
	*run_ns = sum.run_ns;
	*run_cnt = sum.run_cnt;
	return 0;
}

int fs_live_bpf_self_times(struct fs_live_bpf *b, struct fs_self_quantiles *q)
{
	__u64 sum[FS_SELF_BUCKETS] = { 0 }, want[3], seen = 0;
	struct fs_self_hist *per_cpu; /* one per possible CPU, as a per-CPU map's lookup fills */
	__u32 zero = 0;
	int k = 0;

	memset(q, 0, sizeof(*q));
	if (!b->skel->rodata->self_time || !(per_cpu = calloc(b->nr_possible, sizeof(*per_cpu))))
		return -1;
	if (bpf_map_lookup_elem(bpf_map__fd(b->skel->maps.self_hist), &zero, per_cpu)) {
		free(per_cpu);
		return -1;
	}
	for (int cpu = 0; cpu < b->nr_possible; cpu++)
		for (int i = 0; i < FS_SELF_BUCKETS; i++) {
			sum[i] += per_cpu[cpu].n[i];
			q->count += per_cpu[cpu].n[i];
		}
	free(per_cpu);
	if (!q->count)
		return -1;
	/* the bucket holding the 10th, 50th and 90th percentile snapshot; its middle */
	want[0] = (q->count + 9) / 10;
	want[1] = (q->count + 1) / 2;
	want[2] = (9 * q->count + 9) / 10;
	for (int i = 0; i < FS_SELF_BUCKETS && k < 3; i++) {
		seen += sum[i];
		while (k < 3 && seen >= want[k])
			q->ns[k++] = i * FS_SELF_NS + FS_SELF_NS / 2;
	}
	return 0;
}

void fs_live_bpf_destroy(struct fs_live_bpf *b)
{
	if (!b)
		return;
	ring_buffer__free(b->rb);
	fs_ring_merge_free(b->merge);
	for (int cpu = 0; cpu < b->nr_possible; cpu++)
		if (b->ring_fd[cpu] >= 0)
			close(b->ring_fd[cpu]);
	if (b->rings_fd >= 0)
		close(b->rings_fd);
	feecscope_bpf__destroy(b->skel);
	free(b);
}
