// SPDX-License-Identifier: GPL-2.0
/* A live run: collector -> pairing -> pipeline -> view, and the orderly end (live_run.h). */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "live_run.h"
#include "source/live_env.h"
#include "source/cpufreq_pressure.h"
#include "source/live_pair.h"
#include "source/live_status.h"
#include "source/proc_stats.h"
#include "source/live_busyfreq.h"
#include "cli.h"
#include "run.h"
#include "run_opts.h"
#include "em/em_io.h"
#include "output/live_view.h"

#define PAIR_EXPIRE_NS (100ull * 1000 * 1000) /* a wake-up is placed within µs; 100 ms is generous */
#define MAX_WAIT_MS 50 /* bounds the ring-buffer fill between drains, and how long a key waits */

static volatile sig_atomic_t g_stop;

static void on_signal(int sig)
{
	(void)sig;
	g_stop = 1;
}

struct fs_live_run {
	struct fs_live_run_cfg cfg;
	struct fs_live_bpf *bpf;
	struct fs_pair *pair;
	struct fs_pipeline *pipe;
	__u32 cap[FS_MAX_CPUS];
	bool track_cpufreq;
	int feed_rc;
	char feed_err[512];
	__u64 lost_reported;
	struct fs_em em_cur; /* the kernel's EM as last read (runtime changes: check_em_update) */
	bool em_pending;     /* em_update waits for the collector's records before its time */
	struct fs_em_watch *em_watch; /* NULL when the EM is not the kernel's */
	struct fs_busy_freq *busy; /* busy time at each frequency; NULL: not collected */
	/* records completed and not yet handed to fs_run() (live_next), each at an 8-byte offset */
	unsigned char *q;
	size_t q_head, q_len, q_cap;
	enum { LIVE_RUNNING, LIVE_DRAINED, LIVE_ENDED } state;
	bool tick;           /* an interval is due once the queue is empty */
	double t0, next;
	double tick_at;      /* when the due interval was seen: the view's elapsed time */
	__u64 cnt[FS_CNT__NR];
	bool warned_lost;
	struct fs_live_view *view; /* an output of the pipeline's (it frees it); here for keys and warnings */
	/* the closed loop of the records so far, simulated on a thread behind the collector */
	struct fs_sim_job *sim_job;
	pthread_t sim_thread;
	atomic_bool sim_done;
	double sim_cost;     /* the last job's wall time, s (set by its thread) */
	double sim_next;     /* no new job before this (mono_s) */
};

