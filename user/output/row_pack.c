// SPDX-License-Identifier: GPL-2.0
/*
 * Decision rows as varints (row_pack.h): 7 bits a byte, the high bit set on
 * all but the last. Every field but the energies fits 64 bits, so the
 * loops are 64-bit and only the energies take the 128-bit path when they
 * need it (a 128-bit loop for every field cost a third of the unpacking).
 */
#include <stdint.h>
#include <string.h>
#include "row_pack.h"

static inline unsigned char *put(unsigned char *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	*p++ = (unsigned char)v;
	return p;
}

/* zigzag: small magnitudes of either sign stay short */
static inline unsigned char *put_s(unsigned char *p, int64_t v)
{
	return put(p, v < 0 ? ~((uint64_t)v << 1) : (uint64_t)v << 1);
}

/* The same bytes a 128-bit loop would write: the low groups first, the rest as a 64-bit varint. */
static inline unsigned char *put_s128(unsigned char *p, __int128 v)
{
	unsigned __int128 z = v < 0 ? ~((unsigned __int128)v << 1) : (unsigned __int128)v << 1;

	while (z > UINT64_MAX) {
		*p++ = (unsigned char)(z | 0x80);
		z >>= 7;
	}
	return put(p, (uint64_t)z);
}

size_t fs_row_pack(char *buf, const struct fs_decision_row *r, int nr)
{
	unsigned char *p = (unsigned char *)buf;
	size_t comm_len = strnlen(r->comm, FS_COMM_LEN);

	p = put(p, r->seq);
	p = put(p, r->ts_ns);
	p = put_s(p, r->pid);
	p = put_s(p, r->tgid);
	p = put(p, r->uid);
	p = put(p, comm_len);
	memcpy(p, r->comm, comm_len);
	p += comm_len;
	p = put_s(p, r->prev_cpu);
	p = put_s(p, r->kernel_cpu);
	p = put(p, r->task_util);
	p = put(p, r->flags);
	p = put(p, (unsigned)r->iv.end);
	p = put(p, r->iv.dt_ns);
	p = put(p, r->iv.runtime_known);
	p = put(p, r->iv.runtime_ns);
	p = put(p, r->iv.window_ns);
	for (int i = 0; i < nr; i++) {
		const struct fs_decision_pol *q = &r->pol[i];

		p = put_s(p, q->cpu);
		p = put_s(p, q->acct_cpu);
		p = put(p, (unsigned)q->reason);
		p = put(p, q->has_threshold);
		p = put(p, q->prev_delta + 1); /* UINT64_MAX (none) becomes 0: one byte */
		p = put(p, q->best_delta + 1);
		p = put(p, q->threshold + 1);
		p = put(p, q->power_uw);
		p = put_s(p, q->dpower_uw);
		p = put_s128(p, r->iv.de_fj[i]);
	}
	return (size_t)(p - (unsigned char *)buf);
}

struct unpacker {
	const unsigned char *p, *end;
	bool bad;
};

/* The careful loop: near the end of the bytes, and for damaged ones. */
static uint64_t get_slow(struct unpacker *u)
{
	uint64_t v = 0;

	for (int shift = 0; shift < 64 && u->p < u->end; shift += 7) {
		unsigned char b = *u->p++;

		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return v;
	}
	u->bad = true;
	return 0;
}

/*
 * A varint of at most 64 bits (ten bytes, the last holding bit 63). With
 * ten bytes left, unrolled and without a bound check per byte: most fields
 * take one to four bytes, and the loop's checks cost more than the bits.
 */
#define GET_BYTE(k)                                                  \
	do {                                                         \
		b = p[k];                                            \
		v |= (uint64_t)(b & 0x7f) << (7 * (k));              \
		if (b < 0x80) {                                      \
			u->p = p + (k) + 1;                          \
			return v;                                    \
		}                                                    \
	} while (0)

static inline __attribute__((always_inline)) uint64_t get(struct unpacker *u)
{
	const unsigned char *p = u->p;
	uint64_t v, b;

	if (u->end - p < 10)
		return get_slow(u);
	b = p[0];
	if (b < 0x80) {
		u->p = p + 1;
		return b;
	}
	v = b & 0x7f;
	GET_BYTE(1);
	GET_BYTE(2);
	GET_BYTE(3);
	GET_BYTE(4);
	GET_BYTE(5);
	GET_BYTE(6);
	GET_BYTE(7);
	GET_BYTE(8);
	GET_BYTE(9);
	u->bad = true; /* longer than 64 bits */
	return 0;
}

static inline __attribute__((always_inline)) int64_t get_s(struct unpacker *u)
{
	uint64_t v = get(u);

	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

/* An energy: 64 bits but for the rare one beyond them (nine bytes or fewer hold 63 bits). */
static __int128 get_s128(struct unpacker *u)
{
	const unsigned char *p = u->p;
	int k = 0;

	while (k < 9 && p + k < u->end && p[k] >= 0x80)
		k++;
	if (k < 9 && p + k < u->end) {
		uint64_t v = get(u);

		return (__int128)(v >> 1) ^ -(__int128)(v & 1);
	}
	unsigned __int128 w = 0;
	for (int shift = 0; shift < 128 && u->p < u->end; shift += 7) {
		unsigned char b = *u->p++;

		w |= (unsigned __int128)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return (__int128)(w >> 1) ^ -(__int128)(w & 1);
	}
	u->bad = true;
	return 0;
}

int fs_row_unpack(const char *buf, size_t len, struct fs_decision_row *r, int nr)
{
	struct unpacker u = { (const unsigned char *)buf, (const unsigned char *)buf + len, false };

	r->wakeup = NULL; /* the decision hook's alone */
	r->res = NULL;
	r->seq = get(&u);
	r->ts_ns = get(&u);
	r->pid = (__s32)get_s(&u);
	r->tgid = (__s32)get_s(&u);
	r->uid = (__u32)get(&u);
	uint64_t comm_len = get(&u);
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
	r->iv.dt_ns = get(&u);
	r->iv.runtime_known = get(&u) != 0;
	r->iv.runtime_ns = get(&u);
	r->iv.window_ns = get(&u);
	for (int i = 0; i < nr; i++) {
		struct fs_decision_pol *q = &r->pol[i];

		q->cpu = (__s32)get_s(&u);
		q->acct_cpu = (__s32)get_s(&u);
		q->reason = (enum fs_feec_reason)get(&u);
		q->has_threshold = get(&u) != 0;
		q->prev_delta = get(&u) - 1;
		q->best_delta = get(&u) - 1;
		q->threshold = get(&u) - 1;
		q->power_uw = get(&u);
		q->dpower_uw = get_s(&u);
		r->iv.de_fj[i] = get_s128(&u);
	}
	return u.bad || u.p != u.end ? -1 : 0;
}
