// SPDX-License-Identifier: GPL-2.0
/*
 * The Perfetto trace (--perfetto, docs/perfetto.md): feecscope's answer on
 * the timeline Android engineers already read, as TrackEvent packets of
 * Perfetto's public trace format, encoded by protobuf.c (no Perfetto code).
 *
 * One packet sequence, written in the order the pipeline hands things out:
 * decisions in wake-up order (instants, the power counters), closed
 * placements in the order they close (the cumulative energy counters), the
 * verdict and the run's attributes at the end. Trace processor sorts events
 * by timestamp; what it resolves in file order (the sequence's defaults and
 * interned names) is always written before its first use.
 *
 * Timestamps are the records' CLOCK_BOOTTIME nanoseconds, declared as such
 * (the sequence's default timestamp clock is BOOTTIME), so the trace lines up
 * with a Perfetto trace captured on the same device.
 *
 * Size: per wake-up at most one kernel instant, one instant per policy that
 * differs from the kernel (on the thread's track, with the decision's
 * inputs), the CPU power and each policy's ΔP when they change, and each
 * policy's ΔE when its placement closes with a difference; a thread's and
 * its process's track descriptors and names once (docs/perfetto.md measures
 * it).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "output.h"
#include "out_file.h"
#include "protobuf.h"
#include "summary.h"
#include "verdict_lead.h"
#include "../engine/pelt.h"
#include "../records/version.h"

/* Field numbers as Perfetto's protos/perfetto/trace/ publishes them (tests/perfetto/perfetto_trace.proto). */
enum {
	TRACE_PACKET = 1,                       /* Trace.packet */
	/* TracePacket */
	PKT_TIMESTAMP = 8,
	PKT_SEQ_ID = 10,                        /* trusted_packet_sequence_id */
	PKT_TRACK_EVENT = 11,
	PKT_INTERNED_DATA = 12,
	PKT_SEQUENCE_FLAGS = 13,
	PKT_DEFAULTS = 59,                      /* trace_packet_defaults */
	PKT_TRACK_DESCRIPTOR = 60,
	PKT_FIRST_ON_SEQUENCE = 87,
	PKT_TRACE_ATTRIBUTES = 126,
	/* TracePacket.SequenceFlags */
	SEQ_INCREMENTAL_STATE_CLEARED = 1,
	SEQ_NEEDS_INCREMENTAL_STATE = 2,
	/* TracePacketDefaults */
	DEFAULTS_TIMESTAMP_CLOCK_ID = 58,
	BUILTIN_CLOCK_BOOTTIME = 6,
	/* TrackDescriptor */
	TD_UUID = 1,
	TD_NAME = 2,
	TD_PROCESS = 3,
	TD_THREAD = 4,
	TD_PARENT_UUID = 5,
	TD_COUNTER = 8,
	TD_CHILD_ORDERING = 11,
	TD_SIBLING_ORDER_RANK = 12,
	TD_DESCRIPTION = 14,
	TD_ORDERING_EXPLICIT = 3,
	/* ProcessDescriptor */
	PD_PID = 1,
	PD_PROCESS_NAME = 6,
	/* ThreadDescriptor */
	THD_PID = 1,
	THD_TID = 2,
	THD_THREAD_NAME = 5,
	/* CounterDescriptor */
	CD_UNIT_NAME = 6,
	/* TrackEvent */
	TE_DEBUG_ANNOTATIONS = 4,
	TE_TYPE = 9,
	TE_NAME_IID = 10,
	TE_TRACK_UUID = 11,
	TE_NAME = 23,
	TE_DOUBLE_COUNTER_VALUE = 44,
	TE_SLICE_BEGIN = 1,
	TE_SLICE_END = 2,
	TE_INSTANT = 3,
	TE_COUNTER = 4,
	/* DebugAnnotation */
	DA_NAME_IID = 1,
	DA_BOOL_VALUE = 2,
	DA_INT_VALUE = 4,
	DA_DOUBLE_VALUE = 5,
	DA_STRING_VALUE = 6,
	DA_NAME = 10,
	DA_DICT_ENTRIES = 11,
	DA_ARRAY_VALUES = 12,
	DA_STRING_VALUE_IID = 17,
	/* InternedData */
	ID_EVENT_NAMES = 2,
	ID_DEBUG_ANNOTATION_NAMES = 3,
	ID_DEBUG_ANNOTATION_STRING_VALUES = 29,
	/* EventName, DebugAnnotationName, InternedString: iid = 1; name = 2 (str = 2) */
	INTERNED_IID = 1,
	INTERNED_NAME = 2,
	/* TraceAttributes */
	TA_ATTRIBUTE = 1,
	TA_KEY = 1,
	TA_LONG_VALUE = 2,
	TA_STRING_VALUE = 3,
};

/*
 * Our packet sequence and track uuids: both are global to a trace that may be
 * merged with a device's, whose service numbers sequences from 1 and whose
 * SDK hashes uuids over 64 bits, so we take values neither uses and that still
 * encode in 4 bytes.
 */
