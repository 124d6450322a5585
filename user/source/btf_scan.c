// SPDX-License-Identifier: GPL-2.0
/*
 * One pass over a raw BTF blob for the facts the collector's choices need
 * (btf_scan.h). Each lookup keeps libbpf's btf__find_by_name_kind() meaning:
 * the first type of that kind and name (lowest id) wins. No libbpf here, so
 * the unit tests and the btf fuzzer (tests/fuzz/fuzz_btf.c) reach it.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <linux/btf.h>
#include "btf_scan.h"

/* Bytes that follow a btf_type of this kind, or -1 for a kind we cannot step over. */
static long extra_bytes(const struct btf_type *t)
{
	unsigned int vlen = BTF_INFO_VLEN(t->info);

	switch (BTF_INFO_KIND(t->info)) {
	case BTF_KIND_INT:      return 4;
	case BTF_KIND_PTR:
	case BTF_KIND_FWD:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG: return 0;
	case BTF_KIND_ARRAY:    return sizeof(struct btf_array);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:    return (long)vlen * sizeof(struct btf_member);
	case BTF_KIND_ENUM:     return (long)vlen * sizeof(struct btf_enum);
	case BTF_KIND_FUNC_PROTO: return (long)vlen * sizeof(struct btf_param);
	case BTF_KIND_VAR:      return sizeof(struct btf_var);
	case BTF_KIND_DATASEC:  return (long)vlen * sizeof(struct btf_var_secinfo);
	case BTF_KIND_DECL_TAG: return sizeof(struct btf_decl_tag);
	case BTF_KIND_ENUM64:   return (long)vlen * sizeof(struct btf_enum64);
	default:                return -1;
	}
}

struct strs {
	const char *base;
	size_t len;
};

/* The string at off, or "" when off is outside the string section. */
static const char *str_at(const struct strs *s, __u32 off)
{
	return off < s->len ? s->base + off : "";
}

static void enum_values(const struct btf_type *t, const struct strs *s, struct fs_btf_facts *f)
{
	const struct btf_enum *e = (const void *)(t + 1);

	for (unsigned int i = 0; i < BTF_INFO_VLEN(t->info); i++) {
		const char *n = str_at(s, e[i].name_off);

		if (n[0] == 'B' && !f->bpf_loop && !strcmp(n, "BPF_FUNC_loop")) {
			f->bpf_loop = true;
		} else if (n[0] == 'S' && !strncmp(n, "SD_ASYM_CPUCAPACITY", 19)) {
			if (!n[19] && !f->sd_asym) {
				f->sd_asym = true;
				f->sd_asym_val = e[i].val;
			} else if (!strcmp(n + 19, "_FULL") && !f->sd_asym_full) {
				f->sd_asym_full = true;
				f->sd_asym_full_val = e[i].val;
			}
		}
	}
}

static bool has_member(const struct btf_type *t, const struct strs *s, const char *m)
{
	const struct btf_member *mb = (const void *)(t + 1);

	for (unsigned int i = 0; i < BTF_INFO_VLEN(t->info); i++)
		if (!strcmp(str_at(s, mb[i].name_off), m))
			return true;
	return false;
}

/* The header's sections inside the data, types aligned, strings ending in NUL; the two sections. */
static int check_header(const void *data, size_t size, const char **types, struct strs *s, char *err,
			size_t errlen)
{
	const struct btf_header *h = data;

	if (size < sizeof(*h) || h->magic != BTF_MAGIC) {
		snprintf(err, errlen, "not raw BTF in this machine's byte order (magic %#x)",
			 size >= 2 ? h->magic : 0);
		return -1;
	}
	if (h->hdr_len < sizeof(*h) || h->hdr_len > size ||
	    (size_t)h->type_off + h->type_len > size - h->hdr_len ||
	    (size_t)h->str_off + h->str_len > size - h->hdr_len) {
		snprintf(err, errlen, "BTF header sections outside the %zu bytes", size);
		return -1;
	}
	/* as libbpf asks: types 4-byte aligned (read in place), strings ending in NUL (read with strcmp) */
	if ((h->hdr_len + h->type_off) % 4 || (uintptr_t)data % 4) {
		snprintf(err, errlen, "BTF type section not 4-byte aligned (header %u, offset %u)", h->hdr_len,
			 h->type_off);
		return -1;
	}
	*types = (const char *)data + h->hdr_len + h->type_off;
	*s = (struct strs){ (const char *)data + h->hdr_len + h->str_off, h->str_len };
	if (s->len && s->base[s->len - 1]) {
		snprintf(err, errlen, "BTF string section does not end in a NUL");
		return -1;
	}
	return 0;
}

