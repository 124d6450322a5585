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