#define SEQ_ID 0xfeec5u
#define UUID_BASE 0xfeec000ull
#define UUID_ROOT (UUID_BASE + 0)
#define UUID_POWER (UUID_BASE + 1)
#define UUID_CPU(k) (UUID_BASE + 0x100 + (k))
#define UUID_DP(i) (UUID_BASE + 0x300 + (i))
#define UUID_DE(i) (UUID_BASE + 0x400 + (i))
#define UUID_VERDICT(v) (UUID_BASE + 0x500 + (v))
/* processes and threads, numbered as they first wake up (4 bytes up to about 77,000 of them) */
#define UUID_TASK(n) (UUID_BASE + 0x1000 + (n))

/* Interned debug-annotation names (iids fixed for the whole trace). */
enum { ARG_SEQ = 1, ARG_PID, ARG_TGID, ARG_UID, ARG_COMM, ARG_PREV_CPU, ARG_KERNEL_CPU, ARG_POLICY_CPU,
       ARG_FEEC_CPU, ARG_REASON, ARG_DPOWER_UW, ARG_UTIL_AVG, ARG_UTIL_EST, ARG_TASK_UTIL, ARG_THRESHOLD,
       ARG_PREV_DELTA, ARG_BEST_DELTA, ARG_CANDIDATES, ARG_CPU, ARG_ENERGY, ARG_DELTA, ARG__NR };
static const char *const arg_names[ARG__NR] = {
	[ARG_SEQ] = "seq", [ARG_PID] = "pid", [ARG_TGID] = "tgid", [ARG_UID] = "uid", [ARG_COMM] = "comm",
	[ARG_PREV_CPU] = "prev_cpu", [ARG_KERNEL_CPU] = "kernel_cpu", [ARG_POLICY_CPU] = "policy_cpu",
	[ARG_FEEC_CPU] = "feec_cpu", [ARG_REASON] = "reason", [ARG_DPOWER_UW] = "dpower_uw",
	[ARG_UTIL_AVG] = "util_avg", [ARG_UTIL_EST] = "util_est", [ARG_TASK_UTIL] = "task_util",
	[ARG_THRESHOLD] = "threshold", [ARG_PREV_DELTA] = "prev_delta", [ARG_BEST_DELTA] = "best_delta",
	[ARG_CANDIDATES] = "candidates", [ARG_CPU] = "cpu", [ARG_ENERGY] = "energy", [ARG_DELTA] = "delta",
};
/* Interned strings: reason r is 1 + r; task n's comm is STR_TASK0 + n. */
#define STR_TASK0 (1 + FS_FEEC__NR)
/* Interned event names: policy i's decision is 1 + i; task n's "comm pid" is NAME_TASK0 + n. */
#define NAME_TASK0 (1 + FS_MAX_POLICIES)

/*
 * Packets are written in pieces of this much: the buffer stays in the cache
 * and takes few pages (on a virtual machine the first touch of a page costs
 * as much as a write of the piece: docs/perfetto.md, Cost).
 */
#define FLUSH_BYTES (8u << 10)

/* A process (pid = tgid, comm unused) or a thread as the trace knows it: its track, and its names' iids. */
struct task_key {
	__s32 pid, tgid;
	char comm[FS_COMM_LEN];
	bool is_process;
	char name[FS_COMM_LEN]; /* a process: the leader's comm last written as its name ("" none yet) */
	__u32 n;                /* 0: empty slot; else the task's number (track, interned names) */
};

struct perfetto_out {
	struct fs_out_file out; /* the file, under a temporary name until finished */
	FILE *f;
	char *path;
	struct fs_pb pb;
	int nr_cpus, nr_policies;
	const struct fs_policy_desc *pols[FS_MAX_POLICIES];
	const char *kernel_release;
	bool started;
	__u64 min_ts;           /* earliest event: live's first record is not always the earliest wake-up */
	/* processes and threads: open addressing, power-of-two size */
	struct task_key *tasks;
	size_t tasks_cap, nr_tasks;
	/* counters: the last value written, so only changes are written */
	__u64 last_power_uw;
	__s64 last_dp_uw[FS_MAX_POLICIES];
	fs_fj_t cum_fj[FS_MAX_POLICIES];
};

/* ---- building blocks ---- */

static void packet_begin(struct perfetto_out *w, __u64 ts, bool needs_state)
{
	fs_pb_begin(&w->pb, TRACE_PACKET);
	fs_pb_varint(&w->pb, PKT_TIMESTAMP, ts);
	fs_pb_varint(&w->pb, PKT_SEQ_ID, SEQ_ID);
	if (needs_state)
		fs_pb_varint(&w->pb, PKT_SEQUENCE_FLAGS, SEQ_NEEDS_INCREMENTAL_STATE);
}

static void interned(struct fs_pb *pb, uint32_t field, __u64 iid, const char *s)
{
	fs_pb_begin(pb, field);
	fs_pb_varint(pb, INTERNED_IID, iid);
	fs_pb_string(pb, INTERNED_NAME, s);
	fs_pb_end(pb);
}

