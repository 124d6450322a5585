// SPDX-License-Identifier: GPL-2.0
/* Telling the reasons bpf() and fentry fail apart (live_env.h). */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <linux/bpf.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "live_env.h"
#include "em/android.h"
#include "em/kernel_fs.h"

#define ANDROID_HINT "on Android: `adb root` on a userdebug or eng build"

/* The environment's refusals, by errno; NULL for the others. Android's advice is added on Android only. */
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
		       "(kernels before 5.11: `ulimit -l unlimited`)";
	case EACCES:
		return "a security module denied bpf() (EACCES: SELinux, AppArmor)";
	}
	return NULL;
}

static void refusal_text(int err_no, const char *pre, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s%s%s%s", pre, refusal(err_no), fs_on_android() ? "; " ANDROID_HINT : "",
		 fs_on_android() && err_no == EACCES ? ", or `setenforce 0` there" : "");
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
	refusal_text(errno, "", err, errlen);
	return -1;
}

int fs_bpf_load_error(int err_no, bool verifier_log, char *err, size_t errlen)
{
	/* the verifier returns EACCES (and EPERM) for programs it rejects: its log tells them apart */
	if (!verifier_log && refusal(err_no)) {
		refusal_text(err_no, "loading the BPF programs: ", err, errlen);
		return -2;
	}
	snprintf(err, errlen, "the kernel's verifier rejected the BPF programs (%s): run with -vvv for its "
		 "log, and report it with the output of `feecscope version` and `uname -r`", strerror(err_no));
	return -1;
}

/* CAP_BPF and CAP_PERFMON (v5.8+), or CAP_SYS_ADMIN, in this process's effective set. */
static bool caps_enough(void)
{
	unsigned long long eff = 0;
	char line[128];
	bool found = false;
	FILE *f = fopen("/proc/self/status", "r");

	while (f && !found && fgets(line, sizeof(line), f))
		found = sscanf(line, "CapEff: %llx", &eff) == 1;
	if (f)
		fclose(f);
	if (!found)
		return geteuid() == 0;
	return (eff >> 21 & 1) || ((eff >> 38 & 1) && (eff >> 39 & 1));
}

/* The first line of a small file, without its newline; "" when unreadable. */
static void first_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (f && fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = '\0';
	if (f)
		fclose(f);
}

/* "none [integrity] confidentiality" -> "integrity" */
static void lockdown_level(const char *line, char *out, size_t len)
{
	const char *a = strchr(line, '['), *b = a ? strchr(a, ']') : NULL;

	out[0] = '\0';
	if (a && b && (size_t)(b - a) < len)
		snprintf(out, len, "%.*s", (int)(b - a - 1), a + 1);
}

/*
 * securityfs is often not mounted (no /sys/kernel/security/lockdown): a
 * child mounts it in a mount namespace of its own, which goes with it, and
 * hands the two files back through a pipe. Only system calls in the child:
 * the parent may have threads.
 */
static void security_files(char *lockdown, size_t llen, char *lsm, size_t slen)
{
	char raw[256] = "";
	int p[2];

	first_line("/sys/kernel/security/lockdown", raw, sizeof(raw));
	first_line("/sys/kernel/security/lsm", lsm, slen);
	if (!raw[0] && pipe(p) == 0) {
		pid_t pid = fork();

		if (pid == 0) {
			close(p[0]);
			if (!unshare(CLONE_NEWNS) && !mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) &&
			    !mount("securityfs", "/sys/kernel/security", "securityfs", 0, NULL)) {
				const char *files[2] = { "/sys/kernel/security/lockdown", "/sys/kernel/security/lsm" };

				for (int i = 0; i < 2; i++) {
					char b[200];
					int fd = open(files[i], O_RDONLY);
					ssize_t n = fd >= 0 ? read(fd, b, sizeof(b) - 1) : 0;

					if (n <= 0 || b[n - 1] != '\n')
						b[n > 0 ? n : 0] = '\n', n = n > 0 ? n + 1 : 1;
					if (write(p[1], b, (size_t)n) < 0)
						break;
				}
			}
			_exit(0);
		}
		close(p[1]);
		if (pid > 0) {
			FILE *f = fdopen(p[0], "r");
			char l2[200] = "";

			if (f && fgets(raw, sizeof(raw), f) && fgets(l2, sizeof(l2), f) && !lsm[0])
				snprintf(lsm, slen, "%.*s", (int)strcspn(l2, "\n"), l2);
			if (f)
				fclose(f);
			else
				close(p[0]);
			waitpid(pid, NULL, 0);
		} else {
			close(p[0]);
		}
	}
	lockdown_level(raw, lockdown, llen);
}

