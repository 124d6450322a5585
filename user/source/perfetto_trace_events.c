// SPDX-License-Identifier: GPL-2.0
/*
 * The Perfetto reader's ftrace bundles (perfetto_trace.h): one
 * FtraceEventBundle (protos/perfetto/trace/ftrace/ftrace_event_bundle.proto)
 * into its CPU's sorted event buffer. The ordinary events are read by one
 * table per event (field numbers of ftrace_event.proto, sched.proto,
 * power.proto, task.proto); the compact sched encoding by its own loop;
 * generic events (LISA's) by perfetto_trace_generic.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "perfetto_trace_int.h"

enum fkind { K_STR, K_S32, K_PID, K_CPU, K_U32, K_U64, K_STATE };

struct fdesc {
	uint16_t num, kind, off;
	const char *name;
};

struct edesc {
	uint32_t num, type; /* FtraceEvent field, enum fs_tev_type */
	const char *name;
	const struct fdesc *f;
};

#define F(n, k, member, nm) { n, k, offsetof(struct fs_tev, member), nm }
static const struct fdesc f_switch[] = {
	F(1, K_STR, sw.prev.comm, "prev_comm"), F(2, K_PID, sw.prev.pid, "prev_pid"),
	F(3, K_S32, sw.prev.prio, "prev_prio"), F(4, K_STATE, sw.prev_state, "prev_state"),
	F(5, K_STR, sw.next.comm, "next_comm"), F(6, K_PID, sw.next.pid, "next_pid"),
	F(7, K_S32, sw.next.prio, "next_prio"), { 0 },
};
static const struct fdesc f_wake[] = { /* sched_waking, sched_wakeup, sched_wakeup_new */
	F(1, K_STR, wake.t.comm, "comm"), F(2, K_PID, wake.t.pid, "pid"), F(3, K_S32, wake.t.prio, "prio"),
	F(5, K_CPU, wake.target_cpu, "target_cpu"), { 0 },
};
static const struct fdesc f_migrate[] = {
	F(1, K_STR, mig.t.comm, "comm"), F(2, K_PID, mig.t.pid, "pid"), F(3, K_S32, mig.t.prio, "prio"),
	F(4, K_CPU, mig.orig_cpu, "orig_cpu"), F(5, K_CPU, mig.dest_cpu, "dest_cpu"), { 0 },
};
static const struct fdesc f_fork[] = {
	F(1, K_STR, fork.parent.comm, "parent_comm"), F(2, K_PID, fork.parent.pid, "parent_pid"),
	F(3, K_STR, fork.child.comm, "child_comm"), F(4, K_PID, fork.child.pid, "child_pid"), { 0 },
};
static const struct fdesc f_exit[] = {
	F(1, K_STR, proc.t.comm, "comm"), F(2, K_PID, proc.t.pid, "pid"), F(4, K_S32, proc.t.prio, "prio"), { 0 },
};
static const struct fdesc f_free[] = {
	F(1, K_STR, proc.t.comm, "comm"), F(2, K_PID, proc.t.pid, "pid"), F(3, K_S32, proc.t.prio, "prio"), { 0 },
};
static const struct fdesc f_newtask[] = {
	F(1, K_PID, newtask.t.pid, "pid"), F(2, K_STR, newtask.t.comm, "comm"),
	F(3, K_U64, newtask.clone_flags, "clone_flags"), F(4, K_S32, newtask.oom_score_adj, "oom_score_adj"),
	{ 0 },
};
static const struct fdesc f_rename[] = {
	F(1, K_PID, rename.pid, "pid"), F(2, K_STR, rename.oldcomm, "oldcomm"),
	F(3, K_STR, rename.newcomm, "newcomm"), { 0 },
};
static const struct fdesc f_power[] = { /* cpu_frequency (kHz), cpu_idle */
	F(1, K_U32, power.state, "state"), F(2, K_CPU, power.cpu_id, "cpu_id"), { 0 },
};
#undef F

