/* SPDX-License-Identifier: GPL-2.0 */
/* feecscope report's outputs (docs/analysis.md): the many-run report as text, JSON or CSV. */
#ifndef FEECSCOPE_MANY_REPORT_H
#define FEECSCOPE_MANY_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include "../record.h"
#include "../engine/apps.h"
#include "../engine/fj.h"

/* What fs_many_run() (user/many_runs.c) found: the report these functions print. */
#define FS_APP_LABEL 128

struct fs_run_proc {
	char comm[FS_COMM_LEN];
	char app[FS_APP_LABEL];         /* its app's label (engine/apps.h), "" = none */
	__u64 app_key;                  /* its app's package names and Android user, hashed: what groups
					 * it across recordings, whose uids differ (many_runs.c) */
	__u64 wakeups, runtime_ns;
	fs_fj_t delta_fj;               /* what the margin costs in this process */
};

/* One recording's result. */
struct fs_run_result {
	const char *path;
	char error[512];                /* non-empty: it could not be replayed (fully) */
	bool partial;                   /* replayed up to a damage, the error says where */
	char kernel_release[64];
	char em[256];                   /* the EM's source line */
	char policy[32], twin[32];      /* the verdict's margin policy and its twin ("" = no verdict) */
	bool has_verdict;
	bool no_unit;                   /* a trace's EM in bogoWatts: no energy in mJ, no verdict */
	__u64 wakeups;
	__u64 span_ns;
	fs_fj_t cpu_fj;                 /* the CPUs' energy */
	fs_fj_t delta_fj, lo_fj, hi_fj; /* the verdict and its interval */
	bool has_ci;                    /* else too few units (FS_VERDICT_MIN_UNITS) for lo..hi */
	bool measurable;
	/* A closed-loop verdict's interval as a variance (fJ^2) at ci_df degrees of freedom; ci_df 0: none */
	double ci_var;
	size_t ci_df;
	size_t nr_blocks;
	fs_fj_t *blocks;                /* the verdict's time-block sums, which the groups resample */
	size_t nr_procs;
	struct fs_run_proc *procs;
	const struct fs_apps *apps;     /* --packages, for every recording; NULL = its own list, if any */
	char apps_from[FS_APPS_FROM];            /* where its app names came from (fs_apps.from), "" = none */
	size_t nr_packages;             /* the packages that list named */
	/*
	 * A trace's CPU power rails (sim/rails.h) and the EM's energy for its
	 * traced busy time: mJ when every CPU rail covers the window
	 * (rails_full), else mean mW where covered and over the window.
	 */
	bool has_rails, rails_full;
	double rails_measured, rails_em;
};

/* A set of recordings summed: a group (same EM and kernel) or all of them. */
struct fs_runs_total {
	const char *em, *kernel_release; /* NULL for the combination of all */
	int recordings;                 /* with a verdict */
	__u64 wakeups, span_ns;
	fs_fj_t cpu_fj, delta_fj, lo_fj, hi_fj;
	bool has_ci, measurable;
	bool sim_ci;                    /* lo..hi sums closed-loop intervals, else resamples time blocks */
};

struct fs_many {
	size_t nr_runs;
	struct fs_run_result *runs;     /* in the order given */
	size_t nr_groups;
	struct fs_runs_total *groups;   /* in order of first appearance */
	struct fs_runs_total all;
	size_t nr_procs;
	struct fs_run_proc *procs;      /* all recordings' processes by app, else comm, largest |delta| first */
	bool by_app;                    /* a list named apps (--packages, or a recording's own): procs by app where known */
};


void fs_many_print_text(FILE *o, const struct fs_many *m);
void fs_many_print_json(FILE *o, const struct fs_many *m);
/* One row per recording. */
void fs_many_print_csv(FILE *o, const struct fs_many *m);

/*
 * One of them as an output (output.h's many hook, many_out.c): into stream
 * (not closed) or, when stream is NULL, into a file created at path once the
 * report is complete (out_file.h: ".gz" writes gzip). 0, or -1 with err.
 */
enum fs_many_format { FS_MANY_TEXT, FS_MANY_JSON, FS_MANY_CSV };
struct fs_output;
int fs_output_many(struct fs_output *o, enum fs_many_format fmt, FILE *stream, const char *path, char *err,
		   size_t errlen);

#endif /* FEECSCOPE_MANY_REPORT_H */
