// SPDX-License-Identifier: GPL-2.0
/*
 * The Perfetto reader's tasks (perfetto_trace.h): the ProcessTree packets
 * (protos/perfetto/trace/ps/process_tree.proto) give each thread its tgid
 * and name and each process its parent and uid; the events then give the
 * comms the tree lacks. Ftrace events carry only the emitter's pid, so its
 * comm and tgid come from here.
 */
#include <stdlib.h>
#include <string.h>
#include "perfetto_trace_int.h"

static size_t pid_hash(int32_t pid, size_t cap)
{
	return ((uint32_t)pid * 2654435761u) & (cap - 1);
}

static bool pids_grow(struct pft_pids *m)
{
	size_t cap = m->cap ? m->cap * 2 : 64;
	struct pft_pid *s = calloc(cap, sizeof(*s));

	if (!s)
		return false;
	for (size_t i = 0; i < m->cap; i++) {
		size_t h;
		if (!m->slot[i].pid)
			continue;
		for (h = pid_hash(m->slot[i].pid, cap); s[h].pid; h = (h + 1) & (cap - 1))
			;
		s[h] = m->slot[i];
	}
	free(m->slot);
	m->slot = s;
	m->cap = cap;
	return true;
}

/* pid's entry; with add, a new one (tgid, ppid, uid -1) if absent. NULL: absent, pid <= 0, or out of memory. */
struct pft_pid *pft_pid_get(struct pft_pids *m, int32_t pid, bool add)
{
	size_t h;

	if (pid <= 0 || (add && (m->nr + 1) * 2 > m->cap && !pids_grow(m)) || !m->cap)
		return NULL;
	for (h = pid_hash(pid, m->cap); m->slot[h].pid; h = (h + 1) & (m->cap - 1))
		if (m->slot[h].pid == pid)
			return &m->slot[h];
	if (!add)
		return NULL;
	m->nr++;
	m->slot[h].pid = pid;
	m->slot[h].tgid = m->slot[h].ppid = m->slot[h].uid = -1;
	return &m->slot[h];
}

/* An event named pid's comm: kept for the events it emits. */
void pft_pid_comm(struct pft *p, int32_t pid, const char *comm)
{
	struct pft_pid *e;

	if (!comm[0] || !(e = pft_pid_get(&p->pids, pid, true)) || !strncmp(e->comm, comm, FS_COMM_LEN))
		return;
	memcpy(e->comm, comm, FS_COMM_LEN);
}

void pft_pid_tgid(struct pft *p, int32_t parent, int32_t child, bool thread)
{
	const struct pft_pid *pe = thread ? pft_pid_get(&p->pids, parent, false) : NULL;
	int32_t tgid = thread ? (pe ? pe->tgid : -1) : child;
	struct pft_pid *e;

	if (tgid > 0 && (e = pft_pid_get(&p->pids, child, true)))
		e->tgid = tgid;
}

static void set_comm(char *dst, const uint8_t *s, size_t n)
{
	if (n > FS_COMM_LEN - 1)
		n = FS_COMM_LEN - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
	dst[strnlen(dst, n)] = '\0';
}

/* ProcessTree.Process: pid = 1, ppid = 2, cmdline = 3 (the first is the name), uid = 5. */
static int one_process(struct pft *p, const uint8_t *b, size_t len)
{
	static const char path[] = "process_tree.processes";
	struct fs_pbr r;
	struct fs_pbr_field f;
	int64_t pid = 0, ppid = -1, uid = -1;
	const uint8_t *cmd = NULL;
	size_t cmd_len = 0;
	struct pft_pid *e;
	int rc;

	fs_pbr_init(&r, b, len);
	while ((rc = fs_pbr_next(&r, &f)) > 0) {
		if (f.num == 3 && !cmd) {
			if (f.wire != FS_PBR_LEN)
				return pft_bad_wire(p, path, "cmdline", &f, FS_PBR_LEN);
			cmd = f.data;
			cmd_len = f.len;
		} else if (f.num == 1 || f.num == 2 || f.num == 5) {
			if (f.wire != FS_PBR_VARINT)
				return pft_bad_wire(p, path, f.num == 1 ? "pid" : f.num == 2 ? "ppid" : "uid", &f,
						    FS_PBR_VARINT);
			*(f.num == 1 ? &pid : f.num == 2 ? &ppid : &uid) = (int32_t)f.v;
		}
	}
	if (rc < 0)
		return pft_bad_pb(p, path, rc, &f);
	if (!(e = pft_pid_get(&p->pids, (int32_t)pid, true)))
		return pid > 0 ? pft_bad(p, path, "out of memory") : 0;
	e->in_tree = true;
	e->tgid = (int32_t)pid;
	e->ppid = (int32_t)ppid;
	e->uid = (int32_t)uid;
	if (cmd && !e->comm[0]) { /* "/system/bin/surfaceflinger" -> its last part, as the kernel's comm */
		const uint8_t *s = cmd + cmd_len;
		while (s > cmd && s[-1] != '/')
			s--;
		set_comm(e->comm, s, (size_t)(cmd + cmd_len - s));
		memcpy(e->tree_comm, e->comm, FS_COMM_LEN);
	}
	return 0;
}

