/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A live run from the loaded collector to the final summary: records from
 * the BPF rings are paired and fed to the pipeline, the view refreshes
 * every interval, and on the end (--duration, q, Ctrl-C, SIGTERM, SIGHUP)
 * the rings are drained, the CPU times read and the outputs completed.
 */
#ifndef FEECSCOPE_LIVE_RUN_H
#define FEECSCOPE_LIVE_RUN_H

#include "pipeline.h"
#include "source/live_bpf.h"

struct fs_live_run_cfg {
	double duration_s;            /* 0: until q, Ctrl-C, SIGTERM or SIGHUP */
	double interval_s;
	const char *kernel_release;
	int nr_cpus;                  /* configured CPUs (the EM may cover fewer) */
	struct fs_live_bpf_opts bpf;  /* btf_path, raw_tp, ringbuf_size, verbose; callbacks set here */
	bool stdout_taken;            /* an output writes to stdout: the view and its lines go to stderr */
};

struct fs_live_run;

/*
 * Catch Ctrl-C, SIGTERM and SIGHUP from the start (a background job inherits
 * SIGINT ignored, and start-up can take seconds): one during start-up ends
 * the run as soon as the collector is up, every output complete. restart:
 * set-up's system calls restart; fs_live_run() turns it off for its poll.
 */
void fs_live_run_catch_signals(bool restart);
/* Before anything else: privileges and a working bpf(); -1 with err (exit FS_EXIT_ENV). */
int fs_live_run_check_env(char *err, size_t errlen);
/* Load and attach the collector: NULL with err and *exit_code (FS_EXIT_ENV for the environment). */
struct fs_live_run *fs_live_run_start(const struct fs_live_run_cfg *cfg, int *exit_code, char *err,
				      size_t errlen);
/* Observe until the end with the pipeline po describes (its outputs attached); returns the exit code. */
int fs_live_run(struct fs_live_run *r, const struct fs_pipeline_opts *po);
void fs_live_run_free(struct fs_live_run *r); /* accepts NULL */

#endif /* FEECSCOPE_LIVE_RUN_H */
