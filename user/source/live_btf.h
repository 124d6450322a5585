/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's BTF file for the collector's choices: mapped where the kernel
 * allows it (v6.16+), else read; scanned by btf_scan.c.
 */
#ifndef FEECSCOPE_LIVE_BTF_H
#define FEECSCOPE_LIVE_BTF_H

#include "btf_scan.h"

/*
 * Read the BTF at path (raw BTF, or ELF with a .BTF section through libbpf)
 * and fill f. Returns 0, or -1 with err naming the file and the problem.
 */
int fs_btf_facts_read(const char *path, struct fs_btf_facts *f, char *err, size_t errlen);

#endif /* FEECSCOPE_LIVE_BTF_H */
