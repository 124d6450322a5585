// SPDX-License-Identifier: GPL-2.0
/*
 * Perfetto's generic ftrace events (perfetto_trace_int.h): an event
 * traced_probes has no proto for (LISA's sched_tp / lisa module events
 * among them) comes as FtraceEvent.generic (field 327), a
 * GenericFtraceEvent (protos/perfetto/trace/ftrace/generic.proto):
 * event_name = 1, then field = 2 per event field, each a Field of name = 1
 * and one of str_value = 3, int_value = 4, uint_value = 5. LISA's PELT and
 * util_est events are decoded by their fields' names into the events the
 * text and trace.dat readers give; any other is skipped and counted.
 */
#include <stdio.h>
#include <string.h>
#include "perfetto_trace_int.h"

/* The fields we take, by name; bit i of a mask is fnames[i]. */
enum { G_CPU, G_PID, G_COMM, G_PATH, G_UTIL, G_ENQ, G_EWMA, G_NR };
static const char *const fnames[G_NR] = { "cpu", "pid", "comm", "path", "util", "enqueued", "ewma" };

/* What each of LISA's events needs (its TP_STRUCT__entry's fields we use). */
static unsigned int needs(__u32 type)
{
	switch (type) {
	case FS_TEV_PELT_SE:
		return 1u << G_CPU | 1u << G_PID | 1u << G_COMM | 1u << G_UTIL;
	case FS_TEV_UTIL_EST_SE:
		return 1u << G_CPU | 1u << G_PID | 1u << G_COMM | 1u << G_UTIL | 1u << G_ENQ | 1u << G_EWMA;
	case FS_TEV_PELT_CFS:
		return 1u << G_CPU | 1u << G_PATH | 1u << G_UTIL;
	case FS_TEV_UTIL_EST_CFS:
		return 1u << G_CPU | 1u << G_PATH | 1u << G_UTIL | 1u << G_ENQ | 1u << G_EWMA;
	}
	return 0;
}

struct gctx {
	struct pft *p;
	char path[96];     /* "ftrace_events.event.generic.<event>", for errors */
	struct fs_tev *ev;
	unsigned int seen;
};

/* A number field into ev, within lo..hi: an int or a uint value, as the kernel's type was signed or not. */
static int put_num(struct gctx *g, int i, const struct fs_pbr_field *v)
{
	const long long lo = i == G_PID ? -1 : 0, hi = i == G_CPU || i == G_PID ? INT32_MAX : UINT32_MAX;
	struct fs_tev *ev = g->ev;
	bool cfs = ev->type == FS_TEV_PELT_CFS || ev->type == FS_TEV_UTIL_EST_CFS;
	long long x = (long long)v->v; /* int_value: int64 on the wire, its bits */

	if (v->num == 5 && v->v > (unsigned long long)hi)
		return pft_bad(g->p, g->path, "%s: %llu is out of range", fnames[i], (unsigned long long)v->v);
	if (x < lo || x > hi)
		return pft_bad(g->p, g->path, "%s: %lld is out of range", fnames[i], x);
	switch (i) {
	case G_CPU:
		*(cfs ? &ev->cfs.cpu : &ev->pelt.cpu) = (__s32)x;
		break;
	case G_PID:
		ev->pelt.t.pid = (__s32)x;
		break;
	case G_UTIL:
		*(cfs ? &ev->cfs.util : &ev->pelt.util) = (__u32)x;
		break;
	case G_ENQ:
		*(cfs ? &ev->cfs.enqueued : &ev->pelt.enqueued) = (__u32)x;
		break;
	case G_EWMA:
		*(cfs ? &ev->cfs.ewma : &ev->pelt.ewma) = (__u32)x;
		break;
	}
	return 0;
}

/* A string field: comm, or path (the root cfs_rq's is "/", "(null)" without FAIR_GROUP_SCHED). */
static void put_str(struct gctx *g, int i, const struct fs_pbr_field *v)
{
	size_t n = v->len < FS_COMM_LEN - 1 ? v->len : FS_COMM_LEN - 1;

	if (i == G_COMM) {
		memcpy(g->ev->pelt.t.comm, v->data, n);
		g->ev->pelt.t.comm[n] = '\0';
	} else {
		g->ev->cfs.root = (v->len == 1 && v->data[0] == '/') ||
				  (v->len == 6 && !memcmp(v->data, "(null)", 6));
	}
}

