// SPDX-License-Identifier: GPL-2.0
/* Telling a refusing environment from a rejecting verifier (source/live_env.c). */
#include <errno.h>
#include "test.h"
#include "source/live_env.h"

/* EACCES and EPERM without a verifier log: SELinux, lockdown and the like (exit 3). */
FS_TEST(load_error_without_a_verifier_log_blames_the_environment)
{
	char err[512];

	EXPECT_EQ(fs_bpf_load_error(EACCES, false, err, sizeof(err)), -2);
	EXPECT_CONTAINS(err, "security module denied bpf() (EACCES");
	EXPECT_EQ(fs_bpf_load_error(EPERM, false, err, sizeof(err)), -2);
	EXPECT_CONTAINS(err, "(EPERM)");
}

/* The verifier answers EACCES for most rejections ("unbounded memory access"): not SELinux. */
FS_TEST(load_error_with_a_verifier_log_blames_the_verifier)
{
	char err[512];

	EXPECT_EQ(fs_bpf_load_error(EACCES, true, err, sizeof(err)), -1);
	EXPECT_CONTAINS(err, "verifier rejected the BPF programs (Permission denied)");
	EXPECT_TRUE(!strstr(err, "security module"));
	EXPECT_EQ(fs_bpf_load_error(EINVAL, false, err, sizeof(err)), -1);
	EXPECT_CONTAINS(err, "verifier rejected");
}

static struct fs_fentry_facts facts(int err_no)
{
	struct fs_fentry_facts f = { .err_no = err_no, .capable = true, .ftrace_errno = 0, .traceable = 1 };

	snprintf(f.lockdown, sizeof(f.lockdown), "none");
	return f;
}

/* EPERM to a process without CAP_BPF/CAP_PERFMON is a permission; Android's advice on Android only. */
FS_TEST(fentry_refusal_without_capabilities_is_a_permission)
{
	struct fs_fentry_facts f = facts(EPERM);
	char buf[256];

	f.capable = false;
	fs_fentry_refusal(&f, buf, sizeof(buf));
	EXPECT_CONTAINS(buf, "no permission");
	EXPECT_CONTAINS(buf, "CAP_BPF and CAP_PERFMON");
	EXPECT_TRUE(!strstr(buf, "userdebug"));
	f.android = true;
	fs_fentry_refusal(&f, buf, sizeof(buf));
	EXPECT_CONTAINS(buf, "userdebug");
}

/* EPERM while capable: lockdown, a config, an untraceable function, or a policy; never "permission" alone. */
FS_TEST(fentry_refusal_while_capable_names_the_kernel_cause)
{
	struct fs_fentry_facts f = facts(EPERM);
	char buf[256];

	snprintf(f.lockdown, sizeof(f.lockdown), "confidentiality");
	fs_fentry_refusal(&f, buf, sizeof(buf));
	EXPECT_CONTAINS(buf, "kernel lockdown (confidentiality");
	f = facts(EPERM);
	snprintf(f.no_config, sizeof(f.no_config), "CONFIG_FUNCTION_TRACER");
	fs_fentry_refusal(&f, buf, sizeof(buf));
	EXPECT_CONTAINS(buf, "built without CONFIG_FUNCTION_TRACER");
	f = facts(EPERM);
	f.traceable = 0;
	fs_fentry_refusal(&f, buf, sizeof(buf));
	EXPECT_CONTAINS(buf, "not traceable");
	f = facts(EPERM);
	f.ftrace_errno = EPERM;
	fs_fentry_refusal(&f, buf, sizeof(buf));
	EXPECT_CONTAINS(buf, "refuses function tracing even to root");
	EXPECT_CONTAINS(buf, "not a permission");
	f = facts(EPERM);
	snprintf(f.lockdown, sizeof(f.lockdown), "integrity");
	snprintf(f.lsm, sizeof(f.lsm), "lockdown,capability,bpf");
	fs_fentry_refusal(&f, buf, sizeof(buf));
	EXPECT_CONTAINS(buf, "EPERM though root: a security policy, not a permission (lockdown integrity, "
			"LSMs lockdown,capability,bpf)");
	EXPECT_TRUE(!strstr(buf, "userdebug"));
}

/* ENOTSUPP (524) at attach: not supported here; SELinux named on Android. */
FS_TEST(fentry_refusal_unsupported_and_selinux)
{
	struct fs_fentry_facts f = facts(524);
	char buf[256];

	fs_fentry_refusal(&f, buf, sizeof(buf));
	EXPECT_CONTAINS(buf, "not supported by this kernel");
	f = facts(EACCES);
	f.android = true;
	snprintf(f.lsm, sizeof(f.lsm), "capability,selinux");
	fs_fentry_refusal(&f, buf, sizeof(buf));
	EXPECT_CONTAINS(buf, "SELinux denied it");
	EXPECT_CONTAINS(buf, "setenforce 0");
}
