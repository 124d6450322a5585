/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the Perfetto reader's files (perfetto_trace.h): the packet walk
 * (perfetto_trace.c), the clocks (perfetto_trace_clock.c), the tasks
 * (perfetto_trace_tasks.c), the bundle decoder (perfetto_trace_events.c),
 * its generic events (perfetto_trace_generic.c) and the power rails
 * (perfetto_trace_rails.c).
 * Field numbers are upstream Perfetto's (protos/perfetto/trace/...).
 */
#ifndef FEECSCOPE_PERFETTO_TRACE_INT_H
#define FEECSCOPE_PERFETTO_TRACE_INT_H

#include <stdint.h>
#include "perfetto_trace.h"
#include "../records/pb_read.h"
#include "../records/power_rails.h"

#define PFT_MAX_CPU 1024   /* a bundle's cpu beyond this is refused */
#define PFT_NR_CLOCKS 16   /* builtin clock ids we keep (BOOTTIME is 6) */
#define PFT_BOOTTIME 6     /* BuiltinClock, common/builtin_clock.proto */
#define PFT_MONO_RAW 5

/* One FtraceEventBundle, where it sits. */
struct pft_bundle {
	const uint8_t *data;
	size_t len;
	uint64_t pkt;      /* packet index, for errors */
	size_t off;        /* the packet's offset */
	uint32_t cpu;
};

/* One clock's snapshots against the primary clock: (ts on it, primary - it). */
struct pft_clock_pt {
	uint64_t ts;
	int64_t off;
};

struct pft_clock {
	struct pft_clock_pt *pt; /* sorted by ts */
	size_t nr, cap;
};

/* pid -> what the tree and the events said of it (open addressing). */
struct pft_pid {
	int32_t pid;         /* 0: empty slot (pid 0 kept apart) */
	int32_t tgid, ppid, uid;
	char comm[FS_COMM_LEN];
	char tree_comm[FS_COMM_LEN]; /* what the ProcessTree packets said (comm: what the events say since) */
	bool in_tree;
};

struct pft_pids {
	struct pft_pid *slot;
	size_t cap, nr;      /* cap a power of two */
};

/* A decoded event and its order key within a bundle. */
struct pft_ev {
	struct fs_tev ev;
	uint64_t seq;        /* stream order: ties keep it */
	uint8_t compact;     /* compact sched: prev (switch) or emitter (waking) from the CPU's state */
};

/* Each CPU's stream: its bundles in file order, one decoded at a time. */
struct pft_cpu {
	uint32_t *bundles;   /* indices into pft.bundles */
	size_t nr_bundles, cap_bundles, next_bundle;
	struct pft_ev *ev;   /* the current bundle's events, sorted */
	size_t nr_ev, cap_ev, pos;
	struct fs_tev_task cur; /* who runs there (pid -1: not known yet) */
	uint64_t clk_lo, clk_hi; /* clock cache: ts range of the offset below */
	int clk_src;
	int64_t clk_off;
};

/* A power rail's sample as read: its time on its own clock, where it was (errors). */
struct pft_rail_pt {
	uint64_t raw_ns;
	uint64_t uws;
	uint64_t pkt;
	size_t off;
	uint8_t clock;       /* builtin clock id: BOOTTIME for timestamp_ms */
};

/* A power rail: (session_uuid, index) names it. */
struct pft_rail {
	uint64_t session;
	uint32_t index, hz;
	bool described;
	char name[FS_RAIL_NAME_LEN], subsys[FS_RAIL_NAME_LEN];
	struct pft_rail_pt *pt;
	size_t nr, cap;
};

struct pft {
	const char *name;
	char *err;
	size_t errlen;
	uint64_t pkt;        /* the packet being read */
	size_t off;
	const uint8_t *base; /* the trace's first byte (offsets) */
	struct pft_bundle *bundles;
	size_t nr_bundles, cap_bundles;
	uint8_t **blocks;    /* inflated compressed_packets, freed at the end */
	size_t nr_blocks, cap_blocks;
	uint32_t primary;    /* the clock events come out on */
	struct pft_clock clk[PFT_NR_CLOCKS];
	/* raw snapshots until the primary clock is known */
	uint64_t (*snap)[PFT_NR_CLOCKS];
	uint32_t *snap_have;
	size_t nr_snap, cap_snap;
	struct pft_pids pids;
	struct pft_rail *rails;
	size_t nr_rails, cap_rails;
	struct pft_cpu *cpu;
	uint32_t nr_cpu;
	uint64_t sched_events;
	uint64_t nr_packets;
	struct fs_trace_stats st;
	fs_tev_fn fn;
	void *ctx;
};

