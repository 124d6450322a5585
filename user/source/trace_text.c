// SPDX-License-Identifier: GPL-2.0
/*
 * The ftrace text parser (trace_text.h, docs/traces.md). Each event line is
 * "comm-pid [cpu] flags ts: event: fields", the flags column optional, a
 * "(tgid)" column after the pid optional; the fields follow the kernel's
 * TP_printk (sched.h, power.h, task.h) or, in `trace-cmd report` without -N,
 * libtraceevent's sched plugin ("comm:pid [prio] S ==> comm:pid [prio]").
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "trace_text.h"

#define LINE_MAX_LEN 4096

struct fs_trace_text {
	char name[256];
	unsigned long lineno;
	__u64 last_ts;
	struct fs_trace_stats st;
	char buf[LINE_MAX_LEN + 1];
};

/* The line being parsed, for its errors. */
struct lctx {
	struct fs_trace_text *t;
	const char *event;
	char *err;
	size_t errlen;
};

static const char *const tev_names[FS_TEV_NR_TYPES] = {
	[FS_TEV_SWITCH] = "sched_switch",         [FS_TEV_WAKING] = "sched_waking",
	[FS_TEV_WAKEUP] = "sched_wakeup",         [FS_TEV_WAKEUP_NEW] = "sched_wakeup_new",
	[FS_TEV_MIGRATE] = "sched_migrate_task",  [FS_TEV_FORK] = "sched_process_fork",
	[FS_TEV_EXIT] = "sched_process_exit",     [FS_TEV_FREE] = "sched_process_free",
	[FS_TEV_NEWTASK] = "task_newtask",        [FS_TEV_RENAME] = "task_rename",
	[FS_TEV_CPU_FREQ] = "cpu_frequency",      [FS_TEV_CPU_IDLE] = "cpu_idle",
	[FS_TEV_PELT_SE] = "sched_pelt_se",       [FS_TEV_UTIL_EST_SE] = "sched_util_est_se",
	[FS_TEV_PELT_CFS] = "sched_pelt_cfs",     [FS_TEV_UTIL_EST_CFS] = "sched_util_est_cfs",
	[FS_TEV_LOST] = "lost events",
};

/*
 * Other names of LISA's events: sched_load_se / sched_load_cfs_rq of its
 * first module (kernel/sched/sched_events.h of 2019, the same fields less
 * update_time), and the lisa module's (lisa/_assets/kmodules/lisa/
 * ftrace_events.h: TRACE_SYSTEM lisa, each name prefixed "lisa__"), which
 * fs_tev_type_of_name() strips first.
 */
static const struct { const char *name; int type; } tev_aliases[] = {
	{ "sched_load_se", FS_TEV_PELT_SE },
	{ "sched_load_cfs_rq", FS_TEV_PELT_CFS },
};

const char *fs_tev_name(__u32 type)
{
	return type && type < FS_TEV_NR_TYPES ? tev_names[type] : "?";
}

__attribute__((format(printf, 3, 4)))
static int bad(struct lctx *c, const char *field, const char *fmt, ...)
{
	size_t n;
	va_list ap;

	snprintf(c->err, c->errlen, "%s:%lu: %s%s%s%s", c->t->name, c->t->lineno,
		 c->event ? c->event : "", c->event ? ": " : "", field ? field : "", field ? ": " : "");
	n = strlen(c->err);
	va_start(ap, fmt);
	if (n < c->errlen)
		vsnprintf(c->err + n, c->errlen - n, fmt, ap);
	va_end(ap);
	return -1;
}

static void put_comm(char *dst, const char *s, size_t len)
{
	if (len > FS_COMM_LEN - 1)
		len = FS_COMM_LEN - 1; /* TASK_COMM_LEN: a longer name is a cut one anyway */
	memcpy(dst, s, len);
	dst[len] = '\0';
}

/* A decimal integer filling exactly [s, s + len), within lo..hi. */
static int get_int(struct lctx *c, const char *field, const char *s, size_t len, long long lo, long long hi,
		   long long *out)
{
	unsigned long long v = 0;
	size_t i = 0;
	bool neg = len && s[0] == '-';

	if (neg)
		i++;
	if (i == len)
		return bad(c, field, "'%.*s' is not a number", (int)len, s);
	for (; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return bad(c, field, "'%.*s' is not a number", (int)len, s);
		if (v > (~0ull - 9) / 10)
			return bad(c, field, "'%.*s' is out of range", (int)len, s);
		v = v * 10 + (unsigned)(s[i] - '0');
	}
	if ((!neg && v > (unsigned long long)hi) || (neg && (lo >= 0 || v > (unsigned long long)-(lo + 1) + 1)))
		return bad(c, field, "%.*s is out of range %lld..%lld", (int)len, s, lo, hi);
	*out = neg ? -(long long)(v - 1) - 1 : (long long)v;
	return 0;
}