/* The first CONFIG_ fentry needs that the kernel's config says is not set; "" if all are or no config. */
static void missing_config(char *out, size_t len)
{
	static const char *const need[] = { "CONFIG_BPF_JIT", "CONFIG_FUNCTION_TRACER",
#ifdef __aarch64__
		"CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS", /* arm64's BPF trampolines (v6.4+) */
#endif
	};
	bool seen[sizeof(need) / sizeof(need[0])] = { false };
	gzFile g = gzopen("/proc/config.gz", "rb");
	char line[256];

	out[0] = '\0';
	if (!g)
		return;
	while (gzgets(g, line, sizeof(line)))
		for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++) {
			size_t n = strlen(need[i]);

			seen[i] |= !strncmp(line, need[i], n) && line[n] == '=' && line[n + 1] == 'y';
		}
	gzclose(g);
	for (size_t i = 0; i < sizeof(need) / sizeof(need[0]) && !out[0]; i++)
		if (!seen[i])
			snprintf(out, len, "%s", need[i]);
}

/* Is select_task_rq_fair in ftrace's list of traceable functions? Sets f->ftrace_errno, f->traceable. */
static void ftrace_list(struct fs_fentry_facts *f)
{
	char dir[512], err[256], path[600], line[256];
	FILE *in;

	if (fs_mounts_find(FS_PROC_MOUNTS, "tracefs", FS_TRACEFS_HOME, dir, sizeof(dir), err, sizeof(err)))
		return;
	snprintf(path, sizeof(path), "%s/available_filter_functions", dir);
	in = fopen(path, "r");
	if (!in) {
		f->ftrace_errno = errno;
		return;
	}
	f->ftrace_errno = 0;
	f->traceable = 0;
	while (fgets(line, sizeof(line), in) && !f->traceable)
		f->traceable = !strncmp(line, "select_task_rq_fair", 19) && (line[19] == '\n' || line[19] == ' ');
	fclose(in);
}

void fs_fentry_facts_read(struct fs_fentry_facts *f, int err_no)
{
	memset(f, 0, sizeof(*f));
	f->err_no = err_no;
	f->ftrace_errno = -1;
	f->traceable = -1;
	f->capable = caps_enough();
	f->android = fs_on_android();
	security_files(f->lockdown, sizeof(f->lockdown), f->lsm, sizeof(f->lsm));
	missing_config(f->no_config, sizeof(f->no_config));
	ftrace_list(f);
}

/*
 * Most specific first. Lockdown's confidentiality level takes BPF's reads of
 * kernel memory away (security/lockdown/lockdown.c, LOCKDOWN_BPF_READ_KERNEL
 * in kernel/trace/bpf_trace.c's bpf_tracing_func_proto(), v5.4+); integrity
 * leaves them. A trampoline needs the JIT and an ftrace site at the function
 * (kernel/bpf/trampoline.c, register_fentry()).
 */
void fs_fentry_refusal(const struct fs_fentry_facts *f, char *buf, size_t len)
{
	bool denied = f->err_no == EPERM || f->err_no == EACCES;

	if (denied && !f->capable)
		snprintf(buf, len, "no permission (%s): CAP_BPF and CAP_PERFMON, or root, are needed%s",
			 strerror(f->err_no), f->android ? "; " ANDROID_HINT : "");
	else if (!strcmp(f->lockdown, "confidentiality"))
		snprintf(buf, len, "kernel lockdown (confidentiality, /sys/kernel/security/lockdown) forbids "
			 "tracing the kernel, even to root");
	else if (f->no_config[0])
		snprintf(buf, len, "the kernel is built without %s", f->no_config);
	else if (f->traceable == 0)
		snprintf(buf, len, "select_task_rq_fair is not traceable in this kernel (not in "
			 "available_filter_functions: inlined or notrace)");
	else if (f->err_no == 524 || f->err_no == EOPNOTSUPP)
		snprintf(buf, len, "not supported by this kernel (no BPF trampoline here)");
	else if (f->android && (f->err_no == EACCES || strstr(f->lsm, "selinux")))
		snprintf(buf, len, "SELinux denied it (%s); " ANDROID_HINT ", or `setenforce 0` there",
			 strerror(f->err_no));
	else if (denied && (f->ftrace_errno == EPERM || f->ftrace_errno == EACCES))
		/* -v shows the errno of ftrace's list (live_bpf.c) */
		snprintf(buf, len, "the kernel refuses function tracing even to root (a security policy, "
			 "not a permission)");
	else if (denied)
		snprintf(buf, len, "%s though root: a security policy, not a permission (lockdown %s, LSMs %s)",
			 f->err_no == EPERM ? "EPERM" : "EACCES", f->lockdown[0] ? f->lockdown : "unknown",
			 f->lsm[0] ? f->lsm : "unknown");
	else
		snprintf(buf, len, "the kernel refused it (%s)", strerror(f->err_no));
}