/* MAJOR.MINOR of a release string ("6.12.0-13-arm64") is at least major.minor. */
static bool release_at_least(const char *release, int major, int minor)
{
	int a = 0, b = 0;

	if (sscanf(release, "%d.%d", &a, &b) != 2)
		return false;
	return a > major || (a == major && b >= minor);
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

static void update_cpufreq_pressure(struct fs_live_run *r)
{
	__u32 pr[FS_MAX_CPUS];

	fs_cpufreq_pressure(NULL, r->cap, r->cfg.nr_cpus, pr);
	fs_pair_set_cpufreq_pressure(r->pair, pr);
}

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

/*
 * A record the pairing completed (or live made itself) waits in the queue
 * for live_next(), which fs_run() feeds to the pipeline in this order.
 */
static void feed(struct fs_live_run *r, const struct fs_rec_hdr *rec)
{
	size_t at = (r->q_len + 7) & ~(size_t)7; /* the records' __u64 fields stay aligned */

	if (r->feed_rc)
		return;
	if (at + rec->size > r->q_cap) {
		size_t cap = r->q_cap ? r->q_cap : 64 * 1024;
		unsigned char *q;

		while (at + rec->size > cap)
			cap *= 2;
		q = realloc(r->q, cap);
		if (!q) {
			snprintf(r->feed_err, sizeof(r->feed_err), "out of memory");
			r->feed_rc = -1;
			return;
		}
		r->q = q;
		r->q_cap = cap;
	}
	memcpy(r->q + at, rec, rec->size);
	r->q_len = at + rec->size;
}

/* The oldest queued record, valid until the next feed(). */
static const struct fs_rec_hdr *unqueue(struct fs_live_run *r)
{
	const struct fs_rec_hdr *h;

	if (r->q_head == r->q_len) {
		r->q_head = r->q_len = 0; /* empty: the next feed starts over */
		return NULL;
	}
	h = (const void *)(r->q + r->q_head);
	r->q_head = (r->q_head + h->size + 7) & ~(size_t)7;
	if (r->q_head > r->q_len)
		r->q_head = r->q_len;
	return h;
}

/*
 * A changed EM read at time T (check_em_update) is fed just before the
 * first collector record from T on, not when it is read: wake-ups before T
 * may still be in the rings, the merge or the pairing, and replay must
 * decide them with the table they met.
 */
static struct fs_em_update em_update;

static void feed_em_update(struct fs_live_run *r)
{
	if (!r->em_pending)
		return;
	r->em_pending = false;
	feed(r, &em_update.hdr);
}

static int on_complete(void *ctx, const struct fs_rec_hdr *rec)
{
	struct fs_live_run *r = ctx;

	if (r->cfg.bpf.verbose >= 2)
		dump_record(rec);
	if (r->em_pending && rec->ts_ns >= em_update.hdr.ts_ns)
		feed_em_update(r);
	feed(r, rec);
	return 0;
}

static int on_ring_record(void *ctx, const void *data, size_t size)
{
	struct fs_live_run *r = ctx;
	const struct fs_lplace *e = data;

	if (r->cfg.bpf.verbose >= 2 && size == sizeof(*e) && e->hdr.type == FS_LREC_PLACE &&
	    e->kind == FS_PLACE_RUNNABLE)
		fprintf(stderr, "runnable ts=%llu pid=%d cpu=%d\n", (unsigned long long)e->hdr.ts_ns, e->pid, e->cpu);
	return fs_pair_feed(r->pair, data, size);
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
static void report_lost(struct fs_live_run *r, const __u64 *cnt)
{
	__u64 lost = cnt[FS_CNT_LOST] + cnt[FS_CNT_NESTED];

	if (lost <= r->lost_reported)
		return;
	struct fs_lost l = {
		.hdr = { .type = FS_REC_LOST, .size = sizeof(l), .ts_ns = fs_live_boot_ns() },
		.count = lost - r->lost_reported,
	};

	r->lost_reported = lost;
	fs_pair_feed(r->pair, &l, sizeof(l));
}

/*
 * Busy time and frequency residency: at the start, every interval (so the
 * CPU energy and the verdict's share of it are current on the screen) and
 * at the end. The pipeline keeps the first and the latest.
 */
static void feed_cpu_stats(struct fs_live_run *r)
{
	struct fs_cpustat cs;
	static struct fs_freqstat fq[FS_MAX_CPUS];
	__u64 now = fs_live_boot_ns();

	if (!fs_proc_cpustat(&cs, r->cfg.nr_cpus, now))
		feed(r, &cs.hdr);
	int n = fs_proc_freqstats(fq, FS_MAX_CPUS, now);

	for (int i = 0; i < n; i++)
		feed(r, &fq[i].hdr);
	if (!r->busy)
		return;
	static struct fs_busyfreq bq[FS_MAX_CPUS];

	n = fs_busy_freq_read(r->busy, bq, fs_live_boot_ns());
	for (int i = 0; i < n; i++)
		feed(r, &bq[i].hdr);
}

/* Busy time at each frequency from here, or one line why not (live goes on without it). */
static void busy_begin(struct fs_live_run *r, const struct fs_em *em)
{
	char why[200], line[300];

	r->busy = fs_busy_freq_start(r->bpf, em, r->cfg.nr_cpus, why, sizeof(why));
	if (r->busy) { /* each policy's frequency at the start, before any change the ring brings */
		const struct fs_freq *first;
		int n = fs_busy_freq_first(r->busy, &first);

		for (int i = 0; i < n; i++)
			feed(r, &first[i].hdr);
	}
	if (r->busy && fs_busy_freq_unvisited(r->busy)) {
		snprintf(line, sizeof(line), "feecscope live: warning: busy time at each frequency: %d CPUs this "
			 "process may not run on count busy until their first context switch\n",
			 fs_busy_freq_unvisited(r->busy));
		fs_cli_wrap_lines(stderr, line); /* 80 columns */
	}
	/* a refused load said so already; an attach that failed says it here, once */
	if (!r->busy && (r->cfg.bpf.verbose || strcmp(why, "its programs are not loaded"))) {
		snprintf(line, sizeof(line), "feecscope live: %sno busy time at each frequency: %s\n",
			 r->cfg.bpf.verbose ? "" : "warning: ", why);
		fs_cli_wrap_lines(stderr, line); /* an attach error can be long: 80 columns */
	}
}

/*
 * v6.9+ EMs change at run time (em_dev_update_perf_domain(): thermal or
 * vendor drivers). The kernel's EM is read again when v6.19+ notifies a
 * change, else every interval (fs_em_watch); a changed one goes to the
 * pipeline, and so into the recording, as an FS_REC_EM in effect from the
 * time it was read (fed in time order: feed_em_update): replay switches
 * tables at the same record.
 */
static void check_em_update(struct fs_live_run *r)
{
	static struct fs_em now;
	struct fs_em_update *u = &em_update;
	char err[256];
	FILE *f;
	long n;

	if (fs_em_load(NULL, &now, err, sizeof(err)) || !fs_em_tables_differ(&r->em_cur, &now))
		return; /* unreadable for now: the last table stands */
	/* a changed table counts once read the same twice (em_settle.c); else the next interval */
	if (fs_em_settle(fs_em_read_spec, NULL, &now, FS_EM_REREADS, err, sizeof(err)))
		return;
	feed_em_update(r); /* an earlier change still waiting goes first */
	f = fmemopen(u->text, sizeof(u->text), "w");
	if (!f)
		return;
	fs_em_write(f, &now);
	n = ftell(f);
	fclose(f);
	if (n <= 0 || n >= (long)sizeof(u->text))
		return;
	u->len = (__u32)n;
	u->hdr = (struct fs_rec_hdr){ .type = FS_REC_EM, .size = (__u32)(offsetof(struct fs_em_update, text) + n),
				      .ts_ns = fs_live_boot_ns() };
	r->em_pending = true;
	r->em_cur = now;
	if (r->cfg.bpf.verbose)
		fprintf(stderr, "feecscope live: the kernel's Energy Model changed (in effect from its reading)\n");
}

/* fs_pipeline_open_tasks() callback: a task still placed, its CPU time from /proc. */
static void feed_task_time(void *ctx, __s32 pid, __s32 tgid)
{
	struct fs_live_run *r = ctx;
	struct fs_task_time tt;

	if (!fs_proc_task_time(pid, tgid, fs_live_boot_ns(), &tt))
		feed(r, &tt.hdr);
}

void fs_live_run_catch_signals(bool restart)
{
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = restart ? SA_RESTART : 0 };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);   /* the terminal went away: end like Ctrl-C */
	signal(SIGPIPE, SIG_IGN);       /* a closed stdout is a write error, not the end of the files */
}

