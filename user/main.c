// SPDX-License-Identifier: GPL-2.0
/* feecscope command line: dispatches to em, replay, live and policies. */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help")) {
		fprintf(stderr, "usage: feecscope {em|replay|live|policies} [options]\n");
		return argc < 2 ? 2 : 0;
	}
	fprintf(stderr, "feecscope: unknown command '%s'\n", argv[1]);
	return 2;
}
