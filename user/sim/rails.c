// SPDX-License-Identifier: GPL-2.0
/*
 * Measured power rails against the model (rails.h): each rail's energy
 * counter read at the window's edges by linear interpolation between the
 * samples that bracket them, and the CPU rails matched with the EM's PDs.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rails.h"

/* Whether hay holds needle, in any case. */
static bool has_ci(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; *hay; hay++)
		if (!strncasecmp(hay, needle, n))
			return true;
	return false;
}

bool fs_sim_rail_is_cpu(const char *name, const char *subsys)
{
	size_t n = strlen(name);

	if (n >= 2 && name[n - 2] == '_' && toupper((unsigned char)name[n - 1]) == 'M')
		return false;
	return has_ci(name, "VDD_CPU") || !strncasecmp(name, "power.rails.cpu", 15) ||
	       !strncasecmp(subsys, "CPU", 3);
}

int fs_sim_rail_cluster(const char *name, const char *subsys)
{
	static const char *const sizes[] = { "little", "mid", "big" };

	for (const char *p = name; *p; p++)
		if (!strncasecmp(p, "CPUCL", 5) && isdigit((unsigned char)p[5]))
			return atoi(p + 5) > 99 ? -1 : atoi(p + 5);
	for (int i = 0; i < 3; i++)
		if (has_ci(name, sizes[i]) || has_ci(subsys, sizes[i]))
			return i;
	return -1;
}

/* The counter at t, p.ts <= t <= q.ts. */
static double counter_at(const struct fs_rail_sample *p, const struct fs_rail_sample *q, __u64 t)
{
	if (q->ts_ns == p->ts_ns)
		return (double)q->uws;
	return (double)p->uws + (double)(q->uws - p->uws) * (double)(t - p->ts_ns) / (double)(q->ts_ns - p->ts_ns);
}

/* Rail in over [a, b]: the part its samples bracket and the energy there. */
static void measure(const struct fs_power_rail *in, __u64 a, __u64 b, struct fs_sim_rail *o)
{
	const struct fs_rail_sample *s = in->s;
	size_t n = in->nr, i = 0, j;
	__u64 from, to;
	double e0, e1;

	o->before_ns = o->after_ns = -1;
	o->samples = n;
	if (!n)
		return;
	while (i < n && s[i].ts_ns <= a) /* i: the first sample after a */
		i++;
	j = i;
	while (j < n && s[j].ts_ns < b)  /* j: the first sample at or after b */
		j++;
	if (i) {
		o->before_ns = (__s64)(a - s[i - 1].ts_ns);
		from = a;
		e0 = i < n ? counter_at(&s[i - 1], &s[i], a) : (double)s[i - 1].uws;
	} else {
		from = s[0].ts_ns;
		e0 = (double)s[0].uws;
	}
	if (j < n) {
		o->after_ns = (__s64)(s[j].ts_ns - b);
		to = b;
		e1 = j ? counter_at(&s[j - 1], &s[j], b) : (double)s[j].uws;
	} else {
		to = s[n - 1].ts_ns;
		e1 = (double)s[n - 1].uws;
	}
	if (to <= from || from >= b || to <= a)
		return;
	o->from_ns = from - a;
	o->covered_ns = to - from;
	o->mj = (e1 - e0) / 1000.0; /* uW x s -> mJ */
}

/* The CPU rails first, by cluster (unknown ones after, as given), then the others as given. */
static int rail_rank(const struct fs_sim_rail *r)
{
	return r->cpu ? (r->cluster >= 0 ? r->cluster : 1000) : 2000;
}

static int by_rank(const void *a, const void *b)
{
	const struct fs_sim_rail *x = a, *y = b;
	int rx = rail_rank(x), ry = rail_rank(y);

	return rx != ry ? (rx < ry ? -1 : 1) : 0;
}

