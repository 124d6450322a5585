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
 * differs from the kernel, the CPU power and each policy's ΔP when they
 * change, and each policy's ΔE when its placement closes with a difference;
 * thread names are interned once per thread (docs/perfetto.md measures it).
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
	TD_PARENT_UUID = 5,
	TD_COUNTER = 8,
	TD_CHILD_ORDERING = 11,
	TD_SIBLING_ORDER_RANK = 12,
	TD_DESCRIPTION = 14,
	TD_ORDERING_EXPLICIT = 3,
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
#define UUID_POL(i) (UUID_BASE + 0x200 + (i))
#define UUID_DP(i) (UUID_BASE + 0x300 + (i))
#define UUID_DE(i) (UUID_BASE + 0x400 + (i))
#define UUID_VERDICT(v) (UUID_BASE + 0x500 + (v))

/* Interned debug-annotation names (iids fixed for the whole trace). */
enum { ARG_SEQ = 1, ARG_PID, ARG_TGID, ARG_UID, ARG_COMM, ARG_PREV_CPU, ARG_KERNEL_CPU, ARG_POLICY_CPU,
       ARG_FEEC_CPU, ARG_REASON, ARG_DPOWER_UW, ARG__NR };
static const char *const arg_names[ARG__NR] = {
	[ARG_SEQ] = "seq", [ARG_PID] = "pid", [ARG_TGID] = "tgid", [ARG_UID] = "uid", [ARG_COMM] = "comm",
	[ARG_PREV_CPU] = "prev_cpu", [ARG_KERNEL_CPU] = "kernel_cpu", [ARG_POLICY_CPU] = "policy_cpu",
	[ARG_FEEC_CPU] = "feec_cpu", [ARG_REASON] = "reason", [ARG_DPOWER_UW] = "dpower_uw",
};
/* Interned strings: reason r is 1 + r; thread t's comm is STR_THREAD0 + t. */
#define STR_THREAD0 (1 + FS_FEEC__NR)

/*
 * Packets are written in pieces of this much: the buffer stays in the cache
 * and takes few pages (on a virtual machine the first touch of a page costs
 * as much as a write of the piece: docs/perfetto.md, Cost).
 */
#define FLUSH_BYTES (8u << 10)

