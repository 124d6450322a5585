// SPDX-License-Identifier: GPL-2.0
/*
 * The closed-loop verdict's 95 % interval (docs/simulation.md, "The
 * interval"): the method of batch means over the simulated timeline's time
 * blocks. Each block's difference between the two simulations (each
 * activation's energy in the block of its wake-up) is one batch; their sum
 * is the verdict, and n times their sample variance estimates the sum's
 * variance, with Student's t at n - 1 degrees of freedom because n is small
 * (10 blocks for a trace under 10 s). A final answer adds the spread of
 * replicas' verdicts (replicas.c), which batch means cannot see. Pure C.
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

/* Var(sum) from the blocks merged k at a time (the last group may be short): m x s^2 of the m groups. */
static double var_at_scale(const double *d, size_t n, size_t k, size_t *groups)
{
	const size_t m = (n + k - 1) / k;
	double sum = 0, ss = 0;

	for (size_t i = 0; i < n; i++)
		sum += d[i];
	const double mean = sum / (double)m;

	for (size_t g = 0; g < m; g++) {
		double x = 0;

		for (size_t i = g * k; i < (g + 1) * k && i < n; i++)
			x += d[i];
		ss += (x - mean) * (x - mean);
	}
	*groups = m;
	return (double)m * ss / (double)(m - 1);
}

size_t fs_sim_welch_df(double num, double den, size_t fallback)
{
	double df = den > 0 ? num / den : (double)fallback;

	/*
	 * The table's df at or below (a wider t), at least 1; a relative 1e-9
	 * up first, so that one variance's (v^2 / (v^2 / df)) gives df back
	 * where rounding leaves it a hair below.
	 */
	df *= 1 + 1e-9;
	return df < 1 ? 1 : (size_t)df;
}

/* Welch-Satterthwaite's degrees of freedom for v1 (df1) + v2 (df2); df2 0: df1. */
static size_t df_combined(double v1, size_t df1, double v2, size_t df2)
{
	if (!df2)
		return df1;
	return fs_sim_welch_df((v1 + v2) * (v1 + v2), v1 * v1 / (double)df1 + v2 * v2 / (double)df2, df1);
}

/* The sample variance of x[0..n), n >= 2. */
static double sample_var(const double *x, size_t n)
{
	double sum = 0, ss = 0;

	for (size_t i = 0; i < n; i++)
		sum += x[i];
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - sum / (double)n) * (x[i] - sum / (double)n);
	return ss / (double)(n - 1);
}

/*
 * The half-width: batch means at scales 1 and 2 with v2 (df2) added in
 * quadrature, the wider; *df the degrees of freedom its t was taken at.
 */
static double half_width(const double *d, size_t n, double v2, size_t df2, size_t *df)
{
	double h = 0;

	/*
	 * Batch means at two batch sizes, the blocks and their pairs (while
	 * that leaves at least FS_VERDICT_MIN_UNITS): the wider interval. A
	 * margin that keeps a task on big for seconds makes neighbouring blocks
	 * alike, which pairs show and single blocks do not; ten blocks are too
	 * few to estimate that correlation, so the interval takes the larger
	 * (measured coverage: docs/simulation.md, "The interval").
	 */
	for (size_t k = 1; k <= 2 && (n + k - 1) / k >= FS_VERDICT_MIN_UNITS; k *= 2) {
		size_t m;
		const double v = var_at_scale(d, n, k, &m);
		size_t dfk = df_combined(v, m - 1, v2, df2);
		double hk = fs_sim_t975(dfk) * sqrt(v + v2);

		/* more df can lower t: a second source never narrows the batches' own interval */
		if (fs_sim_t975(m - 1) * sqrt(v) > hk) {
			hk = fs_sim_t975(m - 1) * sqrt(v);
			dfk = m - 1;
		}
		if (hk > h || !*df) {
			h = hk;
			*df = dfk;
		}
	}
	return h;
}

static int interval_of(const double *d, size_t n, double v2, size_t df2, double *lo, double *hi, size_t *df)
{
	double sum = 0;
	size_t dfh = 0;

	if (n < FS_VERDICT_MIN_UNITS) {
		*lo = *hi = NAN;
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		sum += d[i];
	const double h = half_width(d, n, v2, df2, &dfh);

	if (df)
		*df = dfh;

	*lo = sum - h;
	*hi = sum + h;
	return 0;
}

int fs_sim_interval(const double *d, size_t n, double widen_sd, double *lo, double *hi)
{
	/* a model term known exactly: no degrees of freedom of its own (t at the batches') */
	return interval_of(d, n, widen_sd * widen_sd, 0, lo, hi, NULL);
}

int fs_sim_interval_rep(const double *d, size_t n, const double *rep, size_t nr, double *lo, double *hi,
			size_t *df)
{
	/*
	 * The replicas' verdicts vary with the wake-up jitter alone, the
	 * batches with the workload's own course: two sources, each estimated
	 * with its own few degrees of freedom, so the variances add and t
	 * takes Welch-Satterthwaite's df (docs/simulation.md, "The interval").
	 */
	return interval_of(d, n, nr >= 2 ? sample_var(rep, nr) : 0, nr >= 2 ? nr - 1 : 0, lo, hi, df);
}

/* Centred on the exact delta: the blocks' double sum can differ from it in the last bits. */
static void centre(struct fs_sim_verdict *v, double mj_per_unit)
{
	const double shift = v->delta - (v->lo + v->hi) / 2;

	v->lo += shift;
	v->hi += shift;
	v->lo_mj = v->lo * mj_per_unit;
	v->hi_mj = v->hi * mj_per_unit;
	v->measurable = v->lo > 0 || v->hi < 0;
}

int fs_sim_verdict_interval(struct fs_sim_verdict *v, const struct fs_sim_result *res, double mj_per_unit)
{
	const struct fs_sim_result *a = &res[v->pol], *b = &res[v->twin];
	const size_t n = a->nr_blocks > b->nr_blocks ? a->nr_blocks : b->nr_blocks;

	v->lo = v->hi = v->lo_mj = v->hi_mj = NAN;
	v->blocks = 0;
	v->block_delta = NULL;
	v->replicas = 0;
	v->rep_sd = NAN;
	v->df = 0;
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
	if (!interval_of(d, n, 0, 0, &v->lo, &v->hi, &v->df))
		centre(v, mj_per_unit);
	v->block_delta = d; /* kept: report resamples a recording's blocks (many_runs.c) */
	return 0;
}

void fs_sim_verdict_widen(struct fs_sim_verdict *v, const double *rep, size_t nr, double mj_per_unit)
{
	v->replicas = (unsigned int)nr;
	v->rep_sd = nr >= 2 ? sqrt(sample_var(rep, nr)) : NAN;
	if (!v->block_delta || fs_sim_interval_rep(v->block_delta, v->blocks, rep, nr, &v->lo, &v->hi, &v->df))
		return;
	centre(v, mj_per_unit);
}