static int get_s32(struct lctx *c, const char *field, const char *s, size_t len, __s32 lo, __s32 *out)
{
	long long v;

	if (get_int(c, field, s, len, lo, 0x7fffffff, &v))
		return -1;
	*out = (__s32)v;
	return 0;
}

/* clone_flags, printed %lx (no 0x). */
static int get_hex(struct lctx *c, const char *field, const char *s, size_t len, __u64 *out)
{
	__u64 v = 0;

	if (!len || len > 16)
		return bad(c, field, "'%.*s' is not a hex number", (int)len, s);
	for (size_t i = 0; i < len; i++) {
		char ch = s[i];
		int d = ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 :
			ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
		if (d < 0)
			return bad(c, field, "'%.*s' is not a hex number", (int)len, s);
		v = v << 4 | (__u64)d;
	}
	*out = v;
	return 0;
}

/* A key's field name: " ==> next_comm=" gives "next_comm". */
static const char *key_field(const char *key, char *buf, size_t len)
{
	const char *eq = strchr(key, '='), *b = eq;

	while (b > key && b[-1] != ' ')
		b--;
	snprintf(buf, len, "%.*s", (int)(eq - b), b);
	return buf;
}

#define MAX_KEYS 8
struct kv {
	const char *v[MAX_KEYS];
	size_t len[MAX_KEYS];
	char names[MAX_KEYS][24];
};

/*
 * Split s by keys (each the text before its value: "prev_comm=", " prev_pid=").
 * A value runs to the next key; the last one to a blank (later fields, such
 * as v6.16's group_dead=, are left), or to the end if last_to_end (a comm).
 */
static int kv_split(struct lctx *c, const char *s, const char *const *keys, int n, bool last_to_end, struct kv *kv)
{
	const char *p = s;

	for (int i = 0; i < n; i++) {
		size_t kl = strlen(keys[i]);
		const char *v, *e;

		key_field(keys[i], kv->names[i], sizeof(kv->names[i]));
		if (strncmp(p, keys[i], kl))
			return bad(c, kv->names[i], "missing");
		v = p + kl;
		if (i + 1 < n) {
			e = strstr(v, keys[i + 1]);
			if (!e) {
				char nb[24];
				return bad(c, key_field(keys[i + 1], nb, sizeof(nb)), "missing");
			}
		} else {
			e = last_to_end ? v + strlen(v) : v + strcspn(v, " ");
		}
		kv->v[i] = v;
		kv->len[i] = (size_t)(e - v);
		p = e;
	}
	return 0;
}

#define KV_INT(c, kv, i, lo, out) get_s32(c, (kv)->names[i], (kv)->v[i], (kv)->len[i], lo, out)

/*
 * prev_state: "R", or letters joined by '|', then "+" if preempted. The
 * kernel's letters since v4.14 (TASK_REPORT) are "SDTtXZPI" for bits 0-7;
 * libtraceevent 1.7's sched plugin prints the same bits as "SDTtZXxW".
 */
static int get_state(struct lctx *c, const char *field, const char *s, size_t len, const char *letters, __u32 *out)
{
	__u32 v = 0;
	size_t i = 0;

	if (len && s[len - 1] == '+') {
		v = FS_TSTATE_PREEMPTED;
		len--;
	}
	if (len == 1 && s[0] == 'R') {
		*out = v;
		return 0;
	}
	while (i < len) {
		const char *l = s[i] ? strchr(letters, s[i]) : NULL;

		if (!l)
			return bad(c, field, "'%.*s' is not a task state ('%c')", (int)len, s, s[i]);
		v |= 1u << (l - letters);
		i++;
		if (i < len && s[i++] != '|')
			return bad(c, field, "'%.*s' is not a task state", (int)len, s);
		if (i == len && s[len - 1] == '|')
			return bad(c, field, "'%.*s' ends in '|'", (int)len, s);
	}
	if (!(v & FS_TSTATE_SLEEP))
		return bad(c, field, "empty");
	*out = v;
	return 0;
}

