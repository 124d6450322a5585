// SPDX-License-Identifier: GPL-2.0
/* CSV records: column subsets with defaults, exact error messages, lossless write/read. */
#include <unistd.h>
#include "test.h"
#include "records/csv_records.h"

static const char *write_tmp(const char *tag, const char *text)
{
	static char buf[256];
	snprintf(buf, sizeof(buf), "/tmp/fs_test_csv_%d_%s.csv", (int)getpid(), tag);
	FILE *f = fopen(buf, "w");
	fputs(text, f);
	fclose(f);
	return buf;
}

FS_TEST(csv_subset_columns_and_defaults)
{
	const char *p = write_tmp("sub",
		"# kernel_release=5.4.0\n"
		"type,ts_ns,pid,comm,prev_cpu,cpu0_util_avg,cpu1_util_avg,flags,dest_cpu,count\n"
		"wakeup,1000,42,\"a, b\",1,10,20,overutilized|fork,,\n"
		"\n# comment\n"
		"migrate,2000,42,,,,,,0\n"
		"lost,3000,,,,,,,,7\n");
	struct fs_rec_meta m;
	char err[256];
	const struct fs_rec_hdr *h;
	struct fs_csv_reader *r = fs_csv_reader_open(p, &m, err, sizeof(err));
	ASSERT_TRUE(r);
	EXPECT_EQ(m.nr_cpus, 2);
	EXPECT_STR(m.kernel_release, "5.4.0");
	EXPECT_TRUE(m.em_text == NULL);
	ASSERT_TRUE(fs_csv_reader_next(r, &h, err, sizeof(err)) == 1);
	const struct fs_wakeup *w = (const void *)h;
	EXPECT_EQ(h->type, FS_REC_WAKEUP);
	EXPECT_EQ(h->size, fs_wakeup_size(2));
	EXPECT_EQ(w->pid, 42);
	EXPECT_EQ(w->tgid, 42);           /* default: pid */
	EXPECT_STR(w->comm, "a, b");
	EXPECT_EQ(w->task_cpu, 1);        /* default: prev_cpu */
	EXPECT_EQ(w->chosen_cpu, -1);     /* default: unknown */
	EXPECT_EQ(w->cpus_allowed, 0x3);  /* default: every CPU */
	EXPECT_EQ(w->nr_cpus_allowed, 2);
	EXPECT_EQ(w->flags, FS_WAKE_OVERUTILIZED | FS_WAKE_FORK);
	EXPECT_EQ(w->cpu[1].util_avg, 20);
	EXPECT_EQ(w->cpu[0].flags, FS_CPU_ONLINE | FS_CPU_IN_SD);
	EXPECT_EQ(w->cpu[0].uclamp_max, 1024);
	EXPECT_EQ(w->task.uclamp_max, 1024);
	ASSERT_TRUE(fs_csv_reader_next(r, &h, err, sizeof(err)) == 1);
	const struct fs_migrate *mg = (const void *)h;
	EXPECT_EQ(mg->dest_cpu, 0);
	EXPECT_EQ(mg->orig_cpu, -1);
	EXPECT_EQ(mg->reason, FS_MIG_BALANCE);
	ASSERT_TRUE(fs_csv_reader_next(r, &h, err, sizeof(err)) == 1);
	EXPECT_EQ(((const struct fs_lost *)h)->count, 7);
	EXPECT_EQ(fs_csv_reader_next(r, &h, err, sizeof(err)), 0);
	fs_csv_reader_close(r);
	fs_rec_meta_free(&m);
	unlink(p);
}

