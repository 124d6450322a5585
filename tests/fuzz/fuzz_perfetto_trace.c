// SPDX-License-Identifier: GPL-2.0
/*
 * The Perfetto trace reader (user/source/perfetto_trace*.c) and, on what it
 * reads, the trace workload builder (user/sim/trace_workload.c) on a 4-CPU
 * EM. Checks: a failure has an error naming the input; the counts agree
 * with the events handed out; every event is of a known type with its
 * comms terminated; the process tree is sorted by pid; each power rail's
 * names are terminated and its samples in time order; a workload that
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

static void check_rails(const struct fs_power_rails *r)
{
	for (size_t i = 0; i < r->nr; i++) {
		const struct fs_power_rail *x = &r->rail[i];

		FUZZ_CHECK(memchr(x->name, '\0', sizeof(x->name)) && memchr(x->subsys, '\0', sizeof(x->subsys)),
			   "rail name not terminated");
		FUZZ_CHECK(!x->nr == !x->s, "rail %u: %zu samples at %p", x->index, x->nr, (const void *)x->s);
		for (size_t k = 1; k < x->nr; k++)
			FUZZ_CHECK(x->s[k - 1].ts_ns <= x->s[k].ts_ns, "rail %u: samples out of time order", x->index);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fs_trace_stats st;
	struct fs_perfetto_tree tree;
	struct fs_power_rails rails;
	struct fuzz_trace_feed f = { .b = fuzz_trace_wl_new(size) };
	char err[1024] = "";
	int rc;

	rc = fs_perfetto_trace_parse(data, size, "fuzz.pftrace", fuzz_trace_feed, &f, &st, &tree, &rails, err, sizeof(err));
	FUZZ_CHECK(rc == 0 || err[0], "failed without an error");
	FUZZ_CHECK(st.events == f.nr, "stats %llu, fed %llu", (unsigned long long)st.events, (unsigned long long)f.nr);
	if (rc) {
		FUZZ_CHECK(!strncmp(err, "fuzz.pftrace: ", 14) || strstr(err, " ns"), "error names no input: '%s'", err);
		FUZZ_CHECK(!tree.tasks && !tree.nr, "a tree after an error");
		FUZZ_CHECK(!rails.rail && !rails.nr, "rails after an error");
		fs_trace_wl_free(f.b);
	} else {
		check_tree(&tree);
		free(tree.tasks);
		check_rails(&rails);
		fs_power_rails_free(&rails);
		fuzz_trace_wl_finish(f.b);
	}
	fs_perfetto_trace_probe(data, size);
	return 0;
}