static void arg_int(struct fs_pb *pb, int name, __s64 v)
{
	fs_pb_begin(pb, TE_DEBUG_ANNOTATIONS);
	fs_pb_varint(pb, DA_NAME_IID, (uint64_t)name);
	fs_pb_int(pb, DA_INT_VALUE, v);
	fs_pb_end(pb);
}

static void arg_str_iid(struct fs_pb *pb, int name, __u64 iid)
{
	fs_pb_begin(pb, TE_DEBUG_ANNOTATIONS);
	fs_pb_varint(pb, DA_NAME_IID, (uint64_t)name);
	fs_pb_varint(pb, DA_STRING_VALUE_IID, iid);
	fs_pb_end(pb);
}

/* Named (not interned) annotations, for the few events written once. */
static void arg_named_str(struct fs_pb *pb, const char *name, const char *v)
{
	fs_pb_begin(pb, TE_DEBUG_ANNOTATIONS);
	fs_pb_string(pb, DA_NAME, name);
	fs_pb_string(pb, DA_STRING_VALUE, v);
	fs_pb_end(pb);
}

static void arg_named_int(struct fs_pb *pb, const char *name, __s64 v)
{
	fs_pb_begin(pb, TE_DEBUG_ANNOTATIONS);
	fs_pb_string(pb, DA_NAME, name);
	fs_pb_int(pb, DA_INT_VALUE, v);
	fs_pb_end(pb);
}

static void counter(struct perfetto_out *w, __u64 ts, __u64 uuid, double v)
{
	packet_begin(w, ts, false);
	fs_pb_begin(&w->pb, PKT_TRACK_EVENT);
	fs_pb_varint(&w->pb, TE_TYPE, TE_COUNTER);
	fs_pb_varint(&w->pb, TE_TRACK_UUID, uuid);
	fs_pb_double(&w->pb, TE_DOUBLE_COUNTER_VALUE, v);
	fs_pb_end(&w->pb);
	fs_pb_end(&w->pb);
}

static void track(struct perfetto_out *w, __u64 ts, __u64 uuid, __u64 parent, int rank, const char *name,
		  const char *unit, const char *description)
{
	packet_begin(w, ts, false);
	fs_pb_begin(&w->pb, PKT_TRACK_DESCRIPTOR);
	fs_pb_varint(&w->pb, TD_UUID, uuid);
	if (parent)
		fs_pb_varint(&w->pb, TD_PARENT_UUID, parent);
	fs_pb_string(&w->pb, TD_NAME, name);
	if (description)
		fs_pb_string(&w->pb, TD_DESCRIPTION, description);
	if (unit) {
		fs_pb_begin(&w->pb, TD_COUNTER);
		fs_pb_string(&w->pb, CD_UNIT_NAME, unit);
		fs_pb_end(&w->pb);
	}
	if (!parent)
		fs_pb_varint(&w->pb, TD_CHILD_ORDERING, TD_ORDERING_EXPLICIT);
	else
		fs_pb_int(&w->pb, TD_SIBLING_ORDER_RANK, rank);
	fs_pb_end(&w->pb);
	fs_pb_end(&w->pb);
}

/* comm as the CSV prints it: printable ASCII, others '?' (trace strings must be valid UTF-8). */
static void clean_comm(char *out, const char *comm)
{
	int n = 0;

	for (; n < FS_COMM_LEN - 1 && comm[n]; n++) {
		unsigned char c = (unsigned char)comm[n];
		out[n] = c < 0x20 || c >= 0x7f ? '?' : (char)c;
	}
	out[n] = 0;
}

/* ---- processes and threads ---- */

static __u64 task_hash(const struct task_key *k)
{
	__u64 h = 1469598103934665603ull ^ (__u32)k->pid ^ (__u64)(__u32)k->tgid << 32 ^ k->is_process;

	for (int i = 0; i < FS_COMM_LEN && k->comm[i]; i++)
		h = (h ^ (unsigned char)k->comm[i]) * 1099511628211ull;
	return h * 0x9e3779b97f4a7c15ull;
}

static bool task_same(const struct task_key *a, const struct task_key *b)
{
	return a->pid == b->pid && a->tgid == b->tgid && a->is_process == b->is_process &&
	       !strncmp(a->comm, b->comm, FS_COMM_LEN);
}

static int tasks_grow(struct perfetto_out *w)
{
	size_t cap = w->tasks_cap ? w->tasks_cap * 2 : 64; /* grown as tasks come: few pages */
	struct task_key *t = calloc(cap, sizeof(*t));

	if (!t)
		return -1;
	for (size_t i = 0; i < w->tasks_cap; i++) {
		const struct task_key *k = &w->tasks[i];
		if (!k->n)
			continue;
		size_t j = task_hash(k) & (cap - 1);
		while (t[j].n)
			j = (j + 1) & (cap - 1);
		t[j] = *k;
	}
	free(w->tasks);
	w->tasks = t;
	w->tasks_cap = cap;
	return 0;
}

