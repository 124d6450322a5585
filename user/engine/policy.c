// SPDX-License-Identifier: GPL-2.0
/*
 * The policy registry (kernel order), per-policy era rules, the release ->
 * policy map, and the one-line explanation of a decision.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "feec_ctx.h"

/*
 * Each kernel's rules take the margin as an argument, so a policy and its
 * twin differ in nothing else (what fs_policy_redecide() relies on).
 */

/* v5.0 - v5.2: system energy, prev_energy >> 4. */
#define RULES_V5_0(m)                                                                         \
	{                                                                                      \
		.margin = (m), .margin_shift = 4, .ue_flag = FS_UE_BIT0_OR,                    \
		.fits_keeps_equal = true, .eff = FS_EFF_5_0, .cost = FS_COST_MW,               \
		.energy = FS_EM_PD_ENERGY_5_0,                                                 \
	}
static const struct fs_feec_rules rules_v5_0 = RULES_V5_0(FS_MARGIN_PREV_ENERGY);
static const struct fs_feec_rules rules_v5_0_nomargin = RULES_V5_0(FS_MARGIN_NONE);
/* v5.4: per-PD deltas, all-PD base in the margin, uclamp_util_with on the frequency. */
#define RULES_V5_4(m)                                                                         \
	{                                                                                      \
		.margin = (m), .margin_shift = 4, .ue_flag = FS_UE_BIT0_OR,                    \
		.eff = FS_EFF_5_3, .cost = FS_COST_MW, .energy = FS_EM_PD_ENERGY_5_0,          \
	}
static const struct fs_feec_rules rules_v5_4 = RULES_V5_4(FS_MARGIN_PREV_DELTA_BASE);
static const struct fs_feec_rules rules_v5_4_nomargin = RULES_V5_4(FS_MARGIN_NONE);
/*
 * Late 5.10.y (read: 5.10.228): v5.4's scan and all-PD base with the stable
 * backports: saturating spare (v5.10), MSB UTIL_AVG_UNCHANGED, idle-rq clamps
 * ignored in uclamp_rq_util_with, x1000 cost (5.10.65), and the 6.2 uclamp
 * series (util_fits_cpu with capacity inversion, uclamp_min zero exit).
 */
#define RULES_V5_10(m)                                                                         \
	{                                                                                      \
		.margin = (m), .margin_shift = 4, .ue_flag = FS_UE_MASKED,                     \
		.eff = FS_EFF_5_14, .cost = FS_COST_MW_X1000, .energy = FS_EM_PD_ENERGY_5_0,   \
		.scan = FS_SCAN_ALL_PD_BASE, .fit = FS_FIT_STABLE_UCLAMP, .spare_lsub = true,  \
		.zero_exit_uclamp_min = true, .ou = FS_OU_BOOL_UCLAMP,                         \
	}
static const struct fs_feec_rules rules_v5_10 = RULES_V5_10(FS_MARGIN_PREV_DELTA_BASE);
static const struct fs_feec_rules rules_v5_10_nomargin = RULES_V5_10(FS_MARGIN_NONE);
/*
 * Late 5.15.y (read: 5.15.100 + the 6.2 uclamp series as backported in
 * March 2023): candidate-PD base, prev excluded, util-changed exit,
 * util_running, per-CPU thermal cap, em_cpu_energy(.., allowed cap), x1000.
 */
#define RULES_V5_15(m)                                                                         \
	{                                                                                      \
		.margin = (m), .margin_shift = 4, .ue_flag = FS_UE_MASKED,                     \
		.eff = FS_EFF_5_14, .cost = FS_COST_MW_X1000, .energy = FS_EM_CPU_ENERGY_5_14, \
		.scan = FS_SCAN_CANDIDATE_BASE, .fit = FS_FIT_STABLE_UCLAMP, .spare_lsub = true, \
		.util_running = true, .energy_thermal_cap = true, .zero_exit_uclamp_min = true, \
		.ou = FS_OU_BOOL_UCLAMP,                                                        \
	}
