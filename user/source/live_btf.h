/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the collector's choices need from the kernel's BTF, found in one pass
 * over the raw blob. libbpf parses the same 5-6 MB again when it loads the
 * object (it needs it for tp_btf, fentry and CO-RE), so ours must be cheap:
 * the blob is mapped where the kernel allows it (v6.16+) and walked once,
 * with no index of 140k types and no search per name.
 */
#ifndef FEECSCOPE_LIVE_BTF_H
#define FEECSCOPE_LIVE_BTF_H

#include <stdbool.h>
#include <stddef.h>

struct fs_btf_facts {
	unsigned int nr_types;
	bool mapped;               /* read through mmap, not read() */
	bool tp_waking;            /* typedef btf_trace_sched_waking: tp_btf events */
	bool tp_overutilized;      /* typedef btf_trace_sched_overutilized_tp */
	int select_id;             /* FUNC select_task_rq_fair, -1 if absent */
	int select_nargs;          /* its prototype's arity, 0 if unknown */
	int runqueues_id;          /* VAR runqueues (per-CPU), -1 if absent */
	bool bpf_loop;             /* enumerator BPF_FUNC_loop (v5.17+) */
	bool sd_asym_full;         /* enumerator SD_ASYM_CPUCAPACITY_FULL (v5.14+) */
	long long sd_asym_full_val;
	bool sd_asym;              /* enumerator SD_ASYM_CPUCAPACITY (v5.10+ as an enum) */
	long long sd_asym_val;
	bool task_uclamp;          /* struct task_struct has member uclamp */
};

/*
 * Read the BTF at path (raw BTF, or ELF with a .BTF section through libbpf)
 * and fill f. Returns 0, or -1 with err naming the file and the problem.
 */
int fs_btf_facts_read(const char *path, struct fs_btf_facts *f, char *err, size_t errlen);

/* The same facts from a raw BTF blob in memory (native byte order). */
int fs_btf_facts_scan(const void *data, size_t size, struct fs_btf_facts *f,
		      char *err, size_t errlen);

#endif /* FEECSCOPE_LIVE_BTF_H */
