// SPDX-License-Identifier: GPL-2.0
/*
 * trace.dat's records decoded (trace_dat_decode.h): each record, by its
 * event's format (libtraceevent), into the same struct fs_tev as the text
 * parser gives for `trace-cmd report -N`. trace_dat.c hands it libtracecmd's
 * records of a file; the trace_dat_records fuzz target records of its own
 * against formats parsed once (docs/fuzzing.md).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "trace_dat_decode.h"

#ifdef FS_HAVE_TRACECMD
#include <event-parse.h>

/*
 * Event ids below this map to a type by a table, larger ones by a search:
 * an id is the u16 trace_entry.type (include/linux/trace_events.h), given
 * out in registration order (kernel/trace/trace_output.c,
 * register_trace_event()), so the built-in sched, task and power events
 * come early.
 */
#define DAT_IDS 4096
#define DAT_MEMO 16 /* fields memoised per type: a power of two above the 7 of sched_switch */
#define DAT_COMMS 1024 /* pids whose comm is cached: a power of two */

struct fs_dat_dec {
	struct tep_handle *tep;
	const char *path;
	fs_tev_fn fn;
	void *ctx;
	struct fs_trace_stats st;
	char *err;
	size_t errlen;
	int rc;
	int id[FS_TEV_NR_TYPES]; /* event id of each type, -1 if the file lacks it */
	struct tep_event *event[FS_TEV_NR_TYPES];
	/* of any event: struct trace_entry heads every one (include/linux/trace_events.h) */
	struct tep_format_field *common_type, *common_pid;
	bool native; /* the file's byte order is this machine's */
	unsigned char type_of[DAT_IDS]; /* an event id's type, 0 for the others */
	/*
	 * Each type's fields as found by name the first time: the names are
	 * this file's literals, so their address finds them again (hashed)
	 * without tep_find_field()'s strcmp over the format.
	 */
	struct { const char *name; struct tep_format_field *f; } memo[FS_TEV_NR_TYPES][DAT_MEMO];
	/*
	 * common_comm by pid: libtraceevent's lookup is a bsearch of the saved
	 * cmdlines per call. They do not change while we read: only plugins
	 * (not loaded) register comms.
	 */
	struct { int used, pid; char comm[FS_COMM_LEN]; } comms[DAT_COMMS];
};

static const char *const dat_events[FS_TEV_NR_TYPES][2] = {
	[FS_TEV_SWITCH] = { "sched", "sched_switch" },         [FS_TEV_WAKING] = { "sched", "sched_waking" },
	[FS_TEV_WAKEUP] = { "sched", "sched_wakeup" },         [FS_TEV_WAKEUP_NEW] = { "sched", "sched_wakeup_new" },
	[FS_TEV_MIGRATE] = { "sched", "sched_migrate_task" },  [FS_TEV_FORK] = { "sched", "sched_process_fork" },
	[FS_TEV_EXIT] = { "sched", "sched_process_exit" },     [FS_TEV_FREE] = { "sched", "sched_process_free" },
	[FS_TEV_NEWTASK] = { "task", "task_newtask" },         [FS_TEV_RENAME] = { "task", "task_rename" },
	[FS_TEV_CPU_FREQ] = { "power", "cpu_frequency" },      [FS_TEV_CPU_IDLE] = { "power", "cpu_idle" },
	/* LISA's sched_tp module defines them in the sched system */
	[FS_TEV_PELT_SE] = { "sched", "sched_pelt_se" },       [FS_TEV_UTIL_EST_SE] = { "sched", "sched_util_est_se" },
	[FS_TEV_PELT_CFS] = { "sched", "sched_pelt_cfs" },     [FS_TEV_UTIL_EST_CFS] = { "sched", "sched_util_est_cfs" },
};

/*
 * LISA's other names for its events, tried when the file lacks the one
 * above: the lisa module's (TRACE_SYSTEM lisa, "lisa__" names:
 * lisa/_assets/kmodules/lisa/ftrace_events.h) and the first module's
 * sched_load_se / sched_load_cfs_rq (the same fields).
 */
