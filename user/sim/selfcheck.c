// SPDX-License-Identifier: GPL-2.0
/*
 * The self-check (compare.h; docs/simulation.md, "The self-check"): how well
 * the simulation of the recorded kernel's own policy reproduces what the
 * recording saw, and the one line the summary prints about it.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "compare.h"

static long signed_pct(double v);

static double pct(double sim, double obs)
{
	return obs > 0 ? (sim - obs) / obs * 100.0 : NAN;
}

double fs_sim_energy_of_fj(const struct fs_em *em, fs_fj_t fj)
{
	/* cpu_energy.c takes mW as 1000 µW; µW and bogoWatts as they are */
	return (double)fj / (em->unit == FS_POWER_MW ? 1e12 : 1e9);
}

/* PD p's busy-weighted OPP residency apart, sim against recorded (trace_check.c's measure). */
static double residency_apart(const struct fs_em_pd *d, const __u64 *obs, const __u64 *sim)
{
	double to = 0, ts = 0, dist = 0;

	for (int i = 0; i < d->nr_ps; i++) {
		to += (double)obs[i];
		ts += (double)sim[i];
	}
	if (to == 0 || ts == 0)
		return NAN;
	for (int i = 0; i < d->nr_ps; i++)
		dist += fabs((double)sim[i] / ts - (double)obs[i] / to);
	return dist * 50.0;
}

/* The recording's busyfreq figures (docs/simulation.md, "The self-check") against r. */
static void check_busyfreq(const struct fs_em *em, const struct fs_sim_observed *obs, const struct fs_sim_result *r,
			   struct fs_sim_selfcheck *c)
{
	c->busyfreq = obs->busyfreq;
	for (int p = 0; p < em->nr_pd; p++) {
		c->busy_bf_pct[p] = c->opp_pct[p] = NAN;
		if (!obs->busyfreq)
			continue;
		for (int cpu = 0; cpu < em->nr_cpus && cpu < FS_MAX_CPUS; cpu++)
			if (em->cpu_pd[cpu] == p)
				c->busy_bf_ns[p] += obs->rec_busy_ns[cpu];
		c->busy_bf_pct[p] = pct((double)c->busy_sim_ns[p], (double)c->busy_bf_ns[p]);
		c->opp_pct[p] = residency_apart(&em->pd[p], obs->opp_busy_ns[p], r->opp_busy_ns[p]);
	}
}

void fs_sim_selfcheck(const struct fs_em *em, const struct fs_sim_observed *obs, double rec_energy,
		      const struct fs_sim_result *r, struct fs_sim_selfcheck *c)
{
	memset(c, 0, sizeof(*c));
	c->nr_pd = em->nr_pd;
	for (int cpu = 0; cpu < em->nr_cpus && cpu < FS_MAX_CPUS; cpu++) {
		int p = em->cpu_pd[cpu];

		if (p < 0)
			continue;
		c->busy_obs_ns[p] += obs->busy_ns[cpu];
		c->busy_sim_ns[p] += r->busy_ns[cpu];
	}
	c->worst_pd = -1;
	c->busy_worst_pct = NAN;
	for (int p = 0; p < em->nr_pd; p++) {
		c->busy_pct[p] = pct((double)c->busy_sim_ns[p], (double)c->busy_obs_ns[p]);
		if (!isnan(c->busy_pct[p]) && (c->worst_pd < 0 || fabs(c->busy_pct[p]) > fabs(c->busy_worst_pct))) {
			c->worst_pd = p;
			c->busy_worst_pct = c->busy_pct[p];
		}
	}
	c->mig_obs = obs->migrations;
	c->mig_sim = r->migrations_wakeup + r->migrations_misfit + r->migrations_newidle;
	c->mig_pct = pct((double)c->mig_sim, (double)c->mig_obs);
	c->energy_obs = rec_energy;
	c->energy_sim = r->energy;
	c->energy_pct = isnan(rec_energy) ? NAN : pct(r->energy, rec_energy);
	c->reproduces = c->worst_pd >= 0 && fabs(c->busy_worst_pct) <= FS_SIM_CHECK_PCT &&
			(isnan(c->energy_pct) || fabs(c->energy_pct) <= FS_SIM_CHECK_PCT);
	c->eas_emulated = obs->eas_emulated;
	check_busyfreq(em, obs, r, c);
}