/* What the scan looks for while it walks the types. */
struct scan {
	struct fs_btf_facts *f;
	const struct strs *s;
	bool seen_task;
	__u32 proto_id;                /* select_task_rq_fair's prototype */
	const struct btf_type *proto;  /* found, or NULL */
};

/* One type's part in the facts. */
static void note_type(struct scan *sc, const struct btf_type *t, __u32 id)
{
	struct fs_btf_facts *f = sc->f;
	const struct strs *s = sc->s;

	if (id == sc->proto_id)
		sc->proto = t;
	switch (BTF_INFO_KIND(t->info)) {
	case BTF_KIND_TYPEDEF: {
		const char *n = str_at(s, t->name_off);

		if (strncmp(n, "btf_trace_sched_", 16))
			break;
		f->tp_waking |= !strcmp(n + 16, "waking");
		f->tp_overutilized |= !strcmp(n + 16, "overutilized_tp");
		break;
	}
	case BTF_KIND_FUNC:
		if (f->select_id < 0 && !strcmp(str_at(s, t->name_off), "select_task_rq_fair")) {
			f->select_id = id;
			sc->proto_id = t->type;
			if (sc->proto_id < id) /* already passed: found again after the walk */
				sc->proto = NULL;
		} else if (!f->rdonly_cast && !strcmp(str_at(s, t->name_off), "bpf_rdonly_cast")) {
			f->rdonly_cast = true;
		}
		break;
	case BTF_KIND_VAR:
		if (f->runqueues_id < 0 && !strcmp(str_at(s, t->name_off), "runqueues"))
			f->runqueues_id = id;
		break;
	case BTF_KIND_ENUM:
		enum_values(t, s, f);
		break;
	case BTF_KIND_STRUCT:
		if (!sc->seen_task && !strcmp(str_at(s, t->name_off), "task_struct")) {
			sc->seen_task = true;
			f->task_uclamp = has_member(t, s, "uclamp");
		}
		break;
	}
}

int fs_btf_facts_scan(const void *data, size_t size, struct fs_btf_facts *f,
		      char *err, size_t errlen)
{
	const struct btf_header *h = data;
	bool mapped = f->mapped;
	const char *types;
	struct strs s;
	struct scan sc = { .f = f, .s = &s };
	size_t off = 0;
	__u32 id = 1;

	memset(f, 0, sizeof(*f));
	f->mapped = mapped;
	f->select_id = f->runqueues_id = -1;
	if (check_header(data, size, &types, &s, err, errlen))
		return -1;
	for (; off + sizeof(struct btf_type) <= h->type_len; id++) {
		const struct btf_type *t = (const void *)(types + off);
		long extra = extra_bytes(t);

		if (extra < 0 || off + sizeof(*t) + extra > h->type_len) {
			snprintf(err, errlen, "BTF type %u (kind %u) %s", id, BTF_INFO_KIND(t->info),
				 extra < 0 ? "of a kind unknown to feecscope" : "runs past the type section");
			return -1;
		}
		off += sizeof(*t) + extra;
		note_type(&sc, t, id);
	}
	f->nr_types = id - 1;
	if (sc.proto_id > f->nr_types) { /* libbpf refuses it too; the walk below would leave the types */
		snprintf(err, errlen, "BTF function select_task_rq_fair (type %d) has prototype type %u, "
			 "beyond the %u types", f->select_id, sc.proto_id, f->nr_types);
		return -1;
	}
	if (sc.proto_id && !sc.proto) { /* the prototype came before its function: walk to it */
		off = 0;
		for (id = 1; id < sc.proto_id; id++)
			off += sizeof(struct btf_type) + extra_bytes((const void *)(types + off));
		sc.proto = (const void *)(types + off);
	}
	if (sc.proto && BTF_INFO_KIND(sc.proto->info) == BTF_KIND_FUNC_PROTO)
		f->select_nargs = BTF_INFO_VLEN(sc.proto->info);
	return 0;
}
