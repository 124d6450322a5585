// SPDX-License-Identifier: GPL-2.0
/*
 * Perfetto traces (perfetto_trace.h): the Trace message's packets
 * (protos/perfetto/trace/trace.proto, trace_packet.proto) walked once for
 * the clock snapshots, the process tree and where each CPU's ftrace bundles
 * are; then each CPU's bundles decoded in file order (the ftrace data source
 * reads each CPU's ring buffer in order) and the CPUs merged by time.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include "perfetto_trace_int.h"

#define PFT_MAX_INFLATE (1ull << 32) /* a gunzipped trace or a compressed block past this is refused */

int pft_bad(struct pft *p, const char *path, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(p->err, p->errlen, "%s: packet %llu (offset %zu): %s: %s", p->name, (unsigned long long)p->pkt,
		 p->off, path, msg);
	return -1;
}

int pft_bad_pb(struct pft *p, const char *path, int rc, const struct fs_pbr_field *f)
{
	if (rc == FS_PBR_TRUNC_TAG || rc == FS_PBR_BAD_FIELD)
		return pft_bad(p, path, "%s", fs_pbr_strerror(rc));
	return pft_bad(p, path, "field %u: %s", f->num, fs_pbr_strerror(rc));
}

int pft_bad_wire(struct pft *p, const char *path, const char *field, const struct fs_pbr_field *f,
		 uint32_t want)
{
	char a[24], b[24];

	return pft_bad(p, path, "%s (field %u): %s, expected %s", field, f->num, fs_pbr_wire_name(f->wire, a, sizeof(a)),
		       fs_pbr_wire_name(want, b, sizeof(b)));
}

int pft_varint_field(struct pft *p, const uint8_t *b, size_t len, const char *path, uint32_t num,
		     const char *field, uint64_t *v)
{
	struct fs_pbr r;
	struct fs_pbr_field f;
	int rc;

	fs_pbr_init(&r, b, len);
	while ((rc = fs_pbr_next(&r, &f)) > 0)
		if (f.num == num) {
			if (f.wire != FS_PBR_VARINT)
				return pft_bad_wire(p, path, field, &f, FS_PBR_VARINT);
			*v = f.v;
		}
	return rc < 0 ? pft_bad_pb(p, path, rc, &f) : 0;
}

bool pft_grow(struct pft *p, void **arr, size_t *cap, size_t n, size_t size)
{
	size_t c = *cap ? *cap * 2 : 16;
	void *q;

	if (n < *cap)
		return true;
	if (!(q = realloc(*arr, c * size))) {
		snprintf(p->err, p->errlen, "%s: out of memory", p->name);
		return false;
	}
	*arr = q;
	*cap = c;
	return true;
}

/*
 * Inflate len bytes (gzip or zlib: windowBits 32 + 15 detects the header;
 * gzip members one after another are read on) into a malloc'd *out.
 * 0, or -1 with *why.
 */
static int inflate_all(const uint8_t *in, size_t len, uint8_t **out, size_t *out_len, const char **why)
{
	z_stream z = { 0 };
	size_t cap = len * 4 + 4096, n = 0;
	uint8_t *buf = malloc(cap);
	int rc = Z_OK;

	*why = "out of memory";
	if (!buf || inflateInit2(&z, 32 + MAX_WBITS) != Z_OK)
		return free(buf), -1;
	z.next_in = (Bytef *)in;
	for (;;) {
		size_t left = len - (size_t)((const uint8_t *)z.next_in - in);
		if (rc == Z_STREAM_END && (!left || inflateReset(&z) != Z_OK))
			break;
		if (n == cap) {
			uint8_t *q = cap < PFT_MAX_INFLATE ? realloc(buf, cap * 2) : NULL;
			if (!q) {
				*why = cap < PFT_MAX_INFLATE ? "out of memory" : "inflates past 4 GiB";
				rc = Z_MEM_ERROR;
				break;
			}
			buf = q;
			cap *= 2;
		}
		z.avail_in = (uInt)(left > 1u << 30 ? 1u << 30 : left);
		z.next_out = buf + n;
		z.avail_out = (uInt)(cap - n > 1u << 30 ? 1u << 30 : cap - n);
		rc = inflate(&z, Z_NO_FLUSH);
		n = (size_t)(z.next_out - buf);
		if (rc != Z_OK && rc != Z_STREAM_END) {
			*why = rc == Z_BUF_ERROR ? "cut short (truncated?)" : "corrupt compressed data";
			break;
		}
	}
	inflateEnd(&z);
	if (rc != Z_STREAM_END)
		return free(buf), -1;
	*out = buf;
	*out_len = n;
	return 0;
}