/* The plugin's "comm:pid [prio]" (comm may hold ':' and blanks). */
static int plugin_task(struct lctx *c, const char *s, size_t len, const char *who, struct fs_tev_task *t)
{
	char f[24];
	const char *br = NULL, *colon = NULL;

	for (size_t i = 0; i + 1 < len; i++)
		if (s[i] == ' ' && s[i + 1] == '[')
			br = s + i;
	if (!br || s[len - 1] != ']')
		return bad(c, *who ? who : "comm", "'%.*s' is not comm:pid [prio]", (int)len, s);
	for (const char *q = br - 1; q >= s && !colon; q--)
		if (*q == ':')
			colon = q;
	if (!colon)
		return bad(c, *who ? who : "comm", "'%.*s' is not comm:pid [prio]", (int)len, s);
	put_comm(t->comm, s, (size_t)(colon - s));
	snprintf(f, sizeof(f), "%s%spid", who, *who ? "_" : "");
	if (get_s32(c, f, colon + 1, (size_t)(br - colon - 1), 0, &t->pid))
		return -1;
	snprintf(f, sizeof(f), "%s%sprio", who, *who ? "_" : "");
	return get_s32(c, f, br + 2, (size_t)(s + len - br - 3), -0x7fffffff, &t->prio);
}

static int parse_switch_plugin(struct lctx *c, const char *s, struct fs_tev *ev)
{
	const char *arrow = strstr(s, " ==> "), *st;

	if (!arrow)
		return bad(c, "next_comm", "missing");
	st = arrow;
	while (st > s && st[-1] != ' ')
		st--;
	if (st == s)
		return bad(c, "prev_state", "missing");
	if (plugin_task(c, s, (size_t)(st - 1 - s), "prev", &ev->sw.prev) ||
	    get_state(c, "prev_state", st, (size_t)(arrow - st), "SDTtZXxW", &ev->sw.prev_state))
		return -1;
	return plugin_task(c, arrow + 5, strlen(arrow + 5), "next", &ev->sw.next);
}

static int parse_switch(struct lctx *c, const char *s, struct fs_tev *ev)
{
	static const char *const keys[] = { "prev_comm=", " prev_pid=", " prev_prio=", " prev_state=",
					    " ==> next_comm=", " next_pid=", " next_prio=" };
	struct kv kv;

	if (strncmp(s, "prev_comm=", 10))
		return parse_switch_plugin(c, s, ev);
	if (kv_split(c, s, keys, 7, false, &kv))
		return -1;
	put_comm(ev->sw.prev.comm, kv.v[0], kv.len[0]);
	put_comm(ev->sw.next.comm, kv.v[4], kv.len[4]);
	return KV_INT(c, &kv, 1, 0, &ev->sw.prev.pid) || KV_INT(c, &kv, 2, -0x7fffffff, &ev->sw.prev.prio) ||
	       get_state(c, "prev_state", kv.v[3], kv.len[3], "SDTtXZPI", &ev->sw.prev_state) ||
	       KV_INT(c, &kv, 5, 0, &ev->sw.next.pid) || KV_INT(c, &kv, 6, -0x7fffffff, &ev->sw.next.prio) ? -1 : 0;
}

/* sched_waking, sched_wakeup(_new); the plugin's "comm:pid [prio] CPU:NNN". */
static int parse_wake(struct lctx *c, const char *s, struct fs_tev *ev)
{
	static const char *const keys[] = { "comm=", " pid=", " prio=", " target_cpu=" };
	struct kv kv;

	if (strncmp(s, "comm=", 5)) {
		const char *cpu = strstr(s, " CPU:");
		size_t n;

		if (!cpu)
			return bad(c, "target_cpu", "missing");
		n = strcspn(cpu + 5, " "); /* old kernels add " Success" */
		return plugin_task(c, s, (size_t)(cpu - s), "", &ev->wake.t) ||
		       get_s32(c, "target_cpu", cpu + 5, n, 0, &ev->wake.target_cpu) ? -1 : 0;
	}
	if (kv_split(c, s, keys, 4, false, &kv))
		return -1;
	put_comm(ev->wake.t.comm, kv.v[0], kv.len[0]);
	return KV_INT(c, &kv, 1, 0, &ev->wake.t.pid) || KV_INT(c, &kv, 2, -0x7fffffff, &ev->wake.t.prio) ||
	       KV_INT(c, &kv, 3, 0, &ev->wake.target_cpu) ? -1 : 0;
}

