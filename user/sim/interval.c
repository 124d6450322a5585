// SPDX-License-Identifier: GPL-2.0
/*
 * The closed-loop verdict's 95 % interval (docs/simulation.md, "The
 * interval"): the method of batch means over the simulated timeline's time
 * blocks. Each block's difference between the two simulations is one
 * batch; their sum is the verdict, and n times their sample variance
 * estimates the sum's variance, with Student's t at n - 1 degrees of
 * freedom because n is small (10 blocks for a trace under 10 s). Pure C.
 */
#include <math.h>
#include <stdlib.h>
#include "compare.h"

/* Student's t, two-sided 95 % (0.975 quantile), df 1..30 (standard tables). */
static const double t975[30] = {
	12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
	2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
	2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
};

double fs_sim_t975(size_t df)
{
	if (!df)
		return NAN;
	if (df <= 30)
		return t975[df - 1];
	/* Cornish-Fisher expansion of t in 1/df around z (Abramowitz & Stegun 26.7.5): 2.0423 at df 30 */
	const double z = 1.959963985, v = (double)df, z2 = z * z;

	return z + (z2 * z + z) / (4 * v) + (5 * z2 * z2 * z + 16 * z2 * z + 3 * z) / (96 * v * v) +
	       (3 * z2 * z2 * z2 * z + 19 * z2 * z2 * z + 17 * z2 * z - 15 * z) / (384 * v * v * v);
}

int fs_sim_interval(const double *d, size_t n, double widen_sd, double *lo, double *hi)
{
	double sum = 0, mean, ss = 0;

	if (n < FS_VERDICT_MIN_UNITS) {
		*lo = *hi = NAN;
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		sum += d[i];
	mean = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (d[i] - mean) * (d[i] - mean);
	/* Var(sum) = n x s^2, s^2 the blocks' sample variance; widen_sd adds a model term in quadrature */
	const double se = sqrt((double)n * ss / (double)(n - 1) + widen_sd * widen_sd);
	const double h = fs_sim_t975(n - 1) * se;

	*lo = sum - h;
	*hi = sum + h;
	return 0;
}

int fs_sim_verdict_interval(struct fs_sim_verdict *v, const struct fs_sim_result *res, double mj_per_unit)
{
	const struct fs_sim_result *a = &res[v->pol], *b = &res[v->twin];
	const size_t n = a->nr_blocks > b->nr_blocks ? a->nr_blocks : b->nr_blocks;

	v->lo = v->hi = v->lo_mj = v->hi_mj = NAN;
	v->blocks = 0;
	v->block_ns = a->block_ns;
	v->measurable = false;
	if (!a->block_ns || a->block_ns != b->block_ns)
		return 0;
	double *d = calloc(n ? n : 1, sizeof(*d));

	if (!d)
		return -1;
	/* paired by block: the same stretch of the workload's timeline under both policies */
	for (size_t i = 0; i < n; i++)
		d[i] = (i < a->nr_blocks ? a->block_energy[i] : 0) - (i < b->nr_blocks ? b->block_energy[i] : 0);
	v->blocks = n;
	if (!fs_sim_interval(d, n, 0, &v->lo, &v->hi)) {
		/* centred on the exact delta: the blocks' double sum can differ from it in the last bits */
		const double shift = v->delta - (v->lo + v->hi) / 2;

		v->lo += shift;
		v->hi += shift;
		v->lo_mj = v->lo * mj_per_unit;
		v->hi_mj = v->hi * mj_per_unit;
		v->measurable = v->lo > 0 || v->hi < 0;
	}
	free(d);
	return 0;
}