static const struct fs_feec_rules rules_v5_15 = RULES_V5_15(FS_MARGIN_PREV_DELTA_BASE);
static const struct fs_feec_rules rules_v5_15_nomargin = RULES_V5_15(FS_MARGIN_NONE);
/* v6.0 (and 6.1.0): energy_env, uW, inefficient states, margin removed. */
#define RULES_V6_0(m)                                                                         \
	{                                                                                      \
		.margin = (m), .margin_shift = 4, .ue_flag = FS_UE_MASKED,                     \
		.ue_remove_queued = true, .eff = FS_EFF_5_14, .cost = FS_COST_UW,              \
		.energy = FS_EM_CPU_ENERGY_5_14, .mark_inefficient = true, .unit_uw = true,    \
	}
static const struct fs_feec_rules rules_v6_0 = RULES_V6_0(FS_MARGIN_NONE);
static const struct fs_feec_rules rules_v6_0_margin = RULES_V6_0(FS_MARGIN_PREV_DELTA_BASE);
/*
 * 6.1.y as Debian's 6.1.192 (the lab guest): the 6.2 - 6.7 uclamp fixes
 * backported onto the v6.0 helpers (effective_cpu_util(type, p), thermal
 * pressure, f * 1.25u / cap energy).
 */
#define RULES_V6_1(m)                                                                         \
	{                                                                                      \
		.margin = (m), .margin_shift = 4, .ue_flag = FS_UE_MASKED,                     \
		.ue_remove_queued = true, .eff = FS_EFF_5_14, .cost = FS_COST_UW,              \
		.energy = FS_EM_CPU_ENERGY_5_14, .mark_inefficient = true, .unit_uw = true,    \
		.fits_levels = true, .ou = FS_OU_LEVELS,                                       \
	}
static const struct fs_feec_rules rules_v6_1 = RULES_V6_1(FS_MARGIN_NONE);
static const struct fs_feec_rules rules_v6_1_margin = RULES_V6_1(FS_MARGIN_PREV_DELTA_BASE);
/*
 * 6.6.y from 6.6.2 (the 6.7 spare -1 and zero-util fixes arrived there): v6.1
 * plus 6.5's runnable boost of the frequency util, without 6.5.0's util_est
 * boost (c2e164ac33f7). WF_CURRENT_CPU (6.6) returns before feec: the
 * record's FS_WAKE_CURRENT_CPU, an early exit of every policy
 * (fs_feec_entry_exit()).
 */
#define RULES_V6_6(m)                                                                         \
	{                                                                                      \
		.margin = (m), .margin_shift = 4, .ue_flag = FS_UE_MASKED,                     \
		.ue_remove_queued = true, .eff = FS_EFF_5_14, .cost = FS_COST_UW,              \
		.energy = FS_EM_CPU_ENERGY_5_14, .mark_inefficient = true, .unit_uw = true,    \
		.boost_max_util = true, .fits_levels = true, .ou = FS_OU_LEVELS,               \
	}
static const struct fs_feec_rules rules_v6_6 = RULES_V6_6(FS_MARGIN_NONE);
static const struct fs_feec_rules rules_v6_6_margin = RULES_V6_6(FS_MARGIN_PREV_DELTA_BASE);
/*
 * 6.12.0 - 6.12.96 (mainline feec to 7.1): fits levels, runtime EM, hw + cpufreq
 * pressure. 6.12.97+ (read in Debian's 6.12.118) adds 29922fdfc2a4: the boosted
 * cpu_util() moves p's runnable_avg like its util_avg (trb). v7.1 passes 0 for
 * the rq's uclamp_min in cpu_overutilized() (9264758066061; ou); v7.2 has both,
 * and so has 7.3 (read in Debian's 7.3.4: feec and its helpers as 7.1.3's but
 * for that cpu_util()).
 */
#define RULES_V6_12(m, trb) RULES_V6_12_OU(m, trb, FS_OU_LEVELS)
#define RULES_V6_12_OU(m, trb, o)                                                             \
	{                                                                                      \
		.margin = (m), .margin_shift = 4, .ue_flag = FS_UE_MASKED,                     \
		.ue_remove_queued = true, .eff = FS_EFF_6_8, .cost = FS_COST_UW_PERF,          \
		.energy = FS_EM_CPU_ENERGY_6_9, .mark_inefficient = true, .unit_uw = true,     \
		.boost_max_util = true, .fits_levels = true, .hw_cpufreq_pressure = true,      \
		.boost_task_runnable = (trb), .ou = (o),                                       \
	}
