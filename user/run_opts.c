// SPDX-License-Identifier: GPL-2.0
/* The options live and replay share (run_opts.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "run_opts.h"
#include "output/out_file.h"

const struct fs_opt fs_run_policy_opts[] = {
	{ "em", 'e', "SPEC", "The Energy Model: a built-in profile (feecscope em --list), a file written by "
	  "`feecscope em --save`, or a copy of a kernel's debugfs energy_model directory. Default: live "
	  "reads this kernel's EM, else takes a built-in profile for its CPU count; replay the EM inside "
	  "FILE. An EM that is not the observed kernel's own makes feecscope emulate the EAS gates from "
	  "the landscape (docs/accounting.md)." },
	{ "policies", 'P', "LIST", "The policies to run, comma-separated; the first is the reference [0] "
	  "every other is compared with. `--policies` alone lists them, as `feecscope policies` does." },
	{ "kernel-policy", 'k', "NAME", "The policy the observed kernel follows, run as the reference with "
	  "its twin (the same kernel with the margin added or removed). Default: the policy for the "
	  "kernel release (uname -r live, the recorded one in replay)." },
	{ "sim-physics", FS_RUN_PHYSICS, "MODEL", "How work takes time in the closed-loop simulation "
	  "(docs/simulation.md): device, as on silicon, in proportion to capacity x frequency (default); "
	  "lab, every CPU at every OPP at one speed, as under QEMU -icount (the EAS lab's recordings)." },
	{ "sim-hz", FS_RUN_SIM_HZ, "N", "The simulated kernel's HZ (its tick), in place of the recorded "
	  "CONFIG_HZ or, where the recording does not have it, the assumed 250." },
	{ "sim-rate-limit-us", FS_RUN_SIM_RATE, "N", "schedutil's rate_limit_us on every simulated PD, in "
	  "place of the recorded or, where the recording does not have it, the assumed 1000." },
	{ "no-sim", FS_RUN_NO_SIM, NULL, "Leave out the closed-loop simulation." },
	{ 0 }
};

const struct fs_opt fs_run_filter_opts[] = {
	{ "pid", 'p', "PID[,PID...]", "Only wake-ups of these threads, or of all threads of these processes. "
	  "Repeat the option or give a comma list; a wake-up is kept when it matches any --pid or --comm." },
	{ "comm", 'c', "NAME[,NAME...]", "Only wake-ups of tasks with these names (the kernel's comm, at "
	  "most 15 characters). Repeat the option or give a comma list." },
	{ 0 }
};

const struct fs_opt fs_run_output_opts[] = {
	{ "csv", FS_RUN_CSV, "FILE", "The decision CSV (docs/csv.md): a row per wake-up and policy, in "
	  "wake-up order, written at the end; FILE ending in .gz is written gzip." },
	{ "csv-layout", FS_RUN_CSV_LAYOUT, "LAYOUT", "wide: the older layout instead, a row per wake-up "
	  "with columns per policy, rows as placements close. Default: long." },
	{ "json", 'j', "FILE", "The report as JSON (docs/json.md); '-' writes it to stdout, and the "
	  "summary then stays off stdout." },
	{ "summary", FS_RUN_SUMMARY, "FILE", "Also write the summary to FILE." },
	{ "perfetto", FS_RUN_PERFETTO, "FILE", "A Perfetto trace for ui.perfetto.dev (docs/perfetto.md); "
	  "FILE ending in .gz is written gzip-compressed." },
	{ "workload-csv", FS_RUN_WORKLOAD_CSV, "FILE", "The workload the closed loop simulated (docs/csv.md): "
	  "a row per task, with its activations, work, CPU time and first and last wake-up; FILE ending in "
	  ".gz is written gzip." },
	{ "threads", FS_RUN_THREADS, NULL, "List each process's threads under it in the summary." },
	{ "packages", FS_RUN_PACKAGES, "FILE", "Android's packages.list (adb pull "
	  "/data/system/packages.list): the summary and JSON group processes by the app their uid is "
	  "(docs/apps.md). live reads the device's own when it can." },
	{ 0 }
};

/* A policy name, or the usage error with the closest name. */
static const struct fs_policy_desc *policy_arg(const char *cmd, const char *opt, const char *name)
{
	const struct fs_policy_desc *d = fs_policy_find(name);
	const char *names[64];
	int n = 0;

	if (d)
		return d;
	for (int i = 0; i < fs_policy_count() && n < 64; i++)
		names[n++] = fs_policy_at(i)->name;
	const char *near = fs_cli_closest(name, names, n);

	if (near)
		fs_cli_usage(cmd, "%s: unknown policy '%s' (did you mean '%s'?)", opt, name, near);
	else
		fs_cli_usage(cmd, "%s: unknown policy '%s' (`feecscope policies` lists them)", opt, name);
	return NULL;
}

