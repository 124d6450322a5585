// SPDX-License-Identifier: GPL-2.0
/*
 * The Perfetto trace and the layout-2 CSV through the pipeline (also run
 * under ASan/UBSan): every wake-up's rows, in wake-up order although the
 * placements close out of order; the trace is a sequence of Trace.packet
 * fields; gzip output decompresses to the plain file; the protobuf encoder
 * writes lengths of any size.
 */
#include <unistd.h>
#include <zlib.h>
#include "test.h"
#include "em_builders.h"
#include "output/decisions_csv.h"
#include "records/csv_cells.h"
#include "pipeline.h"
#include "em/em_io.h"
#include "outputs_open.h"
#include "output/protobuf.h"

static struct fs_em em;

static void wake(struct fs_wakeup *w, __s32 pid, __u64 ts, int prev, int kernel)
{
	fs_test_plain_wakeup(w, &em, pid, ts, prev);
	w->tgid = pid;
	snprintf(w->comm, sizeof(w->comm), "t,\"%d", pid); /* a comm the CSV must quote */
	w->chosen_cpu = kernel;
}

/* Replay: pid 1 wakes once first (its placement closes only at the end), then 2..9 twice each. */
static void replay(const char *pf, const char *csv)
{
	char err[256];
	struct fs_pipeline_opts o = { .em = &em, .nr_policies = 2, .kernel_release = "5.4.0", .emulate_eas = true };
	struct fs_output_paths paths = { .perfetto = pf, .csv = csv };
	struct fs_wakeup w;

	o.policies[0] = fs_policy_find("v5.4");
	o.policies[1] = fs_policy_find("v5.4-nomargin");
	ASSERT_TRUE(fs_outputs_open(&o, &paths, err, sizeof(err)) == 0);
	struct fs_pipeline *p = fs_pipeline_new(&o, err, sizeof(err));
	ASSERT_TRUE(p);
	__u64 ts = 1000000;
	wake(&w, 1, ts, 0, 0);
	EXPECT_EQ(fs_pipeline_feed(p, &w.hdr, err, sizeof(err)), 0);
	for (int round = 0; round < 2; round++)
		for (int pid = 2; pid < 10; pid++) {
			ts += 100000;
			wake(&w, pid, ts, pid % em.nr_cpus, (pid + round) % em.nr_cpus);
			EXPECT_EQ(fs_pipeline_feed(p, &w.hdr, err, sizeof(err)), 0);
		}
	EXPECT_EQ(fs_pipeline_finish(p, err, sizeof(err)), 0);
	fs_pipeline_free(p);
}

static char *slurp(const char *path, size_t *len)
{
	gzFile f = gzopen(path, "rb"); /* reads plain files too */
	char *b = malloc(1 << 20);
	int n = f && b ? gzread(f, b, (1 << 20) - 1) : -1;

	if (f)
		gzclose(f);
	*len = n > 0 ? (size_t)n : 0;
	if (b)
		b[*len] = 0;
	return b;
}