static int parse_migrate(struct lctx *c, const char *s, struct fs_tev *ev)
{
	static const char *const keys[] = { "comm=", " pid=", " prio=", " orig_cpu=", " dest_cpu=" };
	struct kv kv;

	if (kv_split(c, s, keys, 5, false, &kv))
		return -1;
	put_comm(ev->mig.t.comm, kv.v[0], kv.len[0]);
	return KV_INT(c, &kv, 1, 0, &ev->mig.t.pid) || KV_INT(c, &kv, 2, -0x7fffffff, &ev->mig.t.prio) ||
	       KV_INT(c, &kv, 3, 0, &ev->mig.orig_cpu) || KV_INT(c, &kv, 4, 0, &ev->mig.dest_cpu) ? -1 : 0;
}

/* sched_process_exit and _free (v6.16's exit adds group_dead=, left). */
static int parse_proc(struct lctx *c, const char *s, struct fs_tev *ev)
{
	static const char *const keys[] = { "comm=", " pid=", " prio=" };
	struct kv kv;

	if (kv_split(c, s, keys, 3, false, &kv))
		return -1;
	put_comm(ev->proc.t.comm, kv.v[0], kv.len[0]);
	return KV_INT(c, &kv, 1, 0, &ev->proc.t.pid) || KV_INT(c, &kv, 2, -0x7fffffff, &ev->proc.t.prio) ? -1 : 0;
}

static int parse_fork(struct lctx *c, const char *s, struct fs_tev *ev)
{
	static const char *const keys[] = { "comm=", " pid=", " child_comm=", " child_pid=" };
	struct kv kv;

	if (kv_split(c, s, keys, 4, false, &kv))
		return -1;
	put_comm(ev->fork.parent.comm, kv.v[0], kv.len[0]);
	put_comm(ev->fork.child.comm, kv.v[2], kv.len[2]);
	return KV_INT(c, &kv, 1, 0, &ev->fork.parent.pid) || KV_INT(c, &kv, 3, 0, &ev->fork.child.pid) ? -1 : 0;
}

static int parse_newtask(struct lctx *c, const char *s, struct fs_tev *ev)
{
	static const char *const keys[] = { "pid=", " comm=", " clone_flags=", " oom_score_adj=" };
	struct kv kv;

	if (kv_split(c, s, keys, 4, false, &kv))
		return -1;
	put_comm(ev->newtask.t.comm, kv.v[1], kv.len[1]);
	return KV_INT(c, &kv, 0, 0, &ev->newtask.t.pid) ||
	       get_hex(c, "clone_flags", kv.v[2], kv.len[2], &ev->newtask.clone_flags) ||
	       KV_INT(c, &kv, 3, -0x7fffffff, &ev->newtask.oom_score_adj) ? -1 : 0;
}

/* task_rename: "pid=" went in v6.12 (the renamed task is then the emitter). */
static int parse_rename(struct lctx *c, const char *s, struct fs_tev *ev)
{
	static const char *const keys[] = { "pid=", " oldcomm=", " newcomm=", " oom_score_adj=" };
	bool has_pid = !strncmp(s, "pid=", 4), has_adj = strstr(s, " oom_score_adj=") != NULL;
	int first = has_pid ? 0 : 1, n = 3 - first + has_adj;
	char oldkey[16] = "oldcomm=";
	const char *k[4];
	struct kv kv;

	for (int i = 0; i < n; i++)
		k[i] = first + i == 1 && !has_pid ? oldkey : keys[first + i];
	if (kv_split(c, s, k, n, !has_adj, &kv))
		return -1;
	ev->rename.pid = ev->common_pid;
	if (has_pid && KV_INT(c, &kv, 0, 0, &ev->rename.pid))
		return -1;
	put_comm(ev->rename.oldcomm, kv.v[1 - first], kv.len[1 - first]);
	put_comm(ev->rename.newcomm, kv.v[2 - first], kv.len[2 - first]);
	return 0;
}

/* cpu_frequency (state in kHz) and cpu_idle (state 4294967295 leaving idle). */
static int parse_power(struct lctx *c, const char *s, struct fs_tev *ev)
{
	static const char *const keys[] = { "state=", " cpu_id=" };
	struct kv kv;
	long long v;

	if (kv_split(c, s, keys, 2, false, &kv) || get_int(c, "state", kv.v[0], kv.len[0], 0, 0xffffffffll, &v))
		return -1;
	ev->power.state = (__u32)v;
	return KV_INT(c, &kv, 1, 0, &ev->power.cpu_id);
}

