/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Why the kernel will not run the collector, told apart: no bpf() at all
 * (ENOSYS), bpf() refused (EPERM, EACCES: lockdown, a security module, a
 * seccomp filter, the memlock limit), or the verifier rejecting a program.
 * Each has its own message and hint; the first two are the environment
 * (exit 3), the last a failure to report (exit 1).
 */
#ifndef FEECSCOPE_LIVE_ENV_H
#define FEECSCOPE_LIVE_ENV_H

#include <stdbool.h>
#include <stddef.h>

/* One harmless bpf() call before anything is loaded: 0, or -1 with the message. */
int fs_bpf_env_check(char *err, size_t errlen);

/*
 * The message for a failed load of the BPF object (err_no as libbpf
 * returned it, positive; verifier_log: the verifier wrote a log, so it ran
 * and rejected a program): -2 when the environment refused it, -1 when the
 * verifier (or anything else) did.
 */
int fs_bpf_load_error(int err_no, bool verifier_log, char *err, size_t errlen);

#endif /* FEECSCOPE_LIVE_ENV_H */