/* Expect the first row of body (after a fixed header) to fail with exactly msg (after "path:"). */
static void expect_row_error(const char *header, const char *row, const char *msg)
{
	char text[1024], err[512], want[600];
	snprintf(text, sizeof(text), "%s\n%s\n", header, row);
	const char *p = write_tmp("err", text);
	struct fs_rec_meta m;
	const struct fs_rec_hdr *h;
	struct fs_csv_reader *r = fs_csv_reader_open(p, &m, err, sizeof(err));
	int rc = r ? fs_csv_reader_next(r, &h, err, sizeof(err)) : -1;
	EXPECT_EQ(rc, -1);
	snprintf(want, sizeof(want), "%s:%s", p, msg);
	EXPECT_STR(err, want);
	fs_csv_reader_close(r);
	fs_rec_meta_free(&m);
	unlink(p);
}

FS_TEST(csv_errors_name_line_and_column)
{
	const char *hdr = "type,ts_ns,pid,prev_cpu,cpu0_util_avg,cpu1_util_avg";
	expect_row_error(hdr, "wakeup,1000,42,1,abc,3", "2: column 5 (cpu0_util_avg): 'abc' is not an unsigned 32-bit number");
	expect_row_error(hdr, "wakeup,1000,42,2,1,3", "2: column 4 (prev_cpu): CPU 2 out of range 0..1");
	expect_row_error(hdr, "wakeup,1000,42,1,-1,3", "2: column 5 (cpu0_util_avg): '-1' is not an unsigned 32-bit number");
	expect_row_error(hdr, "wakeup,,42,1,1,3", "2: column 2 (ts_ns): ts_ns is required");
	expect_row_error(hdr, "wakeup,10,42,1,1,3,9", "2: 7 cells but the header has 6 columns");
	expect_row_error(hdr, "sleep,10,42,1,1,3", "2: column 1 (type): 'sleep' is not a record type (wakeup, migrate, overutil, lost, exit, runtime, cpustat, freqstat, em, busyfreq, freq, or 1-11)");
	expect_row_error(hdr, "lost,10,42,,,", "2: column 3 (pid): does not apply to a lost record (leave it empty)");
	expect_row_error("type,ts_ns,policy_cpu,khz,cpu0_util_avg", "freq,10,0,,",
			 "2: a freq record needs policy_cpu and khz");
	expect_row_error("type,ts_ns,policy_cpu,khz,cpu0_util_avg", "freq,10,1,533000,",
			 "2: column 3 (policy_cpu): CPU 1 out of range 0..0");
	expect_row_error("type,ts_ns,policy_cpu,khz,cpu0_util_avg", "freq,10,0,0,", "2: freq: khz: 0 is not a frequency");
	expect_row_error(hdr, "wakeup,10,42,1,99999999999,3", "2: column 5 (cpu0_util_avg): '99999999999' is not an unsigned 32-bit number");
	expect_row_error("type,ts_ns,pid,prev_cpu,cpu0_utilavg", "x", "1: column 5: unknown column 'cpu0_utilavg'");
	expect_row_error("type,ts_ns,pid,prev_cpu,flags,cpu0_util_avg", "wakeup,1,2,0,fork|sleepy,1", "2: column 5 (flags): 'fork|sleepy' is not a flag set (names joined by '|', or a number)");
	expect_row_error("type,ts_ns,pid,prev_cpu", "wakeup,1,2,0", "1: no cpuN_ columns and no '# nr_cpus=' line: cannot tell the CPU count");
	/* a repeat names the column it repeats, however far back */
	expect_row_error("type,ts_ns,pid,cpu0_util_avg,prev_cpu,cpu1_util_avg,pid", "x", "1: column 7: 'pid' repeats column 3");
	expect_row_error("type,cpu0_util_avg,cpu1_util_avg,ts_ns,cpu1_util_avg", "x",
			 "1: column 5: 'cpu1_util_avg' repeats column 3");
	expect_row_error("type,ts_ns,cpu1_util_avg,cpu1_util_est,cpu01_util_est", "x",
			 "1: column 5: 'cpu01_util_est' repeats column 4");
}