static const struct fs_feec_rules rules_v6_12 = RULES_V6_12(FS_MARGIN_NONE, false);
static const struct fs_feec_rules rules_v6_12_margin = RULES_V6_12(FS_MARGIN_PREV_DELTA_BASE, false);
static const struct fs_feec_rules rules_v6_12_97 = RULES_V6_12(FS_MARGIN_NONE, true);
static const struct fs_feec_rules rules_v6_12_97_margin = RULES_V6_12(FS_MARGIN_PREV_DELTA_BASE, true);
static const struct fs_feec_rules rules_v7_1 = RULES_V6_12_OU(FS_MARGIN_NONE, false, FS_OU_NO_MIN);
static const struct fs_feec_rules rules_v7_1_margin = RULES_V6_12_OU(FS_MARGIN_PREV_DELTA_BASE, false, FS_OU_NO_MIN);
static const struct fs_feec_rules rules_v7_2 = RULES_V6_12_OU(FS_MARGIN_NONE, true, FS_OU_NO_MIN);
static const struct fs_feec_rules rules_v7_2_margin = RULES_V6_12_OU(FS_MARGIN_PREV_DELTA_BASE, true, FS_OU_NO_MIN);

static int era_init(void **state, const struct fs_policy_desc *d, const struct fs_em *em, char *err,
		    size_t errlen)
{
	struct fs_policy_state *s = malloc(sizeof(*s)); /* the tables are cleared as they are built */

	if (!s) {
		snprintf(err, errlen, "policy %s: out of memory", d->name);
		return -1;
	}
	if (fs_energy_build_tables(em, d->rules, &s->tables, err, errlen)) {
		free(s);
		return -1;
	}
	*state = s;
	return 0;
}

static void era_fini(void *state)
{
	free(state);
}

#define ERA_FEEC(fn)                                                                          \
	static void fn##_hook(const void *state, const struct fs_policy_desc *d,              \
			      const struct fs_em *em, const struct fs_wakeup *w,              \
			      struct fs_feec_result *out)                                     \
	{                                                                                     \
		const struct fs_policy_state *s = state;                                      \
		struct fs_feec_ctx c;                                                         \
		fs_feec_ctx_init(&c, em, w, d->rules, &s->tables);                            \
		fn(&c, out);                                                                  \
	}
ERA_FEEC(fs_feec_v5_0)
ERA_FEEC(fs_feec_v5_4)
ERA_FEEC(fs_feec_v6_0)
ERA_FEEC(fs_feec_v6_12)

