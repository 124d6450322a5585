// SPDX-License-Identifier: GPL-2.0
/*
 * The trace_dat harness's guard (trace_dat_libs.h). Debian's libtraceevent
 * and libtracecmd crash on some malformed files (tests/fuzz/trace_dat/
 * library-crashes); an input they crash on is theirs and is passed over.
 * The product's guard (user/source/trace_dat_guard.c) starts our binary
 * again for every file, which under ASan and libFuzzer cost ~70 ms of CPU
 * an input (docs/fuzzing.md), and runs our decoder in that child too, so a
 * fault of ours there looked like the libraries' and was passed over. Here
 * a fork runs the libraries' calls alone: whatever ends it abnormally is
 * theirs, and our decoder runs only in the fuzzer's process, in view of
 * the sanitizers.
 */
#include "trace_dat_libs.h"
#include "fuzz.h"

#ifndef FS_HAVE_TRACECMD
bool fuzz_trace_dat_libs_crash(const char *path)
{
	(void)path;
	return false;
}
#else
#include <errno.h>
#include <event-parse.h>
#include <string.h>
#include <fcntl.h>
#include <signal.h>
#include <sanitizer/common_interface_defs.h>
#include <sys/prctl.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <trace-cmd.h>
#include <unistd.h>

/*
 * CPU time the libraries may take on an input: a seed takes ~10 ms. Some
 * mutations make them loop for seconds (tracecmd_close() counting to a CPU
 * count of 2^31 read from the file, also on the way out of a failed
 * tracecmd_open_head()), once here and again in the fuzzer's process (a
 * 10 s slow unit under load); passed over as theirs.
 */
#define LIBS_CPU_MS 100
#define LIBS_SECONDS 10 /* wall time, for a library blocked rather than busy */
#define LIBS_FAULT 97   /* the child's exit when the sanitizer reports a fault in the libraries */
#define LIBS_HUGE 98    /* the child's exit on a file of more CPUs than Linux has (below) */
/*
 * Linux's most (NR_CPUS: CONFIG_NR_CPUS_RANGE_END, arch/x86/Kconfig, v6.x).
 * libtracecmd 1.3.1's tracecmd_close() counts to the file's CPU count
 * whether or not it has their data: seconds for a mutated count of 2^31,
 * two thirds of the fuzzer's time in one profile (docs/fuzzing.md).
 */
#define LIBS_CPUS_MAX 8192
/* exported by libtracecmd 1.3.1, declared only in its private header (trace-cmd-private.h) */
int tracecmd_cpus(struct tracecmd_input *handle);

/* What on_record() in user/source/trace_dat.c asks of the libraries for each record. */
static int each_record(struct tracecmd_input *h, struct tep_record *r, int cpu, void *data)
{
	struct tep_handle *tep = tracecmd_get_tep(h);
	int pid = tep_data_pid(tep, r);

	(void)cpu, (void)data;
	(void)tep_find_event(tep, tep_data_type(tep, r));
	(void)tep_data_comm_from_pid(tep, pid);
	return 0;
}

static void die_quiet(void)
{
	_exit(LIBS_FAULT); /* not libFuzzer's death callback: it would keep the input as our crash */
}

/*
 * The calls of fs_trace_dat_read_here() (user/source/trace_dat.c), in its
 * order and with its flags; the buffer instance is read whenever there is
 * one (the reader reads it only when the top buffer had no events: a
 * superset, so an input whose instance crashes them is passed over).
 */
static _Noreturn void libs_only(const char *path)
{
	static const int sigs[] = { SIGSEGV, SIGFPE, SIGBUS, SIGILL, SIGABRT, SIGALRM, SIGPROF };
	struct itimerval cpu = { .it_value = { .tv_sec = LIBS_CPU_MS / 1000, .tv_usec = LIBS_CPU_MS % 1000 * 1000 } };
	struct tracecmd_input *h, *b;

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], SIG_DFL); /* the sanitizer's and libFuzzer's handlers are the parent's */
	__sanitizer_set_death_callback(die_quiet);
	alarm(LIBS_SECONDS);
	setitimer(ITIMER_PROF, &cpu, NULL);
	tracecmd_set_loglevel(TEP_LOG_NONE);
	h = tracecmd_open_head(path, TRACECMD_FL_LOAD_NO_PLUGINS | TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	if (!h || tracecmd_init_data(h) < 0)
		_exit(0); /* refused, not crashed: the reader says so in-process */
	tracecmd_iterate_events(h, NULL, 0, each_record, NULL);
	if (tracecmd_buffer_instances(h) > 0 && (b = tracecmd_buffer_instance_handle(h, 0))) {
		tracecmd_iterate_events(b, NULL, 0, each_record, NULL);
		tracecmd_close(b);
	}
	if (tracecmd_cpus(h) > LIBS_CPUS_MAX)
		_exit(LIBS_HUGE);
	tracecmd_close(h);
	_exit(0); /* no exit-time leak check: the libraries' leaks are theirs */
}

/* 0 if the libraries read path in a fork of this process without fault, else 1. */
static int run_libs(const char *path)
{
	pid_t pid = fork();
	int status;

	if (pid == 0)
		libs_only(path);
	if (pid < 0)
		return 1;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 1;
	return !WIFEXITED(status) || WEXITSTATUS(status) != 0;
}

/*
 * The fork server: a copy of the fuzzer made on the first input, small and
 * never written to again, forks the child for each input. Forking the
 * fuzzer itself copied its page tables for every input and made each page
 * it wrote next a copy-on-write fault (70 ms of CPU an input, docs/fuzzing.md).
 * It gets a path on req, answers a byte on ans, ends when req closes.
 */
static _Noreturn void server(int req, int ans)
{
	char path[256];
	ssize_t n;

	signal(SIGINT, SIG_IGN); /* a ^C is the fuzzer's to handle; this ends when it does */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	for (;;) {
		char r;

		while ((n = read(req, path, sizeof(path) - 1)) < 0 && errno == EINTR)
			;
		if (n <= 0)
			break;
		path[n] = '\0';
		r = (char)run_libs(path);
		while ((n = write(ans, &r, 1)) < 0 && errno == EINTR)
			;
		if (n != 1)
			break;
	}
	_exit(0);
}

bool fuzz_trace_dat_libs_crash(const char *path)
{
	static int req = -1, ans = -1;
	size_t len = strlen(path);
	ssize_t n;
	char r;

	FUZZ_CHECK(len < 256, "path '%s' too long", path);
	if (req < 0) {
		int a[2], b[2];
		pid_t pid;

		FUZZ_CHECK(!pipe2(a, O_CLOEXEC) && !pipe2(b, O_CLOEXEC), "pipe2: %s", strerror(errno));
		pid = fork();
		FUZZ_CHECK(pid >= 0, "fork: %s", strerror(errno));
		if (pid == 0) {
			close(a[1]), close(b[0]);
			server(a[0], b[1]);
		}
		close(a[0]), close(b[1]);
		req = a[1], ans = b[0];
	}
	/* libFuzzer's SIGALRM (its -timeout watch, every timeout/2 s) interrupts a read */
	while ((n = write(req, path, len)) < 0 && errno == EINTR)
		;
	FUZZ_CHECK(n == (ssize_t)len, "to the fork server: %s", strerror(errno));
	while ((n = read(ans, &r, 1)) < 0 && errno == EINTR)
		;
	FUZZ_CHECK(n == 1, "from the fork server: %s", n ? strerror(errno) : "it ended");
	return r != 0;
}
#endif /* FS_HAVE_TRACECMD */