/* The type of the one row under header, read back; -1 if the reader refused it. */
static int row_type_read(const char *header, const char *row)
{
	char text[512], err[512];
	snprintf(text, sizeof(text), "%s\n%s\n", header, row);
	const char *p = write_tmp("type", text);
	struct fs_rec_meta m;
	const struct fs_rec_hdr *h;
	struct fs_csv_reader *r = fs_csv_reader_open(p, &m, err, sizeof(err));
	int type = r && fs_csv_reader_next(r, &h, err, sizeof(err)) == 1 ? h->type : -1;
	fs_csv_reader_close(r);
	fs_rec_meta_free(&m);
	unlink(p);
	return type;
}

/* A type given by number is the whole number: 10 and 11 too, and no other character. */
FS_TEST(csv_type_by_whole_number)
{
	const char *freq = "type,ts_ns,policy_cpu,khz,busy_cpu,busy_unknown_ns,cpu0_util_avg";
	EXPECT_EQ(row_type_read(freq, "11,10,0,533000,,,"), FS_REC_FREQ);
	EXPECT_EQ(row_type_read(freq, "10,10,,,0,5,"), FS_REC_BUSYFREQ);
	EXPECT_EQ(row_type_read(freq, "011,10,0,533000,,,"), FS_REC_FREQ);
	EXPECT_EQ(row_type_read("type,ts_ns,count,cpu0_util_avg", "4,10,7,"), FS_REC_LOST);
	/* the old test took the cell's first character as '0' + type */
	const char *bad[] = { ":", ";", "0", "12", "1a", "0x4", "4 4", "-4", "+4", "99999999999999999999" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char row[64], msg[200];
		snprintf(row, sizeof(row), "%s,10,7,", bad[i]);
		snprintf(msg, sizeof(msg), "2: column 1 (type): '%s' is not a record type (wakeup, migrate, overutil, "
			 "lost, exit, runtime, cpustat, freqstat, em, busyfreq, freq, or 1-11)", bad[i]);
		expect_row_error("type,ts_ns,count,cpu0_util_avg", row, msg);
	}
}

/* A NUL byte would end a C-string cell or header value unseen (fuzz csv found/nul-in-header-line). */
static void expect_nul_error(const char *tag, const char *text, size_t len, int at_open, const char *msg)
{
	char path[256], err[512], want[600];
	snprintf(path, sizeof(path), "/tmp/fs_test_csv_%d_%s.csv", (int)getpid(), tag);
	FILE *f = fopen(path, "w");
	ASSERT_TRUE(f != NULL);
	fwrite(text, 1, len, f);
	fclose(f);
	struct fs_rec_meta m;
	const struct fs_rec_hdr *h;
	struct fs_csv_reader *r = fs_csv_reader_open(path, &m, err, sizeof(err));
	EXPECT_EQ(r == NULL, at_open);
	if (r) {
		EXPECT_EQ(fs_csv_reader_next(r, &h, err, sizeof(err)), -1);
		fs_csv_reader_close(r);
		fs_rec_meta_free(&m);
	}
	snprintf(want, sizeof(want), "%s:%s", path, msg);
	EXPECT_STR(err, want);
	unlink(path);
}

FS_TEST(csv_nul_byte_is_an_error)
{
	static const char in_header[] = "# feecscope_version=\r\0x\ntype,ts_ns,pid,prev_cpu,cpu0_util_avg\n";
	static const char in_row[] = "type,ts_ns,pid,comm,prev_cpu,cpu0_util_avg\nwakeup,1,2,a\0b,0,1\n";
	expect_nul_error("nulh", in_header, sizeof(in_header) - 1, 1, "1: a NUL byte in the line (a records CSV is text)");
	expect_nul_error("nulr", in_row, sizeof(in_row) - 1, 0, "2: a NUL byte in the line (a records CSV is text)");
}

