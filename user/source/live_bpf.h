/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The BPF collector as userspace sees it: probe the kernel, open, configure,
 * load and attach the collector in bpf/, learn every CPU's struct rq, then
 * stream its ring buffer to a callback. One destroy for every exit path.
 */
#ifndef FEECSCOPE_LIVE_BPF_H
#define FEECSCOPE_LIVE_BPF_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "../records/live_wire.h"

/* Called for every ring-buffer record; a non-zero return stops the poll. */
typedef int (*fs_live_record_fn)(void *ctx, const void *data, size_t size);

struct fs_live_bpf_opts {
	const char *btf_path;  /* --btf: external vmlinux BTF for CO-RE, NULL = the kernel's */
	bool raw_tp;           /* --raw-tp: the no-BTF kernel's attach path (raw_tp, no fentry) */
	size_t ringbuf_size;   /* bytes in all, power of two: split into one ring per CPU */
	int verbose;           /* 0..3: -v probes, -vvv libbpf's own log */
	fs_live_record_fn on_record;
	void *ctx;
};

/* What the probes found, for the banner and docs/live.md. */
struct fs_live_features {
	bool kernel_btf;        /* /sys/kernel/btf/vmlinux: tp_btf and fentry possible */
	bool tp_btf;            /* sched events attached as tp_btf (else raw_tp) */
	bool fentry_select;     /* fentry on select_task_rq_fair: wake flags, no-select filtering */
	int select_nargs;       /* 3 (v5.11+) or 4 */
	bool overutilized_tp;   /* sched_overutilized_tp attached */
	bool ksym_runqueues;    /* `runqueues` in kallsyms: rq pointers from the ksym */
	/*
	 * How snapshots read other CPUs' struct rq (bpf/feecscope.bpf.h, enum
	 * rq_read): copies of its cache lines, or loads through a BTF pointer
	 * from bpf_rdonly_cast() (v6.2+) or the runqueues ksym.
	 */
	enum { FS_RQ_COPY, FS_RQ_CAST, FS_RQ_KSYM } rq_read;
	unsigned int sd_asym_flag;
	const char *sd_asym_flag_name;
	bool util_est_off;
	int nr_cpus;            /* possible CPUs */
	int rq_known;           /* CPUs whose struct rq was learnt */
	__u64 rq_unknown_mask;  /* possible CPUs without a struct rq (offline at start) */
	bool bpf_loop;          /* bpf_loop() helper (v5.17+): the ksym harvest uses it */
	int progs_loaded;       /* programs in the kernel, of progs_wanted this kernel could run */
	int progs_wanted;
	int loads;              /* object loads (full verifications) it took: 1 unless a fallback */
	__u64 startup_ns;       /* fs_live_bpf_start(): entry to a streaming collector */
	char lost[320];         /* "" or what a refused program costs and why, for the header */
	bool busyfreq;          /* busy time at each frequency loaded (bpf/busyfreq.bpf.c) */
	char busyfreq_off[160]; /* "" or why not */
	bool freq_records;      /* with busyfreq: FS_REC_FREQ at each frequency change */
};

struct fs_live_bpf;

/*
 * Everything up to a streaming collector. Returns 0, or -1 with err set;
 * *noperm is set when the failure is the environment's (exit 3): missing
 * privileges, no BTF, bpf() refused (live_env.h).
 */
int fs_live_bpf_start(struct fs_live_bpf **out, const struct fs_live_bpf_opts *o,
		      bool *noperm, char *err, size_t errlen);
/* Wait up to timeout_ms for records and deliver them; returns records seen or -errno. */
int fs_live_bpf_poll(struct fs_live_bpf *b, int timeout_ms);
/* Detach every program (shutdown): nothing new enters the ring buffer. */
void fs_live_bpf_stop(struct fs_live_bpf *b);
/* Deliver everything already in the ring buffer without waiting. */
int fs_live_bpf_drain(struct fs_live_bpf *b);
/* CLOCK_BOOTTIME in ns: the clock of bpf_ktime_get_boot_ns(), every record's ts_ns. */
__u64 fs_live_boot_ns(void);
/* Records the per-CPU ring merge had to send out of time order (see ring_merge.h). */
__u64 fs_live_bpf_late_records(const struct fs_live_bpf *b);
/* Sum of the per-CPU counters (enum fs_live_counter). */
int fs_live_bpf_counters(struct fs_live_bpf *b, __u64 out[FS_CNT__NR]);
const struct fs_live_features *fs_live_bpf_features(const struct fs_live_bpf *b);
/* The busy-time-at-frequency maps' fds (cpu_fd may be NULL); -1 when its programs are not loaded. */
int fs_live_bpf_busy_maps(struct fs_live_bpf *b, int *slot_fd, int *cpu_fd);
/* The FS_REC_FREQ records' policy map (struct fs_freq_policy); -1 when they are off. */
int fs_live_bpf_freq_map(struct fs_live_bpf *b);
/* Attach its programs once the maps are armed; -1 with why (and they are off). */
int fs_live_bpf_busy_attach(struct fs_live_bpf *b, char *why, size_t whylen);
/* Busy time at each frequency is off, for why: the status (-v) says so. */
void fs_live_bpf_busy_off(struct fs_live_bpf *b, const char *why);
/* Its programs' BPF run time and runs (kernel.bpf_stats_enabled=1); -1 when off. */
int fs_live_bpf_busy_stats(struct fs_live_bpf *b, __u64 *run_ns, __u64 *run_cnt);
/* Per-program BPF run time (kernel.bpf_stats_enabled must be 1): totals over all programs. */
int fs_live_bpf_prog_stats(struct fs_live_bpf *b, __u64 *run_ns, __u64 *run_cnt);

/* The snapshots' own times (FS_BENCH_SELF_TIME=1): 10th, 50th, 90th percentile. */
struct fs_self_quantiles {
	__u64 count;
	__u64 ns[3];   /* the middle of the bucket holding each (the last bucket: that or more) */
};
int fs_live_bpf_self_times(struct fs_live_bpf *b, struct fs_self_quantiles *q);
void fs_live_bpf_destroy(struct fs_live_bpf *b); /* accepts NULL */

/* Privileges: root, or CAP_BPF + CAP_PERFMON in the effective set. why names what is missing. */
bool fs_live_have_privileges(char *why, size_t whylen);

#endif /* FEECSCOPE_LIVE_BPF_H */
