// SPDX-License-Identifier: GPL-2.0
/* Decision rows as varints (row_pack.h): 7 bits a byte, the high bit set on all but the last. */
#include <stdint.h>
#include <string.h>
#include "row_pack.h"

struct packer {
	unsigned char *p;
};

static void put(struct packer *k, unsigned __int128 v)
{
	while (v >= 0x80) {
		*k->p++ = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	*k->p++ = (unsigned char)v;
}

/* zigzag: small magnitudes of either sign stay short */
static void put_s(struct packer *k, __int128 v)
{
	put(k, v < 0 ? ~((unsigned __int128)v << 1) : (unsigned __int128)v << 1);
}

size_t fs_row_pack(char *buf, const struct fs_decision_row *r, int nr)
{
	struct packer k = { (unsigned char *)buf };
	size_t comm_len = strnlen(r->comm, FS_COMM_LEN);

	put(&k, r->seq);
	put(&k, r->ts_ns);
	put_s(&k, r->pid);
	put_s(&k, r->tgid);
	put(&k, r->uid);
	put(&k, comm_len);
	memcpy(k.p, r->comm, comm_len);
	k.p += comm_len;
	put_s(&k, r->prev_cpu);
	put_s(&k, r->kernel_cpu);
	put(&k, r->task_util);
	put(&k, r->flags);
	put(&k, (unsigned)r->iv.end);
	put(&k, r->iv.dt_ns);
	put(&k, r->iv.runtime_known);
	put(&k, r->iv.runtime_ns);
	put(&k, r->iv.window_ns);
	for (int i = 0; i < nr; i++) {
		const struct fs_decision_pol *p = &r->pol[i];

		put_s(&k, p->cpu);
		put_s(&k, p->acct_cpu);
		put(&k, (unsigned)p->reason);
		put(&k, p->has_threshold);
		put(&k, p->prev_delta + 1); /* UINT64_MAX (none) becomes 0: one byte */
		put(&k, p->best_delta + 1);
		put(&k, p->threshold + 1);
		put(&k, p->power_uw);
		put_s(&k, p->dpower_uw);
		put_s(&k, r->iv.de_fj[i]);
	}
	return (size_t)(k.p - (unsigned char *)buf);
}

struct unpacker {
	const unsigned char *p, *end;
	bool bad;
};

static unsigned __int128 get(struct unpacker *u)
{
	uint64_t v = 0;
	int shift = 0;

	for (; shift < 63 && u->p < u->end; shift += 7) { /* nine bytes in 64 bits: every value but energies */
		unsigned char b = *u->p++;

		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return v;
	}
	unsigned __int128 w = v;
	for (; shift < 128 && u->p < u->end; shift += 7) {
		unsigned char b = *u->p++;

		w |= (unsigned __int128)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return w;
	}
	u->bad = true;
	return 0;
}

static __int128 get_s(struct unpacker *u)
{
	unsigned __int128 v = get(u);

	return (__int128)(v >> 1) ^ -(__int128)(v & 1);
}

int fs_row_unpack(const char *buf, size_t len, struct fs_decision_row *r, int nr)
{
	struct unpacker u = { (const unsigned char *)buf, (const unsigned char *)buf + len, false };

	r->seq = (__u64)get(&u);
	r->ts_ns = (__u64)get(&u);
	r->pid = (__s32)get_s(&u);
	r->tgid = (__s32)get_s(&u);
	r->uid = (__u32)get(&u);
	size_t comm_len = (size_t)get(&u);
	if (comm_len > FS_COMM_LEN || comm_len > (size_t)(u.end - u.p))
		return -1;
	memcpy(r->comm, u.p, comm_len);
	memset(r->comm + comm_len, 0, FS_COMM_LEN - comm_len);
	u.p += comm_len;
	r->prev_cpu = (__s32)get_s(&u);
	r->kernel_cpu = (__s32)get_s(&u);
	r->task_util = (__u32)get(&u);
	r->flags = (__u32)get(&u);
	r->iv.end = (enum fs_interval_end)get(&u);
	r->iv.dt_ns = (__u64)get(&u);
	r->iv.runtime_known = get(&u) != 0;
	r->iv.runtime_ns = (__u64)get(&u);
	r->iv.window_ns = (__u64)get(&u);
	for (int i = 0; i < nr; i++) {
		struct fs_decision_pol *p = &r->pol[i];

		p->cpu = (__s32)get_s(&u);
		p->acct_cpu = (__s32)get_s(&u);
		p->reason = (enum fs_feec_reason)get(&u);
		p->has_threshold = get(&u) != 0;
		p->prev_delta = (__u64)get(&u) - 1;
		p->best_delta = (__u64)get(&u) - 1;
		p->threshold = (__u64)get(&u) - 1;
		p->power_uw = (__u64)get(&u);
		p->dpower_uw = (__s64)get_s(&u);
		r->iv.de_fj[i] = (fs_fj_t)get_s(&u);
	}
	return u.bad || u.p != u.end ? -1 : 0;
}
