/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Temporary output names (out_file.c) removed when a signal ends the
 * process: Ctrl-C or a kill during a replay would otherwise leave a hidden
 * ".NAME.XXXXXX.tmp" in what is often a shared directory (issue 33). At the
 * first name kept, a handler is installed for SIGHUP, SIGINT, SIGQUIT,
 * SIGTERM, SIGPIPE, SIGALRM, SIGUSR1, SIGUSR2, SIGXCPU and SIGXFSZ where
 * their action is still the default: it removes the names
 * still kept, then lets the signal end the process as before. A command
 * with handlers of its own (live ends its run on them and completes its
 * files) keeps them.
 */
#ifndef FEECSCOPE_OUT_CLEANUP_H
#define FEECSCOPE_OUT_CLEANUP_H

#include <signal.h>

/*
 * Block those signals in this thread (hold) and put the mask back
 * (release): a name created between the two and kept before the release
 * is removed by a signal that came meanwhile, delivered at the release,
 * instead of being left by one that came before it was kept.
 */
void fs_out_cleanup_hold(sigset_t *old);
void fs_out_cleanup_release(const sigset_t *old);

/*
 * Keep tmp for removal on such a signal: a handle > 0 for
 * fs_out_cleanup_drop(), 0 when it is not kept (too long, or more names than
 * a process is expected to write; each is still removed on every other path).
 */
int fs_out_cleanup_keep(const char *tmp);
/* The name is gone (renamed or removed): no longer removed on a signal. 0 is ignored. */
void fs_out_cleanup_drop(int handle);

#endif /* FEECSCOPE_OUT_CLEANUP_H */