/* "<name>: packet N (offset O): <path>: <problem>"; returns -1. */
int pft_bad(struct pft *p, const char *path, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A fs_pbr_next() error at field f (num set when the tag read) of the message at path. */
int pft_bad_pb(struct pft *p, const char *path, int rc, const struct fs_pbr_field *f);
/* Field f of path is not of wire type want. */
/*
 * The varint field num of the message b[0..len) into *v (the last one
 * wins; *v kept without it): 0, or -1 with the error reported at path.
 */
int pft_varint_field(struct pft *p, const uint8_t *b, size_t len, const char *path, uint32_t num,
		     const char *field, uint64_t *v);
int pft_bad_wire(struct pft *p, const char *path, const char *field, const struct fs_pbr_field *f,
		 uint32_t want);
/* Grow *arr (elements of size) to hold n + 1; false when out of memory (err set). */
bool pft_grow(struct pft *p, void **arr, size_t *cap, size_t n, size_t size);

/* perfetto_trace_clock.c */
int pft_clock_snapshot(struct pft *p, const uint8_t *b, size_t len);
int pft_clock_finish(struct pft *p);
/* ts on clock src to the primary clock (the CPU's cache helps); -1 with err if no snapshot relates them. */
int pft_clock_to_primary(struct pft *p, struct pft_cpu *c, int src, uint64_t ts, __u64 *out);
/* A builtin clock's name for error lines ("a builtin clock" if unnamed). */
const char *pft_clock_name(int id);
/* The index of k's last point at or before ts (0 when ts precedes them all). */
size_t pft_clock_point_at(const struct pft_clock *k, uint64_t ts);
/* ts + off into *out; false (out untouched) when that leaves 0 .. 2^64 - 1. */
bool pft_clock_shift(uint64_t ts, int64_t off, __u64 *out);
void pft_clock_free(struct pft *p);

/* perfetto_trace_generic.c */
#define PFT_GENERIC 327 /* FtraceEvent.generic: a GenericFtraceEvent (ftrace_event.proto) */
/*
 * A GenericFtraceEvent's bytes: LISA's PELT and util_est events into ev
 * (its type returned, the common fields left to the caller), 0 for any
 * other event (counted as skipped), -1 with err for one that does not read.
 */
int pft_generic(struct pft *p, const uint8_t *b, size_t len, struct fs_tev *ev);

/* perfetto_trace_tasks.c */
int pft_process_tree(struct pft *p, const uint8_t *b, size_t len);
struct pft_pid *pft_pid_get(struct pft_pids *m, int32_t pid, bool add);
void pft_pid_comm(struct pft *p, int32_t pid, const char *comm);
/* task_newtask: the child's tgid, its parent's for a thread (CLONE_THREAD), else its own pid. */
void pft_pid_tgid(struct pft *p, int32_t parent, int32_t child, bool thread);
int pft_tree_out(struct pft *p, struct fs_perfetto_tree *tree);

/* perfetto_trace_rails.c: a packet with power_rails (field 40), its timestamp fields read too. */
int pft_rails_packet(struct pft *p, const uint8_t *b, size_t len);
/* Every rail described, its samples on the primary clock, into out (may be NULL); -1 with err. */
int pft_rails_finish(struct pft *p, struct fs_power_rails *out);
void pft_rails_free(struct pft *p);

/* perfetto_trace_events.c: bundle b's events into c->ev (times on the bundle's clock converted). */
int pft_bundle_decode(struct pft *p, struct pft_cpu *c, const struct pft_bundle *b);
/*
 * As x is handed out, in time order: the emitter's comm and tgid (what the
 * tree and the events so far said), and for compact sched what the CPU's
 * last switch says (the prev task; the emitter of a waking).
 */
void pft_fill(struct pft *p, struct pft_cpu *c, struct pft_ev *x);

#endif /* FEECSCOPE_PERFETTO_TRACE_INT_H */
