// SPDX-License-Identifier: GPL-2.0
/*
 * workrun: a workload runner with a device's physics for the arm64 EAS lab. Work is
 * given in work units (1 unit = 1 ns of running at capacity 1024 at the biggest
 * CPU's top OPP); a thread spins in short quanta of its own CPU time and, between
 * them, asks which CPU it is on (sched_getcpu) and that CPU's capacity and current
 * frequency (cpu_capacity, cpufreq scaling_cur_freq), so W units take
 * W x 1024/cap x fmax/f ns of CPU time wherever it runs (tests/ab/work_physics.h).
 * rt-app's `run` spins for a span of time instead, which under QEMU's -icount is the
 * same on every CPU and OPP (docs/validation.md, the lab's physics).
 *
 * usage: workrun [-v] [-n] [-d SECONDS] [-q QUANTUM_US] [-c CPU] SPEC...
 *        workrun [-v] [-n] [-d SECONDS] [-q QUANTUM_US] [-c CPU] -f FILE   (one SPEC a line, # comments)
 *   -d  how long the periodic threads run (default 10 s)
 *   -q  the quantum of CPU time between two looks at the CPU (default 100 us)
 *   -c  pin every thread to CPU (sched_setaffinity)
 *   -v  a line per activation on standard error (activation() below)
 *   -n  no credit: every activation does all it asks, whatever the last one did
 *       past its goal (the runner before its ledger; for measurements)
 * SPEC, one or more threads (work and times in us; work in us = 1000 units):
 *   once:W                  the calling thread does W once and prints what it took
 *   NAME[*N][@D]=P:W        N threads (default 1) doing W every P (periodic), the
 *                           first period D after the start (default 0)
 *   NAME[*N]=P:W/D,P:W/D..  phases, each W every P for D, repeated in turn; W = P
 *                           is a burst that saturates the fastest CPU, longer ones
 *                           anywhere slower
 *   NAME[@D]=chain:P:W1/W2/...  a wake-up chain: a tick thread (NAME-tick) every P wakes
 *                           NAME-1 through a pipe, which does W1 then wakes NAME-2,
 *                           and so on (a vsync tick, a UI, a render, a compositor)
 * A period that overruns starts the next at once (no catch-up burst). What an
 * activation does past its goal (its last quantum's clock jumped, docs/ab.md "The
 * overshoot") is a credit the thread's next activations do less by, so a thread's
 * work over the run is what it asked plus at most one overshoot.
 *
 * Output, on standard output: for once, a line
 *   once work_us W busy_ns B wall_ns T quanta Q cpu C khz F cap K migrations M freq_changes X
 * (C, F, K as sampled at the first quantum; M and X count changes seen between
 * quanta); for the others one line per thread at the end:
 *   thread NAME periods N overruns O work_us W busy_ns B asked_us A over_us X
 *          over_max_us M credit_us C jump_max_us J last_max_us L
 *          late_max_us T late_mean_us E   (one line)
 * W the work done (CPU time x rate), A what the activations asked, X their
 * overshoots past their goals summed (what the runner before the ledger did too
 * much), M the largest, C the credit left at the end (W = A + C), J the longest
 * step of the thread's CPU clock between two reads, L the longest last quantum,
 * T and E the latest and the mean wake-up after a timed sleep (CLOCK_MONOTONIC; a
 * chain's stages wake on a pipe and have none: 0).
 * Env: WORKRUN_SYSFS replaces /sys/devices/system/cpu (tests/ab/check.sh runs it on
 * the host with made-up CPUs).
 * Exit 0; 1 when the CPUs' capacity or frequency cannot be read or a thread fails;
 * 2 on bad usage.
 */
#define _GNU_SOURCE /* sched_getcpu, CPU_SET */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "work_physics.h"

#define MAX_CPUS   64
#define MAX_PHASES 16
#define MAX_STAGES 8
#define MAX_THREADS 128