struct thread_key {
	__s32 pid;
	char comm[FS_COMM_LEN];
	__u32 iid;              /* 0: empty slot */
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
	/* interned threads: open addressing, power-of-two size */
	struct thread_key *threads;
	size_t threads_cap, nr_threads;
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

/* ---- interned threads ---- */

static __u64 thread_hash(__s32 pid, const char *comm)
{
	__u64 h = 1469598103934665603ull ^ (__u32)pid;

	for (int i = 0; i < FS_COMM_LEN && comm[i]; i++)
		h = (h ^ (unsigned char)comm[i]) * 1099511628211ull;
	return h * 0x9e3779b97f4a7c15ull;
}

static int threads_grow(struct perfetto_out *w)
{
	size_t cap = w->threads_cap ? w->threads_cap * 2 : 64; /* grown as threads come: few pages */
	struct thread_key *t = calloc(cap, sizeof(*t));

	if (!t)
		return -1;
	for (size_t i = 0; i < w->threads_cap; i++) {
		const struct thread_key *k = &w->threads[i];
		if (!k->iid)
			continue;
		size_t j = thread_hash(k->pid, k->comm) & (cap - 1);
		while (t[j].iid)
			j = (j + 1) & (cap - 1);
		t[j] = *k;
	}
	free(w->threads);
	w->threads = t;
	w->threads_cap = cap;
	return 0;
}

/* The interned name of (pid, comm); *is_new when the packet being written must define it. -1: no memory. */
static int thread_iid(struct perfetto_out *w, __s32 pid, const char *comm, __u32 *iid, bool *is_new)
{
	char c[FS_COMM_LEN];

	clean_comm(c, comm);
	if ((w->nr_threads + 1) * 2 > w->threads_cap && threads_grow(w))
		return -1;
	size_t j = thread_hash(pid, c) & (w->threads_cap - 1);
	for (; w->threads[j].iid; j = (j + 1) & (w->threads_cap - 1))
		if (w->threads[j].pid == pid && !strncmp(w->threads[j].comm, c, FS_COMM_LEN)) {
			*iid = w->threads[j].iid;
			*is_new = false;
			return 0;
		}
	w->threads[j].pid = pid;
	memcpy(w->threads[j].comm, c, FS_COMM_LEN);
	w->threads[j].iid = *iid = (__u32)++w->nr_threads;
	*is_new = true;
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
	for (int i = 0; i < w->nr_policies; i++) {
		snprintf(name, sizeof(name), "%s != kernel", w->pols[i]->name);
		track(w, ts, UUID_POL(i), UUID_ROOT, rank++, name, NULL,
		      "wake-ups this policy places elsewhere than the kernel did");
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

/* An instant on track uuid named iid (the thread's), defining the name first when is_new. */
static void instant_begin(struct perfetto_out *w, const struct fs_decision_row *r, __u64 uuid, __u32 iid,
			  bool is_new)
{
	packet_begin(w, r->ts_ns, true);
	if (is_new) {
		char c[FS_COMM_LEN], name[FS_COMM_LEN + 16];

		clean_comm(c, r->comm);
		snprintf(name, sizeof(name), "%s %d", c, r->pid);
		fs_pb_begin(&w->pb, PKT_INTERNED_DATA);
		interned(&w->pb, ID_EVENT_NAMES, iid, name);
		interned(&w->pb, ID_DEBUG_ANNOTATION_STRING_VALUES, STR_THREAD0 + (__u64)iid, c);
		fs_pb_end(&w->pb);
	}
	fs_pb_begin(&w->pb, PKT_TRACK_EVENT);
	fs_pb_varint(&w->pb, TE_TYPE, TE_INSTANT);
	fs_pb_varint(&w->pb, TE_TRACK_UUID, uuid);
	fs_pb_varint(&w->pb, TE_NAME_IID, iid);
}

static void instant_end(struct perfetto_out *w)
{
	fs_pb_end(&w->pb);
	fs_pb_end(&w->pb);
}

static int pf_decision(void *self, const struct fs_decision_row *r, char *err, size_t errlen)
{
	struct perfetto_out *w = self;

	if (!w->started)
		start(w, r->ts_ns);
	if (r->ts_ns < w->min_ts)
		w->min_ts = r->ts_ns;
	if (r->kernel_cpu >= 0 && r->kernel_cpu < w->nr_cpus) {
		__u32 iid;
		bool is_new;

		/* the thread's name once per wake-up: its first instant defines it when new */
		if (thread_iid(w, r->pid, r->comm, &iid, &is_new)) {
			snprintf(err, errlen, "%s: out of memory", w->path);
			return -1;
		}
		instant_begin(w, r, UUID_CPU(r->kernel_cpu), iid, is_new);
		instant_end(w);
		for (int i = 0; i < w->nr_policies; i++) {
			const struct fs_decision_pol *p = &r->pol[i];

			if (p->acct_cpu == r->kernel_cpu)
				continue;
			instant_begin(w, r, UUID_POL(i), iid, false);
			arg_int(&w->pb, ARG_SEQ, (__s64)r->seq);
			arg_int(&w->pb, ARG_PID, r->pid);
			arg_int(&w->pb, ARG_TGID, r->tgid);
			if (r->uid != FS_NO_UID)
				arg_int(&w->pb, ARG_UID, r->uid);
			arg_str_iid(&w->pb, ARG_COMM, STR_THREAD0 + (__u64)iid);
			arg_int(&w->pb, ARG_PREV_CPU, r->prev_cpu);
			arg_int(&w->pb, ARG_KERNEL_CPU, r->kernel_cpu);
			arg_int(&w->pb, ARG_POLICY_CPU, p->acct_cpu);
			if (p->cpu != p->acct_cpu)
				arg_int(&w->pb, ARG_FEEC_CPU, p->cpu);
			arg_str_iid(&w->pb, ARG_REASON, 1 + (__u64)(p->reason < FS_FEEC__NR ? p->reason : 0));
			arg_int(&w->pb, ARG_DPOWER_UW, p->dpower_uw);
			instant_end(w);
		}
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
	free(w->threads);
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