/* Where bundle b's CPU's bundles are listed; its cpu field read here (the events wait for the merge). */
static int bundle_add(struct pft *p, const uint8_t *b, size_t len)
{
	uint64_t cpu = 0;
	struct pft_cpu *c;

	if (pft_varint_field(p, b, len, "ftrace_events", 1, "cpu", &cpu))
		return -1;
	if (cpu >= PFT_MAX_CPU)
		return pft_bad(p, "ftrace_events.cpu", "%llu is past the %d CPUs read", (unsigned long long)cpu,
			       PFT_MAX_CPU);
	if (!pft_grow(p, (void **)&p->bundles, &p->cap_bundles, p->nr_bundles, sizeof(*p->bundles)))
		return -1;
	if (cpu >= p->nr_cpu) {
		struct pft_cpu *q = realloc(p->cpu, (cpu + 1) * sizeof(*q));
		if (!q)
			return pft_bad(p, "ftrace_events", "out of memory");
		memset(q + p->nr_cpu, 0, (cpu + 1 - p->nr_cpu) * sizeof(*q));
		for (uint32_t i = p->nr_cpu; i <= cpu; i++)
			q[i].cur.pid = -1; /* who ran before the first switch: not known */
		p->cpu = q;
		p->nr_cpu = (uint32_t)cpu + 1;
	}
	c = &p->cpu[cpu];
	if (!pft_grow(p, (void **)&c->bundles, &c->cap_bundles, c->nr_bundles, sizeof(*c->bundles)))
		return -1;
	c->bundles[c->nr_bundles++] = (uint32_t)p->nr_bundles;
	p->bundles[p->nr_bundles++] = (struct pft_bundle){ b, len, p->pkt, p->off, (uint32_t)cpu };
	return 0;
}

static int walk_trace(struct pft *p, const uint8_t *b, size_t len, int depth);

/* compressed_packets = 50: deflated Trace bytes, packets within. */
static int compressed(struct pft *p, const uint8_t *b, size_t len, int depth)
{
	const char *why;
	uint8_t *out;
	size_t n;

	if (depth)
		return pft_bad(p, "compressed_packets", "compressed within compressed packets");
	if (inflate_all(b, len, &out, &n, &why))
		return pft_bad(p, "compressed_packets", "%s", why);
	if (!pft_grow(p, (void **)&p->blocks, &p->cap_blocks, p->nr_blocks, sizeof(*p->blocks)))
		return free(out), -1;
	p->blocks[p->nr_blocks++] = out;
	return walk_trace(p, out, n, depth + 1);
}

/*
 * TracePacket: ftrace_events = 1, process_tree = 2, clock_snapshot = 6,
 * compressed_packets = 50; power_rails = 40 once the packet is read whole
 * (its samples may take the packet's timestamp, in any field order).
 */
static int walk_packet(struct pft *p, const uint8_t *b, size_t len, int depth)
{
	static const char *const names[] = { [1] = "ftrace_events", [2] = "process_tree", [6] = "clock_snapshot" };
	struct fs_pbr r;
	struct fs_pbr_field f;
	bool rails = false;
	int rc;

	fs_pbr_init(&r, b, len);
	while ((rc = fs_pbr_next(&r, &f)) > 0) {
		rails |= f.num == 40;
		if (f.num != 1 && f.num != 2 && f.num != 6 && f.num != 50)
			continue;
		if (f.wire != FS_PBR_LEN)
			return pft_bad_wire(p, "packet", f.num == 50 ? "compressed_packets" : names[f.num], &f, FS_PBR_LEN);
		if (f.num == 1 ? bundle_add(p, f.data, f.len) :
		    f.num == 2 ? pft_process_tree(p, f.data, f.len) :
		    f.num == 6 ? pft_clock_snapshot(p, f.data, f.len) : compressed(p, f.data, f.len, depth))
			return -1;
	}
	if (rc < 0)
		return pft_bad_pb(p, "packet", rc, &f);
	return rails ? pft_rails_packet(p, b, len) : 0;
}