struct cpu_facts {
	uint32_t cap, max_khz;
	int cur_fd; /* scaling_cur_freq, re-read with pread() */
};
static struct cpu_facts cpus[MAX_CPUS];
static int nr_cpus;
static uint64_t quantum_ns = 100000;
static int pin_cpu = -1;
static int verbose;      /* -v: a line per activation on stderr */
static int no_carry;     /* -n: each activation does all it asks (the runner before the ledger) */
static uint64_t start_ns, end_ns; /* CLOCK_MONOTONIC */

static uint64_t now(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int read_u32(const char *path, uint32_t *v)
{
	char buf[32];
	int fd = open(path, O_RDONLY), n;

	if (fd < 0)
		return -errno;
	n = (int)read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return n < 0 ? -errno : -EINVAL;
	buf[n] = 0;
	*v = (uint32_t)strtoul(buf, NULL, 10);
	return 0;
}

/* Every possible CPU's capacity and top frequency, and an open scaling_cur_freq. */
static int read_cpus(void)
{
	const char *root = getenv("WORKRUN_SYSFS") ? getenv("WORKRUN_SYSFS") : "/sys/devices/system/cpu";
	char path[512];

	for (nr_cpus = 0; nr_cpus < MAX_CPUS; nr_cpus++) {
		struct cpu_facts *c = &cpus[nr_cpus];
		int err;

		snprintf(path, sizeof(path), "%s/cpu%d/cpu_capacity", root, nr_cpus);
		if (access(path, F_OK))
			break;
		if ((err = read_u32(path, &c->cap)) < 0) {
			fprintf(stderr, "workrun: %s: %s\n", path, strerror(-err));
			return -1;
		}
		snprintf(path, sizeof(path), "%s/cpu%d/cpufreq/cpuinfo_max_freq", root, nr_cpus);
		if ((err = read_u32(path, &c->max_khz)) < 0) {
			fprintf(stderr, "workrun: %s: %s (no cpufreq policy: the runner needs one)\n", path,
				strerror(-err));
			return -1;
		}
		snprintf(path, sizeof(path), "%s/cpu%d/cpufreq/scaling_cur_freq", root, nr_cpus);
		c->cur_fd = open(path, O_RDONLY);
		if (c->cur_fd < 0) {
			fprintf(stderr, "workrun: %s: %s\n", path, strerror(errno));
			return -1;
		}
	}
	if (!nr_cpus) {
		fprintf(stderr, "workrun: %s/cpu0/cpu_capacity: no such file\n", root);
		return -1;
	}
	return 0;
}

/* The rate of the CPU this thread is on now: its capacity and current frequency
 * (never cpuinfo_cur_freq: in the lab that resets the policy to the fixed clock). */
static struct fsw_rate rate_now(int *cpu)
{
	struct fsw_rate r = { 0, 0, 0 };
	char buf[32];
	int c = sched_getcpu(), n;

	*cpu = c;
	if (c < 0 || c >= nr_cpus)
		return r;
	n = (int)pread(cpus[c].cur_fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return r;
	buf[n] = 0;
	r.cap = cpus[c].cap;
	r.khz = (uint32_t)strtoul(buf, NULL, 10);
	r.max_khz = cpus[c].max_khz;
	return r;
}

struct work_stats {
	uint64_t busy_ns, units, quanta;
	uint32_t migrations, freq_changes;
	int first_cpu;
	struct fsw_rate first;
	uint64_t jump_max, last_max; /* ns: the largest of the activations' (struct act) */
};

/* One activation's figures, for -v and the thread's end line. */
struct act {
	uint64_t done, busy, quanta;
	uint64_t last_spin, last_ns; /* the last quantum: its target and what it took */
	uint64_t jump_max;           /* the largest step of the CPU clock between two reads */
	int cpu;                     /* where it began, at what rate */
	struct fsw_rate r;
};

/*
 * Do `units` of work. Each quantum: sample the rate, spin on the thread's CPU
 * clock until the quantum's target has passed, credit all the CPU time since the
 * last quantum ended (the sampling included) at the sampled rate. The loop reads a
 * clock, never counts iterations: under -icount an instruction takes the same
 * guest time on every CPU and OPP, and only the clock-driven spin gives each its
 * speed. The clock can step far past the target between two reads (under
 * -icount, by the other vCPUs' turns): that time is credited too, and the
 * caller's ledger (fsw_settle) carries what it did past the goal.
 */
static int do_work(uint64_t units, struct work_stats *st, struct act *a)
{
	struct fsw_work w = { .left = units };
	uint64_t t0 = now(CLOCK_THREAD_CPUTIME_ID), t, prev;
	int cpu, last_cpu = -2;
	uint32_t last_khz = 0;

	while (w.left) {
		struct fsw_rate r = rate_now(&cpu);
		uint64_t spin;

		if (!r.cap || !r.khz) {
			fprintf(stderr, "workrun: CPU %d: no capacity or current frequency\n", cpu);
			return -1;
		}
		if (last_cpu == -2) {
			st->first_cpu = a->cpu = cpu;
			st->first = a->r = r;
		} else {
			st->migrations += cpu != last_cpu;
			st->freq_changes += cpu == last_cpu && r.khz != last_khz;
		}
		last_cpu = cpu;
		last_khz = r.khz;
		spin = fsw_next_spin(&w, r, quantum_ns);
		/* the sampling above is part of this quantum: the target counts from t0 */
		prev = t0;
		do {
			t = now(CLOCK_THREAD_CPUTIME_ID);
			if (t - prev > a->jump_max)
				a->jump_max = t - prev;
			prev = t;
		} while (t - t0 < spin);
		fsw_account(&w, r, t - t0);
		a->last_spin = spin;
		a->last_ns = t - t0;
		t0 = t;
	}
	a->done = w.done;
	a->busy = w.busy;
	a->quanta = w.quanta;
	st->busy_ns += w.busy;
	st->units += w.done;
	st->quanta += w.quanta;
	if (a->jump_max > st->jump_max)
		st->jump_max = a->jump_max;
	if (a->last_ns > st->last_max)
		st->last_max = a->last_ns;
	return 0;
}

struct phase {
	uint64_t period_ns, work, dur_ns; /* dur 0: for ever */
};

struct thread {
	char name[16];
	int kind; /* 'p' periodic/phases, 'c' chain stage, 't' chain tick */
	struct phase ph[MAX_PHASES];
	int nr_ph;
	uint64_t work;   /* chain stage */
	uint64_t delay_ns; /* first period this long after the start */
	int in_fd, out_fd;
	pthread_t tid;
	uint64_t periods, overruns;
	uint64_t wakes, late_sum, late_max; /* ns a timed wake-up came after its time */
	struct work_stats st;
	struct fsw_ledger led;
	int err;
};
static struct thread threads[MAX_THREADS];
static int nr_threads;

/* One activation of th asking `units`: its goal after the credit, the work, the
 * overshoot into the credit, and with -v a line (one line, here two):
 *   act NAME cpu C cap K khz F asked_us A goal_us G done_us D quanta Q
 *       last_spin_ns S last_ns L jump_max_ns J busy_ns B
 * (-n: no credit is used, each activation does all it asks: the old runner). */
static int activation(struct thread *th, uint64_t units)
{
	struct act a = { .cpu = -1 };
	uint64_t goal;

	if (no_carry)
		th->led.credit = 0;
	goal = fsw_goal(&th->led, units);
	if (do_work(goal, &th->st, &a))
		return -1;
	fsw_settle(&th->led, goal, a.done);
	if (verbose)
		fprintf(stderr, "act %s cpu %d cap %u khz %u asked_us %.3f goal_us %.3f done_us %.3f quanta %llu "
			"last_spin_ns %llu last_ns %llu jump_max_ns %llu busy_ns %llu\n", th->name, a.cpu, a.r.cap,
			a.r.khz, units / 1000.0, goal / 1000.0, a.done / 1000.0, (unsigned long long)a.quanta,
			(unsigned long long)a.last_spin, (unsigned long long)a.last_ns,
			(unsigned long long)a.jump_max, (unsigned long long)a.busy);
	return 0;
}

static void pin(void)
{
	cpu_set_t set;

	if (pin_cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(pin_cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		fprintf(stderr, "workrun: sched_setaffinity(CPU %d): %s\n", pin_cpu, strerror(errno));
}

static void sleep_until(uint64_t t)
{
	struct timespec ts = { (time_t)(t / 1000000000ull), (long)(t % 1000000000ull) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* Sleep until t, then note how late the thread came back: on a phone by microseconds,
 * in the lab also by its vCPU's wait for its turn (docs/ab.md, "Turns"). */
static void wake_at(struct thread *th, uint64_t t)
{
	uint64_t late;

	sleep_until(t);
	late = now(CLOCK_MONOTONIC);
	late = late > t ? late - t : 0;
	th->wakes++;
	th->late_sum += late;
	if (late > th->late_max)
		th->late_max = late;
}

static void *periodic(void *arg)
{
	struct thread *th = arg;
	uint64_t next = start_ns + th->delay_ns;

	prctl(PR_SET_NAME, th->name);
	pin();
	wake_at(th, next);
	for (int i = 0; next < end_ns; i = (i + 1) % th->nr_ph) {
		const struct phase *p = &th->ph[i];
		uint64_t ph_end = p->dur_ns ? next + p->dur_ns : end_ns;

		while (next < ph_end && next < end_ns) {
			if (activation(th, p->work)) {
				th->err = 1;
				return NULL;
			}
			th->periods++;
			next += p->period_ns;
			uint64_t t = now(CLOCK_MONOTONIC);
			if (next < t) {
				th->overruns++;
				next = t;
			}
			wake_at(th, next);
		}
	}
	return NULL;
}

static void *tick(void *arg)
{
	struct thread *th = arg;
	uint64_t next = start_ns + th->delay_ns;

	prctl(PR_SET_NAME, th->name);
	pin();
	wake_at(th, next);
	while (next < end_ns) {
		if (write(th->out_fd, "t", 1) != 1)
			break;
		th->periods++;
		next += th->ph[0].period_ns;
		wake_at(th, next);
	}
	close(th->out_fd); /* the stages end in turn on their end of file */
	return NULL;
}

static void *stage(void *arg)
{
	struct thread *th = arg;
	char b[64];
	ssize_t n;

	prctl(PR_SET_NAME, th->name);
	pin();
	while ((n = read(th->in_fd, b, sizeof(b))) > 0) {
		/* a tick that came while the last frame was still running is an overrun */
		th->overruns += (uint64_t)n - 1;
		if (activation(th, th->work)) {
			th->err = 1;
			break;
		}
		th->periods++;
		if (th->out_fd >= 0 && write(th->out_fd, "w", 1) != 1)
			break;
	}
	if (th->out_fd >= 0)
		close(th->out_fd);
	return NULL;
}

/* A workload file: one SPEC a line, blanks and # comments ignored. Returns the
 * count, -1 (said why) when it cannot be read. */
static int read_specs(const char *path, char **out, int max)
{
	FILE *f = fopen(path, "r");
	char line[512];
	int n = 0, ln = 0;

	if (!f) {
		fprintf(stderr, "workrun: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *e;

		ln++;
		if ((e = strchr(p, '#')))
			*e = 0;
		while (*p == ' ' || *p == '\t')
			p++;
		e = p + strlen(p);
		while (e > p && (e[-1] == '\n' || e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
			*--e = 0;
		if (!*p)
			continue;
		if (n == max || strchr(p, ' ') || strchr(p, '\t')) {
			fprintf(stderr, "workrun: %s:%d: %s\n", path, ln,
				n == max ? "too many SPECs" : "one SPEC a line, no blanks inside");
			fclose(f);
			return -1;
		}
		out[n++] = strdup(p);
	}
	fclose(f);
	out[n] = NULL;
	return n;
}

static int usage(const char *why)
{
	fprintf(stderr, "workrun: %s\nusage: workrun [-v] [-n] [-d SECONDS] [-q QUANTUM_US] [-c CPU] SPEC...\n"
		"  SPEC: once:W | NAME[*N]=P:W[/D][,P:W/D...] | NAME=chain:P:W1/W2/...\n", why);
	return 2;
}

static struct thread *new_thread(const char *name, int kind)
{
	struct thread *th;

	if (nr_threads == MAX_THREADS)
		return NULL;
	th = &threads[nr_threads++];
	snprintf(th->name, sizeof(th->name), "%.15s", name);
	th->kind = kind;
	th->in_fd = th->out_fd = -1;
	return th;
}

/* "P:W/D,P:W/D" (us) into th's phases */
static int parse_phases(struct thread *th, const char *s)
{
	char *end;

	while (*s) {
		struct phase *p;
		double per, w, d = 0;

		if (th->nr_ph == MAX_PHASES)
			return -1;
		p = &th->ph[th->nr_ph++];
		per = strtod(s, &end);
		if (end == s || *end != ':' || per <= 0)
			return -1;
		s = end + 1;
		w = strtod(s, &end);
		if (end == s || w < 0)
			return -1;
		s = end;
		if (*s == '/') {
			d = strtod(s + 1, &end);
			if (end == s + 1 || d <= 0)
				return -1;
			s = end;
		}
		p->period_ns = (uint64_t)(per * 1000);
		p->work = (uint64_t)(w * 1000);
		p->dur_ns = (uint64_t)(d * 1000);
		if (*s == ',')
			s++;
		else if (*s)
			return -1;
	}
	return th->nr_ph ? 0 : -1;
}

static int parse_chain(const char *name, const char *s)
{
	char *end, nm[32];
	double per = strtod(s, &end);
	int prev_rd = -1, i = 0;
	struct thread *t;

	if (end == s || *end != ':' || per <= 0)
		return -1;
	snprintf(nm, sizeof(nm), "%.10s-tick", name);
	if (!(t = new_thread(nm, 't')))
		return -1;
	t->ph[0].period_ns = (uint64_t)(per * 1000);
	s = end + 1;
	struct thread *up = t;
	while (*s) {
		int fds[2];
		double w = strtod(s, &end);

		if (end == s || w < 0 || i == MAX_STAGES || pipe(fds))
			return -1;
		up->out_fd = fds[1];
		prev_rd = fds[0];
		snprintf(nm, sizeof(nm), "%.12s-%d", name, ++i);
		if (!(up = new_thread(nm, 'c')))
			return -1;
		up->in_fd = prev_rd;
		up->work = (uint64_t)(w * 1000);
		s = end;
		if (*s == '/')
			s++;
		else if (*s)
			return -1;
	}
	return i ? 0 : -1;
}

int main(int argc, char **argv)
{
	double secs = 10;
	double once_us = -1;
	const char *file = NULL;
	char *fargv[MAX_THREADS + 1];
	int o, rc = 0;

	while ((o = getopt(argc, argv, "d:q:c:f:vn")) != -1) {
		switch (o) {
		case 'v': verbose = 1; break;
		case 'n': no_carry = 1; break;
		case 'f': file = optarg; break;
		case 'd': secs = atof(optarg); break;
		case 'q': quantum_ns = (uint64_t)(atof(optarg) * 1000); break;
		case 'c': pin_cpu = atoi(optarg); break;
		default: return usage("unknown option");
		}
	}
	if (file) {
		if (optind < argc)
			return usage("-f and SPECs on the command line");
		argc = read_specs(file, fargv, MAX_THREADS);
		if (argc < 0)
			return 2;
		argv = fargv;
		optind = 0;
	}
	if (optind >= argc || secs <= 0 || quantum_ns < 1000)
		return usage("no SPEC, or -d / -q out of range");
	for (int i = optind; i < argc; i++) {
		char *a = argv[i], *eq = strchr(a, '='), name[32];
		int n = 1, first = nr_threads;

		if (!strncmp(a, "once:", 5)) {
			once_us = atof(a + 5);
			if (once_us <= 0)
				return usage(a);
			continue;
		}
		if (!eq || eq == a || eq - a >= (int)sizeof(name))
			return usage(a);
		snprintf(name, sizeof(name), "%.*s", (int)(eq - a), a);
		char *at = strchr(name, '@');
		double delay_us = 0;
		if (at) {
			*at = 0;
			delay_us = atof(at + 1);
			if (delay_us < 0)
				return usage(a);
		}
		char *star = strchr(name, '*');
		if (star) {
			*star = 0;
			n = atoi(star + 1);
			if (n < 1 || n > 32)
				return usage(a);
		}
		if (!strncmp(eq + 1, "chain:", 6)) {
			if (n != 1 || parse_chain(name, eq + 7))
				return usage(a);
			for (int k = first; k < nr_threads; k++)
				threads[k].delay_ns = (uint64_t)(delay_us * 1000);
			continue;
		}
		for (int k = 0; k < n; k++) {
			char nm[32];
			struct thread *th;

			snprintf(nm, sizeof(nm), n > 1 ? "%.12s-%d" : "%.15s", name, k);
			if (!(th = new_thread(nm, 'p')) || parse_phases(th, eq + 1))
				return usage(a);
			th->delay_ns = (uint64_t)(delay_us * 1000);
		}
	}
	if (read_cpus())
		return 1;
	if (pin_cpu >= nr_cpus)
		return usage("-c: no such CPU");

	if (once_us > 0) {
		struct work_stats st = { 0 };
		struct act a = { .cpu = -1 };
		uint64_t w0;

		pin();
		w0 = now(CLOCK_MONOTONIC);
		if (do_work((uint64_t)(once_us * 1000), &st, &a))
			return 1;
		printf("once work_us %.3f busy_ns %llu wall_ns %llu quanta %llu cpu %d khz %u cap %u migrations %u freq_changes %u\n",
		       st.units / 1000.0, (unsigned long long)st.busy_ns,
		       (unsigned long long)(now(CLOCK_MONOTONIC) - w0), (unsigned long long)st.quanta,
		       st.first_cpu, st.first.khz, st.first.cap, st.migrations, st.freq_changes);
	}
	if (!nr_threads)
		return 0;
	start_ns = now(CLOCK_MONOTONIC);
	end_ns = start_ns + (uint64_t)(secs * 1e9);
	for (int i = 0; i < nr_threads; i++) {
		struct thread *th = &threads[i];
		void *(*fn)(void *) = th->kind == 'p' ? periodic : th->kind == 't' ? tick : stage;
		int err = pthread_create(&th->tid, NULL, fn, th);

		if (err) {
			fprintf(stderr, "workrun: pthread_create(%s): %s\n", th->name, strerror(err));
			return 1;
		}
	}
	for (int i = 0; i < nr_threads; i++) {
		struct thread *th = &threads[i];

		pthread_join(th->tid, NULL);
		rc |= th->err;
		printf("thread %s periods %llu overruns %llu work_us %.3f busy_ns %llu asked_us %.3f over_us %.3f "
		       "over_max_us %.3f credit_us %.3f jump_max_us %.3f last_max_us %.3f "
		       "late_max_us %.3f late_mean_us %.3f\n", th->name,
		       (unsigned long long)th->periods, (unsigned long long)th->overruns, th->st.units / 1000.0,
		       (unsigned long long)th->st.busy_ns, th->led.asked / 1000.0, th->led.over / 1000.0,
		       th->led.over_max / 1000.0, th->led.credit / 1000.0, th->st.jump_max / 1000.0,
		       th->st.last_max / 1000.0, th->late_max / 1000.0,
		       th->wakes ? th->late_sum / 1000.0 / th->wakes : 0.0);
	}
	return rc;
}
