// SPDX-License-Identifier: GPL-2.0
/*
 * The Perfetto reader's power rails (perfetto_trace.h, docs/traces.md):
 * TracePacket.power_rails = 40, a PowerRails
 * (protos/perfetto/trace/power/power_rails.proto): rail_descriptor = 1
 * (RailDescriptor: index 1, rail_name 2, subsys_name 3, sampling_rate 4),
 * energy_data = 2 (EnergyData: index 1, timestamp_ms 2, energy 3),
 * session_uuid = 3. The android.power data source writes them
 * (src/traced/probes/power/android_power_data_source.cc, WritePowerRailsData()).
 * An EnergyData's timestamp_ms is BOOTTIME in ms; without it the sample
 * takes its packet's timestamp (TracePacket.timestamp = 8, on
 * timestamp_clock_id = 58, BOOTTIME unless given), as Perfetto's trace
 * processor does (importers/proto/android_probes_module.cc). Each goes to
 * the trace's primary clock through the clock snapshots, as the events do.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "perfetto_trace_int.h"

#define PFT_MAX_RAILS 256 /* a trace describing more rails is refused (Perfetto keeps 32 a session) */

/* The rail (session, index), added if new; NULL when out of memory or past PFT_MAX_RAILS (err set). */
static struct pft_rail *rail_get(struct pft *p, uint64_t session, uint32_t index, const char *path)
{
	struct pft_rail *r;

	for (size_t i = 0; i < p->nr_rails; i++)
		if (p->rails[i].session == session && p->rails[i].index == index)
			return &p->rails[i];
	if (p->nr_rails >= PFT_MAX_RAILS) {
		pft_bad(p, path, "more than %d rails", PFT_MAX_RAILS);
		return NULL;
	}
	if (!pft_grow(p, (void **)&p->rails, &p->cap_rails, p->nr_rails, sizeof(*p->rails)))
		return NULL;
	r = &p->rails[p->nr_rails++];
	memset(r, 0, sizeof(*r));
	r->session = session;
	r->index = index;
	return r;
}

/* A string field into dst (cut to fit, NULs ending it early). */
static void copy_str(char *dst, size_t cap, const struct fs_pbr_field *f)
{
	size_t n = f->len < cap - 1 ? f->len : cap - 1;

	memcpy(dst, f->data, n);
	dst[n] = '\0';
}

/* RailDescriptor: index = 1, rail_name = 2, subsys_name = 3, sampling_rate = 4. */
static int descriptor(struct pft *p, const uint8_t *b, size_t len, uint64_t session)
{
	static const char path[] = "power_rails.rail_descriptor";
	static const char *const names[] = { [1] = "index", [2] = "rail_name", [3] = "subsys_name",
					     [4] = "sampling_rate" };
	struct fs_pbr r;
	struct fs_pbr_field f;
	struct pft_rail d = { 0 }, *to;
	int rc;

	fs_pbr_init(&r, b, len);
	while ((rc = fs_pbr_next(&r, &f)) > 0) {
		if (f.num < 1 || f.num > 4)
			continue;
		uint32_t want = f.num == 2 || f.num == 3 ? FS_PBR_LEN : FS_PBR_VARINT;
		if (f.wire != want)
			return pft_bad_wire(p, path, names[f.num], &f, want);
		if (f.num == 1)
			d.index = (uint32_t)f.v;
		else if (f.num == 2)
			copy_str(d.name, sizeof(d.name), &f);
		else if (f.num == 3)
			copy_str(d.subsys, sizeof(d.subsys), &f);
		else
			d.hz = (uint32_t)f.v;
	}
	if (rc < 0)
		return pft_bad_pb(p, path, rc, &f);
	if (!(to = rail_get(p, session, d.index, path)))
		return -1;
	memcpy(to->name, d.name, sizeof(d.name)); /* described again after a state reset: the last one */
	memcpy(to->subsys, d.subsys, sizeof(d.subsys));
	to->hz = d.hz;
	to->described = true;
	return 0;
}

/* The packet's own time, for samples without timestamp_ms. */
struct pkt_time {
	bool has_ts;
	uint64_t ts;
	uint32_t clock;
};

