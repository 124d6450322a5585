// SPDX-License-Identifier: GPL-2.0
/*
 * A record a recording refuses, a records CSV refuses too, with the same
 * words: each case here was a record one reader took and the other did not
 * (the records fuzzer's finds), so converting one file into the other failed.
 */
#include <stdbool.h>
#include <unistd.h>
#include <zlib.h>
#include "test.h"
#include "records/csv_records.h"

#define NCPU 4

static const char *path_for(const char *tag, const char *ext)
{
	static char buf[256];
	snprintf(buf, sizeof(buf), "/tmp/fs_test_rv_%d_%s.%s", (int)getpid(), tag, ext);
	return buf;
}

static void good_wakeup(struct fs_wakeup *w)
{
	memset(w, 0, sizeof(*w));
	w->hdr = (struct fs_rec_hdr){ FS_REC_WAKEUP, NCPU, (__u32)fs_wakeup_size(NCPU), 1000 };
	w->pid = w->tgid = 7;
	w->prev_cpu = 1;
	w->task_cpu = 1;
	w->waker_cpu = 2;
	w->chosen_cpu = -1;
	w->cpus_allowed = 0xf;
	w->sum_exec_ns = FS_NO_RUNTIME;
	w->uid = FS_NO_UID;
	strcpy(w->comm, "task");
}

/*
 * Write rec after first (a good wake-up) as a recording and read it back;
 * then the same two records as a records CSV (the writer writes what it is
 * given) and read that. Both must stop at rec with an error containing want.
 */
static void expect_refused_after(const struct fs_wakeup *first, const struct fs_rec_hdr *rec, const char *want,
				 bool csv_too)
{
	struct fs_rec_meta m = { .nr_cpus = NCPU, .em_text = (char *)"x\n", .em_len = 2 };
	const char *rp = path_for("r", "fsr"), *cp;
	char err[512] = "", cpath[256];
	const struct fs_rec_hdr *h;
	const struct fs_wakeup w = *first;
	int rc, n = 0;

	struct fs_rec_writer *wr = fs_rec_writer_open(rp, &m, err, sizeof(err));
	ASSERT_TRUE(wr && !fs_rec_writer_add(wr, &w.hdr, err, sizeof(err)) &&
		    !fs_rec_writer_add(wr, rec, err, sizeof(err)) && !fs_rec_writer_close(wr, err, sizeof(err)));
	struct fs_rec_meta rm;
	struct fs_rec_reader *r = fs_rec_reader_open(rp, &rm, err, sizeof(err));
	ASSERT_TRUE(r != NULL);
	while ((rc = fs_rec_reader_next(r, &h, err, sizeof(err))) == 1)
		n++;
	EXPECT_EQ(rc, -1);
	EXPECT_EQ(n, 0); /* the chunk is checked whole before any of it is handed out */
	EXPECT_CONTAINS(err, "record 2 of 2: ");
	EXPECT_CONTAINS(err, want);
	fs_rec_reader_close(r);
	fs_rec_meta_free(&rm);
	unlink(rp);
	if (!csv_too)
		return;

	cp = path_for("c", "csv");
	snprintf(cpath, sizeof(cpath), "%s", cp);
	FILE *f = fopen(cpath, "w");
	ASSERT_TRUE(f != NULL);
	m.em_text = NULL;
	fs_csv_records_write_header(f, &m);
	fs_csv_records_write(f, &w.hdr, NCPU);
	fs_csv_records_write(f, rec, NCPU);
	fclose(f);
	struct fs_csv_reader *c = fs_csv_reader_open(cpath, &rm, err, sizeof(err));
	ASSERT_TRUE(c != NULL);
	n = 0;
	while ((rc = fs_csv_reader_next(c, &h, err, sizeof(err))) == 1)
		n++;
	EXPECT_EQ(rc, -1);
	EXPECT_EQ(n, 1);
	EXPECT_CONTAINS(err, ":8: "); /* 5 comment lines, the header, the good row, this one */
	fs_csv_reader_close(c);
	fs_rec_meta_free(&rm);
	unlink(cpath);
}

static void expect_refused_in(const struct fs_rec_hdr *rec, const char *want, bool csv_too)
{
	struct fs_wakeup w;

	good_wakeup(&w);
	expect_refused_after(&w, rec, want, csv_too);
}

static void expect_refused(const struct fs_rec_hdr *rec, const char *want)
{
	expect_refused_in(rec, want, true);
}