/* Trace: packet = 1 (other fields skipped). */
static int walk_trace(struct pft *p, const uint8_t *b, size_t len, int depth)
{
	struct fs_pbr r;
	struct fs_pbr_field f;
	int rc;

	fs_pbr_init(&r, b, len);
	for (;;) {
		if (!depth)
			p->off = (size_t)(r.p - p->base);
		if ((rc = fs_pbr_next(&r, &f)) <= 0)
			break;
		if (f.num != 1)
			continue;
		if (f.wire != FS_PBR_LEN)
			return pft_bad_wire(p, "trace", "packet", &f, FS_PBR_LEN);
		if (walk_packet(p, f.data, f.len, depth))
			return -1;
		p->nr_packets = ++p->pkt;
	}
	return rc < 0 ? pft_bad_pb(p, "trace", rc, &f) : 0;
}

/* 1 with c's next event at c->ev[c->pos] (its next bundles decoded as needed), 0 at its end, -1. */
static int cpu_next(struct pft *p, struct pft_cpu *c)
{
	while (c->pos >= c->nr_ev) {
		if (c->next_bundle >= c->nr_bundles)
			return 0;
		if (pft_bundle_decode(p, c, &p->bundles[c->bundles[c->next_bundle++]]))
			return -1;
	}
	return 1;
}

static int hand_out(struct pft *p, struct pft_cpu *c)
{
	struct pft_ev *x = &c->ev[c->pos++];
	const struct fs_tev *ev = &x->ev;

	pft_fill(p, c, x);
	p->st.events++;
	if (ev->type == FS_TEV_LOST) {
		p->st.lost_reports++;
		p->st.lost_events++; /* a bundle's lost_events says some were, not how many */
	}
	if (ev->type >= FS_TEV_SWITCH && ev->type <= FS_TEV_WAKEUP_NEW)
		p->sched_events++;
	return p->fn(p->ctx, ev, p->err, p->errlen) ? -1 : 0;
}

/* Every CPU's stream, merged by time (a tie: the lower CPU first). */
static int merge(struct pft *p)
{
	for (uint32_t i = 0; i < p->nr_cpu; i++)
		if (cpu_next(p, &p->cpu[i]) < 0)
			return -1;
	for (;;) {
		struct pft_cpu *best = NULL;
		for (uint32_t i = 0; i < p->nr_cpu; i++) {
			struct pft_cpu *c = &p->cpu[i];
			if (c->pos < c->nr_ev &&
			    (!best || c->ev[c->pos].ev.ts_ns < best->ev[best->pos].ev.ts_ns))
				best = c;
		}
		if (!best)
			return 0;
		if (hand_out(p, best) || cpu_next(p, best) < 0)
			return -1;
	}
}

static void pft_free(struct pft *p)
{
	for (size_t i = 0; i < p->nr_blocks; i++)
		free(p->blocks[i]);
	free(p->blocks);
	for (uint32_t i = 0; i < p->nr_cpu; i++) {
		free(p->cpu[i].bundles);
		free(p->cpu[i].ev);
	}
	free(p->cpu);
	free(p->bundles);
	free(p->pids.slot);
	pft_rails_free(p);
	pft_clock_free(p);
}

static int parse_plain(struct pft *p, const uint8_t *b, size_t len, struct fs_perfetto_tree *tree,
		       struct fs_power_rails *rails)
{
	p->base = b;
	if (walk_trace(p, b, len, 0) || pft_clock_finish(p) || pft_rails_finish(p, rails))
		return -1;
	if (merge(p)) {
		fs_power_rails_free(rails);
		return -1;
	}
	if (!p->sched_events) {
		snprintf(p->err, p->errlen,
			 "%s: no sched events (sched_switch, sched_waking, sched_wakeup) in its %llu packets: "
			 "record with the linux.ftrace data source (docs/traces.md)",
			 p->name, (unsigned long long)p->nr_packets);
		fs_power_rails_free(rails);
		return -1;
	}
	if (tree && pft_tree_out(p, tree)) {
		fs_power_rails_free(rails);
		return -1;
	}
	return 0;
}