static const struct fs_policy_desc policies[] = {
	{ "v5.0", "v5.0 - v5.2", "system-wide energy per candidate; move iff prev_E - best_E > prev_E >> 4",
	  "v5.0-nomargin", true, era_init, fs_feec_v5_0_hook, era_fini, &rules_v5_0 },
	{ "v5.0-nomargin", "v5.0 - v5.2 (what-if)", "v5.0 with the margin removed: move iff best_E < prev_E",
	  "v5.0", false, era_init, fs_feec_v5_0_hook, era_fini, &rules_v5_0_nomargin },
	{ "v5.4", "v5.4", "per-PD deltas; move iff prev_d - best_d > (prev_d + base of all PDs) >> 4",
	  "v5.4-nomargin", true, era_init, fs_feec_v5_4_hook, era_fini, &rules_v5_4 },
	{ "v5.4-nomargin", "v5.4 (what-if)", "v5.4 with the margin removed: move iff best_d < prev_d",
	  "v5.4", false, era_init, fs_feec_v5_4_hook, era_fini, &rules_v5_4_nomargin },
	{ "v5.10", "late 5.10.y (5.10.228)",
	  "v5.4 scan + all-PD base margin; util_fits_cpu w/ capacity inversion, lsub spare, x1000 cost",
	  "v5.10-nomargin", true, era_init, fs_feec_v5_4_hook, era_fini, &rules_v5_10 },
	{ "v5.10-nomargin", "late 5.10.y (what-if)", "v5.10 with the margin removed: move iff best_d < prev_d",
	  "v5.10", false, era_init, fs_feec_v5_4_hook, era_fini, &rules_v5_10_nomargin },
	{ "v5.15", "late 5.15.y (2023+)",
	  "candidate-PD base margin, util-changed exit, thermal cap; util_fits_cpu, x1000 cost",
	  "v5.15-nomargin", true, era_init, fs_feec_v5_4_hook, era_fini, &rules_v5_15 },
	{ "v5.15-nomargin", "late 5.15.y (what-if)", "v5.15 with the margin removed: move iff best_d < prev_d",
	  "v5.15", false, era_init, fs_feec_v5_4_hook, era_fini, &rules_v5_15_nomargin },
	{ "v6.0", "v6.0, 6.1.0", "energy_env busy time, uW EM, thermal cap; move iff best_d < prev_d",
	  "v6.0+margin", false, era_init, fs_feec_v6_0_hook, era_fini, &rules_v6_0 },
	{ "v6.0+margin", "v6.0, 6.1.0 (what-if)", "v6.0 with the v5.x 6.25 % margin over candidate PDs' base",
	  "v6.0", true, era_init, fs_feec_v6_0_hook, era_fini, &rules_v6_0_margin },
	{ "v6.1", "6.1.63+",
	  "v6.0 helpers + util_fits_cpu levels, PD uclamp, spare -1, fits-aware final rule",
	  "v6.1+margin", false, era_init, fs_feec_v6_12_hook, era_fini, &rules_v6_1 },
	{ "v6.1+margin", "6.1.63+ (what-if)", "v6.1 with the v5.x 6.25 % margin in the energy clause",
	  "v6.1", true, era_init, fs_feec_v6_12_hook, era_fini, &rules_v6_1_margin },
	{ "v6.6", "6.6.2+", "v6.1 + runnable boosting of the frequency util (6.5, no util_est boost)",
	  "v6.6+margin", false, era_init, fs_feec_v6_12_hook, era_fini, &rules_v6_6 },
	{ "v6.6+margin", "6.6.2+ (what-if)", "v6.6 with the v5.x 6.25 % margin in the energy clause",
	  "v6.6", true, era_init, fs_feec_v6_12_hook, era_fini, &rules_v6_6_margin },
	{ "v6.12", "6.12.0 - 6.12.96", "util_fits_cpu levels, runtime EM (10*P/perf), hw+cpufreq pressure",
	  "v6.12+margin", false, era_init, fs_feec_v6_12_hook, era_fini, &rules_v6_12 },
	{ "v6.12+margin", "6.12.0 - 6.12.96 (what-if)", "v6.12 with the v5.x 6.25 % margin in the energy clause",
	  "v6.12", true, era_init, fs_feec_v6_12_hook, era_fini, &rules_v6_12_margin },
	{ "v6.12.97", "6.12.97+", "v6.12 + p's runnable_avg moved in the boosted cpu_util() (29922fdfc2a4)",
	  "v6.12.97+margin", false, era_init, fs_feec_v6_12_hook, era_fini, &rules_v6_12_97 },
	{ "v6.12.97+margin", "6.12.97+ (what-if)", "v6.12.97 with the v5.x 6.25 % margin in the energy clause",
	  "v6.12.97", true, era_init, fs_feec_v6_12_hook, era_fini, &rules_v6_12_97_margin },
	{ "v7.1", "7.1.x", "v6.12 + cpu_overutilized() without the rq's uclamp_min (9264758066061)",
	  "v7.1+margin", false, era_init, fs_feec_v6_12_hook, era_fini, &rules_v7_1 },
	{ "v7.1+margin", "7.1.x (what-if)", "v7.1 with the v5.x 6.25 % margin in the energy clause",
	  "v7.1", true, era_init, fs_feec_v6_12_hook, era_fini, &rules_v7_1_margin },
	{ "v7.2", "7.2+", "v7.1 + p's runnable_avg moved in the boosted cpu_util() (29922fdfc2a4)",
	  "v7.2+margin", false, era_init, fs_feec_v6_12_hook, era_fini, &rules_v7_2 },
	{ "v7.2+margin", "7.2+ (what-if)", "v7.2 with the v5.x 6.25 % margin in the energy clause",
	  "v7.2", true, era_init, fs_feec_v6_12_hook, era_fini, &rules_v7_2_margin },
};
#define NR_POLICIES ((int)(sizeof(policies) / sizeof(policies[0])))

int fs_policy_count(void)
{
	return NR_POLICIES;
}

const struct fs_policy_desc *fs_policy_at(int i)
{
	return i >= 0 && i < NR_POLICIES ? &policies[i] : NULL;
}