FS_TEST(rec_values_wakeup)
{
	struct fs_wakeup w;

	good_wakeup(&w);
	w.waker_cpu = 9;
	expect_refused(&w.hdr, "wakeup: waker_cpu: CPU 9 out of range 0..3");
	good_wakeup(&w);
	w.cpus_allowed = 0x30; /* only CPUs the recording does not have */
	expect_refused(&w.hdr, "wakeup: cpus_allowed: 0x30 has none of CPUs 0..3");
	good_wakeup(&w);
	memset(w.comm, 'a', sizeof(w.comm)); /* the kernel's comm always ends within 16 bytes */
	expect_refused(&w.hdr, "wakeup: comm: not terminated within 16 bytes");
	good_wakeup(&w);
	w.task.uclamp_max = 1024;
	w.cpu[2].uclamp_max = 65535; /* the records fuzzer's find: the CSV wrote it and could not read it */
	expect_refused(&w.hdr, "is not a clamp (0..1024");
	good_wakeup(&w);
	w.task.uclamp_min = 1025;
	expect_refused(&w.hdr, "is not a clamp (0..1024");
	/* current_cpu: only with the wake flags read and the waker's CPU allowed */
	good_wakeup(&w);
	w.flags |= FS_WAKE_CURRENT_CPU;
	expect_refused(&w.hdr, "wakeup: flags: current_cpu without flags_known");
	w.flags |= FS_WAKE_FLAGS_KNOWN;
	w.cpus_allowed = 0xb;
	expect_refused(&w.hdr, "wakeup: flags: current_cpu without the waker's CPU in cpus_allowed");
	good_wakeup(&w);
	w.flags |= FS_WAKE_NO_UCLAMP; /* "none": the values are not read */
	w.cpu[2].uclamp_max = 65535;
	char why[256];

	EXPECT_EQ(fs_rec_check_values(&w.hdr, NCPU, why, sizeof(why)), 0);
	good_wakeup(&w);
	w.flags |= FS_WAKE_CURRENT_CPU | FS_WAKE_FLAGS_KNOWN;
	EXPECT_EQ(fs_rec_check_values(&w.hdr, NCPU, why, sizeof(why)), 0);
}

FS_TEST(rec_values_other_records)
{
	struct fs_migrate mg = { .hdr = { FS_REC_MIGRATE, 0, sizeof(mg), 2000 }, .pid = 7, .orig_cpu = 1,
				 .dest_cpu = 114, .reason = FS_MIG_BALANCE, .sum_exec_ns = FS_NO_RUNTIME };
	struct fs_overutil ou = { .hdr = { FS_REC_OVERUTIL, 0, sizeof(ou), 2000 }, .overutilized = 2432000000u };
	struct fs_task_time tt = { .hdr = { FS_REC_EXIT, 0, sizeof(tt), 2000 }, .pid = 7, .tgid = 7,
				   .sum_exec_ns = FS_NO_RUNTIME };
	static struct fs_cpustat cs = { .hdr = { FS_REC_CPUSTAT, 0, sizeof(cs), 2000 }, .nr_cpus = 2,
					.source = FS_CPUSTAT_SCHEDSTAT };
	static struct fs_freqstat fq = { .hdr = { FS_REC_FREQSTAT, 0, sizeof(fq), 2000 }, .cpu = 0 };

	expect_refused(&mg.hdr, "migrate: dest_cpu: CPU 114 out of range 0..3");
	expect_refused(&ou.hdr, "overutil: overutilized: 2432000000 is not 0 or 1");
	expect_refused(&tt.hdr, "exit: sum_exec_ns: unknown");
	/* a CSV has no nr_cpus column for it: the file's CPU count is the record's */
	expect_refused_in(&cs.hdr, "cpustat: nr_cpus: 2, the recording has 4 CPUs", false);
	cs.nr_cpus = NCPU;
	cs.source = 9;
	expect_refused(&cs.hdr, "cpustat: source: 9 is not schedstat (1) or proc_stat (2)");
	expect_refused(&fq.hdr, "freqstat: residency: 0 frequencies, want 1..64");
	fq.nr = 524288;
	expect_refused(&fq.hdr, "freqstat: residency: 524288 frequencies, want 1..64");
}

FS_TEST(rec_values_busyfreq)
{
	static struct fs_busyfreq bf = { .hdr = { FS_REC_BUSYFREQ, 0, sizeof(bf), 2000 }, .cpu = 4 };
	char why[256];

	expect_refused(&bf.hdr, "busyfreq: busy_cpu: CPU 4 out of range 0..3");
	bf.cpu = 3; /* no frequency known (no cpufreq): all of it unknown_ns */
	EXPECT_EQ(fs_rec_check_values(&bf.hdr, NCPU, why, sizeof(why)), 0);
	bf.nr = 65;
	expect_refused(&bf.hdr, "busyfreq: residency: 65 frequencies, want 0..64");
	bf.nr = 2;
	bf.st[0].khz = 900000;
	bf.st[1].khz = 800000;
	expect_refused(&bf.hdr, "busyfreq: residency: entry 2: 800000 kHz is not above the one before");
}

FS_TEST(rec_values_freq)
{
	struct fs_freq f = { .hdr = { FS_REC_FREQ, 0, sizeof(f), 2000 }, .cpu = 4, .khz = 533000 };
	char why[256];

	expect_refused(&f.hdr, "freq: policy_cpu: CPU 4 out of range 0..3");
	f.cpu = 2;
	EXPECT_EQ(fs_rec_check_values(&f.hdr, NCPU, why, sizeof(why)), 0);
	f.khz = 0;
	expect_refused(&f.hdr, "freq: khz: 0 is not a frequency");
}