FS_TEST(csv_write_read_is_lossless)
{
	struct fs_wakeup w;
	memset(&w, 0, sizeof(w));
	w.hdr = (struct fs_rec_hdr){ FS_REC_WAKEUP, 3, (__u32)fs_wakeup_size(3), 4 };
	w.pid = 7; w.tgid = 6; w.prev_cpu = 2; w.task_cpu = 1; w.waker_cpu = 0; w.chosen_cpu = -1;
	memcpy(w.comm, "we\"ird,\\\x01", 10);
	w.cpus_allowed = 0x5; w.nr_cpus_allowed = 2; w.flags = FS_WAKE_SYNC | FS_WAKE_FLAGS_KNOWN | FS_WAKE_CURRENT_CPU | (1u << 20);
	w.decided_ns = 99; w.task.util_avg = 300; w.task.util_sum = 123456; w.task.uclamp_max = 1000;
	w.task.last_update_time = 1ull << 40;
	w.sum_exec_ns = 987654321; w.uid = 10123;
	for (int c = 0; c < 3; c++) {
		w.cpu[c].util_avg = 100 + c; w.cpu[c].dl_running_bw = 1ull << 33; w.cpu[c].flags = c;
		w.cpu[c].uclamp_min = 5; w.cpu[c].uclamp_max = 0; w.cpu[c].capacity = 1000 - c;
	}
	struct fs_migrate mg = { { FS_REC_MIGRATE, 0, sizeof(mg), 5 }, 7, 2, 0, FS_MIG_WAKEUP, 12345 };
	struct fs_overutil o = { { FS_REC_OVERUTIL, 0, sizeof(o), 6 }, 1, 0 };
	struct fs_lost l = { { FS_REC_LOST, 0, sizeof(l), 7 }, 1ull << 50 };
	struct fs_task_time ex = { { FS_REC_EXIT, 0, sizeof(ex), 8 }, 9, 6, 555, "helper, \"x\"" };
	struct fs_task_time rt = { { FS_REC_RUNTIME, 0, sizeof(rt), 9 }, 7, 6, FS_NO_RUNTIME - 1, "we" };
	struct fs_cpustat cs = { { FS_REC_CPUSTAT, 0, sizeof(cs), 10 }, 3, FS_CPUSTAT_SCHEDSTAT, { 1, 0, 1ull << 60 } };
	struct fs_freqstat fq = { .hdr = { FS_REC_FREQSTAT, 0, sizeof(fq), 11 }, .cpu = 2, .nr = 3,
				  .st = { { 533000, 0, 10 }, { 999000, 0, 0 }, { 1844000, 0, 1ull << 40 } } };
	struct fs_migrate mg2 = { { FS_REC_MIGRATE, 0, sizeof(mg2), 12 }, 7, 2, 0, FS_MIG_BALANCE, FS_NO_RUNTIME };
	struct fs_busyfreq bf = { .hdr = { FS_REC_BUSYFREQ, 0, sizeof(bf), 13 }, .cpu = 1, .nr = 2,
				  .st = { { 533000, 0, 7 }, { 999000, 0, 1ull << 41 } }, .unknown_ns = 99 };
	struct fs_busyfreq bf0 = { .hdr = { FS_REC_BUSYFREQ, 0, sizeof(bf0), 14 }, .cpu = 0, .unknown_ns = 5 };
	/* a time past 32 bits, after a gap (a far step back is refused: rec_values.c) */
	struct fs_freq fr = { .hdr = { FS_REC_FREQ, 0, sizeof(fr), 123456789012ULL }, .cpu = 2, .khz = 1844000 };
	struct fs_rec_meta m = { .nr_cpus = 3, .em_is_kernel = true, .em_text = (char *)"line one\n# two\n" };
	snprintf(m.kernel_release, sizeof(m.kernel_release), "6.1.0-13-arm64");
	char path[128], err[256];
	snprintf(path, sizeof(path), "/tmp/fs_test_csv_%d_rt.csv", (int)getpid());
	FILE *f = fopen(path, "w");
	ASSERT_TRUE(f);
	fs_csv_records_write_header(f, &m);
	const struct fs_rec_hdr *recs[] = { &w.hdr, &mg.hdr, &o.hdr, &l.hdr, &ex.hdr, &rt.hdr, &cs.hdr, &fq.hdr, &mg2.hdr,
					    &bf.hdr, &bf0.hdr, &fr.hdr };
	const int nrecs = (int)(sizeof(recs) / sizeof(recs[0]));
	for (int i = 0; i < nrecs; i++)
		fs_csv_records_write(f, recs[i], 3);
	fclose(f);
	struct fs_rec_meta m2;
	struct fs_csv_reader *r = fs_csv_reader_open(path, &m2, err, sizeof(err));
	if (!r)
		fprintf(stderr, "%s\n", err);
	ASSERT_TRUE(r);
	EXPECT_STR(m2.kernel_release, "6.1.0-13-arm64");
	EXPECT_STR(m2.em_text, "line one\n# two\n");
	EXPECT_TRUE(m2.em_is_kernel);
	EXPECT_EQ(m2.nr_cpus, 3);
	for (int i = 0; i < nrecs; i++) {
		const struct fs_rec_hdr *h;
		int rc = fs_csv_reader_next(r, &h, err, sizeof(err));
		if (rc != 1)
			fprintf(stderr, "%s\n", err);
		ASSERT_TRUE(rc == 1);
		EXPECT_EQ(h->size, recs[i]->size);
		if (memcmp(h, recs[i], recs[i]->size))
			FS_FAIL_AT("record %d differs after CSV round trip", i);
	}
	fs_csv_reader_close(r);
	fs_rec_meta_free(&m2);
	unlink(path);
}