const struct fs_policy_desc *fs_policy_find(const char *name)
{
	if (!name)
		return NULL;
	/* feec arrived in v5.0: a "v4.20" policy can only mean the first one. */
	if (!strcmp(name, "v4.20") || !strcmp(name, "4.20"))
		name = "v5.0";
	for (int i = 0; i < NR_POLICIES; i++) {
		const char *n = policies[i].name;
		if (!strcmp(name, n) || (name[0] != 'v' && !strcmp(name, n + 1)))
			return &policies[i];
	}
	return NULL;
}

/* Mainline releases at which a policy starts (twins are never chosen). */
static const struct {
	int major, minor, patch; /* from this release on (patch 0: the whole minor) */
	const char *policy;
	const char *note;
} release_map[] = {
	{ 5, 0, 0, "v5.0", "v5.0 - v5.2 follow it exactly; v5.3 adds uclamp to the frequency util" },
	{ 5, 4, 0, "v5.4", "v5.4 follows it exactly; v5.6+ fit on the clamped util with a wrapping "
			   "spare, v5.10 saturating spare not modelled by v5.4" },
	{ 5, 10, 0, "v5.10", "follows late 5.10.y (with the 6.2 uclamp backports); 5.10.0 - 5.10.64 lack "
			     "x1000 cost, util_fits_cpu; v5.12 util_running, v5.14 candidate-PD base not modelled" },
	{ 5, 15, 0, "v5.15", "follows late 5.15.y (with the 6.2 uclamp backports); 5.15.0 - 5.15.10x fit on "
			     "clamped util; v5.16 inefficient states, v5.19 queued util_est not modelled" },
	{ 6, 0, 0, "v6.0", "v6.0 follows it exactly, as does 6.1.0" },
	/* 6.1.0 itself is v6.0's (the entry above); the 6.1.y stable releases after it are this one's */
	{ 6, 1, 1, "v6.1", "6.1.y with the uclamp backports (6.1.63+) follows it; 6.2 capacity "
			   "inversion, 6.2 - 6.6.0 unsigned spare, 6.5 boost differ" },
	{ 6, 6, 0, "v6.6", "6.6.2+ follows it; 6.6.0 - 6.6.1 lack the 6.7 spare and zero-util fixes; "
			   "6.8 headroom, 6.9 EM, 6.10 pressure differ; 6.6.y from mid-2026 may carry "
			   "29922fdfc2a4 (p's runnable_avg in the boosted cpu_util()), not modelled for 6.6" },
	{ 6, 12, 0, "v6.12", "6.12.0 - 6.12.96 follow it; a Debian ABI name (6.12.0-N) hides the patch "
			     "level: 6.12.97+ is v6.12.97" },
	{ 6, 12, 97, "v6.12.97", "6.12.97+ follow it (29922fdfc2a4, read in Debian 6.12.118)" },
	{ 6, 13, 0, "v6.12", "mainline 6.13 - 7.0 feec follows it; their stable trees may carry the "
			     "29922fdfc2a4 backport: compare with --policies v6.12,v6.12.97" },
	{ 7, 1, 0, "v7.1", "v7.1's cpu_overutilized() drops the rq's uclamp_min (9264758066061, from "
			   "the tip commit); it decides only where the gates are emulated" },
	{ 7, 2, 0, "v7.2", "mainline v7.2 merged 29922fdfc2a4 (by the merge logs); 7.3.4's fair.c read: "
			   "feec and its helpers are 7.1's but for that cpu_util()" },
};
#define NR_RELEASES ((int)(sizeof(release_map) / sizeof(release_map[0])))

/* "[v]MAJOR.MINOR[...]" with MAJOR > 0: n is set to the length of MAJOR.MINOR after the 'v'. */
static bool release_parse(const char *r, int *major, int *minor, int *n)
{
	return sscanf(r, "%d.%d%n", major, minor, n) >= 2 && *major > 0 && *minor >= 0;
}

bool fs_release_valid(const char *release)
{
	int major, minor, n = 0;

	return release && release_parse(release + (*release == 'v'), &major, &minor, &n);
}