/* ProcessTree.Thread: tid = 1, name = 2, tgid = 3. */
static int one_thread(struct pft *p, const uint8_t *b, size_t len)
{
	static const char path[] = "process_tree.threads";
	struct fs_pbr r;
	struct fs_pbr_field f;
	int64_t tid = 0, tgid = -1;
	const uint8_t *name = NULL;
	size_t name_len = 0;
	struct pft_pid *e;
	int rc;

	fs_pbr_init(&r, b, len);
	while ((rc = fs_pbr_next(&r, &f)) > 0) {
		if (f.num == 2) {
			if (f.wire != FS_PBR_LEN)
				return pft_bad_wire(p, path, "name", &f, FS_PBR_LEN);
			name = f.data;
			name_len = f.len;
		} else if (f.num == 1 || f.num == 3) {
			if (f.wire != FS_PBR_VARINT)
				return pft_bad_wire(p, path, f.num == 1 ? "tid" : "tgid", &f, FS_PBR_VARINT);
			*(f.num == 1 ? &tid : &tgid) = (int32_t)f.v;
		}
	}
	if (rc < 0)
		return pft_bad_pb(p, path, rc, &f);
	if (!(e = pft_pid_get(&p->pids, (int32_t)tid, true)))
		return tid > 0 ? pft_bad(p, path, "out of memory") : 0;
	e->in_tree = true;
	if (tgid > 0)
		e->tgid = (int32_t)tgid;
	if (name) {
		set_comm(e->comm, name, name_len);
		memcpy(e->tree_comm, e->comm, FS_COMM_LEN);
	}
	return 0;
}

/* ProcessTree: processes = 1, threads = 2. */
int pft_process_tree(struct pft *p, const uint8_t *b, size_t len)
{
	struct fs_pbr r;
	struct fs_pbr_field f;
	int rc;

	fs_pbr_init(&r, b, len);
	while ((rc = fs_pbr_next(&r, &f)) > 0) {
		if (f.num != 1 && f.num != 2)
			continue;
		if (f.wire != FS_PBR_LEN)
			return pft_bad_wire(p, "process_tree", f.num == 1 ? "processes" : "threads", &f, FS_PBR_LEN);
		if ((f.num == 1 ? one_process : one_thread)(p, f.data, f.len))
			return -1;
	}
	return rc < 0 ? pft_bad_pb(p, "process_tree", rc, &f) : 0;
}

static int task_cmp(const void *a, const void *b)
{
	const struct fs_perfetto_task *x = a, *y = b;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* The tasks the tree named, by pid. */
int pft_tree_out(struct pft *p, struct fs_perfetto_tree *tree)
{
	size_t n = 0;

	tree->tasks = NULL;
	tree->nr = 0;
	for (size_t i = 0; i < p->pids.cap; i++)
		n += p->pids.slot[i].in_tree;
	if (!n)
		return 0;
	if (!(tree->tasks = calloc(n, sizeof(*tree->tasks))))
		return pft_bad(p, "process_tree", "out of memory");
	for (size_t i = 0; i < p->pids.cap; i++) {
		const struct pft_pid *e = &p->pids.slot[i], *pe;
		struct fs_perfetto_task *t = &tree->tasks[tree->nr];
		if (!e->in_tree)
			continue;
		t->pid = e->pid;
		t->tgid = e->tgid;
		t->ppid = e->ppid;
		t->uid = e->uid;
		if (e->pid != e->tgid && (pe = pft_pid_get(&p->pids, e->tgid, false))) /* a thread: its process's */
			t->ppid = pe->ppid, t->uid = pe->uid;
		memcpy(t->comm, e->tree_comm, FS_COMM_LEN);
		tree->nr++;
	}
	qsort(tree->tasks, tree->nr, sizeof(*tree->tasks), task_cmp);
	return 0;
}