static const struct { int type; const char *sys, *name; } dat_aliases[] = {
	{ FS_TEV_PELT_SE, "lisa", "lisa__sched_pelt_se" },   { FS_TEV_UTIL_EST_SE, "lisa", "lisa__sched_util_est_se" },
	{ FS_TEV_PELT_CFS, "lisa", "lisa__sched_pelt_cfs" }, { FS_TEV_UTIL_EST_CFS, "lisa", "lisa__sched_util_est_cfs" },
	{ FS_TEV_PELT_SE, "sched", "sched_load_se" },        { FS_TEV_PELT_CFS, "sched", "sched_load_cfs_rq" },
};


/* The record being decoded, for its errors. */
struct rec {
	struct fs_dat_dec *d;
	struct tep_event *e;
	struct tep_record *r;
	int type;
};

/*
 * An integer field's bytes as a number: read in place when the file is in
 * this machine's byte order, else by libtraceevent (tep_read_number() is a
 * call and a byte-order test per field: docs/traces.md, Import speed).
 */
static unsigned long long rd(const struct fs_dat_dec *d, const void *p, int size)
{
	__u16 v2;
	__u32 v4;
	__u64 v8;

	if (!d->native)
		return tep_read_number(d->tep, p, size);
	switch (size) {
	case 1:
		return *(const __u8 *)p;
	case 2:
		memcpy(&v2, p, 2);
		return v2;
	case 4:
		memcpy(&v4, p, 4);
		return v4;
	case 8:
		memcpy(&v8, p, 8);
		return v8;
	}
	return 0;
}

/* A common field (type, pid) of a record, -1 if the record is too short for it. */
static int common(const struct fs_dat_dec *d, const struct tep_record *r, const struct tep_format_field *f)
{
	if (f->offset < 0 || (f->size != 1 && f->size != 2 && f->size != 4) ||
	    (unsigned)(f->offset + f->size) > (unsigned)r->size)
		return -1;
	return (int)rd(d, (const char *)r->data + f->offset, f->size);
}

/* The field called name of the record's event (NULL if its format has none), memoised per type. */
static struct tep_format_field *field(struct rec *x, const char *name)
{
	__typeof__(x->d->memo[0][0]) *m = x->d->memo[x->type];
	unsigned int i = (unsigned int)(((uintptr_t)name * 0x9e3779b97f4a7c15ull) >> 40) % DAT_MEMO;

	for (int n = 0; n < DAT_MEMO; n++, i = (i + 1) % DAT_MEMO) {
		if (m[i].name == name)
			return m[i].f;
		if (!m[i].name) {
			m[i].name = name;
			return m[i].f = tep_find_field(x->e, name);
		}
	}
	return tep_find_field(x->e, name);
}

static int rec_bad(struct rec *x, const char *field, const char *why)
{
	snprintf(x->d->err, x->d->errlen, "%s: %s at %llu ns (CPU %d): %s: %s", x->d->path, x->e->name,
		 (unsigned long long)x->r->ts, x->r->cpu, field, why);
	return -1;
}

/* A number field, sign-extended if the format says signed, within lo..hi. */
static int num(struct rec *x, const char *name, long long lo, long long hi, long long *out)
{
	struct tep_format_field *f = field(x, name);
	unsigned long long v;
	long long s;

	if (!f || f->size < 1 || f->size > 8 || (unsigned)(f->offset + f->size) > (unsigned)x->r->size)
		return rec_bad(x, name, "missing");
	v = rd(x->d, (const char *)x->r->data + f->offset, f->size);
	s = (long long)v;
	if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size < 8 && (v >> (f->size * 8 - 1)) & 1)
		s = (long long)(v | ~0ull << (f->size * 8));
	if (s < lo || s > hi)
		return rec_bad(x, name, "out of range");
	*out = s;
	return 0;
}

static int s32(struct rec *x, const char *name, __s32 lo, __s32 *out)
{
	long long v;

	if (num(x, name, lo, 0x7fffffff, &v))
		return -1;
	*out = (__s32)v;
	return 0;
}