/* The entry of key, numbered and *added when new; valid until the next call. NULL: no memory. */
static struct task_key *task_find(struct perfetto_out *w, const struct task_key *key, bool *added)
{
	*added = false;
	if ((w->nr_tasks + 1) * 2 > w->tasks_cap && tasks_grow(w))
		return NULL;
	size_t j = task_hash(key) & (w->tasks_cap - 1);
	for (; w->tasks[j].n; j = (j + 1) & (w->tasks_cap - 1))
		if (task_same(&w->tasks[j], key))
			return &w->tasks[j];
	w->tasks[j] = *key;
	w->tasks[j].n = (__u32)++w->nr_tasks;
	w->tasks[j].name[0] = '\0';
	*added = true;
	return &w->tasks[j];
}

/*
 * A process track: Perfetto's ProcessDescriptor with the real pid, so a
 * merged device trace's process of that pid holds it. The name is its
 * leader's comm, written (again, same uuid) once the leader is seen and
 * whenever its comm changes (exec): a thread's comm is not its process's name.
 */
static void process_track(struct perfetto_out *w, __u64 ts, __u32 n, __s32 tgid, const char *name)
{
	packet_begin(w, ts, false);
	fs_pb_begin(&w->pb, PKT_TRACK_DESCRIPTOR);
	fs_pb_varint(&w->pb, TD_UUID, UUID_TASK(n));
	fs_pb_begin(&w->pb, TD_PROCESS);
	fs_pb_int(&w->pb, PD_PID, tgid);
	if (name)
		fs_pb_string(&w->pb, PD_PROCESS_NAME, name);
	fs_pb_end(&w->pb);
	fs_pb_end(&w->pb);
	fs_pb_end(&w->pb);
}

/* A thread track (ThreadDescriptor: pid = tgid, tid = pid), under its process's. */
static void thread_track(struct perfetto_out *w, __u64 ts, __u32 n, __u32 proc_n, __s32 pid, __s32 tgid,
			 const char *comm)
{
	packet_begin(w, ts, false);
	fs_pb_begin(&w->pb, PKT_TRACK_DESCRIPTOR);
	fs_pb_varint(&w->pb, TD_UUID, UUID_TASK(n));
	fs_pb_varint(&w->pb, TD_PARENT_UUID, UUID_TASK(proc_n));
	fs_pb_begin(&w->pb, TD_THREAD);
	fs_pb_int(&w->pb, THD_PID, tgid);
	fs_pb_int(&w->pb, THD_TID, pid);
	fs_pb_string(&w->pb, THD_THREAD_NAME, comm);
	fs_pb_end(&w->pb);
	fs_pb_end(&w->pb);
	fs_pb_end(&w->pb);
}

/*
 * The thread of row r: its number (track and interned names), writing its
 * process's and its own track descriptors first when new; *is_new when
 * the packet being written must intern its names. -1: no memory.
 */
static int thread_of(struct perfetto_out *w, const struct fs_decision_row *r, __u32 *n, bool *is_new)
{
	struct task_key key = { .pid = r->pid, .tgid = r->tgid }, *k;
	bool added;

	clean_comm(key.comm, r->comm);
	if (!(k = task_find(w, &key, is_new)))
		return -1;
	*n = k->n;
	bool leader = r->pid == r->tgid;
	if (!*is_new && !leader)
		return 0;

	struct task_key pkey = { .pid = r->tgid, .tgid = r->tgid, .is_process = true }, *pk;
	if (!(pk = task_find(w, &pkey, &added)))
		return -1;
	/*
	 * A leader that exec()s gets a new comm (a new thread key): the process
	 * takes it as its name, also when the comm is one it had before (a shell
	 * shim exec()ing its way back to the name it started with).
	 */
	if (added || (leader && strncmp(pk->name, key.comm, FS_COMM_LEN)))
		process_track(w, r->ts_ns, pk->n, r->tgid, leader ? key.comm : NULL);
	if (leader)
		memcpy(pk->name, key.comm, FS_COMM_LEN);
	if (*is_new)
		thread_track(w, r->ts_ns, *n, pk->n, r->pid, r->tgid, key.comm);
	return 0;
}

/* ---- the trace ---- */