int fs_live_run_check_env(char *err, size_t errlen)
{
	return !fs_live_have_privileges(err, errlen) || fs_bpf_env_check(err, errlen) ? -1 : 0;
}

struct fs_live_run *fs_live_run_start(const struct fs_live_run_cfg *cfg, int *exit_code, char *err,
				      size_t errlen)
{
	struct fs_live_run *r = calloc(1, sizeof(*r));
	bool env;

	*exit_code = FS_EXIT_FAIL;
	if (!r) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	r->cfg = *cfg;
	r->cfg.bpf.on_record = on_ring_record;
	r->cfg.bpf.ctx = r;
	if (fs_live_bpf_start(&r->bpf, &r->cfg.bpf, &env, err, errlen)) {
		*exit_code = env ? FS_EXIT_ENV : FS_EXIT_FAIL;
		goto fail;
	}
	const struct fs_live_features *feat = fs_live_bpf_features(r->bpf);

	if (feat->nr_cpus != cfg->nr_cpus) {
		snprintf(err, errlen, "%d possible CPUs but %d configured; not supported", feat->nr_cpus,
			 cfg->nr_cpus);
		goto fail;
	}
	read_cpu_capacities(r->cap, cfg->nr_cpus);
	r->pair = fs_pair_new(cfg->nr_cpus, PAIR_EXPIRE_NS, r->cap, on_complete, r);
	if (!r->pair) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	/* v6.10+ feec subtracts cpufreq_pressure (a capped scaling_max_freq): track it from sysfs. */
	r->track_cpufreq = release_at_least(cfg->kernel_release, 6, 10);
	if (r->track_cpufreq)
		update_cpufreq_pressure(r);
	return r;
fail:
	fs_live_run_free(r);
	return NULL;
}

/*
 * The header lines and, without a terminal, the banner: a line each for the
 * kernel, the EM, the policies ("policies [0] NAME" first: tests/lab reads
 * it) and the collector, which the view wraps at 80 columns.
 */