/* A kernel without CONFIG_UCLAMP_TASK: the clamps are "none", not 0, both ways. */
FS_TEST(csv_uclamp_none_round_trip)
{
	const char *p = write_tmp("none",
		"type,ts_ns,pid,prev_cpu,task_uclamp_min,task_uclamp_max,cpu0_uclamp_min,cpu1_uclamp_max\n"
		"wakeup,1000,42,1,none,none,none,none\n"
		"wakeup,2000,42,1,300,800,0,1024\n");
	struct fs_rec_meta m;
	char err[256], out[4096] = "";
	const struct fs_rec_hdr *h;
	struct fs_csv_reader *r = fs_csv_reader_open(p, &m, err, sizeof(err));
	ASSERT_TRUE(r);
	ASSERT_TRUE(fs_csv_reader_next(r, &h, err, sizeof(err)) == 1);
	const struct fs_wakeup *w = (const void *)h;
	EXPECT_EQ(w->flags, FS_WAKE_NO_UCLAMP);
	EXPECT_EQ(w->task.uclamp_min, 0);
	EXPECT_EQ(w->task.uclamp_max, 1024);
	EXPECT_EQ(w->cpu[1].uclamp_max, 1024);
	FILE *f = fmemopen(out, sizeof(out), "w");
	fs_csv_records_write(f, h, 2);
	fclose(f);
	/* flags, then the task's two clamps and each CPU's two, all "none" */
	EXPECT_TRUE(strstr(out, "no_uclamp") != NULL);
	int nones = 0;
	for (const char *s = out; (s = strstr(s, ",none")); s++)
		nones++;
	EXPECT_EQ(nones, 6);
	ASSERT_TRUE(fs_csv_reader_next(r, &h, err, sizeof(err)) == 1);
	w = (const void *)h;
	EXPECT_EQ(w->flags, 0);
	EXPECT_EQ(w->task.uclamp_min, 300);
	EXPECT_EQ(w->task.uclamp_max, 800);
	fs_csv_reader_close(r);
	fs_rec_meta_free(&m);
	unlink(p);
	expect_row_error("type,ts_ns,pid,prev_cpu,task_uclamp_min,cpu0_util_avg", "wakeup,1,2,0,1025,1",
			 "2: column 5 (task_uclamp_min): '1025' is not a clamp (0..1024, or none)");
}