/* First packets: the sequence's state (clock, interned argument names), then the tracks. */
static void start(struct perfetto_out *w, __u64 ts)
{
	struct fs_pb *pb = &w->pb;
	char name[128], desc[256];
	const char *ref = w->pols[0]->name;

	w->started = true;
	w->min_ts = ts;
	packet_begin(w, ts, false);
	fs_pb_varint(pb, PKT_SEQUENCE_FLAGS, SEQ_INCREMENTAL_STATE_CLEARED);
	fs_pb_varint(pb, PKT_FIRST_ON_SEQUENCE, 1);
	fs_pb_begin(pb, PKT_DEFAULTS);
	fs_pb_varint(pb, DEFAULTS_TIMESTAMP_CLOCK_ID, BUILTIN_CLOCK_BOOTTIME);
	fs_pb_end(pb);
	fs_pb_begin(pb, PKT_INTERNED_DATA);
	for (int a = 1; a < ARG__NR; a++)
		interned(pb, ID_DEBUG_ANNOTATION_NAMES, (__u64)a, arg_names[a]);
	for (int r = 0; r < FS_FEEC__NR; r++)
		interned(pb, ID_DEBUG_ANNOTATION_STRING_VALUES, 1 + (__u64)r, fs_feec_reason_name(r));
	for (int i = 0; i < w->nr_policies; i++) {
		snprintf(name, sizeof(name), "%s != kernel", w->pols[i]->name);
		interned(pb, ID_EVENT_NAMES, 1 + (__u64)i, name);
	}
	fs_pb_end(pb);
	fs_pb_end(pb);

	snprintf(desc, sizeof(desc), "feecscope %s: find_energy_efficient_cpu() replayed under %d policies "
		 "(reference %s); kernel %s", FS_VERSION_STRING, w->nr_policies, ref,
		 w->kernel_release && *w->kernel_release ? w->kernel_release : "unknown");
	track(w, ts, UUID_ROOT, 0, 0, "feecscope", NULL, desc);
	int rank = 0;
	for (int k = 0; k < w->nr_cpus; k++) {
		snprintf(name, sizeof(name), "kernel CPU %d", k);
		track(w, ts, UUID_CPU(k), UUID_ROOT, rank++, name, NULL,
		      "wake-ups the kernel placed on this CPU (instants named comm pid)");
	}
	snprintf(name, sizeof(name), "CPU power est. (%s)", ref);
	track(w, ts, UUID_POWER, UUID_ROOT, rank++, name, "mW",
	      "estimated CPU power with the waking task on the reference's CPU, at each wake-up");
	for (int i = 1; i < w->nr_policies; i++) {
		snprintf(name, sizeof(name), "dP %s vs %s", w->pols[i]->name, ref);
		track(w, ts, UUID_DP(i), UUID_ROOT, rank++, name, "mW",
		      "estimated CPU power under this policy's placement minus the reference's, at each wake-up");
		snprintf(name, sizeof(name), "dE %s vs %s", w->pols[i]->name, ref);
		track(w, ts, UUID_DE(i), UUID_ROOT, rank++, name, "mJ",
		      "cumulative energy difference charged to closed placements (docs/accounting.md)");
	}
	/* counters start at 0 where the trace starts */
	w->last_power_uw = UINT64_MAX;
	for (int i = 1; i < w->nr_policies; i++) {
		counter(w, ts, UUID_DP(i), 0);
		counter(w, ts, UUID_DE(i), 0);
	}
}

static int write_out(struct perfetto_out *w, char *err, size_t errlen)
{
	if (w->pb.failed) {
		snprintf(err, errlen, "%s: out of memory", w->path);
		return -1;
	}
	if (w->pb.len && fwrite(w->pb.buf, 1, w->pb.len, w->f) != w->pb.len) {
		snprintf(err, errlen, "%s: write: %s", w->path, strerror(errno ? errno : EIO));
		return -1;
	}
	fs_pb_clear(&w->pb);
	return 0;
}

/* An instant on track uuid named name_iid; task n's names are interned first when is_new. */
static void instant_begin(struct perfetto_out *w, const struct fs_decision_row *r, __u64 uuid, __u64 name_iid,
			  __u32 n, bool is_new)
{
	packet_begin(w, r->ts_ns, true);
	if (is_new) {
		char c[FS_COMM_LEN], name[FS_COMM_LEN + 16];

		clean_comm(c, r->comm);
		snprintf(name, sizeof(name), "%s %d", c, r->pid);
		fs_pb_begin(&w->pb, PKT_INTERNED_DATA);
		interned(&w->pb, ID_EVENT_NAMES, NAME_TASK0 + (__u64)n, name);
		interned(&w->pb, ID_DEBUG_ANNOTATION_STRING_VALUES, STR_TASK0 + (__u64)n, c);
		fs_pb_end(&w->pb);
	}
	fs_pb_begin(&w->pb, PKT_TRACK_EVENT);
	fs_pb_varint(&w->pb, TE_TYPE, TE_INSTANT);
	fs_pb_varint(&w->pb, TE_TRACK_UUID, uuid);
	fs_pb_varint(&w->pb, TE_NAME_IID, name_iid);
}

static void instant_end(struct perfetto_out *w)
{
	fs_pb_end(&w->pb);
	fs_pb_end(&w->pb);
}

static void arg_u64_known(struct fs_pb *pb, int name, __u64 v)
{
	if (v != UINT64_MAX)
		arg_int(pb, name, (__s64)v);
}

/*
 * What policy i decided from: the task's utilization (synced util_avg, its
 * util_est, and task_util_est(), the larger, which feec places), each
 * candidate's energy with the task on it (compute_energy(), in the
 * policy's units) and its delta against the PD's base, and the rule's
 * figures. Trace processor lists the candidates as debug.candidates[k].*.
 */