/* The number after key (" util=") somewhere in s, up to a blank: LISA's modules move fields between versions. */
static int field_after(struct lctx *c, const char *s, const char *key, __u32 *out)
{
	const char *v = strstr(s, key);
	char name[24];
	long long n;

	key_field(key, name, sizeof(name));
	if (!v)
		return bad(c, name, "missing");
	v += strlen(key);
	if (get_int(c, name, v, strcspn(v, " "), 0, 0xffffffffll, &n))
		return -1;
	*out = (__u32)n;
	return 0;
}

/*
 * LISA's sched_pelt_se: "cpu= path= comm= pid= load= runnable= util=
 * update_time=" (rbl_load= before v5.7, no update_time in older modules,
 * runnable= last in the lisa module); only the entity and util= are taken,
 * util= found after pid=.
 */
static int parse_pelt_se(struct lctx *c, const char *s, struct fs_tev *ev)
{
	static const char *const keys[] = { "cpu=", " path=", " comm=", " pid=" };
	struct kv kv;

	if (kv_split(c, s, keys, 4, false, &kv) || KV_INT(c, &kv, 0, 0, &ev->pelt.cpu) ||
	    KV_INT(c, &kv, 3, -1, &ev->pelt.t.pid))
		return -1;
	put_comm(ev->pelt.t.comm, kv.v[2], kv.len[2]);
	return field_after(c, kv.v[3], " util=", &ev->pelt.util);
}

/* LISA's sched_util_est_se: "cpu= path= comm= pid= enqueued= ewma= util=". */
static int parse_util_est_se(struct lctx *c, const char *s, struct fs_tev *ev)
{
	static const char *const keys[] = { "cpu=", " path=", " comm=", " pid=", " enqueued=", " ewma=", " util=" };
	struct kv kv;
	long long v[3];

	if (kv_split(c, s, keys, 7, false, &kv) || KV_INT(c, &kv, 0, 0, &ev->pelt.cpu) ||
	    KV_INT(c, &kv, 3, -1, &ev->pelt.t.pid))
		return -1;
	put_comm(ev->pelt.t.comm, kv.v[2], kv.len[2]);
	for (int i = 0; i < 3; i++)
		if (get_int(c, kv.names[4 + i], kv.v[4 + i], kv.len[4 + i], 0, 0xffffffffll, &v[i]))
			return -1;
	ev->pelt.enqueued = (__u32)v[0];
	ev->pelt.ewma = (__u32)v[1];
	ev->pelt.util = (__u32)v[2];
	return 0;
}

/*
 * The cfs_rq's "cpu= path=" of LISA's sched_pelt_cfs / sched_util_est_cfs:
 * the root cfs_rq's path is "/" (cgroup_path() of the root task group), or
 * "(null)" without CONFIG_FAIR_GROUP_SCHED, where the root is the only one
 * (sched_helpers.h, cfs_rq_tg_path()); a task group's is its cgroup's path.
 */
static int cfs_rq_of(struct lctx *c, const char *s, struct fs_tev *ev, const char **rest)
{
	static const char *const keys[] = { "cpu=", " path=" };
	struct kv kv;

	if (kv_split(c, s, keys, 2, false, &kv) || KV_INT(c, &kv, 0, 0, &ev->cfs.cpu))
		return -1;
	ev->cfs.root = (kv.len[1] == 1 && kv.v[1][0] == '/') || (kv.len[1] == 6 && !strncmp(kv.v[1], "(null)", 6));
	*rest = kv.v[1] + kv.len[1];
	return 0;
}

/*
 * LISA's sched_pelt_cfs: "cpu= path= load= runnable= util= update_time="
 * (rbl_load= before v5.7; the lisa module puts runnable= last) and
 * sched_load_cfs_rq's "cpu= path= load= rbl_load= util=": util= is taken.
 */
static int parse_pelt_cfs(struct lctx *c, const char *s, struct fs_tev *ev)
{
	const char *rest;

	return cfs_rq_of(c, s, ev, &rest) || field_after(c, rest, " util=", &ev->cfs.util) ? -1 : 0;
}

