/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel symbol addresses for the collector (data symbols need
 * CONFIG_KALLSYMS_ALL). The kernel looks them up itself where it can (a BPF
 * syscall program calling bpf_kallsyms_lookup_name(), v5.16+): reading all of
 * /proc/kallsyms formats every symbol, over a second of CPU under QEMU TCG.
 */
#ifndef FEECSCOPE_LIVE_KSYMS_H
#define FEECSCOPE_LIVE_KSYMS_H

#include <stdbool.h>
#include <linux/types.h>

#define FS_KSYMS_MAX 8

/*
 * Addresses of n (<= FS_KSYMS_MAX) symbols asked of the kernel, 0 where
 * absent. False when this kernel cannot answer that way (before v5.16).
 */
bool fs_ksyms_lookup(const char *const *syms, __u64 *addrs, int n);

/* The same from /proc/kallsyms (0 also where kptr_restrict hides addresses). */
void fs_ksyms_scan(const char *const *syms, __u64 *addrs, int n);

#endif /* FEECSCOPE_LIVE_KSYMS_H */