/* A field's bytes: in place, or a dynamic array's (its offset and length in the field), within the record. */
static const char *raw(struct rec *x, const struct tep_format_field *f, int *len)
{
	const char *data = x->r->data;
	unsigned int size = (unsigned)x->r->size;

	if (f->offset < 0 || f->size < 0 || (unsigned)(f->offset + f->size) > size)
		return NULL;
	if (!(f->flags & TEP_FIELD_IS_DYNAMIC)) {
		*len = f->size;
		return data + f->offset;
	}
	if (f->size != 4) /* __data_loc: a u32, offset in the low half, length in the high */
		return NULL;
	unsigned int v = (unsigned int)rd(x->d, data + f->offset, 4), off = v & 0xffff;

	if (f->flags & TEP_FIELD_IS_RELATIVE)
		off += (unsigned)(f->offset + f->size);
	if (off + (v >> 16) > size)
		return NULL;
	*len = (int)(v >> 16);
	return data + off;
}

/* A comm: a char array, or (on kernels that made it one) a dynamic string. */
static int str(struct rec *x, const char *name, char *dst)
{
	const struct tep_format_field *f = field(x, name);
	int len = 0;
	const char *p = f ? raw(x, f, &len) : NULL;
	size_t n;

	if (!p)
		return rec_bad(x, name, "missing");
	n = strnlen(p, (size_t)len < FS_COMM_LEN - 1 ? (size_t)len : FS_COMM_LEN - 1);
	memcpy(dst, p, n);
	dst[n] = '\0';
	return 0;
}

static int task(struct rec *x, const char *comm, const char *pid, const char *prio, struct fs_tev_task *t)
{
	return str(x, comm, t->comm) || s32(x, pid, 0, &t->pid) ||
	       (prio && s32(x, prio, -0x7fffffff, &t->prio)) ? -1 : 0;
}

/* LISA's sched_pelt_se / sched_util_est_se (trace_event.h): the entity, util, and util_est's pair. */
static int decode_pelt(struct rec *x, struct fs_tev *ev)
{
	long long v[3] = { 0 };

	if (ev->type != FS_TEV_PELT_SE && ev->type != FS_TEV_UTIL_EST_SE)
		return 0;
	if (str(x, "comm", ev->pelt.t.comm) || s32(x, "pid", -1, &ev->pelt.t.pid) || s32(x, "cpu", 0, &ev->pelt.cpu) ||
	    num(x, "util", 0, 0xffffffffll, &v[0]))
		return -1;
	if (ev->type == FS_TEV_UTIL_EST_SE &&
	    (num(x, "enqueued", 0, 0xffffffffll, &v[1]) || num(x, "ewma", 0, 0xffffffffll, &v[2])))
		return -1;
	ev->pelt.util = (__u32)v[0];
	ev->pelt.enqueued = (__u32)v[1];
	ev->pelt.ewma = (__u32)v[2];
	return 0;
}

/*
 * LISA's sched_pelt_cfs / sched_util_est_cfs: the CPU, whether the cfs_rq
 * is the root (path "/", or "(null)" without CONFIG_FAIR_GROUP_SCHED:
 * sched_helpers.h, cfs_rq_tg_path()), util, and util_est's pair.
 */
static int decode_cfs(struct rec *x, struct fs_tev *ev)
{
	long long v[3] = { 0 };
	char path[FS_COMM_LEN];

	if (s32(x, "cpu", 0, &ev->cfs.cpu) || str(x, "path", path) || num(x, "util", 0, 0xffffffffll, &v[0]))
		return -1;
	if (ev->type == FS_TEV_UTIL_EST_CFS &&
	    (num(x, "enqueued", 0, 0xffffffffll, &v[1]) || num(x, "ewma", 0, 0xffffffffll, &v[2])))
		return -1;
	ev->cfs.root = !strcmp(path, "/") || !strcmp(path, "(null)");
	ev->cfs.util = (__u32)v[0];
	ev->cfs.enqueued = (__u32)v[1];
	ev->cfs.ewma = (__u32)v[2];
	return 0;
}

