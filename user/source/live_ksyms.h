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

/*
 * Addresses of n symbols, 0 where absent (or hidden by kptr_restrict when
 * read from /proc/kallsyms). Returns true when the kernel answered through
 * BPF, false when /proc/kallsyms was scanned.
 */
bool fs_ksyms_addrs(const char *const *syms, __u64 *addrs, int n);

#endif /* FEECSCOPE_LIVE_KSYMS_H */
