// SPDX-License-Identifier: GPL-2.0
/*
 * Wake-up pairing for the live source: a FIFO of records in collector order,
 * where a sched_waking snapshot waits until its placement arrives (or it
 * expires), so every record leaves in the order it came in.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "live_pair.h"
#include "../records/live_wire.h"

#define FIFO_SLOTS 8192 /* also the bound on snapshots in flight */

enum slot_state { SLOT_FREE = 0, SLOT_PENDING, SLOT_READY };

struct slot {
	enum slot_state state;
	int migrated;       /* a wake-up migration told the CPU */
	union {
		struct fs_rec_hdr hdr;
		struct fs_wakeup w;
		struct fs_migrate m;
		struct fs_overutil o;
		struct fs_lost l;
		struct fs_task_time t;
	} u;
};

struct fs_pair {
	unsigned int nr_cpus;
	__u64 expire_ns;
	__u32 cap_orig[FS_MAX_CPUS];
	__u32 cpufreq_pressure[FS_MAX_CPUS];
	fs_pair_emit_fn emit;
	void *ctx;
	/*
	 * FIFO_SLOTS slots of stride bytes: a slot holds the largest record of
	 * this CPU count, not a struct slot's 32-CPU union (2.4 KiB), so the FIFO
	 * the head and tail walk through stays small and warm in the cache.
	 */
	unsigned char *fifo;
	size_t stride;
	unsigned int head, len;
	unsigned int pend[FIFO_SLOTS]; /* slot indices of pending snapshots */
	unsigned int npend;
	struct fs_pair_stats st;
};

struct fs_pair *fs_pair_new(unsigned int nr_cpus, __u64 expire_ns, const __u32 *cap_orig,
			    fs_pair_emit_fn emit, void *ctx)
{
	struct fs_pair *p;

	if (nr_cpus == 0 || nr_cpus > FS_MAX_CPUS)
		return NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	size_t rec = fs_wakeup_size(nr_cpus);

	if (rec < sizeof(struct fs_migrate))
		rec = sizeof(struct fs_migrate);
	if (rec < sizeof(struct fs_lost))
		rec = sizeof(struct fs_lost);
	if (rec < sizeof(struct fs_overutil))
		rec = sizeof(struct fs_overutil);
	if (rec < sizeof(struct fs_task_time))
		rec = sizeof(struct fs_task_time);
	p->stride = (offsetof(struct slot, u) + rec + 7) & ~(size_t)7;
	p->fifo = calloc(FIFO_SLOTS, p->stride);
	if (!p->fifo) {
		free(p);
		return NULL;
	}
	p->nr_cpus = nr_cpus;
	p->expire_ns = expire_ns;
	for (unsigned int i = 0; i < nr_cpus; i++)
		p->cap_orig[i] = cap_orig ? cap_orig[i] : 1024;
	p->emit = emit;
	p->ctx = ctx;
	return p;
}

void fs_pair_free(struct fs_pair *p)
{
	if (!p)
		return;
	free(p->fifo);
	free(p);
}

const struct fs_pair_stats *fs_pair_stats(const struct fs_pair *p)
{
	return &p->st;
}

static struct slot *slot_idx(struct fs_pair *p, unsigned int idx)
{
	return (struct slot *)(p->fifo + (size_t)idx * p->stride);
}

static unsigned int idx_of(const struct fs_pair *p, const struct slot *s)
{
	return (unsigned int)(((const unsigned char *)s - p->fifo) / p->stride);
}

static struct slot *slot_at(struct fs_pair *p, unsigned int i)
{
	return slot_idx(p, (p->head + i) % FIFO_SLOTS);
}

static void unpend(struct fs_pair *p, unsigned int k)
{
	p->pend[k] = p->pend[--p->npend];
}

/* The snapshot was never placed: it still goes out, with the placement unknown. */
static void expire(struct fs_pair *p, struct slot *s)
{
	unsigned int idx = idx_of(p, s);

	for (unsigned int k = 0; k < p->npend; k++)
		if (p->pend[k] == idx) {
			unpend(p, k);
			break;
		}
	s->u.w.chosen_cpu = -1;
	s->u.w.decided_ns = 0;
	s->state = SLOT_READY;
	p->st.expired++;
}

/* Emit from the head while the head is complete; force out stale or overflowing snapshots. */
static int release(struct fs_pair *p, __u64 now, int force_all)
{
	int rc = 0;

	while (p->len) {
		struct slot *s = slot_at(p, 0);

		if (s->state == SLOT_PENDING &&
		    (force_all || p->len >= FIFO_SLOTS || s->u.hdr.ts_ns + p->expire_ns < now))
			expire(p, s);
		if (s->state != SLOT_READY)
			break;
		if (s->u.hdr.type == FS_REC_WAKEUP && s->u.w.chosen_cpu >= 0)
			p->st.paired++;
		if (!rc)
			rc = p->emit(p->ctx, &s->u.hdr);
		s->state = SLOT_FREE;
		p->head = (p->head + 1) % FIFO_SLOTS;
		p->len--;
	}
	return rc;
}

static struct slot *push(struct fs_pair *p, const void *data, size_t size, enum slot_state st)
{
	struct slot *s;