/* LISA's sched_util_est_cfs: "cpu= path= enqueued= ewma= util=". */
static int parse_util_est_cfs(struct lctx *c, const char *s, struct fs_tev *ev)
{
	const char *rest;

	return cfs_rq_of(c, s, ev, &rest) || field_after(c, rest, " enqueued=", &ev->cfs.enqueued) ||
	       field_after(c, rest, " ewma=", &ev->cfs.ewma) || field_after(c, rest, " util=", &ev->cfs.util) ? -1 : 0;
}

typedef int (*field_parser)(struct lctx *c, const char *s, struct fs_tev *ev);
static const field_parser parsers[FS_TEV_NR_TYPES] = {
	[FS_TEV_SWITCH] = parse_switch,   [FS_TEV_WAKING] = parse_wake,     [FS_TEV_WAKEUP] = parse_wake,
	[FS_TEV_WAKEUP_NEW] = parse_wake, [FS_TEV_MIGRATE] = parse_migrate, [FS_TEV_FORK] = parse_fork,
	[FS_TEV_EXIT] = parse_proc,       [FS_TEV_FREE] = parse_proc,       [FS_TEV_NEWTASK] = parse_newtask,
	[FS_TEV_RENAME] = parse_rename,   [FS_TEV_CPU_FREQ] = parse_power,  [FS_TEV_CPU_IDLE] = parse_power,
	[FS_TEV_PELT_SE] = parse_pelt_se, [FS_TEV_UTIL_EST_SE] = parse_util_est_se,
	[FS_TEV_PELT_CFS] = parse_pelt_cfs, [FS_TEV_UTIL_EST_CFS] = parse_util_est_cfs,
};

/* "SEC.FRAC" (6 digits from tracefs and trace-cmd, 9 with report -t) in ns. */
static int get_ts(struct lctx *c, const char *s, size_t len, __u64 *out)
{
	const char *dot = memchr(s, '.', len);
	size_t nf = dot ? len - (size_t)(dot - s) - 1 : 0;
	long long sec, frac = 0;

	if (!dot || !nf || nf > 9)
		return bad(c, "timestamp", "'%.*s' is not SECONDS.FRACTION", (int)len, s);
	if (get_int(c, "timestamp", s, (size_t)(dot - s), 0, 18446744072ll, &sec) ||
	    get_int(c, "timestamp", dot + 1, nf, 0, 999999999, &frac))
		return -1;
	for (size_t i = nf; i < 9; i++)
		frac *= 10;
	*out = (__u64)sec * 1000000000ull + (__u64)frac;
	return 0;
}

/* The " [NNN]" CPU column: the first one after a "comm-pid". */
static const char *cpu_column(const char *s, size_t *nd)
{
	for (const char *q = strstr(s, " ["); q; q = strstr(q + 1, " [")) {
		size_t n = strspn(q + 2, "0123456789");

		if (n && q[2 + n] == ']' && q > s) {
			*nd = n;
			return q;
		}
	}
	return NULL;
}

/* "comm-pid", then optionally "(tgid)" or "(-------)": the task column. */
static int task_column(struct lctx *c, const char *s, const char *e, struct fs_tev *ev)
{
	const char *dash;

	while (e > s && e[-1] == ' ')
		e--;
	ev->common_tgid = -1;
	if (e > s && e[-1] == ')') {
		const char *o = e - 1;
		while (o > s && *o != '(')
			o--;
		if (*o != '(')
			return bad(c, "tgid", "no '('");
		const char *d = o + 1 + strspn(o + 1, " ");
		if (*d != '-' && get_s32(c, "tgid", d, (size_t)(e - 1 - d), 0, &ev->common_tgid))
			return -1;
		for (e = o; e > s && e[-1] == ' '; e--)
			;
	}
	for (dash = e; dash > s && dash[-1] != '-'; dash--)
		;
	if (dash == s)
		return bad(c, "pid", "no comm-pid before the CPU column");
	if (get_s32(c, "pid", dash, (size_t)(e - dash), 0, &ev->common_pid))
		return -1;
	s += strspn(s, " ");
	put_comm(ev->common_comm, s, dash - 1 > s ? (size_t)(dash - 1 - s) : 0);
	return 0;
}

