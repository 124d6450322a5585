// SPDX-License-Identifier: GPL-2.0
/*
 * The Perfetto reader's clocks (perfetto_trace.h): ClockSnapshot packets
 * (protos/perfetto/trace/clock_snapshot.proto) relate the builtin clocks at
 * an instant; each event's time goes to the primary clock through the last
 * snapshot at or before it (the first one for events before any), as
 * Perfetto's trace processor does. BOOTTIME and MONOTONIC part at every
 * suspend, so a trace's snapshots may give different offsets over time.
 */
#include <stdlib.h>
#include <string.h>
#include "perfetto_trace_int.h"

const char *pft_clock_name(int id)
{
	static const char *const names[PFT_NR_CLOCKS] = {
		[1] = "REALTIME", [2] = "REALTIME_COARSE", [3] = "MONOTONIC", [4] = "MONOTONIC_COARSE",
		[5] = "MONOTONIC_RAW", [6] = "BOOTTIME", [9] = "TSC", [10] = "PERF",
	};
	return id > 0 && id < PFT_NR_CLOCKS && names[id] ? names[id] : "a builtin clock";
}

/* ClockSnapshot.Clock: clock_id = 1, timestamp = 2 (is_incremental, unit_multiplier_ns: custom clocks only). */
static int one_clock(struct pft *p, const uint8_t *b, size_t len, size_t i)
{
	static const char path[] = "clock_snapshot.clocks";
	struct fs_pbr r;
	struct fs_pbr_field f;
	uint64_t id = 0, ts = 0;
	int rc;

	fs_pbr_init(&r, b, len);
	while ((rc = fs_pbr_next(&r, &f)) > 0) {
		if (f.num != 1 && f.num != 2)
			continue;
		if (f.wire != FS_PBR_VARINT)
			return pft_bad_wire(p, path, f.num == 1 ? "clock_id" : "timestamp", &f, FS_PBR_VARINT);
		if (f.num == 1)
			id = f.v;
		else
			ts = f.v;
	}
	if (rc < 0)
		return pft_bad_pb(p, path, rc, &f);
	if (id > 0 && id < PFT_NR_CLOCKS) { /* ids 64+ are a sequence's own clocks: not for ftrace */
		p->snap[i][id] = ts;
		p->snap_have[i] |= 1u << id;
	}
	return 0;
}

int pft_clock_snapshot(struct pft *p, const uint8_t *b, size_t len)
{
	struct fs_pbr r;
	struct fs_pbr_field f;
	size_t i = p->nr_snap;
	int rc;

	if (!pft_grow(p, (void **)&p->snap, &p->cap_snap, i, sizeof(*p->snap)) ||
	    !(p->snap_have = realloc(p->snap_have, p->cap_snap * sizeof(*p->snap_have))))
		return pft_bad(p, "clock_snapshot", "out of memory");
	p->snap_have[i] = 0;
	p->nr_snap++;
	fs_pbr_init(&r, b, len);
	while ((rc = fs_pbr_next(&r, &f)) > 0) {
		if (f.num == 1) {
			if (f.wire != FS_PBR_LEN)
				return pft_bad_wire(p, "clock_snapshot", "clocks", &f, FS_PBR_LEN);
			if (one_clock(p, f.data, f.len, i))
				return -1;
		} else if (f.num == 2) {
			if (f.wire != FS_PBR_VARINT)
				return pft_bad_wire(p, "clock_snapshot", "primary_trace_clock", &f, FS_PBR_VARINT);
			if (f.v == 0 || f.v >= PFT_NR_CLOCKS)
				return pft_bad(p, "clock_snapshot.primary_trace_clock", "%llu is not a builtin clock",
					       (unsigned long long)f.v);
			p->primary = (uint32_t)f.v;
		}
	}
	return rc < 0 ? pft_bad_pb(p, "clock_snapshot", rc, &f) : 0;
}

static int pt_cmp(const void *a, const void *b)
{
	const struct pft_clock_pt *x = a, *y = b;
	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

/* Every snapshot that has the primary clock gives each other clock in it one point. */
int pft_clock_finish(struct pft *p)
{
	if (!p->primary)
		p->primary = PFT_BOOTTIME; /* the default of clock_snapshot.proto's primary_trace_clock */
	for (size_t i = 0; i < p->nr_snap; i++) {
		if (!(p->snap_have[i] >> p->primary & 1))
			continue;
		for (int c = 1; c < PFT_NR_CLOCKS; c++) {
			struct pft_clock *k = &p->clk[c];
			if (c == (int)p->primary || !(p->snap_have[i] >> c & 1))
				continue;
			if (!pft_grow(p, (void **)&k->pt, &k->cap, k->nr, sizeof(*k->pt)))
				return -1;
			k->pt[k->nr].ts = p->snap[i][c];
			k->pt[k->nr++].off = (int64_t)(p->snap[i][p->primary] - p->snap[i][c]);
		}
	}
	for (int c = 1; c < PFT_NR_CLOCKS; c++)
		if (p->clk[c].nr > 1)
			qsort(p->clk[c].pt, p->clk[c].nr, sizeof(*p->clk[c].pt), pt_cmp);
	return 0;
}

size_t pft_clock_point_at(const struct pft_clock *k, uint64_t ts)
{
	size_t lo = 0, hi = k->nr;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (k->pt[mid].ts <= ts)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

bool pft_clock_shift(uint64_t ts, int64_t off, __u64 *out)
{
	if ((off < 0 && ts < (uint64_t)-off) || (off > 0 && ts + (uint64_t)off < ts))
		return false;
	*out = ts + (uint64_t)off;
	return true;
}

int pft_clock_to_primary(struct pft *p, struct pft_cpu *c, int src, uint64_t ts, __u64 *out)
{
	const struct pft_clock *k = &p->clk[src];
	size_t lo;

	if (src == (int)p->primary) {
		*out = ts;
		return 0;
	}
	if (c->clk_src != src || ts < c->clk_lo || ts >= c->clk_hi) {
		if (!k->nr)
			return pft_bad(p, "clock_snapshot", "no snapshot gives both %s (the ftrace clock) and %s",
				       pft_clock_name(src), pft_clock_name((int)p->primary));
		lo = pft_clock_point_at(k, ts);
		c->clk_src = src;
		c->clk_lo = lo ? k->pt[lo].ts : 0;
		c->clk_hi = lo + 1 < k->nr ? k->pt[lo + 1].ts : UINT64_MAX;
		c->clk_off = k->pt[lo].off;
	}
	if (!pft_clock_shift(ts, c->clk_off, out))
		return pft_bad(p, "ftrace_events.event.timestamp", "%llu ns on %s is outside %s",
			       (unsigned long long)ts, pft_clock_name(src), pft_clock_name((int)p->primary));
	return 0;
}

void pft_clock_free(struct pft *p)
{
	for (int c = 0; c < PFT_NR_CLOCKS; c++)
		free(p->clk[c].pt);
	free(p->snap);
	free(p->snap_have);
}
