// SPDX-License-Identifier: GPL-2.0
/*
 * Temporary output names removed when a signal ends the process
 * (out_cleanup.h). The handler only reads slots that were written in full
 * before they were marked in use, and a slot is never reused, so a handler
 * running on any thread (the gzip compressors' too) never reads a name being
 * written; unlink(), getpid(), sigaction() and raise() are async-signal-safe.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>
#include "out_cleanup.h"

/* A run writes a handful of outputs; names past these are still removed on every other path. */
#define SLOTS 32

enum { FREE, KEPT, DROPPED };

static char names[SLOTS][PATH_MAX];
static atomic_int state[SLOTS];
static atomic_int taken;
static atomic_bool installed;
static pid_t owner; /* a forked child (live_env.c's probe) inherits the handler, not the files */

/*
 * Every signal whose default action ends the process and that another
 * process or the terminal sends, or the kernel on a limit while writing:
 * Ctrl-\ (SIGQUIT), an alarm left by whoever exec'd us, ulimit -t and -f
 * (SIGXCPU, SIGXFSZ). Not the faults (SIGSEGV...): a crash leaves its names.
 */
static const int fatal[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGALRM,
			     SIGUSR1, SIGUSR2, SIGXCPU, SIGXFSZ };

static void on_fatal(int sig)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	int saved = errno;

	if (getpid() == owner)
		for (int i = 0; i < SLOTS; i++)
			if (atomic_load(&state[i]) == KEPT)
				unlink(names[i]);
	/* The signal's own action now: the process ends as it would have without us. */
	sigemptyset(&dfl.sa_mask);
	sigaction(sig, &dfl, NULL);
	raise(sig); /* blocked in this handler: delivered on return */
	errno = saved;
}

/* Only where the action is the default: an ignored signal stays ignored, a command's handler stays. */
static void install(void)
{
	if (atomic_exchange(&installed, true))
		return;
	owner = getpid();
	for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++) {
		struct sigaction old, sa = { .sa_handler = on_fatal };

		sigemptyset(&sa.sa_mask);
		for (size_t j = 0; j < sizeof(fatal) / sizeof(fatal[0]); j++)
			sigaddset(&sa.sa_mask, fatal[j]);
		if (!sigaction(fatal[i], NULL, &old) && !(old.sa_flags & SA_SIGINFO) &&
		    old.sa_handler == SIG_DFL)
			sigaction(fatal[i], &sa, NULL);
	}
}

void fs_out_cleanup_hold(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		sigaddset(&set, fatal[i]);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

void fs_out_cleanup_release(const sigset_t *old)
{
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

int fs_out_cleanup_keep(const char *tmp)
{
	int i;

	/* the load first: a process opening outputs without end (a fuzzer) never wraps taken */
	if (strlen(tmp) >= PATH_MAX || atomic_load(&taken) >= SLOTS || (i = atomic_fetch_add(&taken, 1)) >= SLOTS)
		return 0;
	memcpy(names[i], tmp, strlen(tmp) + 1);
	install();
	atomic_store(&state[i], KEPT);
	return i + 1;
}

void fs_out_cleanup_drop(int handle)
{
	if (handle > 0 && handle <= SLOTS)
		atomic_store(&state[handle - 1], DROPPED);
}