/* Cell `col` of CSV row `row` (no quotes in either), "" if absent. */
static const char *cell_of(const char *header, const char *row, const char *col)
{
	static char cell[64];
	int idx = 0, want = -1;
	size_t n = strlen(col);
	for (const char *p = header; *p; idx++) {
		if (!strncmp(p, col, n) && (p[n] == ',' || p[n] == '\n'))
			want = idx;
		p += strcspn(p, ",\n");
		if (*p != ',')
			break;
		p++;
	}
	cell[0] = 0;
	for (const char *p = row; want >= 0; want--) {
		size_t len = strcspn(p, ",\n");
		if (!want)
			snprintf(cell, sizeof(cell), "%.*s", (int)len, p);
		if (p[len] != ',')
			break;
		p += len + 1;
	}
	return cell;
}

/* nr_running not read (another CPU than the waker's): an empty cell, read back as it was. */
FS_TEST(csv_nr_running_not_read_round_trip)
{
	struct fs_wakeup w;
	memset(&w, 0, sizeof(w));
	w.hdr = (struct fs_rec_hdr){ FS_REC_WAKEUP, 3, (__u32)fs_wakeup_size(3), 1000 };
	w.pid = 7; w.tgid = 7; w.prev_cpu = 1; w.task_cpu = 1; w.chosen_cpu = -1;
	w.cpus_allowed = 0x7; w.nr_cpus_allowed = 3;
	w.cpu[0].nr_running = 3; w.cpu[0].flags = FS_CPU_ONLINE;
	w.cpu[1].flags = FS_CPU_ONLINE | FS_CPU_NO_NR_RUNNING;
	w.cpu[2].nr_running = 2; w.cpu[2].flags = FS_CPU_NO_NR_RUNNING; /* not ours, kept */
	struct fs_rec_meta m = { .nr_cpus = 3 };
	char path[128], err[256], text[8192] = "";
	snprintf(path, sizeof(path), "/tmp/fs_test_csv_%d_nr.csv", (int)getpid());
	FILE *f = fopen(path, "w");
	ASSERT_TRUE(f);
	fs_csv_records_write_header(f, &m);
	fs_csv_records_write(f, &w.hdr, 3);
	fclose(f);
	f = fopen(path, "r");
	ASSERT_TRUE(f);
	size_t got = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[got] = 0;
	const char *header = text;
	while (*header == '#')
		header = strchr(header, '\n') + 1;
	const char *row = strchr(header, '\n') + 1;
	EXPECT_STR(cell_of(header, row, "cpu0_nr_running"), "3");
	EXPECT_STR(cell_of(header, row, "cpu1_nr_running"), "");
	EXPECT_STR(cell_of(header, row, "cpu1_flags"), "online|no_nr_running");
	EXPECT_STR(cell_of(header, row, "cpu2_nr_running"), "2");
	struct fs_rec_meta m2;
	const struct fs_rec_hdr *h;
	struct fs_csv_reader *r = fs_csv_reader_open(path, &m2, err, sizeof(err));
	ASSERT_TRUE(r);
	ASSERT_TRUE(fs_csv_reader_next(r, &h, err, sizeof(err)) == 1);
	EXPECT_EQ(h->size, w.hdr.size);
	if (memcmp(h, &w, w.hdr.size))
		FS_FAIL_AT("the wake-up differs after CSV round trip");
	fs_csv_reader_close(r);
	fs_rec_meta_free(&m2);
	unlink(path);
	expect_row_error("type,ts_ns,pid,prev_cpu,task_uclamp_min,cpu0_nr_running", "wakeup,1,2,0,0,-1",
			 "2: column 6 (cpu0_nr_running): '-1' is not an unsigned 32-bit number");
}

