// SPDX-License-Identifier: GPL-2.0
/*
 * Our trace.dat decoding (user/source/trace_dat_decode.c) without the file:
 * the event formats are parsed once (trace_dat_sets.c, the fixtures' and
 * variants), and each input is cut into records handed to the decoder
 * through the entry points the file reader uses, in the order libtracecmd's
 * tracecmd_iterate_events() hands a file's (the CPU whose next record has
 * the lowest time, the lowest CPU on a tie; trace-cmd 3.1.6,
 * lib/trace-cmd/trace-input.c). The whole-file target (fuzz_trace_dat.c)
 * goes through the libraries, at ~100 inputs a CPU second; this one skips
 * them (docs/fuzzing.md).
 *
 * Input: byte 0: bits 0-1 the format set (modulo FUZZ_DAT_SETS), bit 2 the
 * file big-endian. Then records, each: a byte (bits 0-2 its CPU; bit 3:
 * common_type is set to the id of the set's event a byte picks; bit 4: a
 * byte gives the events missed before it, 255 an unknown number; bit 5: a
 * 2-byte length, else 1; bits 6-7: its time as a 1, 2 or 4-byte step after
 * its CPU's last record, or 8 bytes absolute), then those bytes, the time,
 * the length (little-endian), and the payload (cut at the input's end).
 * Each payload is a buffer of its exact size: ASan stops a read past it.
 *
 * Checks: every event is of its record (time, CPU), a lost-events event only
 * before a record that missed some, the type the record's common_type names
 * (by the event's name), common_pid its bytes, and the values the decoder
 * promises (pids and CPUs not negative); a stop has its error, one line
 * naming the file or the time; the counts add up to the records handed;
 * what reads goes through the trace workload builder (trace_checks.c).
 */
#include <string.h>
#include "fuzz.h"

#ifndef FS_HAVE_TRACECMD
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	(void)data;
	(void)size;
	return 0;
}
#else
#include <event-parse.h>
#include "source/trace_dat_decode.h"
#include "trace_checks.h"
#include "trace_dat_sets.h"

#define PATH "fuzz-records.dat"
#define MAX_RECS 4096
#define NR_CPUS 8

struct rec {
	unsigned long long ts;
	long long missed;
	int cpu, size, next; /* next: the index of its CPU's next record, -1 at the last */
	unsigned char *data;
};

static struct rec recs[MAX_RECS];

struct feed {
	struct fuzz_trace_feed f;
	const struct fuzz_dat_set *set;
	bool big_endian;
	const struct rec *cur;
	int lost, decoded; /* of the current record */
};

