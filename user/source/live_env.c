// SPDX-License-Identifier: GPL-2.0
/* Telling the reasons bpf() fails apart (live_env.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <sys/syscall.h>
#include "live_env.h"

#define ANDROID_HINT "on Android: `adb root` on a userdebug or eng build"

/* The environment's refusals, by errno; NULL for the others. */
static const char *refusal(int err_no)
{
	switch (err_no) {
	case ENOSYS:
		return "this kernel has no bpf() system call (built without CONFIG_BPF_SYSCALL, or a seccomp "
		       "filter hides it), so `live` cannot run here: record on a kernel with BPF, or replay a "
		       "recording";
	case EPERM:
		return "the kernel refused bpf() (EPERM) although feecscope has root or CAP_BPF: kernel "
		       "lockdown, a seccomp filter or a container forbids it, or the memlock limit is too low "
		       "(kernels before 5.11: `ulimit -l unlimited`); " ANDROID_HINT;
	case EACCES:
		return "a security module denied bpf() (EACCES: SELinux, AppArmor); " ANDROID_HINT
		       ", or `setenforce 0` there";
	}
	return NULL;
}

int fs_bpf_env_check(char *err, size_t errlen)
{
	union bpf_attr attr;

	/* An empty program of no type: EINVAL where bpf() works, else the reason it does not. */
	memset(&attr, 0, sizeof(attr));
	long fd = syscall(__NR_bpf, BPF_PROG_LOAD, &attr, sizeof(attr));

	if (fd >= 0)
		close((int)fd);
	if (fd >= 0 || !refusal(errno))
		return 0;
	snprintf(err, errlen, "%s", refusal(errno));
	return -1;
}

int fs_bpf_load_error(int err_no, bool verifier_log, char *err, size_t errlen)
{
	/* the verifier returns EACCES (and EPERM) for programs it rejects: its log tells them apart */
	if (!verifier_log && refusal(err_no)) {
		snprintf(err, errlen, "loading the BPF programs: %s", refusal(err_no));
		return -2;
	}
	snprintf(err, errlen, "the kernel's verifier rejected the BPF programs (%s): run with -vvv for its "
		 "log, and report it with the output of `feecscope version` and `uname -r`", strerror(err_no));
	return -1;
}
