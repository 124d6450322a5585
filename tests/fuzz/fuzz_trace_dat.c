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
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include "fuzz.h"
#include "sim/trace_workload.h"
#include "source/trace_dat.h"
#include "trace_checks.h"
#include "trace_dat_libs.h"

/*
 * libtraceevent 1.7's event-format parser leaks a string of some formats
 * (tep_parse_event(), reached from tracecmd_read_headers(), on the kept
 * fixtures themselves): not ours to fix (docs/fuzzing.md), so LeakSanitizer
 * is told to pass over leaks from inside the two libraries; ours still count.
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	/*
	 * sscanf's %m allocates; only the libraries use it (user/ has no %m), and
	 * LSan's fast unwinder stops in libc, so their frames are not seen there.
	 */
	return "leak:libtraceevent.so\nleak:libtracecmd.so\nleak:__isoc99_vsscanf\n";
}

/*
 * libtracecmd 3.1.6 mallocs sizes read from the file before checking them
 * against the file (a header's length of 2^60): glibc returns NULL there and
 * the library fails the open, which is what a user sees; ASan would abort
 * instead, so it is told to return NULL too (docs/fuzzing.md). Sizes that
 * can be allocated (GBs) ASan fills, which took over a minute an input: no
 * section of an input this size is 256 MB, so larger ones fail as the huge.
 * No allocation stacks: the libraries' many small allocations on every
 * input each stored one (a third of the fuzzer's time, docs/fuzzing.md); a
 * report still has the faulting access's stack, and a kept input replayed
 * with ASAN_OPTIONS=malloc_context_size=30 shows where the memory was
 * allocated and freed.
 */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "allocator_may_return_null=1:max_allocation_size_mb=256:malloc_context_size=0";
}

/*
 * The library pass runs without ASan (trace_dat_libs.c), so what only ASan's
 * interceptors see inside the libraries reaches this process: libtracecmd
 * 1.3.1's tracecmd_open_head() strdup()s a string read unterminated from the
 * file (library-crashes/libtracecmd-open-head-strdup-overflow). Such reports
 * are passed over inside the library calls that never call back into our
 * code; not inside tracecmd_iterate_events(), under which on_record() runs,
 * so an interceptor's report from our decoder still stops the target.
 */
const char *__asan_default_suppressions(void);
const char *__asan_default_suppressions(void)
{
	return "interceptor_via_fun:tracecmd_open_head\n"
	       "interceptor_via_fun:tracecmd_init_data\n"
	       "interceptor_via_fun:tracecmd_buffer_instance_handle\n"
	       "interceptor_via_fun:tracecmd_close\n";
}

/*
 * libtracecmd 1.3.1's tracecmd_close() leaves the mappings of a version 6
 * file's per-CPU data (strace of the seed read: two mmaps of the file, no
 * munmap; the same in `replay`, whose read runs in a child and ends with
 * it). Read in process an input at a time they filled the fuzzer's
 * vm.max_map_count (65,530) after about 90,000 executions. Once the read is
 * over nothing refers to the input's mappings: they are unmapped here.
 */
static void unmap_input_leftovers(void)
{
	FILE *maps = fopen("/proc/self/maps", "r");
	unsigned long lo[64], hi[64];
	size_t n = 0;
	char line[512];

	FUZZ_CHECK(maps, "/proc/self/maps: %s", strerror(errno));
	while (n < 64 && fgets(line, sizeof(line), maps))
		if (strstr(line, "/memfd:fuzz-input") && sscanf(line, "%lx-%lx", &lo[n], &hi[n]) == 2)
			n++;
	fclose(maps);
	for (size_t i = 0; i < n; i++)
		munmap((void *)lo[i], hi[i] - lo[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fs_trace_stats st;
	struct fuzz_trace_feed f = { .b = fuzz_trace_wl_new(size) };
	char err[1024] = "";
	const char *path = fuzz_file(0, data, size);
	int rc;

	fuzz_quiet(1); /* libtracecmd and libtraceevent warn on stderr about what they cannot parse */
	/*
	 * An input on which Debian's libraries crash is theirs, not ours
	 * (tests/fuzz/trace_dat/library-crashes), and is passed over: found by
	 * the libraries alone in a fork (trace_dat_libs.c). Then in this process,
	 * where the fuzzer sees its coverage and the sanitizers our decoder's
	 * faults: the inputs the libraries crash on never get there, the price
	 * of reading through libraries that crash (docs/fuzzing.md).
	 */
	enum fuzz_dat_libs libs = fuzz_trace_dat_libs(path);

	/*
	 * Data that tracecmd_init_data() refuses never reaches our decoder, and
	 * the reader must then keep the handle open (keep_unclosable(): closing
	 * it crashes libtracecmd) with a descriptor and the memfd's mappings:
	 * passed over. The fuzzer's memfd mappings still grow (docs/fuzzing.md).
	 */
	if (libs != FUZZ_DAT_LIBS_READ) {
		fuzz_quiet(0);
		fs_trace_wl_free(f.b);
		return 0;
	}
	rc = fs_trace_dat_read_here(path, fuzz_trace_feed, &f, &st, err, sizeof(err));
	unmap_input_leftovers();
	fuzz_quiet(0);
	FUZZ_CHECK(rc == 0 || err[0], "failed without an error");
	FUZZ_CHECK(rc || fs_trace_dat_supported(), "read without libtracecmd");
	FUZZ_CHECK(rc || st.events == f.nr, "stats %llu, fed %llu", (unsigned long long)st.events,
		   (unsigned long long)f.nr);
	FUZZ_CHECK(!rc || strstr(err, path) || strstr(err, " ns"), "error names no file: '%s'", err);
	FUZZ_CHECK(!strchr(err, '\n'), "error of more than one line: '%s'", err);
	if (rc)
		fs_trace_wl_free(f.b);
	else
		fuzz_trace_wl_finish(f.b);
	fs_trace_dat_probe(data, size);
	return 0;
}