static int check_policy_list(const char *cmd, const char *list)
{
	char name[64];
	int n = 0;

	for (const char *p = list;; p++) {
		size_t len = strcspn(p, ",");

		if (!len)
			return fs_cli_usage(cmd, "--policies '%s': an empty item", list), -1;
		if (++n > FS_MAX_POLICIES)
			return fs_cli_usage(cmd, "--policies: at most %d policies", FS_MAX_POLICIES), -1;
		snprintf(name, sizeof(name), "%.*s", (int)(len < 63 ? len : 63), p);
		if (!policy_arg(cmd, "--policies", name))
			return -1;
		p += len;
		if (!*p)
			return 0;
	}
}

/* A whole number in lo..hi for opt into *out, stored as value + 1 (0: not given); 1, or -1 after the usage error. */
static int sim_number(const char *cmd, const char *opt, const char *arg, unsigned long lo, unsigned long hi,
		      unsigned long *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (!*arg || *end || errno || arg[0] == '-' || v < lo || v > hi)
		return fs_cli_usage(cmd, "%s '%s': expected a whole number %lu..%lu", opt, arg, lo, hi), -1;
	*out = v + 1;
	return 1;
}

int fs_run_opt(const char *cmd, struct fs_run_opts *o, int key, const char *arg)
{
	char why[256];

	switch (key) {
	case 'e': o->em_spec = arg; return 1;
	case 'P':
		if (check_policy_list(cmd, arg))
			return -1;
		o->policies = arg;
		return 1;
	case 'k':
		if (!policy_arg(cmd, "--kernel-policy", arg))
			return -1;
		o->kernel_policy = arg;
		return 1;
	case 'p':
		if (fs_filter_add_pids(&o->filter, arg, why, sizeof(why)))
			return fs_cli_usage(cmd, "%s", why), -1;
		return 1;
	case 'c':
		if (fs_filter_add_comms(&o->filter, arg, why, sizeof(why)))
			return fs_cli_usage(cmd, "%s", why), -1;
		return 1;
	case FS_RUN_CSV: o->csv = arg; return 1;
	case 'j': o->json = arg; return 1;
	case FS_RUN_SUMMARY: o->summary = arg; return 1;
	case FS_RUN_PERFETTO: o->perfetto = arg; return 1;
	case FS_RUN_WORKLOAD_CSV: o->workload_csv = arg; return 1;
	case FS_RUN_CSV_LAYOUT:
		if (fs_csv_layout_wide(arg) < 0)
			return fs_cli_usage(cmd, "--csv-layout '%s': expected long or wide", arg), -1;
		o->csv_wide = fs_csv_layout_wide(arg);
		return 1;
	case FS_RUN_THREADS: o->threads = true; return 1;
	case FS_RUN_PACKAGES: o->packages = arg; return 1;
	case FS_RUN_NO_SIM: o->no_sim = true; return 1;
	case FS_RUN_PHYSICS:
		if (strcmp(arg, "device") && strcmp(arg, "lab"))
			return fs_cli_usage(cmd, "--sim-physics '%s': expected device or lab", arg), -1;
		o->physics = strcmp(arg, "lab") ? FS_SIM_DEVICE : FS_SIM_LAB;
		return 1;
	case FS_RUN_SIM_HZ:
		return sim_number(cmd, "--sim-hz", arg, 10, 10000, &o->sim_hz);
	case FS_RUN_SIM_RATE:
		return sim_number(cmd, "--sim-rate-limit-us", arg, 0, 10000000, &o->sim_rate_limit_us);
	}
	return 0;
}

int fs_run_opts_check(const char *cmd, const struct fs_run_opts *o)
{
	if (o->policies && o->kernel_policy)
		return fs_cli_usage(cmd, "--policies and --kernel-policy exclude each other"), -1;
	if (o->workload_csv && o->no_sim)
		return fs_cli_usage(cmd, "--workload-csv: the workload is the simulation's: not with --no-sim"), -1;
	return 0;
}

