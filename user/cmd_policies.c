// SPDX-License-Identifier: GPL-2.0
/* feecscope policies: list the feec policies, the kernels each follows, and map a release to one. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include "commands.h"
#include "engine/policy.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: feecscope policies [--release RELEASE] [--help]\n"
		"\n"
		"List every feec policy: its name, the kernel versions whose\n"
		"find_energy_efficient_cpu() it reproduces, its margin twin (the same kernel\n"
		"with the 6.25 %% energy margin added or removed) and what distinguishes it.\n"
		"\n"
		"Options:\n"
		"  -r, --release RELEASE  print the policy that follows kernel RELEASE (as\n"
		"                         uname -r prints it, e.g. 6.1.0-13-arm64) and why\n"
		"  -h, --help             this text\n"
		"\n"
		"Aliases: v4.20 = v5.0 (feec arrived in v5.0).\n"
		"Exit status: 0 ok, 2 bad command line.\n");
}

void fs_policies_print(FILE *out)
{
	fprintf(out, "%-15s %-27s %-15s %s\n", "POLICY", "KERNELS", "TWIN", "SUMMARY");
	for (int i = 0; i < fs_policy_count(); i++) {
		const struct fs_policy_desc *d = fs_policy_at(i);
		fprintf(out, "%-15s %-27s %-15s %s\n", d->name, d->kernels, d->twin ? d->twin : "-", d->summary);
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

int fs_cmd_policies(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "release", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *release = NULL;
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "r:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'r': release = optarg; break;
		case 'h': usage(stdout); return FS_EXIT_OK;
		default: usage(stderr); return FS_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "feecscope policies: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return FS_EXIT_USAGE;
	}
	if (release) {
		char why[512];
		const struct fs_policy_desc *d = fs_policy_for_release(release, why, sizeof(why));
		printf("%s\t%s\n", d ? d->name : "-", why);
		return FS_EXIT_OK;
	}
	fs_policies_print(stdout);
	return FS_EXIT_OK;
}
