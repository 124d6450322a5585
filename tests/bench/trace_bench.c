// SPDX-License-Identifier: GPL-2.0
/*
 * Trace import speed (docs/traces.md, "Import speed"): events per second
 * of one thread's CPU time, the best of 3 runs, for
 *   - the ftrace text reader on a generated tracefs text of N events
 *     (8 CPUs, 256 tasks: sched_waking, sched_wakeup, sched_switch,
 *     cpu_frequency; the kernel's print formats), read from a file;
 *   - the same file into the simulation's workload (reader + builder);
 *   - a trace.dat given with --dat FILE (tests/bench/trace_import.sh
 *     captures one), read alone and into the workload; then the open alone
 *     (libtracecmd's headers: the event formats, kallsyms, cmdlines; timed
 *     as a read stopped at its first event) and the records after it.
 * Usage: trace_bench [N] | trace_bench --dat FILE [--once | --open]
 * --once reads the trace.dat once, --open stops at its first event: for
 * instruction counts (tests/bench/trace_import.sh runs them in callgrind).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include "bench_gen.h"
#include "em/em_io.h"
#include "sim/trace_workload.h"
#include "source/trace_dat.h"
#include "source/trace_text.h"

/* N events of a plausible 8-CPU trace: a wake-up (waking + wakeup) then the switch to it, and now and then a frequency. */
static int gen(const char *path, long n)
{
	FILE *f = fopen(path, "w");
	int cur[8] = { 0 };
	double ts = 1000.0;
	long i = 0;

	if (!f)
		return -1;
	fputs("# tracer: nop\n#\n", f);
	while (i < n) {
		int c = (int)rnd(8), pid = 1000 + (int)rnd(256), prev = cur[c];

		ts += 20e-6;
		fprintf(f, "          task%d-%d   [%03d] d..2. %.6f: sched_waking: comm=task%d pid=%d prio=120 "
			"target_cpu=%03d\n", prev % 100, prev, c, ts, pid % 100, pid, c);
		fprintf(f, "          task%d-%d   [%03d] d..2. %.6f: sched_wakeup: comm=task%d pid=%d prio=120 "
			"target_cpu=%03d\n", prev % 100, prev, c, ts + 1e-6, pid % 100, pid, c);
		fprintf(f, "          task%d-%d   [%03d] d..2. %.6f: sched_switch: prev_comm=task%d prev_pid=%d "
			"prev_prio=120 prev_state=S ==> next_comm=task%d next_pid=%d next_prio=120\n", prev % 100, prev,
			c, ts + 2e-6, prev % 100, prev, pid % 100, pid);
		i += 3;
		cur[c] = pid;
		if (!rnd(50)) {
			fprintf(f, "          <idle>-0       [%03d] d..1. %.6f: cpu_frequency: state=%u cpu_id=%d\n", c,
				ts + 3e-6, 576000 + rnd(10) * 100000, c);
			i++;
		}
	}
	return fclose(f);
}

/*
 * This thread's CPU time and that of the children it waited for: trace.dat
 * is read in a child process (user/source/trace_dat_guard.c), whose time is
 * the reading's.
 */
static double cpu_s(void)
{
	struct timespec t;
	struct rusage ch;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	getrusage(RUSAGE_CHILDREN, &ch);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9 + (double)ch.ru_utime.tv_sec +
	       (double)ch.ru_utime.tv_usec / 1e6 + (double)ch.ru_stime.tv_sec + (double)ch.ru_stime.tv_usec / 1e6;
}

static int count(void *ctx, const struct fs_tev *ev, char *err, size_t errlen)
{
	(void)ev, (void)err, (void)errlen;
	++*(long *)ctx;
	return 0;
}

static int stop(void *ctx, const struct fs_tev *ev, char *err, size_t errlen)
{
	(void)ctx, (void)ev;
	snprintf(err, errlen, "stop");
	return -1;
}

typedef int (*read_fn)(const char *, fs_tev_fn, void *, struct fs_trace_stats *, char *, size_t);