static int decode_sched(struct rec *x, struct fs_tev *ev)
{
	long long v;

	switch (ev->type) {
	case FS_TEV_SWITCH:
		if (task(x, "prev_comm", "prev_pid", "prev_prio", &ev->sw.prev) ||
		    num(x, "prev_state", -0x7fffffffffffffffll, 0x7fffffffffffffffll, &v) ||
		    task(x, "next_comm", "next_pid", "next_prio", &ev->sw.next))
			return -1;
		ev->sw.prev_state = (__u32)v;
		return 0;
	case FS_TEV_WAKING: case FS_TEV_WAKEUP: case FS_TEV_WAKEUP_NEW:
		return task(x, "comm", "pid", "prio", &ev->wake.t) || s32(x, "target_cpu", 0, &ev->wake.target_cpu);
	case FS_TEV_MIGRATE:
		return task(x, "comm", "pid", "prio", &ev->mig.t) || s32(x, "orig_cpu", 0, &ev->mig.orig_cpu) ||
		       s32(x, "dest_cpu", 0, &ev->mig.dest_cpu);
	case FS_TEV_EXIT: case FS_TEV_FREE:
		return task(x, "comm", "pid", "prio", &ev->proc.t);
	case FS_TEV_FORK:
		return task(x, "parent_comm", "parent_pid", NULL, &ev->fork.parent) ||
		       task(x, "child_comm", "child_pid", NULL, &ev->fork.child);
	case FS_TEV_PELT_CFS: case FS_TEV_UTIL_EST_CFS:
		return decode_cfs(x, ev);
	}
	return decode_pelt(x, ev);
}

static int decode(struct rec *x, struct fs_tev *ev)
{
	long long v;

	switch (ev->type) {
	case FS_TEV_NEWTASK:
		if (task(x, "comm", "pid", NULL, &ev->newtask.t) || num(x, "clone_flags", 0, 0x7fffffffffffffffll, &v) ||
		    s32(x, "oom_score_adj", -0x7fffffff, &ev->newtask.oom_score_adj))
			return -1;
		ev->newtask.clone_flags = (__u64)v;
		return 0;
	case FS_TEV_RENAME: /* pid= went in v6.12: the renamed task is the emitter */
		ev->rename.pid = ev->common_pid;
		if (field(x, "pid") && s32(x, "pid", 0, &ev->rename.pid))
			return -1;
		return str(x, "oldcomm", ev->rename.oldcomm) || str(x, "newcomm", ev->rename.newcomm);
	case FS_TEV_CPU_FREQ: case FS_TEV_CPU_IDLE:
		if (num(x, "state", 0, 0xffffffffll, &v) || s32(x, "cpu_id", 0, &ev->power.cpu_id))
			return -1;
		ev->power.state = (__u32)v;
		return 0;
	}
	return decode_sched(x, ev);
}

static int emit(struct fs_dat_dec *d, const struct fs_tev *ev)
{
	if (d->fn(d->ctx, ev, d->err, d->errlen)) {
		d->rc = -1;
		return -1;
	}
	return 0;
}

/* A record's missed_events as a lost-events event before it. */
static int lost(struct fs_dat_dec *d, const struct tep_record *r, int cpu)
{
	struct fs_tev ev;

	memset(&ev, 0, sizeof(ev));
	ev.ts_ns = r->ts;
	ev.cpu = cpu;
	ev.type = FS_TEV_LOST;
	ev.common_pid = ev.common_tgid = -1;
	ev.lost.nr = r->missed_events > 0 ? (__u64)r->missed_events : FS_TEV_LOST_UNKNOWN;
	d->st.events++;
	d->st.lost_reports++;
	d->st.lost_events += r->missed_events > 0 ? (__u64)r->missed_events : 1;
	return emit(d, &ev);
}

/*
 * The type of an event id, 0 for events we skip. A record whose
 * common_type cannot be read (too short for it) has id -1, which is also
 * d->id[] of every type the file has no format for: it matched the first
 * such type, whose NULL event the decoder then read (found by the
 * trace_dat fuzz target, docs/fuzzing.md). Any other id in d->id[] has
 * its event.
 */
static int type_of(const struct fs_dat_dec *d, int id)
{
	if (id < 0)
		return 0;
	if (id < DAT_IDS)
		return d->type_of[id];
	for (int t = 1; t < FS_TEV_LOST; t++)
		if (d->id[t] == id)
			return t;
	return 0;
}

/* The comm the file's saved cmdlines give pid, as `trace-cmd report` prints it (at most 15 bytes). */
static void comm_of(struct fs_dat_dec *d, int pid, char *dst)
{
	__typeof__(d->comms[0]) *c = &d->comms[(unsigned int)pid % DAT_COMMS];

	if (!c->used || c->pid != pid) {
		const char *s = tep_data_comm_from_pid(d->tep, pid);
		size_t n = strnlen(s, FS_COMM_LEN - 1);

		memset(c->comm, 0, sizeof(c->comm));
		memcpy(c->comm, s, n);
		c->used = 1;
		c->pid = pid;
	}
	memcpy(dst, c->comm, FS_COMM_LEN);
}

