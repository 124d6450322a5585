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

static const struct fs_opt version_opts[] = {
	FS_OPT_HELP,
	{ 0 }
};

static const struct fs_opt *const version_sets[] = { version_opts, NULL };

static const struct fs_cli_page version_page = {
	.name = "version",
	.summary = "version, git commit, BPF object hash, build architecture",
	.synopsis = "[--help]",
	.description =
"Prints what this binary is, one item a line: the feecscope version (also the "
"one written into recordings), `git describe` of the tree it was built from, "
"the sha256 of the BPF object built into it (or that it has none: then `live` "
"is not available), and the architecture it was built for, with \", static\" "
"for a static build. Give it with a bug report or to match a recording to its "
"build. `feecscope --version` and `feecscope -V` are the same.",
	.sets = version_sets,
	.examples = " feecscope version\n adb shell /data/local/tmp/feecscope version",
};

int fs_cmd_version(int argc, char **argv)
{
	struct fs_cli cli = { .cmd = "version", .sets = version_sets };
	int opt;

	while ((opt = fs_cli_next(&cli, argc, argv)) != -1) {
		if (opt != 'h')
			return FS_EXIT_USAGE;
		fs_cli_help(stdout, &version_page);
		return FS_EXIT_OK;
	}
	if (optind < argc)
		return fs_cli_usage(cli.cmd, "unexpected argument '%s'", argv[optind]);
	printf("feecscope %s\n", FS_VERSION_STRING);
	printf("git:        %s\n", FS_GIT_DESCRIBE);
	if (FS_BPF_SHA256[0])
		printf("bpf object: sha256 %s\n", FS_BPF_SHA256);
	else
		printf("bpf object: none (built without the BPF collector: no `live`)\n");
	printf("arch:       %s%s\n", FS_BUILD_ARCH, FS_BUILD_STATIC ? ", static" : "");
	return FS_EXIT_OK;
}
