// SPDX-License-Identifier: GPL-2.0
/* feecscope command line: one subcommand per job, each in user/cmd_<name>.c. */
#include <stdio.h>
#include <string.h>
#include "commands.h"

/* Weak so a build without the BPF side (no bpf/ sources) still links; main says what is missing. */
#pragma weak fs_cmd_live

static const struct {
	const char *name;
	int (*fn)(int, char **);
	const char *what;
} cmds[] = {
	{ "live", fs_cmd_live, "observe this machine's wake-ups and compare feec policies live (root)" },
	{ "replay", fs_cmd_replay, "replay a recording or CSV of wake-ups through the policies" },
	{ "report", fs_cmd_report, "many recordings' verdicts: per recording, per device and kernel, combined" },
	{ "em", fs_cmd_em, "print, check or save an Energy Model (debugfs, a saved file or a built-in profile)" },
	{ "policies", fs_cmd_policies, "list the feec policies and the kernel versions each follows" },
};

static void usage(FILE *out)
{
	fprintf(out, "usage: feecscope COMMAND [options]   (feecscope COMMAND --help for its options)\n\n");
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(out, "  %-9s %s\n", cmds[i].name, cmds[i].what);
	fprintf(out, "\nExit codes: 0 ok, 1 failure (the message names the file and field), 2 usage, 3 missing privileges.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return FS_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return FS_EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		if (strcmp(argv[1], cmds[i].name))
			continue;
		if (!cmds[i].fn) {
			fprintf(stderr, "feecscope: '%s' is not in this build (it was built without the BPF collector)\n",
				cmds[i].name);
			return FS_EXIT_FAIL;
		}
		return cmds[i].fn(argc - 1, argv + 1);
	}
	fprintf(stderr, "feecscope: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return FS_EXIT_USAGE;
}
