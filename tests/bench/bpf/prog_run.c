// SPDX-License-Identifier: GPL-2.0
/*
 * prog_run ID RUNS CPU KHZ_A KHZ_B: run the loaded raw_tp program ID (the
 * collector's busy_cpu_frequency, tests/bench/freqrec_cost.sh) RUNS times
 * through BPF_PROG_TEST_RUN with the arguments of power:cpu_frequency
 * (frequency, cpu_id), the frequency alternating between KHZ_A and KHZ_B so
 * that every run is a change, and print "runs N ns_per_run X" from
 * bpf_prog_info's run time (kernel.bpf_stats_enabled=1). A raw_tp test run
 * is one run per call (the kernel refuses repeat for it, v5.10+).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>

static int prog_stats(int fd, __u64 *ns, __u64 *cnt)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return -1;
	*ns = info.run_time_ns;
	*cnt = info.run_cnt;
	return 0;
}

int main(int argc, char **argv)
{
	__u64 ns0, cnt0, ns1, cnt1, args[2];
	long runs;
	int fd;

	if (argc != 6) {
		fprintf(stderr, "usage: prog_run ID RUNS CPU KHZ_A KHZ_B\n");
		return 2;
	}
	fd = bpf_prog_get_fd_by_id((__u32)strtoul(argv[1], NULL, 10));
	runs = strtol(argv[2], NULL, 10);
	if (fd < 0 || runs <= 0) {
		fprintf(stderr, "prog_run: program %s: %s\n", argv[1], fd < 0 ? strerror(errno) : "RUNS must be > 0");
		return 1;
	}
	args[1] = strtoull(argv[3], NULL, 10);
	if (prog_stats(fd, &ns0, &cnt0)) {
		fprintf(stderr, "prog_run: bpf_prog_info: %s\n", strerror(errno));
		return 1;
	}
	for (long i = 0; i < runs; i++) {
		LIBBPF_OPTS(bpf_test_run_opts, o, .ctx_in = args, .ctx_size_in = sizeof(args));

		args[0] = strtoull(argv[i % 2 ? 5 : 4], NULL, 10);
		if (bpf_prog_test_run_opts(fd, &o)) {
			fprintf(stderr, "prog_run: BPF_PROG_TEST_RUN: %s\n", strerror(errno));
			return 1;
		}
	}
	if (prog_stats(fd, &ns1, &cnt1) || cnt1 <= cnt0) {
		fprintf(stderr, "prog_run: no runs counted (kernel.bpf_stats_enabled=1?)\n");
		return 1;
	}
	printf("runs %llu ns_per_run %.1f\n", (unsigned long long)(cnt1 - cnt0), (double)(ns1 - ns0) / (double)(cnt1 - cnt0));
	return 0;
}
