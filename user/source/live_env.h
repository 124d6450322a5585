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

/*
 * What the machine says about a refused fentry program: enough to tell a
 * missing permission from a kernel that will not trace functions for anyone
 * (lockdown, a missing CONFIG, a security policy). Strings are "" and ints
 * -1 where the machine did not tell.
 */
struct fs_fentry_facts {
	int err_no;          /* the load's or attach's errno, positive */
	bool capable;        /* CAP_BPF and CAP_PERFMON, or CAP_SYS_ADMIN, in CapEff */
	char lockdown[24];   /* /sys/kernel/security/lockdown's [chosen] level */
	char lsm[96];        /* /sys/kernel/security/lsm */
	char no_config[48];  /* a CONFIG_ fentry needs that /proc/config.gz lacks */
	int ftrace_errno;    /* reading tracefs's available_filter_functions: 0 or its errno */
	int traceable;       /* select_task_rq_fair listed there: 1, 0, or -1 unknown */
	bool android;
};

/* Reads the facts (securityfs mounted in a child's own mount namespace when it is not mounted). */
void fs_fentry_facts_read(struct fs_fentry_facts *f, int err_no);

/* The cause, most specific first, as one clause for "no fentry on select_task_rq_fair: ...". */
void fs_fentry_refusal(const struct fs_fentry_facts *f, char *buf, size_t len);

#endif /* FEECSCOPE_LIVE_ENV_H */
