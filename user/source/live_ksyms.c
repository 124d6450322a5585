// SPDX-License-Identifier: GPL-2.0
/* Kernel symbol addresses: asked of the kernel through BPF, or scanned (live_ksyms.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include "live_ksyms.h"

#define NAME_MAX_BYTES 64
#define MAX_INSNS 512

/*
 * n symbols through bpf_kallsyms_lookup_name() in one sleepable syscall
 * program run once by BPF_PROG_TEST_RUN (one load: each costs a JIT and its
 * TLB flushes, slow under QEMU's multi-threaded TCG). Each name is built on
 * the program's stack (before v6.x a ctx pointer is no helper argument); the
 * addresses go back through ctx, one u64 per symbol (0: not found).
 */
static bool lookup_by_bpf(const char *const *syms, __u64 *addrs, int nsyms)
{
	struct bpf_insn insns[MAX_INSNS];
	__u64 ctx[FS_KSYMS_MAX] = { 0 };
	int n = 0, fd;

	if (nsyms > FS_KSYMS_MAX)
		return false;
	insns[n++] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = BPF_REG_6,
					 .src_reg = BPF_REG_1 };
	for (int s = 0; s < nsyms; s++) {
		size_t len = strlen(syms[s]) + 1, words = (len + 7) / 8;
		char padded[NAME_MAX_BYTES] = { 0 };
		/* the result slot below the name, both on the stack */
		short name_off = -(short)(8 * words), res_off = name_off - 8;

		if (len > sizeof(padded) || n + 3 * (int)words + 12 > MAX_INSNS)
			return false;
		memcpy(padded, syms[s], len);
		for (size_t w = 0; w < words; w++) {
			__u64 v;

			memcpy(&v, padded + 8 * w, 8);  /* stored back as it was read: byte order kept */
			insns[n++] = (struct bpf_insn){ .code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = BPF_REG_1,
							 .imm = (__s32)(v & 0xffffffffu) };
			insns[n++] = (struct bpf_insn){ .imm = (__s32)(v >> 32) };
			insns[n++] = (struct bpf_insn){ .code = BPF_STX | BPF_MEM | BPF_DW, .dst_reg = BPF_REG_10,
							 .src_reg = BPF_REG_1, .off = name_off + 8 * (short)w };
		}
		insns[n++] = (struct bpf_insn){ .code = BPF_ST | BPF_MEM | BPF_DW, .dst_reg = BPF_REG_10,
						 .off = res_off, .imm = 0 };
		insns[n++] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = BPF_REG_1,
						 .src_reg = BPF_REG_10 };
		insns[n++] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_ADD | BPF_K, .dst_reg = BPF_REG_1,
						 .imm = name_off };
		insns[n++] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_2,
						 .imm = (__s32)len };
		insns[n++] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_3 };
		insns[n++] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = BPF_REG_4,
						 .src_reg = BPF_REG_10 };
		insns[n++] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_ADD | BPF_K, .dst_reg = BPF_REG_4,
						 .imm = res_off };
		insns[n++] = (struct bpf_insn){ .code = BPF_JMP | BPF_CALL,
						 .imm = BPF_FUNC_kallsyms_lookup_name };
		/* -ENOENT leaves the slot 0: not a symbol here */
		insns[n++] = (struct bpf_insn){ .code = BPF_LDX | BPF_MEM | BPF_DW, .dst_reg = BPF_REG_1,
						 .src_reg = BPF_REG_10, .off = res_off };
		insns[n++] = (struct bpf_insn){ .code = BPF_STX | BPF_MEM | BPF_DW, .dst_reg = BPF_REG_6,
						 .src_reg = BPF_REG_1, .off = (short)(8 * s) };
	}
	insns[n++] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 };
	insns[n++] = (struct bpf_insn){ .code = BPF_JMP | BPF_EXIT };

	LIBBPF_OPTS(bpf_prog_load_opts, opts, .prog_flags = BPF_F_SLEEPABLE);
	fd = bpf_prog_load(BPF_PROG_TYPE_SYSCALL, "fs_ksym", "GPL", insns, n, &opts);
	if (fd < 0)
		return false;
	LIBBPF_OPTS(bpf_test_run_opts, run, .ctx_in = ctx, .ctx_size_in = sizeof(__u64) * nsyms);
	int rc = bpf_prog_test_run_opts(fd, &run);

	close(fd);
	if (rc)
		return false;
	for (int s = 0; s < nsyms; s++)
		addrs[s] = ctx[s];
	return true;
}

/* Addresses of n kallsyms symbols in one pass, 0 where absent (or hidden: kptr_restrict). */
static void scan_kallsyms(const char *const *syms, __u64 *addrs, int n)
{
	char line[512], name[256], type;
	unsigned long long addr;
	int left = n;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return;
	setvbuf(f, NULL, _IOFBF, 1 << 20); /* few large reads: each one costs a syscall under TCG */
	while (left && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3)
			continue;
		for (int i = 0; i < n; i++)
			if (!addrs[i] && !strcmp(name, syms[i])) {
				addrs[i] = addr;
				left--;
			}
	}
	fclose(f);
}

bool fs_ksyms_lookup(const char *const *syms, __u64 *addrs, int n)
{
	for (int i = 0; i < n; i++)
		addrs[i] = 0;
	return lookup_by_bpf(syms, addrs, n);
}

void fs_ksyms_scan(const char *const *syms, __u64 *addrs, int n)
{
	for (int i = 0; i < n; i++)
		addrs[i] = 0;
	scan_kallsyms(syms, addrs, n);
}
