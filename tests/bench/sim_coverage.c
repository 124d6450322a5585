// SPDX-License-Identifier: GPL-2.0
/*
 * The closed-loop interval's coverage (docs/simulation.md, "The interval"):
 * workloads drawn from the process of tests/unit/sim_coverage.h, each
 * simulated under a margin policy and its twin; how often one sample's
 * 95 % interval holds the mean verdict of all of them.
 * Usage: sim_coverage [SAMPLES] (400 by default).
 */
#include <stdio.h>
#include <stdlib.h>
#include "em/em_io.h"
#include "../unit/sim_coverage.h"

struct cov_case {
	const char *margin, *twin;
	__u64 len_s;
	enum fs_sim_physics ph;
};

int main(int argc, char **argv)
{
	static const struct cov_case cases[] = {
		{ "v6.1+margin", "v6.1", 2, FS_SIM_DEVICE },
		{ "v6.1+margin", "v6.1", 10, FS_SIM_DEVICE },
		{ "v5.4", "v5.4-nomargin", 2, FS_SIM_DEVICE },
		{ "v6.1+margin", "v6.1", 2, FS_SIM_LAB },
		{ "v6.1+margin", "v6.1", 10, FS_SIM_LAB },
		{ "v6.1+margin", "v6.1", 30, FS_SIM_DEVICE },
	};
	const int n = argc > 1 ? atoi(argv[1]) : 400;
	struct fs_em em;
	char err[256];

	if (n < 2 || fs_em_profile_build("pixel4", &em, err, sizeof(err))) {
		fprintf(stderr, "sim_coverage: %s\n", n < 2 ? "usage: sim_coverage [SAMPLES >= 2]" : err);
		return n < 2 ? 2 : 1;
	}
	printf("closed-loop interval coverage, %d samples a case (pixel4, 8 tasks):\n", n);
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		const struct cov_case *k = &cases[c];
		struct cov_result r;

		if (cov_measure(&em, k->margin, k->twin, k->len_s * 1000 * COV_MS, n, k->ph, &r, err, sizeof(err))) {
			fprintf(stderr, "sim_coverage: %s\n", err);
			return 1;
		}
		printf("  %-12s %3llu s %-6s truth %+8.3f mJ sd %7.3f half width %7.3f: %5.1f %% (%d/%d)\n",
		       k->margin, (unsigned long long)k->len_s, k->ph == FS_SIM_LAB ? "lab" : "device", r.truth,
		       r.sd, r.mean_half_width, 100.0 * r.covered / r.n, r.covered, r.n);
	}
	return 0;
}