static void view_info(struct fs_live_run *r, const struct fs_pipeline_opts *po, struct fs_view_info *vi,
		      char *banner, size_t len)
{
	const struct fs_live_features *feat = fs_live_bpf_features(r->bpf);
	int n;

	vi->kernel_release = r->cfg.kernel_release;
	vi->interval_s = r->cfg.interval_s;
	vi->nr_status = fs_live_status_lines(feat, &r->cfg.bpf, po->em, po->emulate_eas,
					     r->em_watch ? fs_em_watch_how(r->em_watch) : NULL, vi->status,
					     FS_VIEW_MAX_STATUS);
	n = snprintf(banner, len, "feecscope live: kernel %s\n  EM %s%s\n  policies", r->cfg.kernel_release,
		     po->em->source, po->emulate_eas ? " (EAS emulated)" : "");
	for (int i = 0; i < po->nr_policies && n < (int)len; i++)
		n += snprintf(banner + n, len - n, " [%d] %s", i, po->policies[i]->name);
	for (int i = 0; i < vi->nr_status && n < (int)len; i++)
		if (!strncmp(vi->status[i], "collector: ", 11))
			n += snprintf(banner + n, len - n, "\n  collector %s", vi->status[i] + 11);
}

static void sample(struct fs_live_run *r, struct fs_view_sample *s, double elapsed, const __u64 *cnt)
{
	memset(s, 0, sizeof(*s));
	s->elapsed_s = elapsed;
	s->st = fs_pipeline_stats(r->pipe);
	s->rep = fs_pipeline_snapshot(r->pipe);
	s->have_collector = true;
	memcpy(s->cnt, cnt, sizeof(s->cnt));
	s->expired = fs_pair_stats(r->pair)->expired;
}

/*
 * The end (--duration, q, Ctrl-C, SIGTERM, a ring that cannot be read):
 * the terminal given back for the summary, the events stopped, what is in
 * flight queued.
 */
static void begin_end(struct fs_live_run *r)
{
	fs_live_view_close(r->view);
	fs_live_bpf_stop(r->bpf);
	fs_live_bpf_drain(r->bpf);
	fs_live_bpf_counters(r->bpf, r->cnt);
	report_lost(r, r->cnt);
	fs_pair_flush(r->pair);
	feed_em_update(r); /* a change read after the last record still belongs in the recording */
	r->state = LIVE_DRAINED;
}

/* An interval's readings, queued before its tick: lost records, cpufreq, CPU statistics, the EM. */
static void interval_due(struct fs_live_run *r, double now)
{
	r->next += r->cfg.interval_s;
	if (r->next < now) /* a stop (Ctrl-Z) or a slow interval: no burst of catch-up frames */
		r->next = now + r->cfg.interval_s;
	fs_live_bpf_counters(r->bpf, r->cnt);
	report_lost(r, r->cnt);
	if (r->track_cpufreq)
		update_cpufreq_pressure(r);
	feed_cpu_stats(r);
	if (r->em_watch && fs_em_watch_polls(r->em_watch))
		check_em_update(r);
	r->tick = true;
	r->tick_at = now;
}

/* One turn of the collector: keys, then a poll of the rings until the next interval (at most MAX_WAIT_MS). */
static void step(struct fs_live_run *r)
{
	struct fs_view_sample s;
	double now = mono_s();
	enum fs_view_event ev = g_stop ? FS_VIEW_NONE : fs_live_view_input(r->view);

	if (g_stop || ev == FS_VIEW_QUIT || (r->cfg.duration_s > 0 && now - r->t0 >= r->cfg.duration_s)) {
		begin_end(r);
		return;
	}
	if (ev == FS_VIEW_REDRAW) {
		sample(r, &s, now - r->t0, r->cnt);
		fs_live_view_redraw(r->view, &s);
	}
	int wait_ms = (int)((r->next - now) * 1000);

	/* a notified EM change takes effect from the record after it (within MAX_WAIT_MS) */
	if (r->em_watch && fs_em_watch_pending(r->em_watch) > 0)
		check_em_update(r);
	if (wait_ms <= 0) {
		interval_due(r, now);
		return;
	}
	int n = fs_live_bpf_poll(r->bpf, wait_ms > MAX_WAIT_MS ? MAX_WAIT_MS : wait_ms);

	if (n < 0 && n != -EINTR) {
		fs_live_view_warn(r->view, "reading the ring buffer: %s", strerror(-n));
		begin_end(r);
	}
}

/*
 * The live source (source.h): the queue first, then an interval's tick,
 * else the collector's next turn; at the end, once everything drained is
 * fed, the CPU time of every task still placed and the CPU statistics.
 */
