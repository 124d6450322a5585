/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the collector's choices need from the kernel's BTF, found in one pass
 * over the raw blob. libbpf parses the same 5-6 MB again when it loads the
 * object (it needs it for tp_btf, fentry and CO-RE), so ours must be cheap:
 * walked once, with no index of 140k types and no search per name. Pure
 * parsing, no libbpf: live_btf.h reads the file.
 */
#ifndef FEECSCOPE_BTF_SCAN_H
#define FEECSCOPE_BTF_SCAN_H

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
	bool rdonly_cast;          /* FUNC bpf_rdonly_cast, a kfunc (v6.2+) */
	bool sd_asym_full;         /* enumerator SD_ASYM_CPUCAPACITY_FULL (v5.14+) */
	long long sd_asym_full_val;
	bool sd_asym;              /* enumerator SD_ASYM_CPUCAPACITY (v5.10+ as an enum) */
	long long sd_asym_val;
	bool task_uclamp;          /* struct task_struct has member uclamp */
};

/*
 * The facts from a raw BTF blob in memory (native byte order, 4-byte
 * aligned). f->mapped is kept. Returns 0, or -1 with err saying what is wrong.
 */
int fs_btf_facts_scan(const void *data, size_t size, struct fs_btf_facts *f,
		      char *err, size_t errlen);

#endif /* FEECSCOPE_BTF_SCAN_H */