int fs_perfetto_trace_parse(const void *buf, size_t len, const char *name, fs_tev_fn fn, void *ctx,
			    struct fs_trace_stats *st, struct fs_perfetto_tree *tree, struct fs_power_rails *rails,
			    char *err, size_t errlen)
{
	struct pft p = { .name = name, .err = err, .errlen = errlen, .fn = fn, .ctx = ctx };
	const uint8_t *b = buf;
	uint8_t *plain = NULL;
	const char *why;
	int rc;

	if (tree)
		*tree = (struct fs_perfetto_tree){ 0 };
	if (rails)
		*rails = (struct fs_power_rails){ 0 };
	if (len >= 2 && b[0] == 0x1f && b[1] == 0x8b) { /* gzip's magic */
		if (inflate_all(b, len, &plain, &len, &why)) {
			snprintf(err, errlen, "%s: gzip: %s", name, why);
			if (st)
				memset(st, 0, sizeof(*st));
			return -1;
		}
		b = plain;
	}
	rc = parse_plain(&p, b, len, tree, rails);
	if (st)
		*st = p.st;
	pft_free(&p);
	free(plain);
	return rc;
}

/*
 * A Trace's first bytes: field 1 (packet), length-delimited, whose fields
 * read (up to the end of buf if the packet goes on past it), with a byte
 * no text has among the first 64: a tracefs text starting with a blank
 * line begins with the same 0x0a.
 */
static bool probe_plain(const uint8_t *b, size_t len)
{
	const uint8_t *q = b + 1, *end = b + len;
	struct fs_pbr r;
	struct fs_pbr_field f;
	uint64_t n;
	size_t avail;
	bool binary = false;
	int fields = 0, rc;

	if (len < 2 || b[0] != 0x0a || fs_pbr_varint(&q, end, &n) || !n)
		return false;
	avail = (size_t)(end - q) < n ? (size_t)(end - q) : (size_t)n;
	fs_pbr_init(&r, q, avail);
	while ((rc = fs_pbr_next(&r, &f)) > 0)
		fields++;
	if (rc < 0 && avail == n)
		return false;
	for (size_t i = 0; i < len && i < 64; i++)
		binary |= b[i] < 0x09 || (b[i] > 0x0d && b[i] < 0x20) || b[i] >= 0x7f;
	return fields > 0 && binary;
}

bool fs_perfetto_trace_probe(const void *buf, size_t len)
{
	const uint8_t *b = buf;
	uint8_t out[4096];
	z_stream z = { 0 };
	bool yes;

	if (len < 2 || b[0] != 0x1f || b[1] != 0x8b)
		return probe_plain(b, len);
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return false;
	z.next_in = (Bytef *)b;
	z.avail_in = (uInt)(len > 1u << 30 ? 1u << 30 : len);
	z.next_out = out;
	z.avail_out = sizeof(out);
	inflate(&z, Z_SYNC_FLUSH); /* a head cut mid-stream gives what it has */
	yes = probe_plain(out, sizeof(out) - z.avail_out);
	inflateEnd(&z);
	return yes;
}

int fs_perfetto_trace_read_rails(const char *path, fs_tev_fn fn, void *ctx, struct fs_trace_stats *st,
				 struct fs_power_rails *rails, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat sb;
	void *map = NULL;
	int rc;

	if (st)
		memset(st, 0, sizeof(*st));
	if (rails)
		*rails = (struct fs_power_rails){ 0 };
	if (fd < 0 || fstat(fd, &sb)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (sb.st_size > 0 && (map = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0)) == MAP_FAILED) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	rc = fs_perfetto_trace_parse(map ? map : "", map ? (size_t)sb.st_size : 0, path, fn, ctx, st, NULL, rails,
				     err, errlen);
	if (map)
		munmap(map, (size_t)sb.st_size);
	return rc;
}

int fs_perfetto_trace_read_file(const char *path, fs_tev_fn fn, void *ctx, struct fs_trace_stats *st,
				char *err, size_t errlen)
{
	return fs_perfetto_trace_read_rails(path, fn, ctx, st, NULL, err, errlen);
}
