// SPDX-License-Identifier: GPL-2.0
/*
 * The trace.dat reader (user/source/trace_dat.c, through libtracecmd and
 * libtraceevent) and, on what it reads, the trace workload builder on a
 * 4-CPU EM. libtracecmd opens a path, so the input is a memfd's
 * (fuzz_file()). Checks: a failure says why and names the file; every event
 * has a known type, a terminated comm and CPUs in range; the workload
 * builds consistent or fails with an error. Without libtracecmd the reader
 * must refuse every input with its one line.
 */
#include <string.h>
#include "fuzz.h"
#include "em/em_io.h"
#include "sim/trace_workload.h"
#include "source/trace_dat.h"
#include "trace_checks.h"

struct feed {
	struct fs_trace_wl *b;
	__u64 nr;
};

static int feed_fn(void *ctx, const struct fs_tev *ev, char *err, size_t errlen)
{
	struct feed *f = ctx;

	f->nr++;
	FUZZ_CHECK(ev->type >= FS_TEV_SWITCH && ev->type < FS_TEV_NR_TYPES, "type %u", ev->type);
	FUZZ_CHECK(memchr(ev->common_comm, '\0', FS_COMM_LEN), "comm not terminated");
	return fs_trace_wl_feed(f->b, ev, err, errlen);
}

/*
 * libtraceevent 1.7's event-format parser leaks a string of some formats
 * (tep_parse_event(), reached from tracecmd_read_headers(), on the kept
 * fixtures themselves): not ours to fix (docs/fuzzing.md), so LeakSanitizer
 * is told to pass over leaks from inside the two libraries; ours still count.
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libtraceevent.so\nleak:libtracecmd.so\n";
}

/*
 * libtracecmd 3.1.6 mallocs sizes read from the file before checking them
 * against the file (a header's length of 2^60): glibc returns NULL there and
 * the library fails the open, which is what a user sees; ASan would abort
 * instead, so it is told to return NULL too (docs/fuzzing.md). Sizes that
 * can be allocated (GBs) ASan fills, which took over a minute an input: no
 * section of an input this size is 256 MB, so larger ones fail as the huge.
 */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "allocator_may_return_null=1:max_allocation_size_mb=256";
}

static int count_fn(void *ctx, const struct fs_tev *ev, char *err, size_t errlen)
{
	(void)ctx, (void)ev, (void)err, (void)errlen;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fs_em em;
	static bool have_em;
	struct fs_trace_stats st;
	struct fs_sim_workload wl;
	struct feed f = { 0 };
	char err[1024] = "";
	const char *path;
	int rc;

	if (!have_em) {
		FUZZ_CHECK(!fs_em_profile_for_cpus(4, &em, err, sizeof(err)), "no 4-CPU EM: %s", err);
		have_em = true;
	}
	path = fuzz_file(0, data, size);
	f.b = fs_trace_wl_new(&em, size & 1 ? FS_SIM_LAB : FS_SIM_DEVICE);
	FUZZ_CHECK(f.b, "out of memory");
	fuzz_quiet(1); /* libtracecmd and libtraceevent warn on stderr about what they cannot parse */
	/*
	 * First through the product's guard (a child process): an input on which
	 * Debian's libraries crash is theirs, not ours (tests/fuzz/trace_dat/
	 * library-crashes), and is passed over. Then in this process, where the
	 * fuzzer sees its coverage and the sanitizers our decoder's faults.
	 */
	if (fs_trace_dat_read_file(path, count_fn, NULL, NULL, err, sizeof(err)) && strstr(err, " opening it (")) {
		/* under a sanitizer a library's fault it intercepts (strdup) ends the child with exit 1 */
		fuzz_quiet(0);
		fs_trace_wl_free(f.b);
		return 0;
	}
	FUZZ_CHECK(!strstr(err, " reading its records ("), "the reading child failed: %s", err);
	err[0] = '\0';
	rc = fs_trace_dat_read_here(path, feed_fn, &f, &st, err, sizeof(err));
	fuzz_quiet(0);
	FUZZ_CHECK(rc == 0 || err[0], "failed without an error");
	FUZZ_CHECK(rc || fs_trace_dat_supported(), "read without libtracecmd");
	FUZZ_CHECK(rc || st.events == f.nr, "stats %llu, fed %llu", (unsigned long long)st.events,
		   (unsigned long long)f.nr);
	FUZZ_CHECK(!rc || strstr(err, path) || strstr(err, " ns"), "error names no file: '%s'", err);
	FUZZ_CHECK(!strchr(err, '\n'), "error of more than one line: '%s'", err);
	if (rc) {
		fs_trace_wl_free(f.b);
	} else if (fs_trace_wl_finish(f.b, &wl, NULL, err, sizeof(err)) == 0) {
		fuzz_check_trace_workload(&wl, em.nr_cpus);
		fs_sim_workload_free(&wl);
	} else {
		FUZZ_CHECK(err[0], "finish failed without an error");
	}
	fs_trace_dat_probe(data, size);
	return 0;
}
