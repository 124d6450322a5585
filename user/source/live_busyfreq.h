/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The collector's busy time at each frequency (bpf/busyfreq.bpf.c) as
 * FS_REC_BUSYFREQ records: number the EM's frequencies per CPU, arm each
 * CPU at its current frequency, attach, and read the map every interval;
 * and the FS_REC_FREQ records' policies and first frequencies.
 */
#ifndef FEECSCOPE_LIVE_BUSYFREQ_H
#define FEECSCOPE_LIVE_BUSYFREQ_H

#include <stdbool.h>
#include "../record.h"
#include "../engine/em.h"
#include "live_bpf.h"

struct fs_busy_freq;

/*
 * Arm and attach for CPUs 0..nr_cpus-1 with em's frequencies. NULL when the
 * programs are not loaded or do not attach: why says so (live goes on).
 */
struct fs_busy_freq *fs_busy_freq_start(struct fs_live_bpf *b, const struct fs_em *em, int nr_cpus,
					char *why, size_t whylen);
/*
 * The FS_REC_FREQ records of the start, each policy's frequency then (none
 * when the frequency records are off); returns how many, *out the first.
 */
int fs_busy_freq_first(const struct fs_busy_freq *bf, const struct fs_freq **out);
/* CPUs the start could not run on: their first interval may count idle time busy. */
int fs_busy_freq_unvisited(const struct fs_busy_freq *bf);
/* One record per CPU into out[] (nr_cpus of them) at ts_ns; returns how many, 0 on a failed read. */
int fs_busy_freq_read(struct fs_busy_freq *bf, struct fs_busyfreq *out, __u64 ts_ns);
/* The table of frequencies CPU cpu's slots stand for (the EM's, ascending); returns its length. */
int fs_busy_freq_table(const struct fs_em *em, int cpu, __u32 khz[FS_MAX_FREQS]);
void fs_busy_freq_free(struct fs_busy_freq *bf); /* accepts NULL */

#endif /* FEECSCOPE_LIVE_BUSYFREQ_H */