int fs_sim_selfcheck_busyfreq_line(const struct fs_sim_selfcheck *c, const struct fs_em *em, char *buf, size_t len)
{
	int wb = -1, wo = -1;

	if (!c->busyfreq)
		return 0;
	for (int p = 0; p < c->nr_pd; p++) {
		if (!isnan(c->busy_bf_pct[p]) && (wb < 0 || fabs(c->busy_bf_pct[p]) > fabs(c->busy_bf_pct[wb])))
			wb = p;
		if (!isnan(c->opp_pct[p]) && (wo < 0 || c->opp_pct[p] > c->opp_pct[wo]))
			wo = p;
	}
	if (wb < 0)
		return snprintf(buf, len, "against the CPUs' busy time: none recorded");
	int n = snprintf(buf, len, "against the CPUs' busy time: PD %.12s %+ld %%", em->pd[wb].name,
			 signed_pct(c->busy_bf_pct[wb]));

	if (wo >= 0 && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, ", OPP residency of %.12s %ld %% apart", em->pd[wo].name,
			      signed_pct(c->opp_pct[wo]));
	return n;
}

/* |v| rounded up to a whole percent, at least 1: "within 3 %" is never an understatement. */
static long within(double v)
{
	double a = ceil(fabs(v) - 1e-9); /* (970 - 1000) / 1000 x 100 is 3.0000000000000027 */

	return a < 1 ? 1 : a > 99999 ? 99999 : (long)a;
}

/* v rounded half away from zero, as the other figures print. */
static long signed_pct(double v)
{
	double a = floor(fabs(v) + 0.5);

	a = a > 99999 ? 99999 : a; /* five digits: the line keeps to 80 columns */
	return v < 0 ? -(long)a : (long)a;
}

static void part(char *buf, size_t len, const char *what, double v, bool close)
{
	if (close)
		snprintf(buf, len, "%.40s within %ld %%", what, within(v));
	else
		snprintf(buf, len, "%.40s %+ld %%", what, signed_pct(v));
}

int fs_sim_selfcheck_line(const struct fs_sim_selfcheck *c, const struct fs_em *em, char *buf, size_t len)
{
	if (c->worst_pd < 0)
		return snprintf(buf, len, "simulation: the recording has no CPU time to check it against");
	char busy[64], busy_short[64], energy[64] = "", mig[64] = "", line[256];
	bool busy_close = fabs(c->busy_worst_pct) <= FS_SIM_CHECK_PCT;
	const char *lead = c->reproduces ? "simulation reproduces the recording: " :
			   "simulation differs from the recording: ";

	/*
	 * EAS emulated: the recorded kernel did not run feec with this EM (the
	 * summary's kernel agreement says the same), so agreeing or not with
	 * it tests the machine against other rules, not the kernel.
	 */
	if (c->eas_emulated)
		lead = "simulation, EAS emulated (not a test of the kernel): ";
	part(busy_short, sizeof(busy_short), c->eas_emulated ? "PD busy" : "PD busy time", c->busy_worst_pct,
	     busy_close);
	if (busy_close || c->nr_pd == 1) {
		snprintf(busy, sizeof(busy), "%s", busy_short);
	} else {
		char what[64];

		snprintf(what, sizeof(what), "%s %.12s", c->eas_emulated ? "busy of PD" : "busy time of PD",
			 em->pd[c->worst_pd].name);
		part(busy, sizeof(busy), what, c->busy_worst_pct, false);
	}
	if (!isnan(c->energy_pct))
		part(energy, sizeof(energy), "energy", c->energy_pct, fabs(c->energy_pct) <= FS_SIM_CHECK_PCT);
	if (!isnan(c->mig_pct))
		part(mig, sizeof(mig), "migrations", c->mig_pct, fabs(c->mig_pct) <= FS_SIM_CHECK_PCT);
	/* the first that fits 80 columns: the most said, then energy kept over migrations and the PD's name */
	const struct {
		const char *busy;
		bool energy, mig;
	} forms[] = {
		{ busy, true, true }, { busy, true, false }, { busy_short, true, false },
		{ busy, false, false }, { busy_short, false, false },
	};
	int n = 0;

	for (size_t f = 0; f < sizeof(forms) / sizeof(forms[0]); f++) {
		n = snprintf(line, sizeof(line), "%s%s", lead, forms[f].busy);
		if (forms[f].energy && energy[0])
			n += snprintf(line + n, sizeof(line) - (size_t)n, ", %s", energy);
		if (forms[f].mig && mig[0])
			n += snprintf(line + n, sizeof(line) - (size_t)n, ", %s", mig);
		if (n <= 80)
			break;
	}
	return snprintf(buf, len, "%s", line);
}
