// SPDX-License-Identifier: GPL-2.0
/*
 * The trace_dat harness's library pass (tests/fuzz/trace_dat_libs.c starts
 * it once): a plain program, built without sanitizers or coverage, that
 * reads each input with Debian's libtracecmd and libtraceevent alone, in a
 * child it forks per input, and answers whether they ended it abnormally.
 * The pass used to be a fork of the fuzzer itself, under ASan: a fresh ASan
 * child took ~25 ms of CPU an input in page faults (its allocator and shadow
 * touching new pages for the libraries' mallocs), three quarters of the
 * target's time (docs/fuzzing.md). A plain child takes a few ms.
 * Requests: a path on stdin, one read each; answers: one byte on stdout,
 * 0 (read or refused at the open), 1 (crashed, killed, over its CPU time or
 * more CPUs than Linux has), 2 (opened, the data refused by
 * tracecmd_init_data(): enum fuzz_dat_libs, tests/fuzz/trace_dat_libs.h).
 * stderr is /dev/null: the libraries warn there.
 */
#include <errno.h>
#include <event-parse.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <trace-cmd.h>
#include <unistd.h>

/*
 * CPU time the libraries may take on an input: a seed takes ~1 ms here.
 * Some mutations make them loop for seconds (tracecmd_close() counting to a
 * CPU count of 2^31 read from the file, also on the way out of a failed
 * tracecmd_open_head()); the fuzzer's in-process read under ASan takes
 * several times this pass's time, so such an input is passed over as theirs.
 */
#define LIBS_CPU_MS 20
#define LIBS_SECONDS 10 /* wall time, for a library blocked rather than busy */
#define LIBS_HUGE 98    /* the child's exit on a file of more CPUs than Linux has (below) */
#define LIBS_NO_DATA 97 /* the child's exit when tracecmd_init_data() refuses the data */
/*
 * Linux's most (NR_CPUS: CONFIG_NR_CPUS_RANGE_END, arch/x86/Kconfig, v6.x).
 * libtracecmd 1.3.1's tracecmd_close() counts to the file's CPU count
 * whether or not it has their data: seconds for a mutated count of 2^31.
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

/*
 * The calls of fs_trace_dat_read_here() (user/source/trace_dat.c), in its
 * order and with its flags; the buffer instance is read whenever there is
 * one (the reader reads it only when the top buffer had no events: a
 * superset, so an input whose instance crashes them is passed over).
 */
static _Noreturn void libs_only(const char *path)
{
	struct itimerval cpu = { .it_value = { .tv_sec = LIBS_CPU_MS / 1000,
					       .tv_usec = LIBS_CPU_MS % 1000 * 1000 } };
	struct tracecmd_input *h, *b;

	alarm(LIBS_SECONDS);
	setitimer(ITIMER_PROF, &cpu, NULL);
	tracecmd_set_loglevel(TEP_LOG_NONE);
	h = tracecmd_open_head(path, TRACECMD_FL_LOAD_NO_PLUGINS | TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	if (!h)
		_exit(0); /* refused, not crashed: the reader says so in-process */
	if (tracecmd_init_data(h) < 0)
		_exit(LIBS_NO_DATA);
	tracecmd_iterate_events(h, NULL, 0, each_record, NULL);
	if (tracecmd_buffer_instances(h) > 0 && (b = tracecmd_buffer_instance_handle(h, 0))) {
		tracecmd_iterate_events(b, NULL, 0, each_record, NULL);
		tracecmd_close(b);
	}
	if (tracecmd_cpus(h) > LIBS_CPUS_MAX)
		_exit(LIBS_HUGE);
	tracecmd_close(h);
	_exit(0);
}

/* The answer for path: 0 read or refused, 1 a fault, 2 its data refused (above). */
static char run_libs(const char *path)
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
	if (WIFEXITED(status) && WEXITSTATUS(status) == LIBS_NO_DATA)
		return 2;
	return !WIFEXITED(status) || WEXITSTATUS(status) != 0;
}

int main(void)
{
	char path[256];
	ssize_t n;

	signal(SIGINT, SIG_IGN); /* a ^C is the fuzzer's to handle; this ends when stdin closes */
	prctl(PR_SET_PDEATHSIG, SIGKILL); /* or when the fuzzer is killed */
	for (;;) {
		char r;

		while ((n = read(0, path, sizeof(path) - 1)) < 0 && errno == EINTR)
			;
		if (n <= 0)
			return 0;
		path[n] = '\0';
		r = run_libs(path);
		while ((n = write(1, &r, 1)) < 0 && errno == EINTR)
			;
		if (n != 1)
			return 0;
	}
}
