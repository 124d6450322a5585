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
	{ "live", fs_cmd_live, "watch this machine's wake-ups and what the margin costs (root)" },
	{ "replay", fs_cmd_replay, "replay a recording or a records CSV through the policies" },
	{ "report", fs_cmd_report, "many recordings' verdicts, per device and kernel and combined" },
	{ "em", fs_cmd_em, "print, check or save an Energy Model" },
	{ "policies", fs_cmd_policies, "list the feec policies and the kernels each follows" },
	{ "version", fs_cmd_version, "version, git commit, BPF object hash and build architecture" },
	{ "help", NULL, "this text, or a command's help page (= feecscope COMMAND --help)" },
};
#define NR_CMDS (int)(sizeof(cmds) / sizeof(cmds[0]))

static const struct fs_opt top_opts[] = {
	FS_OPT_HELP,
	{ "version", 'V', NULL, "The same as `feecscope version`." },
	{ 0 }
};
static const struct fs_opt *const top_sets[] = { top_opts, NULL };

static void help(FILE *out)
{
	char sect[2048];
	int n = snprintf(sect, sizeof(sect), "COMMANDS\n");

	for (int i = 0; i < NR_CMDS; i++)
		n += snprintf(sect + n, sizeof(sect) - n, "    %-9s %s\n", cmds[i].name, cmds[i].what);
	const struct fs_cli_page page = {
		.summary = "what feec's energy margin costs on this machine",
		.synopsis = "COMMAND [OPTIONS]\nhelp [COMMAND]\n--version",
		.description =
"Linux Energy Aware Scheduling places each waking task in "
"find_energy_efficient_cpu() (feec). From v5.0 to v5.19 feec kept a task on its "
"CPU unless a move saved more than 6.25 % of the estimated energy; v6.0 removed "
"that margin. feecscope watches the scheduler's wake-ups with BPF, replays feec "
"under several kernels' rules against the Energy Model, and tells what the "
"margin costs: live, or from a recording.\n"
"\n"
"Each command has its own help page: `feecscope help COMMAND`.",
		.sets = top_sets,
		.sections = sect,
		.examples = " sudo feecscope live\n sudo feecscope live -d 60 --record rec.fsr | tee log\n"
			    " feecscope replay rec.fsr --em pixel4",
	};

	fs_cli_help(out, &page);
}

static int find(const char *name)
{
	for (int i = 0; i < NR_CMDS; i++)
		if (!strcmp(name, cmds[i].name))
			return i;
	return -1;
}

static int unknown_command(const char *name)
{
	const char *names[NR_CMDS];

	for (int i = 0; i < NR_CMDS; i++)
		names[i] = cmds[i].name;
	const char *near = fs_cli_closest(name, names, NR_CMDS);

	if (near)
		return fs_cli_usage(NULL, "unknown command '%s' (did you mean '%s'?)", name, near);
	return fs_cli_usage(NULL, "unknown command '%s'", name);
}

static int run(int i, int argc, char **argv)
{
	if (!cmds[i].fn) {
		fprintf(stderr, "feecscope: '%s' is not in this build (it was built without the BPF collector)\n",
			cmds[i].name);
		return FS_EXIT_ENV;
	}
	return cmds[i].fn(argc, argv);
}

/* `feecscope help [COMMAND]` */
static int help_cmd(int argc, char **argv)
{
	static char opt_help[] = "--help";

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) { /* help --help: this page */
		help(stdout);
		return FS_EXIT_OK;
	}
	if (argc > 2)
		return fs_cli_usage(NULL, "help: one COMMAND only ('%s' is another)", argv[2]);
	int i = find(argv[1]);

	if (i < 0)
		return unknown_command(argv[1]);
	if (!cmds[i].fn)
		return i == find("help") ? help_cmd(1, argv) : run(i, 0, NULL);
	char *args[] = { argv[1], opt_help, NULL };

	return run(i, 2, args);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		char list[256];
		int n = 0;

		for (int i = 0; i < NR_CMDS; i++)
			n += snprintf(list + n, sizeof(list) - n, "%s%s", i ? ", " : "", cmds[i].name);
		return fs_cli_usage(NULL, "a COMMAND is required (%s)", list);
	}
	if (argv[1][0] == '-') {
		struct fs_cli cli = { .cmd = NULL, .sets = top_sets };
		int opt = fs_cli_next(&cli, 2, argv);

		if (opt == 'h')
			return help(stdout), FS_EXIT_OK;
		if (opt == 'V')
			return fs_cmd_version(1, argv + 1);
		return FS_EXIT_USAGE; /* fs_cli_next said why */
	}
	if (!strcmp(argv[1], "help"))
		return help_cmd(argc - 1, argv + 1);
	int i = find(argv[1]);

	return i < 0 ? unknown_command(argv[1]) : run(i, argc - 1, argv + 1);
}
