// SPDX-License-Identifier: GPL-2.0
/*
 * The trace_dat_records target's event formats (trace_dat_sets.h). Set 0 is
 * trace-v6.dat's (Linux 6.12: comms in char arrays and __data_loc strings),
 * set 1 lisa-uprobes.dat's (LISA's events as uprobe events: lisa__ names,
 * one outside its system), set 2 hand-made variants a kernel or a tool
 * could write and the fixtures lack: __rel_loc strings, 1, 2 and 8-byte
 * integers signed and not, fields missing, ids past the decoder's table
 * (4096), task_rename without pid (v6.13), LISA's first module's
 * sched_load_se and sched_load_cfs_rq.
 */
#include "trace_dat_sets.h"
#include "fuzz.h"

#ifdef FS_HAVE_TRACECMD
#include <string.h>
#include <event-parse.h>
#include "trace_dat_formats.h"

#define COMMON \
	"format:\n" \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
#define F(decl, off, size, sgn) "\tfield:" decl ";\toffset:" #off ";\tsize:" #size ";\tsigned:" #sgn ";\n"
#define PRINT(fmt) "\nprint fmt: " fmt "\n"

static const struct fuzz_dat_format variants[] = {
	{ "sched", "name: sched_switch\nID: 4100\n" COMMON F("__rel_loc char[] prev_comm", 8, 4, 0)
		F("short prev_pid", 12, 2, 1) F("unsigned char prev_prio", 14, 1, 0)
		F("unsigned int prev_state", 16, 4, 0) F("__rel_loc char[] next_comm", 20, 4, 0)
		F("long long next_pid", 24, 8, 1) F("int next_prio", 32, 4, 1)
		PRINT("\"prev_pid=%d next_pid=%lld\", REC->prev_pid, REC->next_pid") },
	{ "sched", "name: sched_waking\nID: 5\n" COMMON F("char comm[16]", 8, 16, 0) F("pid_t pid", 24, 4, 1)
		F("int prio", 28, 4, 1) PRINT("\"pid=%d\", REC->pid") },
	{ "sched", "name: sched_wakeup\nID: 6\n" COMMON F("char comm[8]", 8, 8, 0) F("pid_t pid", 16, 4, 1)
		F("int prio", 20, 4, 1) F("unsigned long target_cpu", 24, 8, 0) PRINT("\"pid=%d\", REC->pid") },
	{ "sched", "name: sched_wakeup_new\nID: 7\n" COMMON F("__data_loc char[] comm", 8, 4, 0)
		F("pid_t pid", 12, 4, 1) F("int prio", 16, 4, 1) F("short target_cpu", 20, 2, 1)
		PRINT("\"pid=%d\", REC->pid") },
	{ "sched", "name: sched_migrate_task\nID: 60000\n" COMMON F("__data_loc char[] comm", 8, 4, 0)
		F("unsigned int pid", 12, 4, 0) F("int prio", 16, 4, 1) F("u8 orig_cpu", 20, 1, 0)
		F("u8 dest_cpu", 21, 1, 0) PRINT("\"pid=%u\", REC->pid") },
	{ "sched", "name: sched_process_fork\nID: 9\n" COMMON F("char parent_comm[20]", 8, 20, 0)
		F("pid_t parent_pid", 28, 4, 1) F("__rel_loc char[] child_comm", 32, 4, 0)
		F("long child_pid", 40, 8, 1) PRINT("\"pid=%d\", REC->parent_pid") },
	{ "sched", "name: sched_process_exit\nID: 10\n" COMMON F("char comm[16]", 8, 16, 0)
		F("pid_t pid", 24, 4, 1) PRINT("\"pid=%d\", REC->pid") },
	{ "sched", "name: sched_process_free\nID: 11\n" COMMON F("char comm[16]", 8, 16, 0)
		F("pid_t pid", 24, 4, 1) F("int prio", 28, 4, 1) PRINT("\"pid=%d\", REC->pid") },
	{ "task", "name: task_newtask\nID: 12\n" COMMON F("pid_t pid", 8, 4, 1) F("char comm[16]", 12, 16, 0)
		F("unsigned long clone_flags", 32, 8, 0) F("int oom_score_adj", 40, 4, 1)
		PRINT("\"pid=%d\", REC->pid") },
	{ "task", "name: task_rename\nID: 13\n" COMMON F("char oldcomm[16]", 8, 16, 0)
		F("char newcomm[16]", 24, 16, 0) F("short oom_score_adj", 40, 2, 1)
		PRINT("\"oldcomm=%s\", REC->oldcomm") },
	{ "power", "name: cpu_frequency\nID: 14\n" COMMON F("u64 state", 8, 8, 0) F("u16 cpu_id", 16, 2, 0)
		PRINT("\"state=%llu\", REC->state") },
	{ "power", "name: cpu_idle\nID: 15\n" COMMON F("int state", 8, 4, 1) F("s8 cpu_id", 12, 1, 1)
		PRINT("\"state=%d\", REC->state") },
	{ "sched", "name: sched_load_se\nID: 4200\n" COMMON F("int cpu", 8, 4, 1) F("char path[64]", 12, 64, 0)
		F("char comm[16]", 76, 16, 0) F("int pid", 92, 4, 1) F("unsigned long load", 96, 8, 0)
		F("unsigned long util", 104, 8, 0) PRINT("\"cpu=%d\", REC->cpu") },
	{ "sched", "name: sched_load_cfs_rq\nID: 4201\n" COMMON F("int cpu", 8, 4, 1)
		F("__rel_loc char[] path", 12, 4, 0) F("unsigned long load", 16, 8, 0)
		F("unsigned int util", 24, 4, 0) PRINT("\"cpu=%d\", REC->cpu") },
	{ "lisa", "name: lisa__sched_util_est_se\nID: 17\n" COMMON F("int cpu", 8, 4, 1)
		F("__data_loc char[] comm", 12, 4, 0) F("int pid", 16, 4, 1) F("unsigned int enqueued", 20, 4, 0)
		F("short ewma", 24, 2, 1) F("unsigned long util", 32, 8, 0) PRINT("\"cpu=%d\", REC->cpu") },
	{ "other", "name: sched_util_est_cfs\nID: 18\n" COMMON F("int cpu", 8, 4, 1)
		F("__data_loc char[] path", 12, 4, 0) F("unsigned int enqueued", 16, 4, 0) F("unsigned int ewma", 20, 4, 0)
		F("unsigned int util", 24, 4, 0) PRINT("\"cpu=%d\", REC->cpu") },
	{ "sched", "name: sched_stat_runtime\nID: 3\n" COMMON F("pid_t pid", 8, 4, 1)
		F("u64 runtime", 16, 8, 0) PRINT("\"pid=%d\", REC->pid") },
};