static unsigned long long le(const uint8_t *p, int n)
{
	unsigned long long v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

/* n bytes of a payload in the file's byte order, -1 if it is too short (as the decoder's common()). */
static long long file_num(const struct feed *x, const struct rec *r, int off, int n)
{
	unsigned long long v = 0;

	if (r->size < off + n)
		return -1;
	for (int i = 0; i < n; i++)
		v = x->big_endian ? v << 8 | r->data[off + i] : v | (unsigned long long)r->data[off + i] << (8 * i);
	return n == 4 ? (long long)(int)v : (long long)v;
}

static void put_id(unsigned char *p, int id, bool big_endian)
{
	p[big_endian ? 1 : 0] = (unsigned char)id;
	p[big_endian ? 0 : 1] = (unsigned char)(id >> 8);
}

/*
 * The input cut into records (see the top), each CPU's in input order,
 * their payloads malloc'd; returns how many. head[] gets each CPU's first.
 */
static int cut(const uint8_t *d, size_t size, const struct fuzz_dat_set *s, bool be, int *head)
{
	unsigned long long ts[NR_CPUS] = { 0 };
	int last[NR_CPUS], n = 0;
	size_t p = 1;

	for (int c = 0; c < NR_CPUS; c++)
		head[c] = last[c] = -1;
	while (p < size && n < MAX_RECS) {
		unsigned int hdr = d[p++], tb = 1u << (hdr >> 6), lb = hdr & 32 ? 2 : 1;
		struct rec *r = &recs[n];
		int ev = -1;
		size_t len;

		if ((hdr & 8) && p < size)
			ev = d[p++] % s->nr;
		r->missed = 0;
		if ((hdr & 16) && p < size)
			r->missed = d[p] == 255 ? -1 : d[p], p++;
		if (p + tb + lb > size)
			break;
		ts[hdr & 7] = tb == 8 ? le(d + p, 8) : ts[hdr & 7] + le(d + p, (int)tb);
		len = le(d + p + tb, (int)lb);
		p += tb + lb;
		len = len < size - p ? len : size - p;
		r->ts = ts[hdr & 7];
		r->cpu = (int)(hdr & 7);
		r->size = (int)len;
		r->data = malloc(len);
		FUZZ_CHECK(r->data || !len, "out of memory");
		if (len)
			memcpy(r->data, d + p, len);
		p += len;
		if (ev >= 0 && len >= 2)
			put_id(r->data, s->id[ev], be);
		r->next = -1;
		if (last[r->cpu] < 0)
			head[r->cpu] = n;
		else
			recs[last[r->cpu]].next = n;
		last[r->cpu] = n++;
	}
	return n;
}

/* What the decoder promises of an event it made (trace_dat_decode.c's ranges). */
static void check_values(const struct fs_tev *ev)
{
	switch (ev->type) {
	case FS_TEV_SWITCH:
		FUZZ_CHECK(ev->sw.prev.pid >= 0 && ev->sw.next.pid >= 0, "switch pids %d %d", ev->sw.prev.pid,
			   ev->sw.next.pid);
		break;
	case FS_TEV_WAKING: case FS_TEV_WAKEUP: case FS_TEV_WAKEUP_NEW:
		FUZZ_CHECK(ev->wake.t.pid >= 0 && ev->wake.target_cpu >= 0 && memchr(ev->wake.t.comm, 0, FS_COMM_LEN),
			   "wake-up pid %d target %d", ev->wake.t.pid, ev->wake.target_cpu);
		break;
	case FS_TEV_MIGRATE:
		FUZZ_CHECK(ev->mig.t.pid >= 0 && ev->mig.orig_cpu >= 0 && ev->mig.dest_cpu >= 0 &&
			   memchr(ev->mig.t.comm, 0, FS_COMM_LEN), "migrate pid %d", ev->mig.t.pid);
		break;
	case FS_TEV_FORK:
		FUZZ_CHECK(ev->fork.parent.pid >= 0 && ev->fork.child.pid >= 0 &&
			   memchr(ev->fork.parent.comm, 0, FS_COMM_LEN) && memchr(ev->fork.child.comm, 0, FS_COMM_LEN),
			   "fork pids %d %d", ev->fork.parent.pid, ev->fork.child.pid);
		break;
	case FS_TEV_EXIT: case FS_TEV_FREE:
		FUZZ_CHECK(ev->proc.t.pid >= 0 && memchr(ev->proc.t.comm, 0, FS_COMM_LEN), "exit pid %d", ev->proc.t.pid);
		break;
	case FS_TEV_NEWTASK:
		FUZZ_CHECK(ev->newtask.t.pid >= 0 && ev->newtask.clone_flags >> 63 == 0, "newtask pid %d",
			   ev->newtask.t.pid);
		break;
	case FS_TEV_RENAME:
		FUZZ_CHECK(memchr(ev->rename.oldcomm, 0, FS_COMM_LEN) && memchr(ev->rename.newcomm, 0, FS_COMM_LEN),
			   "rename comm not terminated");
		break;
	case FS_TEV_CPU_FREQ: case FS_TEV_CPU_IDLE:
		FUZZ_CHECK(ev->power.cpu_id >= 0, "cpu_id %d", ev->power.cpu_id);
		break;
	case FS_TEV_PELT_CFS: case FS_TEV_UTIL_EST_CFS:
		FUZZ_CHECK(ev->cfs.cpu >= 0, "cfs cpu %d", ev->cfs.cpu);
		break;
	}
}

/* The type the record's common_type names, by its event's name (0: none we take). */
static int expected_type(const struct feed *x, const struct rec *r)
{
	long long id = file_num(x, r, 0, 2);
	const struct tep_event *e = id < 0 ? NULL : tep_find_event(x->set->tep, (int)id);

	return e ? fs_tev_type_of_name(e->name) : 0;
}

static int feed(void *ctx, const struct fs_tev *ev, char *err, size_t errlen)
{
	struct feed *x = ctx;
	const struct rec *r = x->cur;

	FUZZ_CHECK(ev->ts_ns == r->ts && ev->cpu == r->cpu, "event at %llu on CPU %d from a record at %llu on %d",
		   (unsigned long long)ev->ts_ns, ev->cpu, r->ts, r->cpu);
	if (ev->type == FS_TEV_LOST) {
		FUZZ_CHECK(r->missed && !x->lost++ && !x->decoded, "lost events from a record that missed none");
		FUZZ_CHECK(ev->lost.nr == (r->missed > 0 ? (__u64)r->missed : FS_TEV_LOST_UNKNOWN), "lost %llu of %lld",
			   (unsigned long long)ev->lost.nr, r->missed);
	} else {
		FUZZ_CHECK(!x->decoded++, "two events from one record");
		FUZZ_CHECK((int)ev->type == expected_type(x, r), "%s from a record of %d", fs_tev_name(ev->type),
			   expected_type(x, r));
		FUZZ_CHECK(ev->common_pid == file_num(x, r, 4, 4), "common_pid %d", ev->common_pid);
		check_values(ev);
	}
	return fuzz_trace_feed(&x->f, ev, err, errlen);
}

/* The records in tracecmd_iterate_events()'s order to the decoder; how many it took, -1 if one stopped it. */
static long hand_out(struct fs_dat_dec *d, struct feed *x, int *head, unsigned long long *missed)
{
	long n = 0;

	for (;;) {
		int best = -1;

		for (int c = 0; c < NR_CPUS; c++)
			if (head[c] >= 0 && (best < 0 || recs[head[c]].ts < recs[best].ts))
				best = head[c];
		if (best < 0)
			return n;
		struct rec *r = &recs[best];
		struct tep_record t = { .ts = r->ts, .missed_events = r->missed, .record_size = r->size,
					.size = r->size, .data = r->data, .cpu = r->cpu, .ref_count = 1 };

		head[r->cpu] = r->next;
		x->cur = r;
		x->lost = x->decoded = 0;
		*missed += r->missed != 0;
		if (fs_dat_dec_record(d, &t, r->cpu))
			return -1;
		FUZZ_CHECK(x->lost == (r->missed != 0), "record missed %lld, %d lost-events events", r->missed, x->lost);
		FUZZ_CHECK(x->decoded == (expected_type(x, r) != 0), "record of type %d, %d events", expected_type(x, r),
			   x->decoded);
		n++;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct feed x = { .f = { .b = fuzz_trace_wl_new(size) } };
	struct fs_trace_stats st;
	unsigned long long missed = 0;
	char err[1024] = "";
	int head[NR_CPUS], n, rc;
	struct fs_dat_dec *d;
	long took;

	x.big_endian = size && (data[0] & 4);
	x.set = fuzz_dat_set(size ? (data[0] & 3) % FUZZ_DAT_SETS : 0, x.big_endian);
	n = cut(data, size, x.set, x.big_endian, head);
	d = fs_dat_dec_new(x.set->tep, PATH, feed, &x, err, sizeof(err));
	FUZZ_CHECK(d, "%s", err);
	took = hand_out(d, &x, head, &missed);
	rc = fs_dat_dec_free(d, &st);
	FUZZ_CHECK((took < 0) == (rc != 0), "stopped %ld, returned %d", took, rc);
	FUZZ_CHECK(rc == 0 || err[0], "failed without an error");
	FUZZ_CHECK(!rc || strstr(err, PATH) || strstr(err, " ns"), "error names no file: '%s'", err);
	FUZZ_CHECK(!strchr(err, '\n'), "error of more than one line: '%s'", err);
	FUZZ_CHECK(st.events == x.f.nr, "stats %llu, fed %llu", (unsigned long long)st.events,
		   (unsigned long long)x.f.nr);
	FUZZ_CHECK(rc || (st.lost_reports == missed && st.events - st.lost_reports + st.unknown_events == (__u64)n),
		   "%d records, %llu missed: %llu events, %llu lost reports, %llu unknown", n, missed,
		   (unsigned long long)st.events, (unsigned long long)st.lost_reports,
		   (unsigned long long)st.unknown_events);
	if (getenv("FS_FUZZ_VERBOSE")) /* what an input did, for the docs and by hand */
		fuzz_report("%d records, %llu events, %llu unknown, %llu lost reports: %s\n", n,
			    (unsigned long long)st.events, (unsigned long long)st.unknown_events,
			    (unsigned long long)st.lost_reports, rc ? err : "read");
	if (rc)
		fs_trace_wl_free(x.f.b);
	else
		fuzz_trace_wl_finish(x.f.b);
	for (int i = 0; i < n; i++)
		free(recs[i].data);
	return 0;
}
#endif /* FS_HAVE_TRACECMD */