/*
 * The file's event of a type: by its system and name, then by LISA's other
 * names (dat_aliases), then by any of those names in any system, as the
 * text reader matches `trace-cmd report`'s lines by the name alone (a
 * synthetic event or an eprobe carrying LISA's fields: tests/cli/trace.sh).
 */
static struct tep_event *find_event(struct tep_handle *tep, int type)
{
	struct tep_event *e = tep_find_event_by_name(tep, dat_events[type][0], dat_events[type][1]);
	size_t n = sizeof(dat_aliases) / sizeof(dat_aliases[0]);

	for (size_t i = 0; !e && i < n; i++)
		if (dat_aliases[i].type == type)
			e = tep_find_event_by_name(tep, dat_aliases[i].sys, dat_aliases[i].name);
	if (!e && type >= FS_TEV_PELT_SE) /* LISA's: their system has moved between modules */
		e = tep_find_event_by_name(tep, NULL, dat_events[type][1]);
	for (size_t i = 0; !e && type >= FS_TEV_PELT_SE && i < n; i++)
		if (dat_aliases[i].type == type)
			e = tep_find_event_by_name(tep, NULL, dat_aliases[i].name);
	return e;
}


struct fs_dat_dec *fs_dat_dec_new(struct tep_handle *tep, const char *path, fs_tev_fn fn, void *ctx, char *err,
				  size_t errlen)
{
	struct fs_dat_dec *d = calloc(1, sizeof(*d));

	if (!d) {
		snprintf(err, errlen, "%s: out of memory", path);
		return NULL;
	}
	*d = (struct fs_dat_dec){ .tep = tep, .path = path, .fn = fn, .ctx = ctx, .err = err, .errlen = errlen };
	for (int t = 1; t < FS_TEV_LOST; t++) {
		struct tep_event *e = find_event(tep, t);

		d->id[t] = e ? e->id : -1;
		d->event[t] = e;
		if (e && e->id >= 0 && e->id < DAT_IDS)
			d->type_of[e->id] = (unsigned char)t;
		if (e && !d->common_type) {
			d->common_type = tep_find_common_field(e, "common_type");
			d->common_pid = tep_find_common_field(e, "common_pid");
		}
	}
	d->native = tep_is_file_bigendian(tep) == tep_is_local_bigendian(tep);
	return d;
}

int fs_dat_dec_record(struct fs_dat_dec *d, struct tep_record *r, int cpu)
{
	int id = d->common_type ? common(d, r, d->common_type) : tep_data_type(d->tep, r), type = type_of(d, id);
	struct rec x = { d, d->event[type], r, type };
	struct fs_tev ev;

	if (r->missed_events && lost(d, r, cpu))
		return -1;
	if (!type) {
		if (!d->st.unknown_events++) {
			const struct tep_event *e = tep_find_event(d->tep, id);

			snprintf(d->st.first_unknown, sizeof(d->st.first_unknown), "%s", e ? e->name : "?");
		}
		return 0;
	}
	memset(&ev, 0, sizeof(ev));
	ev.ts_ns = r->ts;
	ev.cpu = cpu;
	ev.type = (__u32)type;
	ev.common_pid = d->common_pid ? common(d, r, d->common_pid) : tep_data_pid(d->tep, r);
	ev.common_tgid = -1;
	comm_of(d, ev.common_pid, ev.common_comm);
	if (decode(&x, &ev)) {
		d->rc = -1;
		return -1;
	}
	d->st.events++;
	return emit(d, &ev);
}

bool fs_dat_dec_untouched(const struct fs_dat_dec *d)
{
	return !d->rc && !d->st.events && !d->st.unknown_events;
}

int fs_dat_dec_free(struct fs_dat_dec *d, struct fs_trace_stats *st)
{
	int rc = d->rc;

	if (st)
		*st = d->st;
	free(d);
	return rc;
}
#endif /* FS_HAVE_TRACECMD */
