// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_floor OBJ CMD...: load and attach every program of OBJ (the empty
 * calibration programs of floor.bpf.c), run CMD, then print each program's
 * "name run_cnt ns_per_run" from bpf_prog_info (kernel.bpf_stats_enabled=1).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>

int main(int argc, char **argv)
{
	struct bpf_object *obj;
	struct bpf_program *prog;
	int status = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: bpf_floor OBJ CMD...\n");
		return 2;
	}
	obj = bpf_object__open_file(argv[1], NULL);
	if (!obj || bpf_object__load(obj)) {
		fprintf(stderr, "bpf_floor: cannot load %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	bpf_object__for_each_program(prog, obj)
		if (!bpf_program__attach(prog)) {
			fprintf(stderr, "bpf_floor: cannot attach %s\n", bpf_program__name(prog));
			return 1;
		}
	pid_t pid = fork();
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return 1;
	bpf_object__for_each_program(prog, obj) {
		struct bpf_prog_info info = { 0 };
		__u32 len = sizeof(info);

		if (bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len))
			continue;
		printf("%s %llu %.0f\n", bpf_program__name(prog), (unsigned long long)info.run_cnt,
		       info.run_cnt ? (double)info.run_time_ns / info.run_cnt : 0.0);
	}
	bpf_object__close(obj);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