/* One GenericFtraceEvent.Field: its name, then its value if it is one we take. */
static int one_field(struct gctx *g, const uint8_t *b, size_t len)
{
	struct fs_pbr r;
	struct fs_pbr_field f, name = { 0 }, val = { 0 };
	int rc, i;

	fs_pbr_init(&r, b, len);
	while ((rc = fs_pbr_next(&r, &f)) > 0) {
		if (f.num == 1 || f.num == 3) {
			if (f.wire != FS_PBR_LEN)
				return pft_bad_wire(g->p, g->path, f.num == 1 ? "field.name" : "field.str_value", &f,
						    FS_PBR_LEN);
		} else if (f.num == 4 || f.num == 5) {
			if (f.wire != FS_PBR_VARINT)
				return pft_bad_wire(g->p, g->path, f.num == 4 ? "field.int_value" : "field.uint_value",
						    &f, FS_PBR_VARINT);
		} else {
			continue;
		}
		*(f.num == 1 ? &name : &val) = f;
	}
	if (rc < 0)
		return pft_bad_pb(g->p, g->path, rc, &f);
	for (i = 0; i < G_NR; i++)
		if (name.num && strlen(fnames[i]) == name.len && !memcmp(fnames[i], name.data, name.len))
			break;
	if (i == G_NR || !(needs(g->ev->type) >> i & 1))
		return 0; /* a field we do not use (load, runnable, update_time, ...) */
	if (!val.num)
		return pft_bad(g->p, g->path, "%s: no value", fnames[i]);
	if ((val.num == 3) != (i == G_COMM || i == G_PATH))
		return pft_bad(g->p, g->path, "%s: a %s, expected a %s", fnames[i], val.num == 3 ? "string" : "number",
			       val.num == 3 ? "number" : "string");
	g->seen |= 1u << i;
	if (val.num == 3)
		return put_str(g, i, &val), 0;
	return put_num(g, i, &val);
}

/* event_name (field 1): its type, 0 for one we skip (counted by its name). */
static int event_type(struct pft *p, const uint8_t *b, size_t len, char *name, size_t cap)
{
	struct fs_pbr r;
	struct fs_pbr_field f;
	int rc, type;

	name[0] = '\0';
	fs_pbr_init(&r, b, len);
	while ((rc = fs_pbr_next(&r, &f)) > 0)
		if (f.num == 1) {
			if (f.wire != FS_PBR_LEN)
				return pft_bad_wire(p, "ftrace_events.event.generic", "event_name", &f, FS_PBR_LEN);
			snprintf(name, cap, "%.*s", (int)(f.len < cap ? f.len : cap - 1), (const char *)f.data);
		}
	if (rc < 0)
		return pft_bad_pb(p, "ftrace_events.event.generic", rc, &f);
	if (!name[0])
		return 0;
	type = fs_tev_type_of_name(name);
	return needs((__u32)type) ? type : 0;
}

int pft_generic(struct pft *p, const uint8_t *b, size_t len, struct fs_tev *ev)
{
	struct gctx g = { .p = p, .ev = ev };
	struct fs_pbr r;
	struct fs_pbr_field f;
	char name[64];
	int rc, type = event_type(p, b, len, name, sizeof(name));

	if (type <= 0) {
		if (!type && !p->st.unknown_events++)
			snprintf(p->st.first_unknown, sizeof(p->st.first_unknown), "%.31s", name[0] ? name : "generic");
		return type;
	}
	memset(ev, 0, sizeof(*ev));
	ev->type = (__u32)type;
	snprintf(g.path, sizeof(g.path), "ftrace_events.event.generic.%s", name);
	fs_pbr_init(&r, b, len);
	while ((rc = fs_pbr_next(&r, &f)) > 0) {
		if (f.num != 2)
			continue;
		if (f.wire != FS_PBR_LEN)
			return pft_bad_wire(p, g.path, "field", &f, FS_PBR_LEN);
		if (one_field(&g, f.data, f.len))
			return -1;
	}
	if (rc < 0)
		return pft_bad_pb(p, g.path, rc, &f);
	for (int i = 0; i < G_NR; i++)
		if ((needs(ev->type) & ~g.seen) >> i & 1)
			return pft_bad(p, g.path, "%s: missing", fnames[i]);
	return type;
}