/* An em record's text (newlines, a backslash, a quote, commas) survives the CSV. */
FS_TEST(csv_em_record_round_trip)
{
	static struct fs_em_update u;
	const char *text = "feecscope-em 1\nsource a \"b\", c\\d\nend\n";
	struct fs_rec_meta m = { .nr_cpus = 2 };
	char path[128], err[256];
	const struct fs_rec_hdr *h;

	u.len = (__u32)strlen(text);
	memcpy(u.text, text, u.len);
	u.hdr = (struct fs_rec_hdr){ FS_REC_EM, 0, (__u32)(offsetof(struct fs_em_update, text) + u.len), 42 };
	snprintf(path, sizeof(path), "/tmp/fs_test_csv_%d_em.csv", (int)getpid());
	FILE *f = fopen(path, "w");
	ASSERT_TRUE(f);
	fs_csv_records_write_header(f, &m);
	fs_csv_records_write(f, &u.hdr, 2);
	fclose(f);
	struct fs_rec_meta m2;
	struct fs_csv_reader *r = fs_csv_reader_open(path, &m2, err, sizeof(err));
	ASSERT_TRUE(r);
	ASSERT_TRUE(fs_csv_reader_next(r, &h, err, sizeof(err)) == 1);
	const struct fs_em_update *g = (const void *)h;
	EXPECT_EQ(h->type, FS_REC_EM);
	EXPECT_EQ(h->ts_ns, 42);
	EXPECT_EQ(h->size, u.hdr.size);
	EXPECT_EQ(g->len, u.len);
	EXPECT_TRUE(!memcmp(g->text, text, u.len));
	fs_csv_reader_close(r);
	fs_rec_meta_free(&m2);
	unlink(path);
	expect_row_error("type,ts_ns,em_text,cpu0_util_avg", "em,1,a\\qb,", "2: column 3 (em_text): em_text: '\\q' is not an escape (\\n, \\\\)");
}

/* The flags of the one wake-up in a records CSV text (~0u where it does not read). */
static __u32 first_wake_flags(const char *tag, const char *text)
{
	const char *p = write_tmp(tag, text);
	struct fs_rec_meta m;
	char err[256];
	const struct fs_rec_hdr *h;
	struct fs_csv_reader *r = fs_csv_reader_open(p, &m, err, sizeof(err));
	__u32 flags = ~0u;

	if (r && fs_csv_reader_next(r, &h, err, sizeof(err)) == 1)
		flags = ((const struct fs_wakeup *)h)->flags;
	if (r) {
		fs_csv_reader_close(r);
		fs_rec_meta_free(&m);
	}
	unlink(p);
	return flags;
}

/* Where the snapshot was taken is a named flag both ways; an unknown bit stays a number. */
FS_TEST(csv_wake_flag_at_select)
{
	char buf[128];

	EXPECT_EQ(first_wake_flags("atsel", "type,ts_ns,pid,prev_cpu,flags,cpu0_util_avg\n"
					    "wakeup,1,2,0,flags_known|at_select,1\n"),
		  FS_WAKE_FLAGS_KNOWN | FS_WAKE_AT_SELECT);
	fs_csv_format_wake_flags(buf, sizeof(buf), FS_WAKE_AT_SELECT | FS_WAKE_SYNC | (1u << 20));
	EXPECT_STR(buf, "sync|at_select|0x100000");
}

/* WF_CURRENT_CPU's bit is "current_cpu" both ways. */
FS_TEST(csv_wake_flag_current_cpu)
{
	char buf[128];

	EXPECT_EQ(first_wake_flags("curcpu",
				   "type,ts_ns,pid,prev_cpu,waker_cpu,cpus_allowed,flags,cpu0_util_avg,cpu1_util_avg\n"
				   "wakeup,1,2,0,1,0x3,flags_known|current_cpu,1,1\n"),
		  FS_WAKE_FLAGS_KNOWN | FS_WAKE_CURRENT_CPU);
	fs_csv_format_wake_flags(buf, sizeof(buf), FS_WAKE_CURRENT_CPU | FS_WAKE_FLAGS_KNOWN);
	EXPECT_STR(buf, "flags_known|current_cpu");
}