/* Best of 3: events/s of the reader alone, and into the workload. */
static int run(const char *what, read_fn rd, const char *path, const struct fs_em *em, struct fs_trace_stats *stp,
	       double *best_readp)
{
	double best_read = 0, best_wl = 0;
	struct fs_trace_stats st;
	char err[512];

	for (int k = 0; k < 3; k++) {
		long n = 0;
		double t0 = cpu_s();

		if (rd(path, count, &n, &st, err, sizeof(err))) {
			fprintf(stderr, "trace_bench: %s\n", err);
			return -1;
		}
		double r = (double)st.events / (cpu_s() - t0);
		best_read = r > best_read ? r : best_read;
		struct fs_trace_wl *b = fs_trace_wl_new(em, FS_SIM_DEVICE);
		struct fs_sim_workload wl;

		t0 = cpu_s();
		if (!b || rd(path, fs_trace_wl_feed_fn, b, &st, err, sizeof(err)) ||
		    fs_trace_wl_finish(b, &wl, NULL, err, sizeof(err))) {
			fprintf(stderr, "trace_bench: %s\n", err);
			return -1;
		}
		r = (double)st.events / (cpu_s() - t0);
		best_wl = r > best_wl ? r : best_wl;
		fs_sim_workload_free(&wl);
	}
	printf("%-11s %9llu events  read %5.2f M/s  into the workload %5.2f M/s\n", what,
	       (unsigned long long)st.events, best_read / 1e6, best_wl / 1e6);
	if (stp)
		*stp = st;
	if (best_readp)
		*best_readp = best_read;
	return 0;
}

/* The reader in this process, as callgrind and the open's cost need it. */
static int dat_in_process(const char *path, fs_tev_fn fn, void *ctx, struct fs_trace_stats *st, char *err,
			  size_t errlen)
{
#ifdef FS_TRACE_DAT_GUARDED
	return fs_trace_dat_read_here(path, fn, ctx, st, err, errlen);
#else
	return fs_trace_dat_read_file(path, fn, ctx, st, err, errlen);
#endif
}

/* The open alone (best of 3) and the records' rate once it is done, from the best read of run(). */
static int dat_open(const char *path, const struct fs_trace_stats *all, double best_read)
{
	double best = 1e9;
	struct fs_trace_stats st;
	char err[512];

	for (int k = 0; k < 3; k++) {
		double t0 = cpu_s();

		err[0] = '\0';
		if (!dat_in_process(path, stop, NULL, &st, err, sizeof(err)) || strcmp(err, "stop")) {
			fprintf(stderr, "trace_bench: %s\n", err);
			return -1;
		}
		double t = cpu_s() - t0;
		best = t < best ? t : best;
	}
	double whole = (double)all->events / best_read;

	printf("trace.dat   open alone %5.1f ms (%2.0f%% of the read); records after it %5.2f M/s\n",
	       best * 1e3, 100 * best / whole, whole > best ? (double)all->events / (whole - best) / 1e6 : 0);
	return 0;
}

/* --dat FILE [--once | --open] */
static int dat(int argc, char **argv, const struct fs_em *em)
{
	struct fs_trace_stats st;
	double best_read;
	char err[512];
	long n = 0;

	if (!fs_trace_dat_supported()) {
		printf("trace.dat: not in this build (no libtracecmd)\n");
		return 0;
	}
	if (argc == 4) {
		int open_only = !strcmp(argv[3], "--open");

		err[0] = '\0';
		if (dat_in_process(argv[2], open_only ? stop : count, &n, &st, err, sizeof(err)) &&
		    !(open_only && !strcmp(err, "stop"))) {
			fprintf(stderr, "trace_bench: %s\n", err);
			return 1;
		}
		return 0;
	}
	if (run("trace.dat", fs_trace_dat_read_file, argv[2], em, &st, &best_read))
		return 1;
#ifdef FS_TRACE_DAT_GUARDED
	/* the same without the child process that takes the libraries' crashes: its cost */
	if (run("  in-process", fs_trace_dat_read_here, argv[2], em, &st, &best_read))
		return 1;
#endif
	return dat_open(argv[2], &st, best_read) ? 1 : 0;
}

int main(int argc, char **argv)
{
	static struct fs_em em;
	char err[512], path[] = "/tmp/feecscope-trace-bench-XXXXXX";

	if (fs_em_load("pixel4", &em, err, sizeof(err))) {
		fprintf(stderr, "trace_bench: pixel4: %s\n", err);
		return 1;
	}
	printf("trace import, M events/s of CPU time (children included), best of 3 (pixel4)\n");
	if ((argc == 3 || (argc == 4 && (!strcmp(argv[3], "--once") || !strcmp(argv[3], "--open")))) &&
	    !strcmp(argv[1], "--dat"))
		return dat(argc, argv, &em);
	long n = argc > 1 ? atol(argv[1]) : 2000000;
	int fd = mkstemp(path);

	if (fd < 0 || close(fd) || gen(path, n)) {
		fprintf(stderr, "trace_bench: cannot write %s\n", path);
		return 1;
	}
	int rc = run("ftrace text", fs_trace_text_read_file, path, &em, NULL, NULL);

	unlink(path);
	return rc ? 1 : 0;
}