static void decision_inputs(struct fs_pb *pb, const struct fs_decision_row *r, int i)
{
	const struct fs_decision_pol *p = &r->pol[i];

	if (r->wakeup) {
		const struct fs_task *t = &r->wakeup->task;

		arg_int(pb, ARG_UTIL_AVG, fs_sync_entity_util_avg(t));
		arg_int(pb, ARG_UTIL_EST, t->util_est_ewma > t->util_est_enqueued ? t->util_est_ewma
										     : t->util_est_enqueued);
	}
	arg_int(pb, ARG_TASK_UTIL, r->task_util);
	arg_u64_known(pb, ARG_PREV_DELTA, p->prev_delta);
	arg_u64_known(pb, ARG_BEST_DELTA, p->best_delta);
	if (p->has_threshold)
		arg_int(pb, ARG_THRESHOLD, (__s64)p->threshold);
	if (!r->res || !r->res[i].nr_cand)
		return;
	fs_pb_begin(pb, TE_DEBUG_ANNOTATIONS);
	fs_pb_varint(pb, DA_NAME_IID, ARG_CANDIDATES);
	for (int k = 0; k < r->res[i].nr_cand; k++) {
		const struct fs_feec_cand *c = &r->res[i].cand[k];

		fs_pb_begin(pb, DA_ARRAY_VALUES);
		fs_pb_begin(pb, DA_DICT_ENTRIES);
		fs_pb_varint(pb, DA_NAME_IID, ARG_CPU);
		fs_pb_int(pb, DA_INT_VALUE, c->cpu);
		fs_pb_end(pb);
		fs_pb_begin(pb, DA_DICT_ENTRIES);
		fs_pb_varint(pb, DA_NAME_IID, ARG_ENERGY);
		fs_pb_int(pb, DA_INT_VALUE, (__s64)c->energy);
		fs_pb_end(pb);
		fs_pb_begin(pb, DA_DICT_ENTRIES);
		fs_pb_varint(pb, DA_NAME_IID, ARG_DELTA);
		fs_pb_int(pb, DA_INT_VALUE, (__s64)c->delta);
		fs_pb_end(pb);
		fs_pb_end(pb);
	}
	fs_pb_end(pb);
}

/* Policy i placed r elsewhere than the kernel: an instant on the thread's track (task n), with the inputs. */
static void policy_instant(struct perfetto_out *w, const struct fs_decision_row *r, int i, __u32 n)
{
	const struct fs_decision_pol *p = &r->pol[i];

	instant_begin(w, r, UUID_TASK(n), 1 + (__u64)i, n, false);
	arg_int(&w->pb, ARG_SEQ, (__s64)r->seq);
	arg_int(&w->pb, ARG_PID, r->pid);
	arg_int(&w->pb, ARG_TGID, r->tgid);
	if (r->uid != FS_NO_UID)
		arg_int(&w->pb, ARG_UID, r->uid);
	arg_str_iid(&w->pb, ARG_COMM, STR_TASK0 + (__u64)n);
	arg_int(&w->pb, ARG_PREV_CPU, r->prev_cpu);
	arg_int(&w->pb, ARG_KERNEL_CPU, r->kernel_cpu);
	arg_int(&w->pb, ARG_POLICY_CPU, p->acct_cpu);
	if (p->cpu != p->acct_cpu)
		arg_int(&w->pb, ARG_FEEC_CPU, p->cpu);
	arg_str_iid(&w->pb, ARG_REASON, 1 + (__u64)(p->reason < FS_FEEC__NR ? p->reason : 0));
	arg_int(&w->pb, ARG_DPOWER_UW, p->dpower_uw);
	decision_inputs(&w->pb, r, i);
	instant_end(w);
}

static int pf_decision(void *self, const struct fs_decision_row *r, char *err, size_t errlen)
{
	struct perfetto_out *w = self;

	if (!w->started)
		start(w, r->ts_ns);
	if (r->ts_ns < w->min_ts)
		w->min_ts = r->ts_ns;
	if (r->kernel_cpu >= 0 && r->kernel_cpu < w->nr_cpus) {
		__u32 n;
		bool is_new;

		/* the thread's tracks and names once: its first instant defines the names */
		if (thread_of(w, r, &n, &is_new)) {
			snprintf(err, errlen, "%s: out of memory", w->path);
			return -1;
		}
		instant_begin(w, r, UUID_CPU(r->kernel_cpu), NAME_TASK0 + (__u64)n, n, is_new);
		instant_end(w);
		for (int i = 0; i < w->nr_policies; i++)
			if (r->pol[i].acct_cpu != r->kernel_cpu)
				policy_instant(w, r, i, n);
	}
	if (r->pol[0].power_uw != w->last_power_uw) {
		w->last_power_uw = r->pol[0].power_uw;
		counter(w, r->ts_ns, UUID_POWER, (double)r->pol[0].power_uw / 1e3);
	}
	for (int i = 1; i < w->nr_policies; i++)
		if (r->pol[i].dpower_uw != w->last_dp_uw[i]) {
			w->last_dp_uw[i] = r->pol[i].dpower_uw;
			counter(w, r->ts_ns, UUID_DP(i), (double)r->pol[i].dpower_uw / 1e3);
		}
	return w->pb.len >= FLUSH_BYTES ? write_out(w, err, errlen) : 0;
}