/* A new sample s of rail x: its counter and its time never go back within one clock. */
static int sample_add(struct pft *p, struct pft_rail *x, const struct pft_rail_pt *s)
{
	static const char path[] = "power_rails.energy_data";
	const struct pft_rail_pt *last = x->nr ? &x->pt[x->nr - 1] : NULL;

	if (last && last->clock == s->clock && s->raw_ns < last->raw_ns)
		return pft_bad(p, path, "timestamp: %llu ns on %s, before rail %u's previous sample (%llu ns)",
			       (unsigned long long)s->raw_ns, pft_clock_name(s->clock), x->index,
			       (unsigned long long)last->raw_ns);
	if (last && s->uws < last->uws)
		return pft_bad(p, path, "energy: %llu uWs, below rail %u's previous %llu uWs: the counter "
			       "went backwards", (unsigned long long)s->uws, x->index, (unsigned long long)last->uws);
	if (!pft_grow(p, (void **)&x->pt, &x->cap, x->nr, sizeof(*x->pt)))
		return -1;
	x->pt[x->nr++] = *s;
	return 0;
}

/* EnergyData: index = 1, timestamp_ms = 2 (BOOTTIME), energy = 3 (uWs since boot). */
static int energy(struct pft *p, const uint8_t *b, size_t len, uint64_t session, const struct pkt_time *pt)
{
	static const char path[] = "power_rails.energy_data";
	static const char *const names[] = { [1] = "index", [2] = "timestamp_ms", [3] = "energy" };
	struct fs_pbr r;
	struct fs_pbr_field f;
	struct pft_rail_pt s = { .pkt = p->pkt, .off = p->off, .clock = PFT_BOOTTIME };
	struct pft_rail *x;
	bool has_ms = false;
	uint64_t index = 0;
	int rc;

	fs_pbr_init(&r, b, len);
	while ((rc = fs_pbr_next(&r, &f)) > 0) {
		if (f.num < 1 || f.num > 3)
			continue;
		if (f.wire != FS_PBR_VARINT)
			return pft_bad_wire(p, path, names[f.num], &f, FS_PBR_VARINT);
		if (f.num == 1)
			index = f.v;
		else if (f.num == 3)
			s.uws = f.v;
		else if (f.v > UINT64_MAX / 1000000)
			return pft_bad(p, path, "timestamp_ms: %llu ms is past 2^64 ns", (unsigned long long)f.v);
		else
			s.raw_ns = f.v * 1000000, has_ms = true;
	}
	if (rc < 0)
		return pft_bad_pb(p, path, rc, &f);
	if (!has_ms && !pt->has_ts)
		return pft_bad(p, path, "timestamp_ms: missing, and the packet has no timestamp");
	if (!has_ms)
		s.raw_ns = pt->ts, s.clock = (uint8_t)pt->clock;
	if (index > UINT32_MAX)
		return pft_bad(p, path, "index: %llu is not a uint32", (unsigned long long)index);
	if (!(x = rail_get(p, session, (uint32_t)index, path)))
		return -1;
	return sample_add(p, x, &s);
}

/* One PowerRails: its session first (indices are the session's), then descriptors and samples. */
static int power_rails(struct pft *p, const uint8_t *b, size_t len, const struct pkt_time *pt)
{
	struct fs_pbr r;
	struct fs_pbr_field f;
	uint64_t session = 0;

	if (pft_varint_field(p, b, len, "power_rails", 3, "session_uuid", &session))
		return -1;
	fs_pbr_init(&r, b, len);
	while (fs_pbr_next(&r, &f) > 0) {
		if (f.num != 1 && f.num != 2)
			continue;
		if (f.wire != FS_PBR_LEN)
			return pft_bad_wire(p, "power_rails", f.num == 1 ? "rail_descriptor" : "energy_data", &f,
					    FS_PBR_LEN);
		if (f.num == 1 ? descriptor(p, f.data, f.len, session) : energy(p, f.data, f.len, session, pt))
			return -1;
	}
	return 0;
}