FS_TEST(outputs_csv_rows_in_wakeup_order_and_trace_packets)
{
	char err[256], pf[128], csv[128], pfgz[140], csvgz[140];
	size_t n, ngz, tn, tngz;

	ASSERT_TRUE(fs_em_profile_build("pixel4", &em, err, sizeof(err)) == 0);
	snprintf(pf, sizeof(pf), "/tmp/fs_test_out_%d.pftrace", (int)getpid());
	snprintf(csv, sizeof(csv), "/tmp/fs_test_out_%d.csv", (int)getpid());
	snprintf(pfgz, sizeof(pfgz), "%s.gz", pf);
	snprintf(csvgz, sizeof(csvgz), "%s.gz", csv);
	replay(pf, csv);
	replay(pfgz, csvgz);
	char *c = slurp(csv, &n), *cgz = slurp(csvgz, &ngz);
	char *t = slurp(pf, &tn), *tgz = slurp(pfgz, &tngz);
	ASSERT_TRUE(c && cgz && t && tgz);
	EXPECT_TRUE(n > 0 && n == ngz && !memcmp(c, cgz, n));
	EXPECT_TRUE(tn > 0 && tn == tngz && !memcmp(t, tgz, tn));
	/* 17 wake-ups x 2 policies after the header, seq never decreasing, comm quoted */
	int lines = 0;
	long last = 0;
	for (char *l = strchr(c, '\n'); l && l[1]; l = strchr(l + 1, '\n')) {
		long seq = strtol(l + 1, NULL, 10);
		if (seq < last)
			FS_FAIL_AT("row %d: seq %ld after %ld", lines + 1, seq, last);
		last = seq;
		lines++;
	}
	EXPECT_EQ(lines, 34);
	EXPECT_CONTAINS(c, ",\"t,\"\"1\",");
	/* the trace: Trace.packet (field 1, length-delimited) after Trace.packet to the end */
	size_t at = 0;
	int packets = 0;
	while (at < tn && (unsigned char)t[at] == 0x0a) {
		__u64 len = 0;
		int shift = 0;
		at++;
		while (at < tn && (t[at] & 0x80)) {
			len |= (__u64)(t[at++] & 0x7f) << shift;
			shift += 7;
		}
		len |= (__u64)(t[at++] & 0x7f) << shift;
		at += len;
		packets++;
	}
	EXPECT_EQ_U64(at, tn);
	EXPECT_TRUE(packets > 17);
	free(c), free(cgz), free(t), free(tgz);
	unlink(pf), unlink(csv), unlink(pfgz), unlink(csvgz);
}

FS_TEST(protobuf_nested_lengths_of_any_size)
{
	struct fs_pb pb = { 0 };
	char big[300];

	memset(big, 'x', sizeof(big));
	fs_pb_begin(&pb, 1);
	fs_pb_begin(&pb, 2);
	fs_pb_bytes(&pb, 3, big, sizeof(big)); /* 3 + 300 bytes: two-byte lengths around it */
	fs_pb_end(&pb);
	fs_pb_varint(&pb, 4, 150);
	fs_pb_end(&pb);
	ASSERT_TRUE(!pb.failed);
	/* 0a <len 2B> 12 <len 2B> 1a ac 02 <300 x> 20 96 01 */
	const unsigned char *b = pb.buf;
	EXPECT_EQ(b[0], 0x0a);
	EXPECT_EQ((b[1] & 0x7f) | b[2] << 7, 3 + 303 + 3);
	EXPECT_EQ(b[3], 0x12);
	EXPECT_EQ((b[4] & 0x7f) | b[5] << 7, 303);
	EXPECT_EQ(b[6], 0x1a);
	EXPECT_EQ((b[7] & 0x7f) | b[8] << 7, 300);
	EXPECT_EQ_U64(pb.len, 3 + 3 + 3 + 300 + 3);
	EXPECT_EQ(b[pb.len - 3], 0x20);
	EXPECT_EQ(b[pb.len - 2], 0x96);
	EXPECT_EQ(b[pb.len - 1], 0x01);
	fs_pb_free(&pb);
}

/* A comm as a CSV cell: printable ASCII as it is, others '?', quoted when it holds ',' or '"' (doubled). */
FS_TEST(csv_comm_cells)
{
	static const struct {
		char comm[FS_COMM_LEN];
		const char *cell;
	} cases[] = {
		{ "rt-app", "rt-app" },
		{ "", "" },
		{ "a,b", "\"a,b\"" },
		{ "say \"hi\"", "\"say \"\"hi\"\"\"" },
		{ "tab\there", "tab?here" },
		{ "\x80x\x7f", "?x?" },
		{ "0123456789abcdef", "0123456789abcde" }, /* 16 bytes, no NUL: the kernel's 15 */
		{ "kworker/0:1", "kworker/0:1" },
	};
	char cell[FS_CSV_COMM_MAX];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int n = fs_csv_comm(cell, cases[i].comm);

		EXPECT_STR(cell, cases[i].cell);
		EXPECT_EQ(n, (int)strlen(cases[i].cell));
	}
}