/* A placement closed: each policy's running energy difference moves at its end. */
static int pf_interval(void *self, const struct fs_decision_row *r, char *err, size_t errlen)
{
	struct perfetto_out *w = self;
	__u64 end = r->ts_ns + r->iv.dt_ns;

	for (int i = 1; i < w->nr_policies; i++) {
		if (!r->iv.de_fj[i])
			continue;
		w->cum_fj[i] += r->iv.de_fj[i];
		counter(w, end, UUID_DE(i), fs_fj_to_mj(w->cum_fj[i]));
	}
	return w->pb.len >= FLUSH_BYTES ? write_out(w, err, errlen) : 0;
}

static int pf_flush(void *self, char *err, size_t errlen)
{
	struct perfetto_out *w = self;

	if (write_out(w, err, errlen))
		return -1;
	if (fflush(w->f)) {
		snprintf(err, errlen, "%s: write: %s", w->path, strerror(errno));
		return -1;
	}
	return 0;
}

static void attr_str(struct fs_pb *pb, const char *key, const char *v)
{
	fs_pb_begin(pb, TA_ATTRIBUTE);
	fs_pb_string(pb, TA_KEY, key);
	fs_pb_string(pb, TA_STRING_VALUE, v);
	fs_pb_end(pb);
}

static void attr_int(struct fs_pb *pb, const char *key, __s64 v)
{
	fs_pb_begin(pb, TA_ATTRIBUTE);
	fs_pb_string(pb, TA_KEY, key);
	fs_pb_int(pb, TA_LONG_VALUE, v);
	fs_pb_end(pb);
}

static void mj_text(char *b, size_t n, fs_fj_t fj)
{
	fs_fmt_fj(b, n, fj, 12, 6);
}

/* The verdicts: a slice over the whole observation each, with the figures as arguments. */
static void write_verdicts(struct perfetto_out *w, const struct fs_report *rep)
{
	__u64 t0 = w->min_ts < rep->st->first_ts ? w->min_ts : rep->st->first_ts, t1 = rep->st->last_ts;
	char line[160], name[96], b[64];

	for (int v = 0; v < rep->nr_verdicts; v++) {
		struct fs_verdict lead;
		const char *why;
		const struct fs_verdict *V = (fs_verdict_lead(rep, v, &lead, &why), &lead); /* the headline's figure */

		snprintf(name, sizeof(name), "margin verdict: %s vs %s", rep->st->pol[V->pol].desc->name,
			 rep->st->pol[V->twin].desc->name);
		track(w, t0, UUID_VERDICT(v), UUID_ROOT, 1000 + v, name, NULL,
		      "what the margin costs over the observation: positive = the margin costs energy");
		fs_verdict_line(line, sizeof(line), rep, v);
		packet_begin(w, t0, false);
		fs_pb_begin(&w->pb, PKT_TRACK_EVENT);
		fs_pb_varint(&w->pb, TE_TYPE, TE_SLICE_BEGIN);
		fs_pb_varint(&w->pb, TE_TRACK_UUID, UUID_VERDICT(v));
		fs_pb_string(&w->pb, TE_NAME, line);
		arg_named_str(&w->pb, "policy", rep->st->pol[V->pol].desc->name);
		arg_named_str(&w->pb, "twin", rep->st->pol[V->twin].desc->name);
		mj_text(b, sizeof(b), V->delta_fj);
		arg_named_str(&w->pb, "delta_mj", b);
		if (fs_verdict_has_interval(V)) { /* none from too few time blocks */
			mj_text(b, sizeof(b), V->lo_fj);
			arg_named_str(&w->pb, "ci95_lo_mj", b);
			mj_text(b, sizeof(b), V->hi_fj);
			arg_named_str(&w->pb, "ci95_hi_mj", b);
		}
		fs_pb_begin(&w->pb, TE_DEBUG_ANNOTATIONS);
		fs_pb_string(&w->pb, DA_NAME, "measurable");
		fs_pb_varint(&w->pb, DA_BOOL_VALUE, V->measurable);
		fs_pb_end(&w->pb);
		arg_named_int(&w->pb, "decisions", (__s64)V->decisions);
		arg_named_int(&w->pb, "differ", (__s64)V->differ);
		fs_pb_end(&w->pb);
		fs_pb_end(&w->pb);
		packet_begin(w, t1 > t0 ? t1 : t0, false);
		fs_pb_begin(&w->pb, PKT_TRACK_EVENT);
		fs_pb_varint(&w->pb, TE_TYPE, TE_SLICE_END);
		fs_pb_varint(&w->pb, TE_TRACK_UUID, UUID_VERDICT(v));
		fs_pb_end(&w->pb);
		fs_pb_end(&w->pb);
	}
}