void fs_run_apply(const struct fs_run_opts *o, const char *release, struct fs_pipeline_opts *po,
		  char *head, size_t headlen)
{
	const struct fs_policy_desc *k;
	char why[512];

	po->filter = o->filter;
	po->threads = o->threads;
	po->no_sim = o->no_sim;
	po->sim_physics = o->physics;
	po->nr_policies = 0;
	head[0] = 0;
	if (o->policies) {
		char name[64];

		for (const char *p = o->policies; *p && po->nr_policies < FS_MAX_POLICIES;) {
			size_t len = strcspn(p, ",");

			snprintf(name, sizeof(name), "%.*s", (int)(len < 63 ? len : 63), p);
			po->policies[po->nr_policies++] = fs_policy_find(name); /* checked when parsed */
			p += len + (p[len] == ',');
		}
		return;
	}
	if (o->kernel_policy) {
		k = fs_policy_find(o->kernel_policy);
		po->sim_kernel_policy = k; /* the self-check follows --kernel-policy too */
		snprintf(why, sizeof(why), "--kernel-policy %s", o->kernel_policy);
	} else if (release && *release) {
		k = fs_policy_for_release(release, why, sizeof(why));
	} else {
		char ignored[400];

		k = fs_policy_for_release("", ignored, sizeof(ignored));
		snprintf(why, sizeof(why), "no kernel release in the input: newest mainline policy %s", k->name);
	}
	const struct fs_policy_desc *t = k->twin ? fs_policy_find(k->twin) : NULL;

	po->policies[po->nr_policies++] = k;
	if (t)
		po->policies[po->nr_policies++] = t;
	snprintf(head, headlen, "policies: %s (reference: %s)%s%s", k->name, why, t ? ", twin " : "",
		 t ? t->name : "");
}

/* The PD's cpufreq policy in m: the one that holds its first CPU; NULL if none was recorded. */
static const struct fs_rec_cpufreq *pd_policy(const struct fs_rec_meta *m, const struct fs_em *em, int pd)
{
	const int cpu = fs_em_pd_first_cpu(&em->pd[pd]);

	for (int i = 0; m && i < m->nr_cpufreq; i++)
		if ((m->cpufreq[i].cpus >> cpu) & 1)
			return &m->cpufreq[i];
	return NULL;
}

void fs_run_sim_settings(const struct fs_run_opts *o, const struct fs_rec_meta *m, const struct fs_em *em,
			 struct fs_sim_settings *set)
{
	memset(set, 0, sizeof(*set));
	if (o->sim_hz)
		set->hz = (unsigned int)(o->sim_hz - 1), set->hz_src = FS_SIM_GIVEN;
	else if (m && m->hz)
		set->hz = m->hz, set->hz_src = FS_SIM_RECORDED;
	for (int pd = 0; pd < em->nr_pd && pd < FS_MAX_PDS; pd++) {
		const struct fs_rec_cpufreq *c = pd_policy(m, em, pd);

		if (c)
			snprintf(set->governor[pd], sizeof(set->governor[pd]), "%s", c->governor);
		if (o->sim_rate_limit_us) {
			set->rate_limit_ns[pd] = (__u64)(o->sim_rate_limit_us - 1) * 1000;
			set->rate_src[pd] = FS_SIM_GIVEN;
		} else if (c && c->rate_limit_us >= 0) {
			set->rate_limit_ns[pd] = (__u64)c->rate_limit_us * 1000;
			set->rate_src[pd] = FS_SIM_RECORDED;
		}
	}
}

void fs_run_output_paths(const struct fs_run_opts *o, struct fs_output_paths *out)
{
	out->csv = o->csv;
	out->json = o->json;
	out->summary = o->summary;
	out->perfetto = o->perfetto;
	out->workload_csv = o->workload_csv;
	out->csv_wide = o->csv_wide;
	out->summary_out = fs_run_stdout_taken(o, out->record) ? NULL : stdout;
}

bool fs_run_stdout_taken(const struct fs_run_opts *o, const char *record)
{
	return fs_out_is_stdout(o->csv) || fs_out_is_stdout(o->json) || fs_out_is_stdout(o->summary) ||
	       fs_out_is_stdout(o->perfetto) || fs_out_is_stdout(o->workload_csv) || fs_out_is_stdout(record);
}

int fs_run_filter_end(const char *cmd, const struct fs_stats *st, const struct fs_filter *f)
{
	char list[1024];
	int n = fs_filter_unmatched(f, list, sizeof(list));
	const __u64 kept = st->wakeups + st->trace_rows; /* a trace's are its activations */

	if (n)
		fs_cli_error(cmd, "warning: %s matched no wake-up (of %llu)", list,
			     (unsigned long long)(kept + st->filtered));
	if (fs_filter_active(f) && !kept && st->filtered) {
		fs_cli_error(cmd, "the filters kept none of the %llu wake-ups", (unsigned long long)st->filtered);
		return FS_EXIT_FAIL;
	}
	return FS_EXIT_OK;
}
