// SPDX-License-Identifier: GPL-2.0
/*
 * Run a command with bpf() failing as a kernel or a security policy would make
 * it fail, so tests can check what `live` says about each (tests/live/env.sh):
 *
 *   deny_bpf ERRNO [load] COMMAND [ARGS...]
 *
 * ERRNO is ENOSYS, EPERM, EACCES or EINVAL. With "load", only BPF_PROG_LOAD
 * fails, with EINVAL for every program as a verifier that rejects them all
 * would; other bpf() commands work. A seccomp filter does it (no root needed
 * beyond what the command needs).
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/bpf.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#if defined(__x86_64__)
#define ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define ARCH AUDIT_ARCH_AARCH64
#else
#error "deny_bpf: unknown architecture"
#endif

int main(int argc, char **argv)
{
	int err, only_load = argc > 2 && !strcmp(argv[2], "load");

	if (argc < 3 + only_load) {
		fprintf(stderr, "usage: deny_bpf ENOSYS|EPERM|EACCES|EINVAL [load] COMMAND [ARGS...]\n");
		return 2;
	}
	err = !strcmp(argv[1], "ENOSYS") ? ENOSYS : !strcmp(argv[1], "EPERM") ? EPERM :
	      !strcmp(argv[1], "EACCES") ? EACCES : !strcmp(argv[1], "EINVAL") ? EINVAL : 0;
	if (!err) {
		fprintf(stderr, "deny_bpf: unknown errno '%s'\n", argv[1]);
		return 2;
	}
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_bpf, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		/* with "load": only BPF_PROG_LOAD (the command, args[0], low word) */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, BPF_PROG_LOAD, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, only_load ? SECCOMP_RET_ALLOW : SECCOMP_RET_ERRNO | (unsigned int)err),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (unsigned int)err),
	};
	struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]), .filter = f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
		perror("deny_bpf: seccomp");
		return 1;
	}
	execvp(argv[2 + only_load], argv + 2 + only_load);
	perror(argv[2 + only_load]);
	return 127;
}
