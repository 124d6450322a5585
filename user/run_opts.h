/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The options `live` and `replay` share, parsed and applied in one place so
 * they mean the same in both: the Energy Model and policies, the task
 * filters, and the outputs.
 */
#ifndef FEECSCOPE_RUN_OPTS_H
#define FEECSCOPE_RUN_OPTS_H

#include "cli.h"
#include "pipeline.h"
#include "outputs_open.h"
#include "records/recording.h"

/* Long-only keys of the shared options; a command's own start at FS_RUN_OWN. */
enum {
	FS_RUN_CSV = FS_OPT_LONG,
	FS_RUN_SUMMARY,
	FS_RUN_THREADS,
	FS_RUN_CSV_LAYOUT,
	FS_RUN_PERFETTO,
	FS_RUN_PHYSICS,
	FS_RUN_NO_SIM,
	FS_RUN_PACKAGES,
	FS_RUN_WORKLOAD_CSV,
	FS_RUN_SIM_HZ,
	FS_RUN_SIM_RATE,
	FS_RUN_OWN = FS_OPT_LONG + 64,
};

extern const struct fs_opt fs_run_policy_opts[]; /* -e --em, -P --policies, -k --kernel-policy */
extern const struct fs_opt fs_run_filter_opts[]; /* -p --pid, -c --comm */
extern const struct fs_opt fs_run_output_opts[]; /* --csv, --csv-layout, -j --json, --summary, --perfetto, --threads, --packages, --workload-csv */

struct fs_run_opts {
	const char *em_spec;
	const char *policies;      /* every name checked */
	const char *kernel_policy; /* checked */
	struct fs_filter filter;
	const char *csv, *json, *summary, *perfetto;
	const char *workload_csv;  /* --workload-csv FILE */
	const char *packages;      /* --packages FILE (packages.list), NULL = none */
	bool csv_wide;
	bool threads;
	bool no_sim;
	enum fs_sim_physics physics;
	unsigned long sim_hz;            /* --sim-hz + 1; 0: not given */
	unsigned long sim_rate_limit_us; /* --sim-rate-limit-us + 1; 0: not given */
};

/* One parsed option: 1 taken, 0 not a shared option, -1 after printing the usage error. */
int fs_run_opt(const char *cmd, struct fs_run_opts *o, int key, const char *arg);
/* After the last option: 0, or -1 after printing the usage error (options that exclude each other). */
int fs_run_opts_check(const char *cmd, const struct fs_run_opts *o);

/*
 * Fill po's policies, filter and threads: --policies as given, else
 * --kernel-policy or the policy for release ("" = unknown: the newest) and
 * its twin; head gets the "policies: ..." line the summary starts with
 * ("" with --policies).
 */
void fs_run_apply(const struct fs_run_opts *o, const char *release, struct fs_pipeline_opts *po,
		  char *head, size_t headlen);

/*
 * The simulation's settings (docs/simulation.md, "Settings the recording
 * does not tell"): the options' where given, else the recording's (m, NULL
 * for none), for each of em's PDs; the rest left to the defaults.
 */
void fs_run_sim_settings(const struct fs_run_opts *o, const struct fs_rec_meta *m, const struct fs_em *em,
			 struct fs_sim_settings *set);

/* Does an output (or live's --record, NULL if none) write to stdout ("-")? Then nothing else goes there. */
bool fs_run_stdout_taken(const struct fs_run_opts *o, const char *record);

/* The output files (out->record set first) and the summary on stdout, unless an output goes there. */
void fs_run_output_paths(const struct fs_run_opts *o, struct fs_output_paths *out);

/*
 * After the run: a warning for every filter item that kept no wake-up;
 * FS_EXIT_FAIL when the run had wake-ups and the filters kept none of them,
 * else FS_EXIT_OK.
 */
int fs_run_filter_end(const char *cmd, const struct fs_stats *st, const struct fs_filter *f);

#endif /* FEECSCOPE_RUN_OPTS_H */
