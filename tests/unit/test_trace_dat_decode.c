// SPDX-License-Identifier: GPL-2.0
/*
 * trace.dat's record decoder on its own (user/source/trace_dat_decode.c),
 * as the trace_dat_records fuzz target feeds it: records against a format
 * parsed into a libtraceevent handle, no file. A record cut short inside a
 * field is refused by name, never read past (the bound the fuzz target was
 * shown to catch the lack of, docs/fuzzing.md); missed events come first.
 */
#include <stdlib.h>
#include <string.h>
#include "test.h"
#include "source/trace_dat_decode.h"

#ifdef FS_HAVE_TRACECMD
#include <event-parse.h>

/* Linux 6.12's sched_switch (tests/fixtures/trace/trace-v6.dat.gz) */
static const char switch_format[] =
	"name: sched_switch\nID: 372\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
	"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"prev_pid=%d next_pid=%d\", REC->prev_pid, REC->next_pid\n";

struct got {
	struct fs_tev ev[4];
	int nr;
};

static int keep(void *ctx, const struct fs_tev *ev, char *err, size_t errlen)
{
	struct got *g = ctx;

	(void)err;
	(void)errlen;
	if (g->nr < 4)
		g->ev[g->nr] = *ev;
	g->nr++;
	return 0;
}

/* A sched_switch from pid 10 ("prev", state S) to 11 ("next"), little-endian. */
static void switch_record(unsigned char *p)
{
	unsigned short type = 372;
	int pid[2] = { 10, 11 }, prio = 120;
	long long state = 1;

	memset(p, 0, 64);
	memcpy(p, &type, 2);
	memcpy(p + 4, &pid[0], 4);
	memcpy(p + 8, "prev", 4);
	memcpy(p + 24, &pid[0], 4);
	memcpy(p + 28, &prio, 4);
	memcpy(p + 32, &state, 8);
	memcpy(p + 40, "next", 4);
	memcpy(p + 56, &pid[1], 4);
	memcpy(p + 60, &prio, 4);
}

FS_TEST(trace_dat_decode_records_without_a_file)
{
	struct tep_handle *tep = tep_alloc();
	unsigned char data[64];
	struct tep_record r = { .ts = 5000, .size = 64, .record_size = 64, .data = data, .cpu = 1, .missed_events = -1 };
	struct fs_trace_stats st;
	struct got g = { .nr = 0 };
	struct fs_dat_dec *d;
	char err[256] = "";

	ASSERT_TRUE(tep != NULL);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	ASSERT_TRUE(!tep_parse_event(tep, switch_format, strlen(switch_format), "sched"));
	switch_record(data);
	d = fs_dat_dec_new(tep, "t.dat", keep, &g, err, sizeof(err));
	ASSERT_TRUE(d != NULL);
	EXPECT_EQ(fs_dat_dec_record(d, &r, 1), 0);
	EXPECT_EQ(g.nr, 2);
	EXPECT_EQ(g.ev[0].type, FS_TEV_LOST);
	EXPECT_EQ_U64(g.ev[0].lost.nr, FS_TEV_LOST_UNKNOWN);
	EXPECT_EQ(g.ev[1].type, FS_TEV_SWITCH);
	EXPECT_STR(g.ev[1].sw.prev.comm, "prev");
	EXPECT_EQ(g.ev[1].sw.next.pid, 11);
	EXPECT_EQ(g.ev[1].sw.prev_state, 1);
	EXPECT_EQ(g.ev[1].common_pid, 10);
	/* cut inside prev_prio (28..31): refused by name, nothing read past its 30 bytes (ASan's build) */
	ASSERT_TRUE((r.data = malloc(30)) != NULL);
	memcpy(r.data, data, 30);
	r.size = r.record_size = 30;
	r.missed_events = 0;
	r.ts = 6000;
	EXPECT_EQ(fs_dat_dec_record(d, &r, 1), -1);
	EXPECT_STR(err, "t.dat: sched_switch at 6000 ns (CPU 1): prev_prio: missing");
	EXPECT_EQ(fs_dat_dec_free(d, &st), -1);
	EXPECT_EQ_U64(st.events, 2);
	EXPECT_EQ_U64(st.lost_reports, 1);
	free(r.data);
	tep_free(tep);
}
#endif