/*
 * A record far back in time: the records fuzzer's 4 wake-ups whose first came
 * at 1.5e19 ns and the rest before it made a recording of 0 s whose
 * simulation ran until its work was done. Steps back as the ring merge lets
 * out late records pass; a step forward of any length is a gap.
 */
FS_TEST(rec_values_time_far_back)
{
	struct fs_wakeup first, w;
	struct fs_rec_clock c = { 0 };
	char why[256] = "";

	good_wakeup(&first);
	first.hdr.ts_ns = 15276491411018433088ull;
	good_wakeup(&w);
	w.hdr.ts_ns = 2000000;
	expect_refused_after(&first, &w.hdr, "wakeup: ts_ns: 2000000 is 1.528e+10 s before an earlier record's "
			     "15276491411018433088 (more than 60 s out of time order)", true);
	/* the limit itself, and what the clock keeps: the latest time, never a refused one */
	first.hdr.ts_ns = 100 * 1000000000ull;
	EXPECT_EQ(fs_rec_check_time(&c, &first.hdr, why, sizeof(why)), 0);
	w.hdr.ts_ns = first.hdr.ts_ns - FS_REC_MAX_BACK_NS;
	EXPECT_EQ(fs_rec_check_time(&c, &w.hdr, why, sizeof(why)), 0);
	w.hdr.ts_ns--;
	EXPECT_EQ(fs_rec_check_time(&c, &w.hdr, why, sizeof(why)), -1);
	EXPECT_CONTAINS(why, "wakeup: ts_ns: 39999999999 is 60 s before an earlier record's 100000000000");
	EXPECT_EQ_U64(c.latest_ns, first.hdr.ts_ns);
	/* a device suspended for a day: CLOCK_BOOTTIME jumps, and the next step back counts from there */
	w.hdr.ts_ns = first.hdr.ts_ns + 86400 * 1000000000ull;
	EXPECT_EQ(fs_rec_check_time(&c, &w.hdr, why, sizeof(why)), 0);
	EXPECT_EQ(fs_rec_check_time(&c, &first.hdr, why, sizeof(why)), -1);
	EXPECT_EQ_U64(c.latest_ns, w.hdr.ts_ns);
}

/* --- the header's meta text: never cut short or read loosely --- */

/* Replace from with to in the recording's meta text, fixing its length and the header CRC. */
static void rewrite_meta(const char *path, const char *from, const char *to, size_t to_len)
{
	unsigned char *b = malloc(1 << 20), *o = malloc(1 << 20);
	FILE *f = fopen(path, "rb");
	size_t n = fread(b, 1, 1 << 20, f), at;
	__u32 mlen, elen, crc;

	fclose(f);
	memcpy(&mlen, b + 12, 4);
	memcpy(&elen, b + 16, 4);
	unsigned char *hit = memmem(b + 24, mlen, from, strlen(from));
	if (!hit)
		abort();
	at = (size_t)(hit - b);
	memcpy(o, b, at);
	memcpy(o + at, to, to_len);
	memcpy(o + at + to_len, b + at + strlen(from), n - at - strlen(from));
	n = n - strlen(from) + to_len;
	mlen = mlen - (__u32)strlen(from) + (__u32)to_len;
	memcpy(o + 12, &mlen, 4);
	crc = (__u32)crc32(crc32(0, o + 8, 12), o + 24, mlen + elen);
	memcpy(o + 20, &crc, 4);
	f = fopen(path, "wb");
	fwrite(o, 1, n, f);
	fclose(f);
	free(b);
	free(o);
}

static void expect_header_err_n(const char *from, const char *to, size_t to_len, const char *want)
{
	struct fs_rec_meta m = { .nr_cpus = NCPU, .em_text = (char *)"x\n", .em_len = 2 };
	const char *p = path_for("h", "fsr");
	char err[512] = "";
	struct fs_rec_meta rm;

	snprintf(m.kernel_release, sizeof(m.kernel_release), "6.1.0");
	struct fs_rec_writer *w = fs_rec_writer_open(p, &m, err, sizeof(err));
	ASSERT_TRUE(w && !fs_rec_writer_close(w, err, sizeof(err)));
	rewrite_meta(p, from, to, to_len);
	EXPECT_TRUE(fs_rec_reader_open(p, &rm, err, sizeof(err)) == NULL);
	EXPECT_CONTAINS(err, want);
	unlink(p);
}

static void expect_header_err(const char *from, const char *to, const char *want)
{
	expect_header_err_n(from, to, strlen(to), want);
}

FS_TEST(rec_header_meta_strict)
{
	char longrel[100];

	expect_header_err("nr_cpus=4\n", "nr_cpus=4x\n", "header: nr_cpus missing or out of range 1..32");
	expect_header_err("em_is_kernel=0\n", "em_is_kernel=yes\n", "header: em_is_kernel: 'yes', want 0 or 1");
	snprintf(longrel, sizeof(longrel), "kernel_release=6.1.0-%070d\n", 0);
	expect_header_err("kernel_release=6.1.0\n", longrel, "header: kernel_release: longer than 63 characters");
	expect_header_err_n("em_is_kernel=0\n", "em_is_kernel=0\nx=\0y\n", 19, "header: a NUL byte in the meta text");
}