/* The event line's columns; *name and *fields point into s. */
static int split_line(struct lctx *c, char *s, struct fs_tev *ev, char **name, char **fields)
{
	size_t nd, n;
	const char *col = cpu_column(s, &nd);
	char *p, *colon;

	if (!col)
		return bad(c, NULL, "not an ftrace event line (no [CPU] column)");
	if (task_column(c, s, col, ev) || get_s32(c, "cpu", col + 2, nd, 0, &ev->cpu))
		return -1;
	p = (char *)col + 3 + nd;
	p += strspn(p, " ");
	n = strcspn(p, " ");
	if (!n || p[n - 1] != ':') { /* the irq-flags column ("d..2.") */
		p += n;
		p += strspn(p, " ");
		n = strcspn(p, " ");
	}
	if (!n || p[n - 1] != ':')
		return bad(c, "timestamp", "missing");
	if (get_ts(c, p, n - 1, &ev->ts_ns))
		return -1;
	p += n;
	p += strspn(p, " ");
	colon = strchr(p, ':');
	if (!colon || colon == p)
		return bad(c, "event", "no event name");
	*colon = '\0';
	*name = p;
	p = colon + 1;
	p += strspn(p, " ");
	for (n = strlen(p); n && p[n - 1] == ' '; n--)
		p[n - 1] = '\0';
	*fields = p;
	return 0;
}

/* "CPU:N [LOST N EVENTS]" or "CPU:N [LOST EVENTS]": 1 if the line is one. */
static int lost_line(struct lctx *c, const char *s, struct fs_tev *ev)
{
	const char *b = strstr(s, " [LOST ");
	long long v;

	if (strncmp(s, "CPU:", 4) || !b)
		return 0;
	c->event = "lost events";
	if (get_s32(c, "cpu", s + 4, (size_t)(b - s - 4), 0, &ev->cpu))
		return -1;
	b += 7;
	ev->type = FS_TEV_LOST;
	ev->ts_ns = c->t->last_ts;
	ev->common_pid = ev->common_tgid = -1;
	if (!strcmp(b, "EVENTS]")) {
		ev->lost.nr = FS_TEV_LOST_UNKNOWN;
		return 1;
	}
	size_t n = strcspn(b, " ");
	if (strcmp(b + n, " EVENTS]"))
		return bad(c, "count", "'%s' is not N EVENTS]", b);
	if (get_int(c, "count", b, n, 0, 0x7fffffffffffffffll, &v))
		return -1;
	ev->lost.nr = (__u64)v;
	return 1;
}

/* Lines that hold no event: headers of tracefs and trace-cmd report. */
static bool header_line(const char *s)
{
	s += strspn(s, " \t");
	return !*s || *s == '#' || !strncmp(s, "cpus=", 5) || !strncmp(s, "version = ", 10) ||
	       !strncmp(s, "Buffer: ", 8) || (!strncmp(s, "CPU ", 4) && strstr(s, " is empty"));
}

static void count_lost(struct fs_trace_text *t, const struct fs_tev *ev)
{
	t->st.events++;
	t->st.lost_reports++;
	t->st.lost_events += ev->lost.nr == FS_TEV_LOST_UNKNOWN ? 1 : ev->lost.nr;
}

int fs_tev_type_of_name(const char *name)
{
	if (!strncmp(name, "lisa__", 6))
		name += 6;
	for (int i = 1; i < FS_TEV_LOST; i++)
		if (!strcmp(name, tev_names[i]))
			return i;
	for (size_t i = 0; i < sizeof(tev_aliases) / sizeof(tev_aliases[0]); i++)
		if (!strcmp(name, tev_aliases[i].name))
			return tev_aliases[i].type;
	return 0;
}

int fs_trace_text_line(struct fs_trace_text *t, const char *line, size_t len, struct fs_tev *ev,
		       char *err, size_t errlen)
{
	struct lctx c = { t, NULL, err, errlen };
	char *name = NULL, *fields = NULL;
	int type, rc;

	t->lineno++;
	t->st.lines++;
	if (len && line[len - 1] == '\r')
		len--;
	if (len > LINE_MAX_LEN)
		return bad(&c, NULL, "line longer than %d bytes", LINE_MAX_LEN);
	if (memchr(line, '\0', len))
		return bad(&c, NULL, "NUL byte in the line");
	memcpy(t->buf, line, len);
	t->buf[len] = '\0';
	memset(ev, 0, sizeof(*ev));
	if (header_line(t->buf))
		return 0;
	rc = lost_line(&c, t->buf, ev);
	if (rc) {
		if (rc > 0)
			count_lost(t, ev);
		return rc;
	}
	if (split_line(&c, t->buf, ev, &name, &fields))
		return -1;
	type = fs_tev_type_of_name(name);
	if (!type) {
		if (!t->st.unknown_events++)
			snprintf(t->st.first_unknown, sizeof(t->st.first_unknown), "%s", name);
		return 0;
	}
	c.event = name; /* as the trace names it: an alias is named so in errors */
	ev->type = (__u32)type;
	if (parsers[type](&c, fields, ev))
		return -1;
	t->last_ts = ev->ts_ns;
	t->st.events++;
	return 1;
}