static const struct {
	const struct fuzz_dat_format *f;
	int nr;
} sets[FUZZ_DAT_SETS] = {
	{ fuzz_dat_v6, sizeof(fuzz_dat_v6) / sizeof(fuzz_dat_v6[0]) },
	{ fuzz_dat_lisa, sizeof(fuzz_dat_lisa) / sizeof(fuzz_dat_lisa[0]) },
	{ variants, sizeof(variants) / sizeof(variants[0]) },
};

/*
 * Saved command lines as a file's (tep_register_comm(), what libtracecmd
 * does with them): pids 1 and 1025 share a slot of the decoder's comm
 * cache (1024), 300's comm is longer than a kernel's 15 bytes.
 */
static const struct { int pid; const char *comm; } cmdlines[] = {
	{ 1, "systemd" }, { 1025, "kworker/0:1" }, { 300, "a-comm-longer-than-fifteen" }, { 2, "kthreadd" },
};

static struct fuzz_dat_set *parse(int k, bool big_endian)
{
	struct fuzz_dat_set *s = calloc(1, sizeof(*s));

	FUZZ_CHECK(s && (s->tep = tep_alloc()), "out of memory");
	FUZZ_CHECK(sets[k].nr <= FUZZ_DAT_SET_MAX, "set %d: %d formats", k, sets[k].nr);
	tep_set_long_size(s->tep, 8);
	tep_set_page_size(s->tep, 4096);
	tep_set_local_bigendian(s->tep, tep_is_bigendian() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_file_bigendian(s->tep, big_endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	for (int i = 0; i < sets[k].nr; i++) {
		const struct fuzz_dat_format *f = &sets[k].f[i];
		struct tep_event *e = NULL;

		FUZZ_CHECK(!tep_parse_format(s->tep, &e, f->text, strlen(f->text), f->sys) && e,
			   "set %d: format %d (%.40s) does not parse", k, i, f->text);
		s->id[s->nr++] = e->id;
	}
	for (size_t i = 0; i < sizeof(cmdlines) / sizeof(cmdlines[0]); i++)
		FUZZ_CHECK(!tep_register_comm(s->tep, cmdlines[i].comm, cmdlines[i].pid), "tep_register_comm");
	return s;
}

const struct fuzz_dat_set *fuzz_dat_set(int k, bool big_endian)
{
	static struct fuzz_dat_set *parsed[FUZZ_DAT_SETS][2];

	FUZZ_CHECK(k >= 0 && k < FUZZ_DAT_SETS, "set %d", k);
	if (!parsed[k][big_endian])
		parsed[k][big_endian] = parse(k, big_endian);
	return parsed[k][big_endian];
}
#endif /* FS_HAVE_TRACECMD */
