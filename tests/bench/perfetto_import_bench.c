// SPDX-License-Identifier: GPL-2.0
/*
 * Perfetto import speed (user/source/perfetto_trace*.c): events per second
 * the reader hands out on one core, from a generated in-memory trace of 8
 * CPUs: ordinary ftrace events only, then compact sched (switches and
 * wakings in the compact arrays, as Android's configs record them), then
 * the compact one gzip'd; and the reader feeding the workload builder.
 * Each rate is the best of 3 runs, in CPU time (a shared host slows the
 * wall clock, not the work). Usage: perfetto_import_bench [EVENTS]
 * (default 2,000,000).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>
#include "bench_gen.h"
#include "em/em_io.h"
#include "output/protobuf.h"
#include "sim/trace_workload.h"
#include "source/perfetto_trace.h"

#define NR_CPUS 8
#define PER_BUNDLE 400

static const char *const comms[] = { "surfaceflinger", "RenderThread", "binder:1234_2", "HwBinder:7_1",
				     "kworker/u16:3", "Chrome_IOThread", "mali-cmar-back", "swapper/0" };

static void task(struct fs_pb *pb, int fc, int fp, int fpr, int pid)
{
	fs_pb_string(pb, (uint32_t)fc, comms[pid % 8]);
	fs_pb_varint(pb, (uint32_t)fp, (uint64_t)pid);
	if (fpr)
		fs_pb_varint(pb, (uint32_t)fpr, 120);
}

/* An ordinary FtraceEvent: switch, waking, wakeup or cpu_frequency. */
static void event(struct fs_pb *pb, __u64 ts, int kind, int cpu)
{
	int a = 100 + (int)rnd(64), b = 100 + (int)rnd(64);

	fs_pb_begin(pb, 2);
	fs_pb_varint(pb, 1, ts);
	fs_pb_varint(pb, 2, (uint64_t)a);
	switch (kind) {
	case 0:
		fs_pb_begin(pb, 4);
		task(pb, 1, 2, 3, a);
		fs_pb_varint(pb, 4, rnd(2));
		task(pb, 5, 6, 7, b);
		break;
	case 1: case 2:
		fs_pb_begin(pb, kind == 1 ? 20 : 17);
		task(pb, 1, 2, 3, b);
		fs_pb_varint(pb, 5, (uint64_t)cpu);
		break;
	default:
		fs_pb_begin(pb, 11);
		fs_pb_varint(pb, 1, 1000000 + rnd(1000000));
		fs_pb_varint(pb, 2, (uint64_t)cpu);
	}
	fs_pb_end(pb);
	fs_pb_end(pb);
}

/* The compact arrays of n switches and n/2 wakings from ts on, step ns apart. */
static void compact(struct fs_pb *pb, __u64 ts, __u64 step, int n)
{
	static __u64 v[PER_BUNDLE];

	fs_pb_begin(pb, 4);
	for (int i = 0; i < 8; i++)
		fs_pb_string(pb, 5, comms[i]);
	for (int field = 1; field <= 11; field++) {
		int m = field <= 6 ? n : n / 2;
		if (field == 5)
			continue;
		for (int i = 0; i < m; i++)
			v[i] = field == 1 || field == 7 ? (i ? step : ts) : field == 4 || field == 10 ? 120 :
			       field == 6 || field == 11 ? rnd(8) : field == 9 ? rnd(NR_CPUS) : field == 2 ? rnd(2) :
			       100 + rnd(64);
		fs_pb_begin(pb, (uint32_t)field);
		for (int i = 0; i < m && fs_pb_room(pb, 10); i++)
			fs_pb_put_varint(pb, v[i]);
		fs_pb_end(pb);
	}
	fs_pb_end(pb);
}