/* The run as trace attributes: the metadata table's trace_attribute.feecscope.* rows. */
static void write_attributes(struct perfetto_out *w, const struct fs_report *rep)
{
	struct fs_pb *pb = &w->pb;
	char key[96], b[160];

	packet_begin(w, rep->st->last_ts, false);
	fs_pb_begin(pb, PKT_TRACE_ATTRIBUTES);
	attr_str(pb, "feecscope.version", FS_VERSION_STRING);
	attr_str(pb, "feecscope.kernel_release", rep->kernel_release ? rep->kernel_release : "");
	attr_str(pb, "feecscope.em", rep->em->source);
	attr_int(pb, "feecscope.eas_emulated", rep->emulate_eas);
	attr_str(pb, "feecscope.estimate", rep->wall_time ? "wall-time" : "cpu-time");
	attr_int(pb, "feecscope.wakeups", (__s64)rep->st->wakeups);
	mj_text(b, sizeof(b), rep->cpu.total_fj);
	attr_str(pb, "feecscope.cpu_energy_mj", b);
	for (int i = 0; i < rep->st->nr_policies; i++) {
		snprintf(key, sizeof(key), "feecscope.policy%d", i);
		snprintf(b, sizeof(b), "%s%s%s", rep->st->pol[i].desc->name, i ? "" : " (reference)",
			 rep->st->pol[i].desc->has_margin ? " margin" : "");
		attr_str(pb, key, b);
		snprintf(key, sizeof(key), "feecscope.policy%d.energy_vs_reference_mj", i);
		mj_text(b, sizeof(b), rep->tot->energy_fj[i]);
		attr_str(pb, key, b);
	}
	for (int v = 0; v < rep->nr_verdicts; v++) {
		struct fs_verdict lead;
		const char *why;
		const struct fs_verdict *V = (fs_verdict_lead(rep, v, &lead, &why), &lead); /* the headline's figure */

		snprintf(key, sizeof(key), "feecscope.verdict%d", v);
		fs_verdict_line(b, sizeof(b), rep, v);
		attr_str(pb, key, b);
		snprintf(key, sizeof(key), "feecscope.verdict%d.delta_mj", v);
		mj_text(b, sizeof(b), V->delta_fj);
		attr_str(pb, key, b);
		if (fs_verdict_has_interval(V)) {
			char lo[64], hi[64];

			snprintf(key, sizeof(key), "feecscope.verdict%d.ci95_mj", v);
			mj_text(lo, sizeof(lo), V->lo_fj);
			mj_text(hi, sizeof(hi), V->hi_fj);
			snprintf(b, sizeof(b), "%s..%s", lo, hi);
			attr_str(pb, key, b);
		}
		snprintf(key, sizeof(key), "feecscope.verdict%d.measurable", v);
		attr_int(pb, key, V->measurable);
	}
	fs_pb_end(pb);
	fs_pb_end(pb);
}

static int pf_finish(void *self, const struct fs_report *rep, char *err, size_t errlen)
{
	struct perfetto_out *w = self;

	if (!w->started)
		start(w, rep->st->first_ts);
	write_verdicts(w, rep);
	write_attributes(w, rep);
	int rc = write_out(w, err, errlen);

	w->f = NULL;
	/* renamed into place only when complete (a failure leaves it for pf_free to remove) */
	return rc ? rc : fs_out_commit(&w->out, err, errlen);
}

static void pf_free(void *self)
{
	struct perfetto_out *w = self;

	fs_out_abort(&w->out);
	fs_pb_free(&w->pb);
	free(w->tasks);
	free(w->path);
	free(w);
}

static const struct fs_output_ops perfetto_ops = {
	.decision = pf_decision, .interval = pf_interval, .flush = pf_flush, .finish = pf_finish,
	.free = pf_free,
};

int fs_output_perfetto(struct fs_output *o, const char *path, int nr_cpus, int nr_policies,
		       const struct fs_policy_desc *const *pols, const char *kernel_release, char *err,
		       size_t errlen)
{
	struct perfetto_out *w = calloc(1, sizeof(*w));

	if (!w || !(w->path = strdup(path))) {
		free(w);
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	w->nr_cpus = nr_cpus;
	w->nr_policies = nr_policies;
	memcpy(w->pols, pols, (size_t)nr_policies * sizeof(*pols));
	w->kernel_release = kernel_release;
	if (fs_out_open(&w->out, path, err, errlen)) {
		pf_free(w);
		return -1;
	}
	w->f = w->out.f;
	/* the packets go out in FLUSH_BYTES pieces: each one write, not stdio's copy and two */
	setvbuf(w->f, NULL, _IONBF, 0);
	o->ops = &perfetto_ops;
	o->self = w;
	return 0;
}
