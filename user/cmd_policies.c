// SPDX-License-Identifier: GPL-2.0
/* feecscope policies: list the feec policies, the kernels each follows, and map a release to one. */
#include <stdio.h>
#include <string.h>
#include "commands.h"
#include "engine/policy.h"

static const struct fs_opt policies_opts[] = {
	{ "release", 'r', "RELEASE", "Print the policy that follows kernel RELEASE (as uname -r prints it, "
	  "e.g. 6.1.0-13-arm64) and why, instead of the table." },
	FS_OPT_HELP,
	{ 0 }
};

static const struct fs_opt *const policies_sets[] = { policies_opts, NULL };

static const struct fs_cli_page policies_page = {
	.name = "policies",
	.summary = "list the feec policies and the kernels each follows",
	.synopsis = "[--release RELEASE]",
	.description =
"Lists every feec policy: its name, the kernel versions whose "
"find_energy_efficient_cpu() it reproduces, its margin twin (the same kernel "
"with the 6.25 % energy margin added or removed) and what distinguishes it. "
"v4.20 is an alias of v5.0 (feec arrived in v5.0).\n"
"\n"
"With --release, one line: the policy for that kernel, a tab, and why (the "
"nearest earlier policy; which later changes it does not model).",
	.sets = policies_sets,
	.examples = " feecscope policies\n feecscope policies -r 6.1.0-13-arm64",
};

void fs_policies_print(FILE *out)
{
	fprintf(out, "%-15s %-27s %s\n    %s\n", "POLICY", "KERNELS", "TWIN", "what it does");
	for (int i = 0; i < fs_policy_count(); i++) {
		const struct fs_policy_desc *d = fs_policy_at(i);

		fprintf(out, "%-15s %-27s %s\n", d->name, d->kernels, d->twin ? d->twin : "-");
		fs_cli_wrap(out, 4, d->summary);
	}
}

bool fs_policies_list_asked(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--policies") &&
		    (i + 1 == argc || !strcmp(argv[i + 1], "list") || !strcmp(argv[i + 1], "help")))
			return true;
	return false;
}

int fs_cmd_release_arg(const char *cmd, const char *arg, const char **release)
{
	if (!fs_release_valid(arg))
		return fs_cli_usage(cmd, "--release '%s': expected MAJOR.MINOR[...], as uname -r prints it", arg);
	*release = arg;
	return 0;
}

int fs_cmd_policies(int argc, char **argv)
{
	struct fs_cli cli = { .cmd = "policies", .sets = policies_sets };
	const char *release = NULL;
	int opt, rc;

	while ((opt = fs_cli_next(&cli, argc, argv)) != -1) {
		switch (opt) {
		case 'r':
			if ((rc = fs_cmd_release_arg(cli.cmd, optarg, &release)))
				return rc;
			break;
		case 'h': fs_cli_help(stdout, &policies_page); return FS_EXIT_OK;
		default: return FS_EXIT_USAGE;
		}
	}
	if (optind < argc)
		return fs_cli_usage(cli.cmd, "unexpected argument '%s'", argv[optind]);
	if (release) {
		char why[512];
		const struct fs_policy_desc *d = fs_policy_for_release(release, why, sizeof(why));

		printf("%s\t%s\n", d->name, why);
		return FS_EXIT_OK;
	}
	fs_policies_print(stdout);
	return FS_EXIT_OK;
}