static const struct edesc events[] = {
	{ 4, FS_TEV_SWITCH, "sched_switch", f_switch },
	{ 11, FS_TEV_CPU_FREQ, "cpu_frequency", f_power },
	{ 13, FS_TEV_CPU_IDLE, "cpu_idle", f_power },
	{ 17, FS_TEV_WAKEUP, "sched_wakeup", f_wake },
	{ 20, FS_TEV_WAKING, "sched_waking", f_wake },
	{ 114, FS_TEV_WAKEUP_NEW, "sched_wakeup_new", f_wake },
	{ 235, FS_TEV_NEWTASK, "task_newtask", f_newtask },
	{ 236, FS_TEV_RENAME, "task_rename", f_rename },
	{ 238, FS_TEV_EXIT, "sched_process_exit", f_exit },
	{ 239, FS_TEV_FORK, "sched_process_fork", f_fork },
	{ 240, FS_TEV_FREE, "sched_process_free", f_free },
	{ 491, FS_TEV_MIGRATE, "sched_migrate_task", f_migrate },
};

static const struct edesc *event_of(uint32_t num)
{
	for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++)
		if (events[i].num == num)
			return &events[i];
	return NULL;
}

static void put_comm(char *dst, const uint8_t *s, size_t n)
{
	if (n > FS_COMM_LEN - 1)
		n = FS_COMM_LEN - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

/* One payload field into ev, by its descriptor. */
static int put_field(struct pft *p, const struct edesc *e, const struct fdesc *d, const struct fs_pbr_field *f,
		     struct fs_tev *ev)
{
	uint32_t want = d->kind == K_STR ? FS_PBR_LEN : FS_PBR_VARINT;
	char *at = (char *)ev + d->off;
	int64_t s = (int64_t)f->v;
	char path[80];

	if (f->wire != want) {
		snprintf(path, sizeof(path), "ftrace_events.event.%s", e->name);
		return pft_bad_wire(p, path, d->name, f, want);
	}
	switch (d->kind) {
	case K_STR:
		put_comm(at, f->data, f->len);
		return 0;
	case K_U64:
		memcpy(at, &f->v, sizeof(f->v));
		return 0;
	case K_STATE: /* a long in the kernel (include/trace/events/sched.h, sched_switch): TASK_REPORT bits, 9 used */
		memcpy(at, &(__u32){ (__u32)f->v }, sizeof(__u32));
		return 0;
	case K_U32:
		if (f->v > UINT32_MAX)
			break;
		memcpy(at, &(__u32){ (__u32)f->v }, sizeof(__u32));
		return 0;
	default: /* int32 on the wire: a negative one is sign-extended to 10 bytes */
		if (s < (d->kind == K_S32 ? INT32_MIN : 0) || s > INT32_MAX)
			break;
		memcpy(at, &(__s32){ (__s32)s }, sizeof(__s32));
		return 0;
	}
	snprintf(path, sizeof(path), "ftrace_events.event.%s.%s", e->name, d->name);
	return pft_bad(p, path, "%lld is out of range", (long long)s);
}

static int payload(struct pft *p, const struct edesc *e, const uint8_t *b, size_t len, struct fs_tev *ev)
{
	struct fs_pbr r;
	struct fs_pbr_field f;
	char path[64];
	int rc;

	fs_pbr_init(&r, b, len);
	while ((rc = fs_pbr_next(&r, &f)) > 0)
		for (const struct fdesc *d = e->f; d->name; d++)
			if (d->num == f.num && put_field(p, e, d, &f, ev))
				return -1;
	if (rc < 0) {
		snprintf(path, sizeof(path), "ftrace_events.event.%s", e->name);
		return pft_bad_pb(p, path, rc, &f);
	}
	/* include/trace/events/task.h, task_rename: v6.12 dropped pid (a task renames only itself) */
	if (ev->type == FS_TEV_RENAME && !ev->rename.pid)
		ev->rename.pid = ev->common_pid;
	return 0;
}

static struct pft_ev *ev_add(struct pft *p, struct pft_cpu *c)
{
	struct pft_ev *x;

	if (!pft_grow(p, (void **)&c->ev, &c->cap_ev, c->nr_ev, sizeof(*c->ev)))
		return NULL;
	x = &c->ev[c->nr_ev];
	memset(x, 0, sizeof(*x));
	x->seq = c->nr_ev++;
	return x;
}

static void unknown(struct pft *p, uint32_t num)
{
	if (!p->st.unknown_events++)
		snprintf(p->st.first_unknown, sizeof(p->st.first_unknown), "ftrace event (field %u)", num);
}

/* FtraceEvent: timestamp = 1, pid = 2 (the emitter), then one payload field. */
static int one_event(struct pft *p, struct pft_cpu *c, uint32_t cpu, const uint8_t *b, size_t len)
{
	static const char path[] = "ftrace_events.event";
	struct fs_pbr r;
	struct fs_pbr_field f, pl = { 0 };
	const struct edesc *e = NULL;
	uint64_t ts = 0, pid = 0;
	bool have_ts = false;
	struct fs_tev gen;
	int rc, gtype = 0;
	struct pft_ev *x;

	fs_pbr_init(&r, b, len);
	while ((rc = fs_pbr_next(&r, &f)) > 0) {
		if (f.num == 1 || f.num == 2) {
			if (f.wire != FS_PBR_VARINT)
				return pft_bad_wire(p, path, f.num == 1 ? "timestamp" : "pid", &f, FS_PBR_VARINT);
			*(f.num == 1 ? &ts : &pid) = f.v;
			have_ts |= f.num == 1;
		} else if (f.num >= 3 && f.num != 5 && f.wire == FS_PBR_LEN) { /* 5: common_flags */
			pl = f;
			e = event_of(f.num);
		}
	}
	if (rc < 0)
		return pft_bad_pb(p, path, rc, &f);
	if (!pl.num) /* an event with no payload (a field of a later schema): nothing to take */
		return unknown(p, 0), 0;
	if (pl.num == PFT_GENERIC && (gtype = pft_generic(p, pl.data, pl.len, &gen)) <= 0)
		return gtype; /* skipped (counted by its name) or bad */
	if (!e && !gtype)
		return unknown(p, pl.num), 0;
	if (!have_ts)
		return pft_bad(p, path, "%s: no timestamp", e ? e->name : fs_tev_name((__u32)gtype));
	if (pid > INT32_MAX)
		return pft_bad(p, "ftrace_events.event.pid", "%llu is out of range", (unsigned long long)pid);
	if (!(x = ev_add(p, c)))
		return -1;
	if (gtype)
		x->ev = gen;
	x->ev.type = e ? e->type : (__u32)gtype;
	x->ev.ts_ns = ts;
	x->ev.cpu = (__s32)cpu;
	x->ev.common_pid = (__s32)pid;
	return e ? payload(p, e, pl.data, pl.len, &x->ev) : 0;
}

/* The arrays of FtraceEventBundle.CompactSched: one packed field each. */
enum { CS_SW_TS, CS_SW_STATE, CS_SW_PID, CS_SW_PRIO, CS_SW_COMM, CS_WK_TS, CS_WK_PID, CS_WK_CPU, CS_WK_PRIO,
       CS_WK_COMM, CS_NR };
static const struct { uint32_t num; const char *name; } cs_fields[CS_NR] = {
	[CS_SW_TS] = { 1, "switch_timestamp" },        [CS_SW_STATE] = { 2, "switch_prev_state" },
	[CS_SW_PID] = { 3, "switch_next_pid" },        [CS_SW_PRIO] = { 4, "switch_next_prio" },
	[CS_SW_COMM] = { 6, "switch_next_comm_index" }, [CS_WK_TS] = { 7, "waking_timestamp" },
	[CS_WK_PID] = { 8, "waking_pid" },             [CS_WK_CPU] = { 9, "waking_target_cpu" },
	[CS_WK_PRIO] = { 10, "waking_prio" },          [CS_WK_COMM] = { 11, "waking_comm_index" },
};

struct compact {
	struct fs_pbr arr[CS_NR];
	size_t count[CS_NR];
	struct { const uint8_t *s; size_t n; } *intern;
	size_t nr_intern, cap_intern;
};

__attribute__((format(printf, 3, 4)))
static int cs_bad(struct pft *p, int i, const char *fmt, ...)
{
	char path[80], msg[128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(path, sizeof(path), "ftrace_events.compact_sched.%s", cs_fields[i].name);
	return pft_bad(p, path, "%s", msg);
}

/* The next value of array i (counted already, so it is there). */
static int64_t cs_next(struct compact *k, int i)
{
	uint64_t v = 0;

	fs_pbr_varint(&k->arr[i].p, k->arr[i].end, &v);
	return (int64_t)v;
}

/* A field of CompactSched into k: the arrays counted, the intern table kept. */
static int cs_field(struct pft *p, struct compact *k, const struct fs_pbr_field *f)
{
	if (f->num == 5) {
		if (f->wire != FS_PBR_LEN)
			return pft_bad_wire(p, "ftrace_events.compact_sched", "intern_table", f, FS_PBR_LEN);
		if (!pft_grow(p, (void **)&k->intern, &k->cap_intern, k->nr_intern, sizeof(*k->intern)))
			return -1;
		k->intern[k->nr_intern].s = f->data;
		k->intern[k->nr_intern++].n = f->len;
		return 0;
	}
	for (int i = 0; i < CS_NR; i++) {
		const uint8_t *q, *end;
		uint64_t v;
		if (cs_fields[i].num != f->num)
			continue;
		if (f->wire != FS_PBR_LEN) /* [packed = true]: one length-delimited run */
			return pft_bad_wire(p, "ftrace_events.compact_sched", cs_fields[i].name, f, FS_PBR_LEN);
		q = f->data;
		end = q + f->len;
		if (k->arr[i].end)
			return cs_bad(p, i, "given twice (split packed arrays are not read)");
		fs_pbr_init(&k->arr[i], f->data, f->len);
		while (q < end) {
			if (fs_pbr_varint(&q, end, &v))
				return cs_bad(p, i, "truncated varint after %zu values", k->count[i]);
			k->count[i]++;
		}
	}
	return 0;
}

static int cs_comm(struct pft *p, struct compact *k, int i, char *dst)
{
	int64_t x = cs_next(k, i);

	if (x < 0 || (uint64_t)x >= k->nr_intern)
		return cs_bad(p, i, "%lld is past the intern table (%zu strings)", (long long)x, k->nr_intern);
	put_comm(dst, k->intern[x].s, k->intern[x].n);
	return 0;
}

static int cs_s32(struct pft *p, struct compact *k, int i, int32_t lo, __s32 *out)
{
	int64_t x = cs_next(k, i);

	if (x < lo || x > INT32_MAX)
		return cs_bad(p, i, "%lld is out of range", (long long)x);
	*out = (__s32)x;
	return 0;
}

/* The arrays, all read: switches then wakings, each with delta-encoded times (the first absolute). */
static int cs_emit(struct pft *p, struct pft_cpu *c, struct compact *k, uint32_t cpu)
{
	for (int i = 0; i < CS_NR; i++) {
		int ts = i < CS_WK_TS ? CS_SW_TS : CS_WK_TS;
		if (k->count[i] != k->count[ts])
			return cs_bad(p, i, "%zu values for %zu timestamps", k->count[i], k->count[ts]);
	}
	for (int w = 0; w < 2; w++) {
		int base = w ? CS_WK_TS : CS_SW_TS;
		uint64_t ts = 0;
		for (size_t n = 0; n < k->count[base]; n++) {
			struct pft_ev *x = ev_add(p, c);
			struct fs_tev *ev = &x->ev;
			if (!x)
				return -1;
			ts += (uint64_t)cs_next(k, base);
			x->compact = 1;
			ev->ts_ns = ts;
			ev->cpu = (__s32)cpu;
			if (!w) {
				ev->type = FS_TEV_SWITCH;
				ev->sw.prev_state = (__u32)cs_next(k, CS_SW_STATE);
				if (cs_s32(p, k, CS_SW_PID, 0, &ev->sw.next.pid) ||
				    cs_s32(p, k, CS_SW_PRIO, INT32_MIN, &ev->sw.next.prio) ||
				    cs_comm(p, k, CS_SW_COMM, ev->sw.next.comm))
					return -1;
			} else {
				ev->type = FS_TEV_WAKING;
				if (cs_s32(p, k, CS_WK_PID, 0, &ev->wake.t.pid) ||
				    cs_s32(p, k, CS_WK_CPU, 0, &ev->wake.target_cpu) ||
				    cs_s32(p, k, CS_WK_PRIO, INT32_MIN, &ev->wake.t.prio) ||
				    cs_comm(p, k, CS_WK_COMM, ev->wake.t.comm))
					return -1;
			}
		}
	}
	return 0;
}

/* CompactSched: the arrays (any order), then the events. */
static int compact_sched(struct pft *p, struct pft_cpu *c, uint32_t cpu, const uint8_t *b, size_t len)
{
	struct compact k = { 0 };
	struct fs_pbr r;
	struct fs_pbr_field f;
	int rc = 0, bad = 0;

	fs_pbr_init(&r, b, len);
	while (!bad && (rc = fs_pbr_next(&r, &f)) > 0)
		bad = cs_field(p, &k, &f);
	if (!bad && rc < 0)
		bad = pft_bad_pb(p, "ftrace_events.compact_sched", rc, &f);
	if (!bad)
		bad = cs_emit(p, c, &k, cpu);
	free(k.intern);
	return bad ? -1 : 0;
}

static int ev_cmp(const void *a, const void *b)
{
	const struct pft_ev *x = a, *y = b;

	if (x->ev.ts_ns != y->ev.ts_ns)
		return x->ev.ts_ns < y->ev.ts_ns ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/*
 * The bundle's clock (ftrace_clock = 5): unset is BOOTTIME, MONO_RAW its
 * clock; local and global (the trace_clock files' names) are put on
 * BOOTTIME by the pair ftrace_timestamp = 6, boot_timestamp = 7 taken at
 * one instant when the bundle was read.
 */
static int to_primary(struct pft *p, struct pft_cpu *c, uint64_t clk, const int64_t pair[2], bool have_pair)
{
	int src = clk == 4 ? PFT_MONO_RAW : PFT_BOOTTIME;
	int64_t shift = 0;

	if (clk > 4)
		return pft_bad(p, "ftrace_events.ftrace_clock", "%llu is not a clock of ftrace_event_bundle.proto",
			       (unsigned long long)clk);
	if (clk >= 1 && clk <= 3) {
		if (!have_pair)
			return pft_bad(p, "ftrace_events.ftrace_clock", "%llu without ftrace_timestamp and boot_timestamp",
				       (unsigned long long)clk);
		shift = pair[1] - pair[0];
	}
	for (size_t i = 0; i < c->nr_ev; i++) {
		struct fs_tev *ev = &c->ev[i].ev;
		if (ev->type == FS_TEV_LOST)
			continue;
		if ((shift < 0 && ev->ts_ns < (uint64_t)-shift))
			return pft_bad(p, "ftrace_events.boot_timestamp", "puts %llu ns before BOOTTIME's zero",
				       (unsigned long long)ev->ts_ns);
		ev->ts_ns += (uint64_t)shift;
		if (pft_clock_to_primary(p, c, src, ev->ts_ns, &ev->ts_ns))
			return -1;
	}
	return 0;
}

void pft_fill(struct pft *p, struct pft_cpu *c, struct pft_ev *x)
{
	struct fs_tev *ev = &x->ev;
	const struct pft_pid *e;

	if (x->compact) {
		if (ev->type == FS_TEV_SWITCH)
			ev->sw.prev = c->cur;
		ev->common_pid = c->cur.pid;
	}
	ev->common_tgid = -1;
	switch (ev->type) {
	case FS_TEV_SWITCH:
		pft_pid_comm(p, ev->sw.prev.pid, ev->sw.prev.comm);
		pft_pid_comm(p, ev->sw.next.pid, ev->sw.next.comm);
		c->cur = ev->sw.next;
		break;
	case FS_TEV_WAKING: case FS_TEV_WAKEUP: case FS_TEV_WAKEUP_NEW:
		pft_pid_comm(p, ev->wake.t.pid, ev->wake.t.comm);
		break;
	case FS_TEV_FORK:
		pft_pid_comm(p, ev->fork.child.pid, ev->fork.child.comm);
		break;
	case FS_TEV_RENAME:
		pft_pid_comm(p, ev->rename.pid, ev->rename.newcomm);
		break;
	case FS_TEV_NEWTASK:
		pft_pid_comm(p, ev->newtask.t.pid, ev->newtask.t.comm);
		pft_pid_tgid(p, ev->common_pid, ev->newtask.t.pid, ev->newtask.clone_flags & FS_TEV_CLONE_THREAD);
		break;
	}
	if (ev->common_pid == 0)
		snprintf(ev->common_comm, sizeof(ev->common_comm), "<idle>");
	else if ((e = pft_pid_get(&p->pids, ev->common_pid, false))) {
		memcpy(ev->common_comm, e->comm, FS_COMM_LEN);
		ev->common_tgid = e->tgid;
	}
}

/* A lost-events mark sorts first (time 0): it takes the first event's time, or goes with none. */
static void place_lost(struct pft_cpu *c)
{
	if (!c->nr_ev || c->ev[0].ev.type != FS_TEV_LOST)
		return;
	if (c->nr_ev == 1)
		c->nr_ev = 0;
	else
		c->ev[0].ev.ts_ns = c->ev[1].ev.ts_ns;
}

/* One bundle field: events, the lost mark, compact sched, the clock fields. */
static int bundle_field(struct pft *p, struct pft_cpu *c, const struct pft_bundle *b, const struct fs_pbr_field *f,
			uint64_t *clk, int64_t pair[2], int *have_pair)
{
	static const char *const names[] = { [2] = "event", [3] = "lost_events", [4] = "compact_sched",
					     [5] = "ftrace_clock", [6] = "ftrace_timestamp", [7] = "boot_timestamp" };
	uint32_t want = f->num == 2 || f->num == 4 ? FS_PBR_LEN : FS_PBR_VARINT;
	struct pft_ev *x;

	if (f->num < 2 || f->num > 7)
		return 0;
	if (f->wire != want)
		return pft_bad_wire(p, "ftrace_events", names[f->num], f, want);
	switch (f->num) {
	case 2:
		return one_event(p, c, b->cpu, f->data, f->len);
	case 3:
		if (!f->v)
			return 0;
		if (!(x = ev_add(p, c)))
			return -1;
		x->ev.type = FS_TEV_LOST;
		x->ev.cpu = (__s32)b->cpu;
		x->ev.common_pid = -1;
		x->ev.lost.nr = FS_TEV_LOST_UNKNOWN; /* the bundle says only that some were */
		return 0;
	case 4:
		return compact_sched(p, c, b->cpu, f->data, f->len);
	case 5:
		*clk = f->v;
		return 0;
	}
	pair[f->num - 6] = (int64_t)f->v;
	*have_pair |= 1 << (f->num - 6);
	return 0;
}

int pft_bundle_decode(struct pft *p, struct pft_cpu *c, const struct pft_bundle *b)
{
	struct fs_pbr r;
	struct fs_pbr_field f;
	uint64_t clk = 0;
	int64_t pair[2] = { 0, 0 };
	int have_pair = 0, rc;
	bool sorted = true;

	p->pkt = b->pkt;
	p->off = b->off;
	c->nr_ev = c->pos = 0;
	fs_pbr_init(&r, b->data, b->len);
	while ((rc = fs_pbr_next(&r, &f)) > 0)
		if (bundle_field(p, c, b, &f, &clk, pair, &have_pair))
			return -1;
	if (rc < 0)
		return pft_bad_pb(p, "ftrace_events", rc, &f);
	if (to_primary(p, c, clk, pair, have_pair == 3))
		return -1;
	for (size_t i = 1; i < c->nr_ev && sorted; i++)
		sorted = ev_cmp(&c->ev[i - 1], &c->ev[i]) <= 0;
	if (!sorted) /* compact switches, compact wakings and the other events: three runs to merge */
		qsort(c->ev, c->nr_ev, sizeof(*c->ev), ev_cmp);
	place_lost(c);
	return 0;
}