const struct fs_policy_desc *fs_policy_for_release(const char *release, char *why, size_t whylen)
{
	int major = 0, minor = 0, patch = 0, n = 0;
	const char *r = release ? release : "";

	if (*r == 'v')
		r++;
	if (!release_parse(r, &major, &minor, &n)) {
		const struct fs_policy_desc *d = fs_policy_find(release_map[NR_RELEASES - 1].policy);
		snprintf(why, whylen, "release \"%s\" is not MAJOR.MINOR[...]: fell back to %s (newest)",
			 release ? release : "", d->name);
		return d;
	}
	char ver[64];
	const char *abi = "";
	snprintf(ver, sizeof(ver), "%d.%d", major, minor);
	if (r[n] == '.' && r[n + 1] >= '0' && r[n + 1] <= '9') {
		int m = 0, abi_n = 0;

		patch = atoi(r + n + 1);
		snprintf(ver, sizeof(ver), "%d.%d.%d", major, minor, patch);
		/*
		 * A distribution's ABI name (Debian's 6.1.0-13-arm64, Ubuntu's
		 * 5.15.0-91-generic) is a stable release whose patch level it
		 * does not show: past MAJOR.MINOR.0 itself.
		 */
		if (!patch && sscanf(r + n, ".0-%d%n", &abi_n, &m) == 1 && (r[n + m] == '-' || !r[n + m])) {
			patch = 1;
			snprintf(ver, sizeof(ver), "%d.%d.0-%d", major, minor, abi_n);
			abi = "a distribution's ABI name: a stable release past .0, its patch level not shown; ";
		}
	}
	int pick = -1;
	for (int i = 0; i < NR_RELEASES; i++) {
		const int m = release_map[i].major, k = release_map[i].minor, q = release_map[i].patch;
		if (major > m || (major == m && (minor > k || (minor == k && patch >= q))))
			pick = i;
	}
	if (pick < 0) {
		snprintf(why, whylen, "%d.%d has no EAS (feec arrived in v5.0): fell back to v5.0 (alias v4.20)",
			 major, minor);
		return fs_policy_find("v5.0");
	}
	snprintf(why, whylen, "%s -> %s: %snearest earlier policy (%s); stable and Android trees "
		 "carry backports, check them", ver, release_map[pick].policy, abi, release_map[pick].note);
	return fs_policy_find(release_map[pick].policy);
}

int fs_policy_init(struct fs_policy *p, const struct fs_policy_desc *d, const struct fs_em *em,
		   char *err, size_t errlen)
{
	memset(p, 0, sizeof(*p));
	if (!d || !em) {
		snprintf(err, errlen, "policy init: %s", !d ? "no policy" : "no Energy Model");
		return -1;
	}
	if (em->nr_cpus <= 0 || em->nr_cpus > FS_MAX_CPUS || em->nr_pd > FS_MAX_PDS) {
		snprintf(err, errlen, "EM %s: nr_cpus %d / nr_pd %d out of range (finalize the EM first)",
			 em->source, em->nr_cpus, em->nr_pd);
		return -1;
	}
	p->desc = d;
	p->em = em;
	if (d->init && d->init(&p->state, d, em, err, errlen))
		return -1;
	return 0;
}

void fs_policy_fini(struct fs_policy *p)
{
	if (p->desc && p->desc->fini)
		p->desc->fini(p->state);
	p->state = NULL;
}

void fs_policy_feec(const struct fs_policy *p, const struct fs_wakeup *w, struct fs_feec_result *out)
{
	/* cand[] is filled entry by entry up to nr_cand: leave the rest. */
	memset(out, 0, offsetof(struct fs_feec_result, cand));
	p->desc->feec(p->state, p->desc, p->em, w, out);
}

/* Rules equal but for the margin (static consts: padding is zero in both). */
static bool rules_differ_only_in_margin(const struct fs_feec_rules *a, const struct fs_feec_rules *b)
{
	struct fs_feec_rules x;

	memcpy(&x, a, sizeof(x));
	x.margin = b->margin;
	return !memcmp(&x, b, sizeof(x));
}

bool fs_policy_can_redecide(const struct fs_policy *p, const struct fs_policy *from)
{
	const struct fs_policy_desc *a = p->desc, *b = from->desc;

	/* The era tables follow the EM and the rules, the body the hook. */
	return a->feec == b->feec && a->init == b->init && p->em == from->em && a->rules &&
	       b->rules && rules_differ_only_in_margin(a->rules, b->rules);
}

void fs_policy_redecide(const struct fs_policy *twin, const struct fs_feec_result *from,
			struct fs_feec_result *out)
{
	/* Scan, candidates and early exits never read the margin: same for both. */
	memcpy(out, from, offsetof(struct fs_feec_result, cand) + (size_t)from->nr_cand * sizeof(from->cand[0]));
	if (!from->in.valid)
		return;
	out->cpu = -1;
	out->best_cpu = -1;
	out->reason = FS_FEEC_FORK;
	out->eligible = false;
	out->threshold = 0;
	out->has_threshold = false;
	fs_feec_decide(twin->desc->rules, out);
}

