// SPDX-License-Identifier: GPL-2.0
/*
 * The collector's raw BTF scan (user/source/btf_scan.c) on blobs built here:
 * the facts it finds, and the exact refusal of a malformed one (the btf
 * fuzzer's find: a prototype id beyond the types sent the walk past them).
 */
#include <linux/btf.h>
#include "test.h"
#include "source/btf_scan.h"

struct blob {
	__u32 words[128];/* 4-byte aligned, as the scan asks */
	size_t types;    /* bytes of types so far */
	char strs[256];
	size_t slen;
};

static __u32 name(struct blob *b, const char *s)
{
	__u32 off = (__u32)b->slen;

	if (!b->slen)
		b->slen = off = 1; /* offset 0 is "" */
	strcpy(b->strs + off, s);
	b->slen += strlen(s) + 1;
	return off;
}

static void add(struct blob *b, const char *n, int kind, int vlen, __u32 st, const __u32 *extra, int nextra)
{
	__u32 *w = b->words + 6 + b->types / 4;

	w[0] = n ? name(b, n) : 0;
	w[1] = (__u32)kind << 24 | (__u32)vlen;
	w[2] = st;
	if (nextra)
		memcpy(w + 3, extra, nextra * 4);
	b->types += 12 + nextra * 4;
}

/* Header, types, strings: the whole blob's size. */
static size_t finish(struct blob *b)
{
	struct btf_header h = { .magic = BTF_MAGIC, .version = 1, .hdr_len = sizeof(h), .type_off = 0,
				.type_len = (__u32)b->types, .str_off = (__u32)b->types,
				.str_len = (__u32)(b->slen ? b->slen : 1) };

	memcpy(b->words, &h, sizeof(h));
	memcpy((char *)b->words + sizeof(h) + b->types, b->strs, h.str_len);
	return sizeof(h) + b->types + h.str_len;
}

FS_TEST(btf_scan_finds_the_facts)
{
	static struct blob b;
	struct fs_btf_facts f = { .mapped = true };
	char err[256] = "";
	__u32 intenc = 1u << 24 | 32, params[6] = { 0, 1, 0, 1, 0, 1 }, member[3];

	add(&b, "int", BTF_KIND_INT, 0, 4, &intenc, 1);                      /* 1 */
	add(&b, NULL, BTF_KIND_FUNC_PROTO, 3, 1, params, 6);                  /* 2 */
	add(&b, "select_task_rq_fair", BTF_KIND_FUNC, 0, 2, NULL, 0);         /* 3 */
	__u32 var = 1;
	add(&b, "runqueues", BTF_KIND_VAR, 0, 1, &var, 1);                    /* 4 */
	add(&b, "btf_trace_sched_waking", BTF_KIND_TYPEDEF, 0, 1, NULL, 0);   /* 5 */
	__u32 en[4] = { name(&b, "SD_ASYM_CPUCAPACITY"), 32, name(&b, "SD_ASYM_CPUCAPACITY_FULL"), 64 };
	add(&b, NULL, BTF_KIND_ENUM, 2, 4, en, 4);                            /* 6 */
	member[0] = name(&b, "uclamp"), member[1] = 1, member[2] = 0;
	add(&b, "task_struct", BTF_KIND_STRUCT, 1, 4, member, 3);             /* 7 */
	add(&b, "bpf_rdonly_cast", BTF_KIND_FUNC, 0, 2, NULL, 0);             /* 8 */
	EXPECT_EQ(fs_btf_facts_scan(b.words, finish(&b), &f, err, sizeof(err)), 0);
	EXPECT_EQ(err[0], 0);
	EXPECT_EQ(f.nr_types, 8);
	EXPECT_TRUE(f.mapped);
	EXPECT_EQ(f.select_id, 3);
	EXPECT_EQ(f.select_nargs, 3);
	EXPECT_EQ(f.runqueues_id, 4);
	EXPECT_TRUE(f.tp_waking && !f.tp_overutilized && !f.bpf_loop);
	EXPECT_TRUE(f.sd_asym && f.sd_asym_full);
	EXPECT_EQ(f.sd_asym_val, 32);
	EXPECT_EQ(f.sd_asym_full_val, 64);
	EXPECT_TRUE(f.task_uclamp);
	EXPECT_TRUE(f.rdonly_cast);
}

FS_TEST(btf_scan_refuses_a_prototype_beyond_the_types)
{
	static struct blob b;
	struct fs_btf_facts f;
	char err[256] = "";
	__u32 intenc = 1u << 24 | 32;

	add(&b, "int", BTF_KIND_INT, 0, 4, &intenc, 1);
	add(&b, "select_task_rq_fair", BTF_KIND_FUNC, 0, 1000, NULL, 0);
	EXPECT_EQ(fs_btf_facts_scan(b.words, finish(&b), &f, err, sizeof(err)), -1);
	EXPECT_STR(err, "BTF function select_task_rq_fair (type 2) has prototype type 1000, beyond the 2 types");
}