static int live_next(void *self, const struct fs_rec_hdr **rec, char *err, size_t errlen)
{
	struct fs_live_run *r = self;

	for (;;) {
		if (r->feed_rc) {
			snprintf(err, errlen, "%s", r->feed_err);
			return -1;
		}
		if ((*rec = unqueue(r)))
			return 1;
		if (r->tick) {
			r->tick = false;
			return FS_SOURCE_TICK;
		}
		if (r->state == LIVE_ENDED)
			return 0;
		if (r->state == LIVE_DRAINED) {
			fs_pipeline_open_tasks(r->pipe, feed_task_time, r);
			feed_cpu_stats(r);
			r->state = LIVE_ENDED;
			/* -v: the final counters before the summary, so the view's verdict again stays last */
			if (r->cfg.bpf.verbose)
				fs_live_collector_report(stderr, r->bpf, &r->cfg.bpf, r->cnt, fs_pair_stats(r->pair));
			continue;
		}
		step(r);
	}
}

static void live_close(void *self)
{
	(void)self; /* fs_live_run_free() destroys the collector */
}

static const struct fs_source_ops live_ops = { .next = live_next, .close = live_close };

/*
 * The live verdict's simulation (docs/simulation.md, "Live"): a job of the
 * records since the last one on a thread of its own, so the collector never
 * waits for it; each interval publishes a finished job and starts the next.
 * A job resumes the simulation from its last state before the new records'
 * first change, so it costs about the new part, not the whole window; one
 * that must go far back (a task seen for the first time) can still take
 * long, so the next starts only after SIM_IDLE_FACTOR times the last one's
 * wall time, which keeps the simulation under 1 / (1 + SIM_IDLE_FACTOR) of
 * one core (25 %) and the verdict at most about 4 job times old.
 */
#define SIM_IDLE_FACTOR 3.0

static void *sim_thread_main(void *arg)
{
	struct fs_live_run *r = arg;
	const double t0 = mono_s();

	fs_sim_job_run(r->sim_job);
	r->sim_cost = mono_s() - t0;
	atomic_store(&r->sim_done, true);
	return NULL;
}

/* Wait for a running job (the end of the run); its answer is dropped: finish simulates it all. */
static void sim_stop_job(struct fs_live_run *r)
{
	if (!r->sim_job)
		return;
	pthread_join(r->sim_thread, NULL);
	fs_sim_job_free(r->sim_job);
	r->sim_job = NULL;
}

static void sim_interval(struct fs_live_run *r)
{
	const double now = mono_s();

	if (r->sim_job) {
		if (!atomic_load(&r->sim_done))
			return;
		pthread_join(r->sim_thread, NULL);
		fs_pipeline_sim_publish(r->pipe, r->sim_job);
		r->sim_job = NULL;
		r->sim_next = now + SIM_IDLE_FACTOR * r->sim_cost;
	}
	if (now < r->sim_next || !(r->sim_job = fs_pipeline_sim_job(r->pipe)))
		return;
	atomic_store(&r->sim_done, false);
	if (pthread_create(&r->sim_thread, NULL, sim_thread_main, r)) { /* no thread: no live answer */
		fs_sim_job_free(r->sim_job);
		r->sim_job = NULL;
		r->sim_next = now + 1e9;
	}
}

/* fs_run()'s interval hook: the files flushed, the closed loop's answer taken, the view updated. */
static int on_interval(void *ctx, struct fs_pipeline *p, char *err, size_t errlen)
{
	struct fs_live_run *r = ctx;
	struct fs_view_sample s;

	if (fs_pipeline_flush(p, err, errlen))
		return -1;
	if (r->cnt[FS_CNT_LOST] && !r->warned_lost) {
		fs_live_view_warn(r->view, "the ring buffer was full: records lost (a larger --ringbuf-size "
				  "helps)");
		r->warned_lost = true;
	}
	sim_interval(r);
	sample(r, &s, r->tick_at - r->t0, r->cnt);
	if (fs_pipeline_tick(p, &s, err, errlen))
		return -1;
	/* with the screen on the same terminal the counters would tear it: they come at the end */
	if (r->cfg.bpf.verbose && !(fs_live_view_on_screen(r->view) && isatty(STDERR_FILENO)))
		fs_live_collector_report(stderr, r->bpf, &r->cfg.bpf, r->cnt, fs_pair_stats(r->pair));
	return 0;
}