/* About n events: rounds of one bundle per CPU (CPUs in a shuffled order), each PER_BUNDLE events. */
static void trace(struct fs_pb *pb, __u64 n, bool use_compact)
{
	const __u64 step = 20000;
	__u64 rounds = n / (NR_CPUS * PER_BUNDLE) + 1;

	for (__u64 r = 0; r < rounds; r++) {
		int order[NR_CPUS];
		for (int c = 0; c < NR_CPUS; c++)
			order[c] = c;
		for (int c = NR_CPUS - 1; c > 0; c--) {
			int k = (int)rnd((__u32)c + 1), t = order[c];
			order[c] = order[k];
			order[k] = t;
		}
		for (int k = 0; k < NR_CPUS; k++) {
			int cpu = order[k], ord = use_compact ? PER_BUNDLE / 4 : PER_BUNDLE;
			__u64 ts = 1000000000ull + (r * PER_BUNDLE) * step + (__u64)cpu;
			fs_pb_begin(pb, 1);
			fs_pb_begin(pb, 1);
			fs_pb_varint(pb, 1, (uint64_t)cpu);
			for (int i = 0; i < ord; i++) /* ordinary: 40 % switch, 30 % waking, 20 % wakeup, 10 % freq */
				event(pb, ts + (__u64)i * step * (PER_BUNDLE / ord), use_compact ? (i % 4 ? 2 : 3) :
				      (int)(rnd(10) < 4 ? 0 : rnd(6) < 3 ? 1 : rnd(3) < 2 ? 2 : 3), cpu);
			if (use_compact) /* 3/4 of the bundle: 1/2 switches, 1/4 wakings */
				compact(pb, ts + 7, step * 2, PER_BUNDLE / 2);
			fs_pb_end(pb);
			fs_pb_end(pb);
		}
	}
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); /* CPU time: the host may be shared */
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int count(void *ctx, const struct fs_tev *ev, char *err, size_t errlen)
{
	(void)ev;
	(void)err;
	(void)errlen;
	++*(__u64 *)ctx;
	return 0;
}

static unsigned char *gz(const unsigned char *in, size_t len, size_t *out_len)
{
	z_stream z = { 0 };
	unsigned char *out = malloc(len + len / 100 + 1024);

	if (!out || deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return NULL;
	z.next_in = (Bytef *)in;
	z.avail_in = (uInt)len;
	z.next_out = out;
	z.avail_out = (uInt)(len + len / 100 + 1024);
	deflate(&z, Z_FINISH);
	*out_len = z.total_out;
	deflateEnd(&z);
	return out;
}

/* Best of 3: the reader alone (em NULL) or feeding the workload builder. */
static int run(const char *what, const void *buf, size_t len, const struct fs_em *em)
{
	double best = 1e30;
	__u64 n = 0;
	char err[512];

	for (int i = 0; i < 3; i++) {
		struct fs_trace_wl *b = em ? fs_trace_wl_new(em, FS_SIM_DEVICE) : NULL;
		struct fs_trace_stats st;
		double t0 = now(), dt;
		n = 0;
		if (fs_perfetto_trace_parse(buf, len, what, b ? fs_trace_wl_feed_fn : count, b ? (void *)b : &n, &st, NULL,
					    NULL, err, sizeof(err))) {
			fprintf(stderr, "perfetto_import_bench: %s\n", err);
			return 1;
		}
		dt = now() - t0;
		n = st.events;
		if (b)
			fs_trace_wl_free(b);
		if (dt < best)
			best = dt;
	}
	printf("  %-22s %9llu events, %6.1f MB in %6.3f s: %5.2f M events/s\n", what, (unsigned long long)n,
	       (double)len / 1e6, best, (double)n / best / 1e6);
	return 0;
}

int main(int argc, char **argv)
{
	__u64 n = argc > 1 ? strtoull(argv[1], NULL, 10) : 2000000;
	struct fs_pb ord = { 0 }, cmp = { 0 };
	struct fs_em em;
	size_t gz_len = 0;
	unsigned char *z;
	char err[256];
	int rc = 0;

	if (fs_em_profile_for_cpus(NR_CPUS, &em, err, sizeof(err))) {
		fprintf(stderr, "perfetto_import_bench: %s\n", err);
		return 1;
	}
	trace(&ord, n, false);
	trace(&cmp, n, true);
	if (ord.failed || cmp.failed || !(z = gz(cmp.buf, cmp.len, &gz_len))) {
		fprintf(stderr, "perfetto_import_bench: out of memory\n");
		return 1;
	}
	printf("Perfetto import: %d CPUs, bundles of %d events, one core, CPU time, best of 3\n", NR_CPUS, PER_BUNDLE);
	rc |= run("ordinary events", ord.buf, ord.len, NULL);
	rc |= run("compact sched", cmp.buf, cmp.len, NULL);
	rc |= run("compact sched, gzip'd", z, gz_len, NULL);
	rc |= run("compact -> workload", cmp.buf, cmp.len, &em);
	fs_pb_free(&ord);
	fs_pb_free(&cmp);
	free(z);
	return rc;
}