const char *fs_feec_reason_name(enum fs_feec_reason r)
{
	static const char *const names[FS_FEEC__NR] = {
		[FS_FEEC_FORK] = "fork",
		[FS_FEEC_AFFINE] = "affine",
		[FS_FEEC_NO_PD] = "no-pd",
		[FS_FEEC_OVERUTILIZED] = "overutilized",
		[FS_FEEC_NO_ASYM] = "no-asym",
		[FS_FEEC_SYNC] = "sync",
		[FS_FEEC_ZERO_UTIL] = "zero-util",
		[FS_FEEC_UTIL_CHANGED] = "util-changed",
		[FS_FEEC_NO_CANDIDATE] = "no-candidate",
		[FS_FEEC_PREV_UNFIT] = "prev-unfit",
		[FS_FEEC_PREV_BEST] = "prev-best",
		[FS_FEEC_MARGIN_KEPT] = "margin-kept",
		[FS_FEEC_MOVED] = "moved",
		[FS_FEEC_FITS_RULE] = "fits-rule",
		[FS_FEEC_CURRENT_CPU] = "current-cpu",
	};
	return (unsigned)r < FS_FEEC__NR ? names[r] : "unknown";
}

int fs_feec_explain(const struct fs_feec_result *r, char *buf, size_t len)
{
	unsigned long long saving = 0;

	if (r->prev_delta != UINT64_MAX && r->best_delta <= r->prev_delta)
		saving = r->prev_delta - r->best_delta;
	switch (r->reason) {
	case FS_FEEC_FORK: return snprintf(buf, len, "new task: feec does not run for WF_FORK");
	case FS_FEEC_AFFINE: return snprintf(buf, len, "one allowed CPU: no placement decision");
	case FS_FEEC_NO_PD: return snprintf(buf, len, "no perf domains (EAS off): feec returned -1");
	case FS_FEEC_OVERUTILIZED: return snprintf(buf, len, "root domain overutilized: feec returned -1");
	case FS_FEEC_NO_ASYM: return snprintf(buf, len, "no asymmetric-capacity domain spans prev: feec returned -1");
	case FS_FEEC_SYNC: return snprintf(buf, len, "sync wake-up took the waker's CPU %d", r->cpu);
	case FS_FEEC_ZERO_UTIL: return snprintf(buf, len, "task utilization 0: stays on prev CPU %d", r->cpu);
	case FS_FEEC_UTIL_CHANGED: return snprintf(buf, len, "an energy fell below its base (CPU utilization has changed): prev CPU %d kept", r->cpu);
	case FS_FEEC_NO_CANDIDATE: return snprintf(buf, len, "no CPU fits the task: prev CPU %d kept", r->cpu);
	case FS_FEEC_PREV_UNFIT: return snprintf(buf, len, "prev CPU cannot take the task: CPU %d (delta %llu)", r->cpu, (unsigned long long)r->best_delta);
	case FS_FEEC_PREV_BEST: return snprintf(buf, len, "prev CPU %d is the cheapest (delta %llu)", r->cpu, (unsigned long long)r->prev_delta);
	case FS_FEEC_MARGIN_KEPT:
		return snprintf(buf, len, "margin kept prev: saving %llu %s threshold %llu", saving,
				saving == r->threshold ? "=" : "<", (unsigned long long)r->threshold);
	case FS_FEEC_MOVED:
		if (r->has_threshold)
			return snprintf(buf, len, "moved to CPU %d: saving %llu > threshold %llu", r->cpu, saving, (unsigned long long)r->threshold);
		return snprintf(buf, len, "moved to CPU %d: saving %llu", r->cpu, saving);
	case FS_FEEC_FITS_RULE:
		return snprintf(buf, len, "util_fits_cpu levels decided: CPU %d (best delta %llu, prev delta %llu)", r->cpu,
				(unsigned long long)r->best_delta, (unsigned long long)r->prev_delta);
	case FS_FEEC_CURRENT_CPU: return snprintf(buf, len, "WF_CURRENT_CPU wake-up: the waker's CPU taken before feec");
	default: return snprintf(buf, len, "unknown reason %d", (int)r->reason);
	}
}