	if (p->len >= FIFO_SLOTS) /* release() expires the head first, so this is a safety net */
		return NULL;
	s = slot_at(p, p->len++);
	memcpy(&s->u, data, size); /* sizes are checked exact: nothing beyond is read */
	s->u.hdr.size = size;
	s->migrated = 0;
	s->state = st;
	return s;
}

static int find_pending(struct fs_pair *p, __s32 pid)
{
	for (unsigned int k = 0; k < p->npend; k++)
		if (slot_idx(p, p->pend[k])->u.w.pid == pid)
			return k;
	return -1;
}

static void fix_capacity(struct fs_pair *p, struct fs_wakeup *w)
{
	/* v6.8+ has no rq->cpu_capacity_orig: arch_scale_cpu_capacity comes from sysfs */
	for (unsigned int i = 0; i < p->nr_cpus; i++) {
		if (!w->cpu[i].capacity_orig)
			w->cpu[i].capacity_orig = p->cap_orig[i];
		/* the collector cannot read it; userspace keeps it from sysfs */
		if (!w->cpu[i].cpufreq_pressure)
			w->cpu[i].cpufreq_pressure = p->cpufreq_pressure[i];
	}
}

void fs_pair_set_cpufreq_pressure(struct fs_pair *p, const __u32 *pressure)
{
	for (unsigned int i = 0; i < p->nr_cpus; i++)
		p->cpufreq_pressure[i] = pressure ? pressure[i] : 0;
}

static void on_snapshot(struct fs_pair *p, const struct fs_wakeup *in, size_t size)
{
	struct slot *s;
	int k;

	p->st.snapshots++;
	if (in->flags & FS_WAKE_FORK) { /* complete already: sched_wakeup_new */
		s = push(p, in, size, SLOT_READY);
		if (s)
			fix_capacity(p, &s->u.w);
		return;
	}
	k = find_pending(p, in->pid);
	if (k >= 0) {
		p->st.superseded++;
		expire(p, slot_idx(p, p->pend[k]));
	}
	s = push(p, in, size, SLOT_PENDING);
	if (!s)
		return;
	fix_capacity(p, &s->u.w);
	p->pend[p->npend++] = idx_of(p, s);
}

static void on_place(struct fs_pair *p, const struct fs_lplace *e)
{
	int k;
	struct slot *s;

	if (e->kind == FS_PLACE_RUNNABLE) { /* no decision to pair; its sched_wakeup follows */
		p->st.runnable++;
		return;
	}
	k = find_pending(p, e->pid);
	if (k < 0) {
		if (e->kind == FS_PLACE_WAKEUP)
			p->st.place_unpaired++;
		return;
	}
	s = slot_idx(p, p->pend[k]);
	if (e->kind == FS_PLACE_MIGRATE) {
		s->u.w.chosen_cpu = e->cpu;
		s->u.w.decided_ns = e->hdr.ts_ns;
		s->migrated = 1;
		p->st.via_migrate++;
		return;
	}
	if (s->migrated) {
		if (e->cpu != s->u.w.chosen_cpu)
			p->st.place_mismatch++;
	} else {
		s->u.w.chosen_cpu = e->cpu;
		s->u.w.decided_ns = e->hdr.ts_ns;
	}
	s->state = SLOT_READY;
	unpend(p, k);
}

int fs_pair_feed(struct fs_pair *p, const void *data, size_t size)
{
	const struct fs_rec_hdr *h = data;

	if (size < sizeof(*h) || h->size > size) {
		p->st.malformed++;
		return 0;
	}
	size = h->size;
	if (p->len >= FIFO_SLOTS) { /* full: release() expires the oldest snapshot */
		int rc = release(p, h->ts_ns, 0);

		if (rc)
			return rc;
	}
	switch (h->type) {
	case FS_REC_WAKEUP:
		if (h->nr_cpus != p->nr_cpus || size != fs_wakeup_size(p->nr_cpus)) {
			p->st.malformed++;
			return 0;
		}
		on_snapshot(p, data, size);
		break;
	case FS_LREC_PLACE:
		if (size != sizeof(struct fs_lplace)) {
			p->st.malformed++;
			return 0;
		}
		on_place(p, data);
		break;
	case FS_REC_MIGRATE:
	case FS_REC_OVERUTIL:
	case FS_REC_LOST:
	case FS_REC_EXIT:
	case FS_REC_FREQ: {
		size_t want = h->type == FS_REC_MIGRATE ? sizeof(struct fs_migrate) :
			      h->type == FS_REC_OVERUTIL ? sizeof(struct fs_overutil) :
			      h->type == FS_REC_FREQ ? sizeof(struct fs_freq) :
			      h->type == FS_REC_EXIT ? sizeof(struct fs_task_time) : sizeof(struct fs_lost);

		if (size != want) {
			p->st.malformed++;
			return 0;
		}
		if (h->type == FS_REC_MIGRATE)
			p->st.migrations++;
		push(p, data, size, SLOT_READY);
		break;
	}
	default:
		p->st.malformed++;
		return 0;
	}
	return release(p, h->ts_ns, 0);
}

int fs_pair_flush(struct fs_pair *p)
{
	return release(p, 0, 1);
}