/* CPU rails to PDs: as many rails as PDs, every cluster known and distinct; rail k -> the k-th PD by capacity. */
static void match(const struct fs_em *em, struct fs_sim_rails *out)
{
	int order[FS_MAX_PDS], n = em ? em->nr_pd : 0;

	if (!n || out->nr_cpu != n)
		return;
	for (int k = 0; k < n; k++) {
		if (out->rail[k].cluster < 0 || (k && out->rail[k].cluster == out->rail[k - 1].cluster))
			return;
		order[k] = k;
	}
	for (int k = 1; k < n; k++) /* insertion sort by the first CPU's capacity: stable */
		for (int m = k; m > 0; m--) {
			int c0 = fs_em_pd_first_cpu(&em->pd[order[m - 1]]), c1 = fs_em_pd_first_cpu(&em->pd[order[m]]);
			if (c0 < 0 || c1 < 0 || em->capacity[c0] <= em->capacity[c1])
				break;
			int t = order[m];
			order[m] = order[m - 1];
			order[m - 1] = t;
		}
	for (int k = 0; k < n; k++)
		out->rail[k].pd = order[k];
	out->matched = true;
}

void fs_sim_rails_measure(const struct fs_em *em, const struct fs_power_rails *in, __u64 t0, __u64 span,
			  struct fs_sim_rails *out)
{
	memset(out, 0, sizeof(*out));
	out->window_ns = span;
	out->nr_undescribed = in ? in->nr_undescribed : 0;
	for (int pass = 0; pass < 2; pass++) /* CPU rails first, so none is left out for another */
		for (size_t i = 0; in && i < in->nr; i++) {
			const struct fs_power_rail *r = &in->rail[i];
			bool cpu = fs_sim_rail_is_cpu(r->name, r->subsys);
			struct fs_sim_rail *o;

			if (cpu != !pass)
				continue;
			if (out->nr >= FS_SIM_MAX_RAILS) {
				out->nr_more++;
				continue;
			}
			o = &out->rail[out->nr++];
			snprintf(o->name, sizeof(o->name), "%.*s", (int)sizeof(o->name) - 1, r->name);
			snprintf(o->subsys, sizeof(o->subsys), "%.*s", (int)sizeof(o->subsys) - 1, r->subsys);
			o->cpu = cpu;
			o->cluster = cpu ? fs_sim_rail_cluster(r->name, r->subsys) : -1;
			o->pd = -1;
			o->sampling_hz = r->sampling_hz;
			measure(r, t0, t0 + span, o);
			out->nr_cpu += cpu;
		}
	qsort(out->rail, (size_t)out->nr_cpu, sizeof(out->rail[0]), by_rank);
	match(em, out);
}

void fs_sim_rails_model(const struct fs_em *em, const struct fs_sim_observed *obs, const struct fs_sim_result *r,
			double traced[FS_MAX_PDS], double sim[FS_MAX_PDS])
{
	for (int pd = 0; pd < em->nr_pd && pd < FS_MAX_PDS; pd++) {
		const struct fs_em_pd *d = &em->pd[pd];
		__u64 busy = 0, at_opp = 0;
		double e = 0, es = 0;

		for (int c = 0; c < em->nr_cpus && c < FS_MAX_CPUS; c++)
			if (em->cpu_pd[c] == pd)
				busy += obs->busy_ns[c];
		for (int i = 0; i < d->nr_ps; i++) {
			at_opp += obs->opp_busy_ns[pd][i];
			e += (double)obs->opp_busy_ns[pd][i] * (double)d->ps[i].power;
			if (r)
				es += (double)r->opp_busy_ns[pd][i] * (double)d->ps[i].power;
		}
		if (busy > at_opp && d->nr_ps) /* no cpu_frequency yet: the PD's top OPP (trace_workload.c) */
			e += (double)(busy - at_opp) * (double)d->ps[d->nr_ps - 1].power;
		traced[pd] = e / 1e9;
		if (r)
			sim[pd] = es / 1e9;
	}
}

void fs_sim_rails_sum(const struct fs_sim_rails *R, struct fs_sim_rails_sum *s)
{
	memset(s, 0, sizeof(*s));
	s->covered_ns = R->window_ns;
	for (int i = 0; i < R->nr; i++) {
		const struct fs_sim_rail *x = &R->rail[i];

		if (!x->cpu)
			continue;
		s->cpu++;
		s->no_before |= x->before_ns < 0;
		s->no_after |= x->after_ns < 0;
		if (!x->covered_ns)
			continue;
		s->covered++;
		s->full += x->from_ns == 0 && x->covered_ns == R->window_ns;
		s->mj += x->mj;
		s->mw += x->mj / ((double)x->covered_ns / 1e9);
		if (x->covered_ns < s->covered_ns)
			s->covered_ns = x->covered_ns;
	}
}
