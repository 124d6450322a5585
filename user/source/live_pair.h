/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pairs each sched_waking snapshot with the placement the kernel then made
 * (sched_migrate_task inside the wake-up, else sched_wakeup's CPU) into one
 * complete struct fs_wakeup, and hands records on in arrival order.
 */
#ifndef FEECSCOPE_LIVE_PAIR_H
#define FEECSCOPE_LIVE_PAIR_H

#include <stddef.h>
#include <linux/types.h>
#include "record.h"

/* Receives every complete record, in the order the collector produced them. */
typedef int (*fs_pair_emit_fn)(void *ctx, const struct fs_rec_hdr *rec);

struct fs_pair_stats {
	__u64 snapshots;      /* FS_REC_WAKEUP snapshots received (forks included) */
	__u64 paired;         /* snapshots completed by a placement */
	__u64 via_migrate;    /* ... of which the CPU came from sched_migrate_task */
	__u64 expired;        /* snapshots never placed within the bound: sent with chosen_cpu -1 */
	__u64 superseded;     /* a newer snapshot of the same pid arrived first (counted in expired too) */
	__u64 runnable;       /* wake-ups of still-queued tasks (ttwu_runnable): no decision */
	__u64 place_unpaired; /* sched_wakeup without a snapshot (runnable, RT, or a dropped snapshot) */
	__u64 place_mismatch; /* sched_wakeup's CPU differed from the migrate's dest_cpu */
	__u64 migrations;     /* FS_REC_MIGRATE outside wake-ups passed on */
	__u64 malformed;      /* records with a bad size or type: dropped */
};

struct fs_pair;

/*
 * nr_cpus: entries in cpu[]; expire_ns: a snapshot still unplaced after this
 * much collector time is sent without a placement; cap_orig: per-CPU
 * arch_scale_cpu_capacity used where the collector could not read it (v6.8+).
 */
struct fs_pair *fs_pair_new(unsigned int nr_cpus, __u64 expire_ns, const __u32 *cap_orig,
			    fs_pair_emit_fn emit, void *ctx);
/* cpufreq_get_pressure() per CPU (v6.10+) for snapshots from now on; NULL = none. */
void fs_pair_set_cpufreq_pressure(struct fs_pair *p, const __u32 *pressure);
/* One ring-buffer record. Returns the emit callback's first non-zero return, else 0. */
int fs_pair_feed(struct fs_pair *p, const void *data, size_t size);
/* Send everything still held (shutdown): unplaced snapshots as expired. */
int fs_pair_flush(struct fs_pair *p);
const struct fs_pair_stats *fs_pair_stats(const struct fs_pair *p);
void fs_pair_free(struct fs_pair *p);

#endif /* FEECSCOPE_LIVE_PAIR_H */