/* Before the first record: the CPU statistics the energy grows from, and the EM watch. 0 or -1 (printed). */
static int live_begin(struct fs_live_run *r, const struct fs_pipeline_opts *po)
{
	busy_begin(r, po->em);
	feed_cpu_stats(r); /* the CPU energy is the growth from here */
	r->em_cur = *po->em;
	if (!po->emulate_eas) {
		r->em_watch = fs_em_watch_new(true);
		if (!r->em_watch) {
			fs_cli_error("live", "out of memory");
			return -1;
		}
		if (r->cfg.bpf.verbose)
			fprintf(stderr, "feecscope live: EM changes: %s\n", fs_em_watch_how(r->em_watch));
		/* a change between the EM's first reading and the subscription sent nothing to us */
		if (!fs_em_watch_polls(r->em_watch))
			check_em_update(r);
	}
	return 0;
}

/*
 * A program the kernel would not run, and why (live_env.c), before the view:
 * with the news of a built-in EM, at most three lines on a first run. The
 * view's header keeps it; -v adds the collector's details.
 */
static void warn_fallback(const struct fs_live_run *r)
{
	const struct fs_live_features *f = fs_live_bpf_features(r->bpf);

	if (f->lost[0])
		fs_cli_error("live", "%s", f->lost);
}

/* The outputs when no pipeline took them (it frees them itself, even when it fails). */
static void free_outputs(const struct fs_pipeline_opts *po)
{
	for (int i = 0; i < po->nr_outputs; i++)
		po->outputs[i].ops->free(po->outputs[i].self);
}

/*
 * The view before the pipeline, which owns it as its last output: the
 * verdict it prints again at the finish comes after the summary. 0, or -1
 * (said).
 */
static int live_attach_view(struct fs_live_run *r, const struct fs_pipeline_opts *po)
{
	static struct fs_view_info vi;
	struct fs_pipeline_opts o = *po; /* the outputs pass to the pipeline with it */
	char err[512], banner[1024];

	fs_live_run_catch_signals(false); /* no SA_RESTART from here: the poll returns at once */
	view_info(r, po, &vi, banner, sizeof(banner));
	warn_fallback(r);
	r->view = fs_live_view_new(&vi, banner, r->cfg.stdout_taken ? stderr : stdout);
	if (!r->view || o.nr_outputs == FS_MAX_OUTPUTS) {
		if (r->view)
			fs_cli_error("live", "too many outputs (at most %d with the view)", FS_MAX_OUTPUTS);
		else
			fs_cli_error("live", "out of memory");
		fs_live_view_free(r->view);
		r->view = NULL;
		free_outputs(po);
		return -1;
	}
	fs_output_live_view(&o.outputs[o.nr_outputs++], r->view);
	o.sim_live = true;
	r->pipe = fs_pipeline_new(&o, err, sizeof(err));
	if (!r->pipe) { /* the view went with the outputs: the terminal is back */
		r->view = NULL;
		fs_cli_error("live", "%s", err);
		return -1;
	}
	return 0;
}

int fs_live_run(struct fs_live_run *r, const struct fs_pipeline_opts *po)
{
	struct fs_source src = { .ops = &live_ops, .self = r };
	struct fs_run_hooks hooks = { .interval = on_interval, .ctx = r, .no_finish_on_error = true };
	struct fs_run_status st;
	int rc = FS_EXIT_FAIL;

	if (live_begin(r, po)) {
		free_outputs(po);
		return FS_EXIT_FAIL;
	}
	if (live_attach_view(r, po))
		return FS_EXIT_FAIL;
	r->t0 = mono_s();
	r->next = r->t0 + r->cfg.interval_s;
	/* The summary and the files are exactly what replay of the recording gives. */
	const int run_rc = fs_run(r->pipe, &src, &hooks, &st);

	sim_stop_job(r);
	fs_live_view_close(r->view); /* the terminal back (the end did it already, unless it failed) */
	if (run_rc)
		fs_cli_error("live", "%s", st.read_rc ? st.read_err : st.finish_err);
	else
		rc = fs_run_filter_end("live", fs_pipeline_stats(r->pipe), fs_pipeline_filter(r->pipe));
	return rc;
}

void fs_live_run_free(struct fs_live_run *r)
{
	if (!r)
		return;
	sim_stop_job(r);
	fs_pipeline_free(r->pipe);
	fs_em_watch_free(r->em_watch);
	fs_pair_free(r->pair);
	fs_busy_freq_free(r->busy);
	fs_live_bpf_destroy(r->bpf);
	free(r->q);
	free(r);
}
