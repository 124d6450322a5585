// SPDX-License-Identifier: GPL-2.0
/*
 * The Perfetto trace reader (user/source/perfetto_trace*.c) and, on what it
 * reads, the trace workload builder (user/sim/trace_workload.c) on a 4-CPU
 * EM. Checks: a failure has an error naming the input; the counts agree
 * with the events handed out; every event is of a known type with its
 * comms terminated; the process tree is sorted by pid; a workload that
 * builds is consistent (trace_checks.h).
 */
#include <string.h>
#include "fuzz.h"
#include "trace_checks.h"
#include "sim/trace_workload.h"
#include "source/perfetto_trace.h"

static void check_tree(const struct fs_perfetto_tree *tree)
{
	for (size_t i = 0; i < tree->nr; i++) {
		FUZZ_CHECK(tree->tasks[i].pid > 0, "tree pid %d", tree->tasks[i].pid);
		FUZZ_CHECK(!i || tree->tasks[i - 1].pid < tree->tasks[i].pid, "tree not sorted");
		FUZZ_CHECK(memchr(tree->tasks[i].comm, '\0', FS_COMM_LEN), "tree comm not terminated");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fs_trace_stats st;
	struct fs_perfetto_tree tree;
	struct fuzz_trace_feed f = { .b = fuzz_trace_wl_new(size) };
	char err[1024] = "";
	int rc;

	rc = fs_perfetto_trace_parse(data, size, "fuzz.pftrace", fuzz_trace_feed, &f, &st, &tree, NULL, err, sizeof(err));
	FUZZ_CHECK(rc == 0 || err[0], "failed without an error");
	FUZZ_CHECK(st.events == f.nr, "stats %llu, fed %llu", (unsigned long long)st.events, (unsigned long long)f.nr);
	if (rc) {
		FUZZ_CHECK(!strncmp(err, "fuzz.pftrace: ", 14) || strstr(err, " ns"), "error names no input: '%s'", err);
		FUZZ_CHECK(!tree.tasks && !tree.nr, "a tree after an error");
		fs_trace_wl_free(f.b);
	} else {
		check_tree(&tree);
		free(tree.tasks);
		fuzz_trace_wl_finish(f.b);
	}
	fs_perfetto_trace_probe(data, size);
	return 0;
}