int pft_rails_packet(struct pft *p, const uint8_t *b, size_t len)
{
	struct pkt_time pt = { .clock = PFT_BOOTTIME };
	struct fs_pbr r;
	struct fs_pbr_field f;

	fs_pbr_init(&r, b, len); /* walk_packet() read it whole: no error here */
	while (fs_pbr_next(&r, &f) > 0) {
		if (f.num != 8 && f.num != 58)
			continue;
		if (f.wire != FS_PBR_VARINT)
			return pft_bad_wire(p, "packet", f.num == 8 ? "timestamp" : "timestamp_clock_id", &f,
					    FS_PBR_VARINT);
		if (f.num == 8)
			pt.ts = f.v, pt.has_ts = true;
		else if (f.v == 0 || f.v >= PFT_NR_CLOCKS) /* 64+: a sequence's own clock, not read */
			return pft_bad(p, "packet.timestamp_clock_id", "%llu is not a builtin clock read here",
				       (unsigned long long)f.v);
		else
			pt.clock = (uint32_t)f.v;
	}
	fs_pbr_init(&r, b, len);
	while (fs_pbr_next(&r, &f) > 0) {
		if (f.num != 40)
			continue;
		if (f.wire != FS_PBR_LEN)
			return pft_bad_wire(p, "packet", "power_rails", &f, FS_PBR_LEN);
		if (power_rails(p, f.data, f.len, &pt))
			return -1;
	}
	return 0;
}

/* Sample s of x on the primary clock; -1 with err (at its packet) when no snapshot relates the clocks. */
static int to_primary(struct pft *p, const struct pft_rail *x, const struct pft_rail_pt *s, __u64 *out)
{
	const struct pft_clock *k = &p->clk[s->clock];

	if (s->clock == p->primary) {
		*out = s->raw_ns;
		return 0;
	}
	p->pkt = s->pkt;
	p->off = s->off;
	if (!k->nr)
		return pft_bad(p, "power_rails.energy_data", "rail %u: no clock snapshot gives both %s (the "
			       "sample's clock) and the trace's", x->index, pft_clock_name(s->clock));
	/* the last snapshot at or before it, as the events' */
	if (!pft_clock_shift(s->raw_ns, k->pt[pft_clock_point_at(k, s->raw_ns)].off, out))
		return pft_bad(p, "power_rails.energy_data", "rail %u: %llu ns on %s is outside the trace's clock",
			       x->index, (unsigned long long)s->raw_ns, pft_clock_name(s->clock));
	return 0;
}

static int sample_cmp(const void *a, const void *b)
{
	const struct fs_rail_sample *x = a, *y = b;

	if (x->ts_ns != y->ts_ns)
		return x->ts_ns < y->ts_ns ? -1 : 1;
	return x->uws < y->uws ? -1 : x->uws > y->uws;
}

/* Rail x out: described, its samples on the primary clock, by time. */
static int rail_out(struct pft *p, const struct pft_rail *x, struct fs_power_rail *o)
{
	memset(o, 0, sizeof(*o));
	memcpy(o->name, x->name, sizeof(o->name));
	memcpy(o->subsys, x->subsys, sizeof(o->subsys));
	o->session = x->session;
	o->index = x->index;
	o->sampling_hz = x->hz;
	if (x->nr && !(o->s = malloc(x->nr * sizeof(*o->s))))
		return pft_bad(p, "power_rails", "out of memory");
	for (size_t i = 0; i < x->nr; i++) {
		o->s[i].uws = x->pt[i].uws;
		if (to_primary(p, x, &x->pt[i], &o->s[i].ts_ns))
			return free(o->s), o->s = NULL, -1;
	}
	o->nr = x->nr;
	if (o->nr > 1) /* two clocks' samples, or offsets that moved; a rail may have none (s NULL) */
		qsort(o->s, o->nr, sizeof(*o->s), sample_cmp);
	return 0;
}

int pft_rails_finish(struct pft *p, struct fs_power_rails *out)
{
	struct fs_power_rails r = { 0 };
	uint64_t saved_pkt = p->pkt;
	size_t saved_off = p->off;

	if (p->nr_rails && !(r.rail = calloc(p->nr_rails, sizeof(*r.rail))))
		return pft_bad(p, "power_rails", "out of memory");
	for (size_t i = 0; i < p->nr_rails; i++) {
		/* Perfetto writes a session's descriptors once, at its start: a ring buffer
		 * that wrapped keeps the samples without them. Counted and shown, not fatal:
		 * the trace's sched events still give the answer. */
		if (!p->rails[i].described) {
			r.nr_undescribed++;
			continue;
		}
		if (rail_out(p, &p->rails[i], &r.rail[r.nr++])) {
			fs_power_rails_free(&r);
			return -1;
		}
	}
	p->pkt = saved_pkt;
	p->off = saved_off;
	if (out)
		*out = r;
	else
		fs_power_rails_free(&r);
	return 0;
}

void pft_rails_free(struct pft *p)
{
	for (size_t i = 0; i < p->nr_rails; i++)
		free(p->rails[i].pt);
	free(p->rails);
}
