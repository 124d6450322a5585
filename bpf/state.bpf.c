// SPDX-License-Identifier: GPL-2.0
/*
 * The collector's shared state: the settings userspace writes before the
 * load that more than one part reads, the rings, the counters, the snapshot
 * scratch and the harvested struct rq addresses. Each is defined here once;
 * the other parts declare it extern (feecscope.bpf.h) and `bpftool gen
 * object` resolves them to these when it links the parts into one object.
 */
#include "feecscope.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* Set by userspace before load. */
const volatile __u32 nr_cpus = 1;         /* possible CPUs, <= FS_MAX_CPUS */
const volatile __s32 self_tgid = 0;       /* feecscope itself: not observed */
const volatile __u64 wakeup_bytes = 1 << 20; /* ring buffer fill that wakes the reader */

/* A clamp other than the defaults proves sched_uclamp_used on (snapshot.bpf.c, uclamp_in_use()). */
bool uclamp_seen = false;

/*
 * One ring buffer per CPU, created by userspace (sized from --ringbuf-size)
 * and put in this array: producers on different CPUs then share no cache
 * line (a shared ring's lock and producer position bounce between CPUs:
 * docs/live.md, Overhead, has the cost). Userspace merges the
 * rings by timestamp (user/source/ring_merge.c). Ring buffers in map-in-map:
 * v5.8+, as the ring buffer itself.
 */
struct fs_rings_map rings SEC(".maps");

/*
 * Every CPU's struct rq address, 0 until a harvest program learnt it (no
 * `runqueues` ksym needed: harvest.bpf.c). A global array, not a map: a
 * snapshot takes a batch of CPUs' addresses at constant offsets from one
 * pointer, where a map costs a lookup per CPU.
 */
__u64 rq_addr[FS_MAX_CPUS];

struct fs_counters_map counters SEC(".maps");

/* The snapshot being built on each CPU (struct pending, feecscope.bpf.h). */
struct fs_scratch_map scratch SEC(".maps");