struct fs_trace_text *fs_trace_text_new(const char *name)
{
	struct fs_trace_text *t = malloc(sizeof(*t));

	if (!t)
		return NULL;
	memset(t, 0, offsetof(struct fs_trace_text, buf));
	snprintf(t->name, sizeof(t->name), "%s", name ? name : "trace");
	return t;
}

const struct fs_trace_stats *fs_trace_text_stats(const struct fs_trace_text *t)
{
	return &t->st;
}

void fs_trace_text_free(struct fs_trace_text *t)
{
	free(t);
}

int fs_trace_text_parse(const char *buf, size_t len, const char *name, fs_tev_fn fn, void *ctx,
			struct fs_trace_stats *st, char *err, size_t errlen)
{
	struct fs_trace_text *t = fs_trace_text_new(name);
	size_t off = 0;
	struct fs_tev ev;
	int rc = 0;

	if (!t) {
		snprintf(err, errlen, "%s: out of memory", name);
		return -1;
	}
	while (off < len && !rc) {
		const char *nl = memchr(buf + off, '\n', len - off);
		size_t n = nl ? (size_t)(nl - buf - off) : len - off;

		rc = fs_trace_text_line(t, buf + off, n, &ev, err, errlen);
		if (rc > 0)
			rc = fn(ctx, &ev, err, errlen) ? -1 : 0;
		off += n + 1;
	}
	if (st)
		*st = t->st;
	fs_trace_text_free(t);
	return rc < 0 ? -1 : 0;
}

int fs_trace_text_read_file(const char *path, fs_tev_fn fn, void *ctx, struct fs_trace_stats *st,
			    char *err, size_t errlen)
{
	struct fs_trace_text *t;
	FILE *f = fopen(path, "rb");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int rc = 0;

	if (!f || !(t = fs_trace_text_new(path))) {
		snprintf(err, errlen, "%s: %s", path, f ? "out of memory" : strerror(errno));
		if (f)
			fclose(f);
		return -1;
	}
	bool cut = false; /* a line that does not read and is the file's last, without its newline */

	while (!rc && (n = getline(&line, &cap, f)) >= 0) {
		struct fs_tev ev;
		bool nl = n && line[n - 1] == '\n';

		if (nl)
			n--;
		rc = fs_trace_text_line(t, line, (size_t)n, &ev, err, errlen);
		cut = rc < 0 && !nl;
		if (rc > 0)
			rc = fn(ctx, &ev, err, errlen) ? -1 : 0;
	}
	if (cut) {
		size_t k = strlen(err);

		snprintf(err + k, errlen - k, " (the file ends in this line: cut short?)");
	}
	if (!rc && ferror(f)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		rc = -1;
	}
	if (st)
		*st = t->st;
	fs_trace_text_free(t);
	free(line);
	fclose(f);
	return rc < 0 ? -1 : 0;
}

bool fs_trace_text_probe(const char *buf, size_t len)
{
	struct fs_trace_text *t = fs_trace_text_new("probe");
	size_t off = 0;
	bool yes = false;
	char err[32];

	/* the first lines that are not blank or other comments decide */
	for (int i = 0; t && off < len && i < 64; i++) {
		const char *nl = memchr(buf + off, '\n', len - off);
		size_t n = nl ? (size_t)(nl - buf - off) : len - off;
		struct fs_tev ev;
		int rc = fs_trace_text_line(t, buf + off, n, &ev, err, sizeof(err));

		off += n + 1;
		if (rc < 0)
			break;
		/* t->buf: the line as read, NUL-terminated */
		if (rc > 0 || t->st.unknown_events || !strncmp(t->buf, "# tracer:", 9) || !strncmp(t->buf, "cpus=", 5)) {
			yes = true;
			break;
		}
	}
	fs_trace_text_free(t);
	return yes;
}
