// SPDX-License-Identifier: GPL-2.0
/* `feecscope version`: what this binary is, for bug reports and for matching a recording to its build. */
#include <stdio.h>
#include "commands.h"
#include "records/version.h"

/* Written by the Makefile (git describe, the BPF object's hash); absent in other builds. */
#if defined(__has_include)
#if __has_include("build_info.h")
#include "build_info.h"
#endif
#endif
#ifndef FS_GIT_DESCRIBE
#define FS_GIT_DESCRIBE "unknown"
#endif
#ifndef FS_BPF_SHA256
#define FS_BPF_SHA256 ""
#endif
#ifndef FS_BUILD_STATIC
#define FS_BUILD_STATIC 0
#endif

#if defined(__x86_64__)
#define FS_BUILD_ARCH "x86_64"
#elif defined(__aarch64__)
#define FS_BUILD_ARCH "aarch64"
#else
#define FS_BUILD_ARCH "unknown"
#endif

int fs_cmd_version(int argc, char **argv)
{
	if (argc > 1)
		return fs_cli_usage("version", "unexpected argument '%s'", argv[1]);
	printf("feecscope %s\n", FS_VERSION_STRING);
	printf("git:        %s\n", FS_GIT_DESCRIBE);
	if (FS_BPF_SHA256[0])
		printf("bpf object: sha256 %s\n", FS_BPF_SHA256);
	else
		printf("bpf object: none (built without the BPF collector: no `live`)\n");
	printf("arch:       %s%s\n", FS_BUILD_ARCH, FS_BUILD_STATIC ? ", static" : "");
	return FS_EXIT_OK;
}
