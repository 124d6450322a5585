// SPDX-License-Identifier: GPL-2.0
/*
 * The running kernel's Energy Model without debugfs: the v6.19+ generic
 * netlink family "dev-energymodel" (include/uapi/linux/dev_energymodel.h,
 * Documentation/netlink/specs/dev-energymodel.yaml, kernel/power/em_netlink.c).
 * get-perf-domains (dump) lists each PD's id, flags and CPUs (one u64
 * attribute per CPU); get-perf-table (do, by id) its states, each a nest of
 * u64 performance, frequency, power, cost and flags: the kernel's table as
 * feec uses it. Plain sockets: no libnl in the static binary.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include "em_internal.h"

#define ERR(...) (fs_em_errf(err, errlen, __VA_ARGS__), -1)

/* The family's numbers (uapi dev_energymodel.h, family version 1). */
#define EMNL_NAME            "dev-energymodel"
#define EMNL_CMD_GET_PDS     1
#define EMNL_CMD_GET_TABLE   2
#define EMNL_PD_ID           2 /* perf-domain: pad 1, perf-domain-id 2, flags 3, cpus 4 */
#define EMNL_PD_FLAGS        3
#define EMNL_PD_CPUS         4
#define EMNL_TABLE_PD_ID     1 /* perf-table: perf-domain-id 1, perf-state 2 (nest) */
#define EMNL_TABLE_STATE     2
#define EMNL_PS_PERFORMANCE  2 /* perf-state: pad 1, performance 2, frequency 3, power 4, cost 5, flags 6 */
#define EMNL_PS_FREQUENCY    3
#define EMNL_PS_POWER        4
#define EMNL_PS_COST         5
#define EMNL_PS_FLAGS        6
#define EMNL_PS_INEFFICIENT  1
#define EMNL_PD_MICROWATTS   1

#define NL_BUF (64 * 1024)

struct nl {
	int fd;
	__u16 family;
	__u32 seq;
	unsigned char buf[NL_BUF];
};

/* Send one generic netlink request with at most one u32 or string attribute. */
static int nl_request(struct nl *n, __u16 type, __u16 flags, __u8 cmd, __u16 attr, const void *val,
		      size_t vlen)
{
	unsigned char msg[256] = { 0 };
	struct nlmsghdr *h = (void *)msg;
	struct genlmsghdr *g = NLMSG_DATA(h);
	size_t len = NLMSG_LENGTH(GENL_HDRLEN);

	if (attr) {
		struct nlattr *a = (void *)(msg + NLMSG_ALIGN(len));

		if (NLMSG_ALIGN(len) + NLA_HDRLEN + NLA_ALIGN(vlen) > sizeof(msg))
			return -EMSGSIZE;
		a->nla_type = attr;
		a->nla_len = (__u16)(NLA_HDRLEN + vlen);
		memcpy((unsigned char *)a + NLA_HDRLEN, val, vlen);
		len = NLMSG_ALIGN(len) + NLA_ALIGN(a->nla_len);
	}
	h->nlmsg_len = (__u32)len;
	h->nlmsg_type = type;
	h->nlmsg_flags = NLM_F_REQUEST | flags;
	h->nlmsg_seq = ++n->seq;
	g->cmd = cmd;
	g->version = 1;
	struct sockaddr_nl to = { .nl_family = AF_NETLINK };
	return sendto(n->fd, msg, len, 0, (struct sockaddr *)&to, sizeof(to)) < 0 ? -errno : 0;
}

/* An attribute's u64 (nla_put_u64_64bit) or u32/u16 payload, widened. */
static __u64 nla_uint(const struct nlattr *a)
{
	size_t plen = a->nla_len - NLA_HDRLEN;
	const unsigned char *p = (const unsigned char *)a + NLA_HDRLEN;
	__u64 v = 0;

	if (plen >= 8)
		memcpy(&v, p, 8);
	else if (plen >= 4) {
		__u32 x;
		memcpy(&x, p, 4);
		v = x;
	} else if (plen >= 2) {
		__u16 x;
		memcpy(&x, p, 2);
		v = x;
	}
	return v;
}

#define for_each_nla(a, start, end)                                                                \
	for (const struct nlattr *a = (const void *)(start);                                       \
	     (const unsigned char *)a + NLA_HDRLEN <= (const unsigned char *)(end) &&              \
	     a->nla_len >= NLA_HDRLEN && (const unsigned char *)a + a->nla_len <= (const unsigned char *)(end); \
	     a = (const void *)((const unsigned char *)a + NLA_ALIGN(a->nla_len)))

/* The callback of nl_receive: one message's attributes. */
typedef int (*nl_msg_fn)(void *ctx, const unsigned char *attrs, const unsigned char *end);

/* Read replies to the last request until it is answered (NLMSG_DONE for a dump). */
static int nl_receive(struct nl *n, bool dump, nl_msg_fn fn, void *ctx)
{
	for (;;) {
		ssize_t got = recv(n->fd, n->buf, sizeof(n->buf), 0);

		if (got < 0)
			return -errno;
		for (struct nlmsghdr *h = (void *)n->buf; NLMSG_OK(h, (size_t)got); h = NLMSG_NEXT(h, got)) {
			if (h->nlmsg_seq != n->seq)
				continue;
			if (h->nlmsg_type == NLMSG_DONE)
				return 0;
			if (h->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = NLMSG_DATA(h);
				return e->error; /* 0: an acknowledgement */
			}
			const unsigned char *attrs = (const unsigned char *)NLMSG_DATA(h) + GENL_HDRLEN;
			int rc = fn(ctx, attrs, (const unsigned char *)h + h->nlmsg_len);

			if (rc)
				return rc;
			if (!dump)
				return 0;
		}
	}
}

static int family_id(void *ctx, const unsigned char *attrs, const unsigned char *end)
{
	for_each_nla(a, attrs, end)
		if ((a->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_FAMILY_ID)
			*(__u16 *)ctx = (__u16)nla_uint(a);
	return 0;
}

struct pds {
	int nr;
	__u32 id[FS_MAX_PDS * 4];
	__u64 flags[FS_MAX_PDS * 4], cpus[FS_MAX_PDS * 4];
	bool too_many_cpus;
};

static int one_pd(void *ctx, const unsigned char *attrs, const unsigned char *end)
{
	struct pds *p = ctx;

	if (p->nr == (int)(sizeof(p->id) / sizeof(p->id[0])))
		return -E2BIG;
	p->id[p->nr] = 0;
	p->flags[p->nr] = p->cpus[p->nr] = 0;
	for_each_nla(a, attrs, end) {
		__u64 v = nla_uint(a);

		switch (a->nla_type & NLA_TYPE_MASK) {
		case EMNL_PD_ID:
			p->id[p->nr] = (__u32)v;
			break;
		case EMNL_PD_FLAGS:
			p->flags[p->nr] = v;
			break;
		case EMNL_PD_CPUS:
			if (v < FS_MAX_CPUS)
				p->cpus[p->nr] |= 1ull << v;
			else
				p->too_many_cpus = true;
			break;
		}
	}
	p->nr++;
	return 0;
}

struct table {
	struct fs_em_pd *pd;
	bool overflow;
};

static int one_table(void *ctx, const unsigned char *attrs, const unsigned char *end)
{
	struct table *t = ctx;

	for_each_nla(a, attrs, end) {
		if ((a->nla_type & NLA_TYPE_MASK) != EMNL_TABLE_STATE)
			continue;
		if (t->pd->nr_ps == FS_MAX_PS) {
			t->overflow = true;
			continue;
		}
		struct fs_em_ps *ps = &t->pd->ps[t->pd->nr_ps++];

		for_each_nla(s, (const unsigned char *)a + NLA_HDRLEN, (const unsigned char *)a + a->nla_len) {
			__u64 v = nla_uint(s);

			switch (s->nla_type & NLA_TYPE_MASK) {
			case EMNL_PS_PERFORMANCE: ps->performance = v; break;
			case EMNL_PS_FREQUENCY: ps->frequency = v; break;
			case EMNL_PS_POWER: ps->power = v; break;
			case EMNL_PS_COST: ps->cost = v; break;
			case EMNL_PS_FLAGS: ps->inefficient = (v & EMNL_PS_INEFFICIENT) ? 1 : 0; break;
			}
		}
	}
	return 0;
}

/* /sys/devices/system/cpu/cpuN/cpu_capacity of every CPU in mask. */
static int read_capacities(__u64 mask, struct fs_em *em, char *err, size_t errlen)
{
	for (int cpu = 0; cpu < FS_MAX_CPUS; cpu++) {
		char path[96], buf[32] = "";
		__u64 cap;
		FILE *f;

		if (!(mask & (1ull << cpu)))
			continue;
		snprintf(path, sizeof(path), FS_SYSFS_CPU "/cpu%d/cpu_capacity", cpu);
		f = fopen(path, "r");
		if (!f)
			return ERR("%s: cannot open: %s", path, strerror(errno));
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
		buf[strcspn(buf, "\n")] = '\0';
		if (fs_parse_u64(buf, &cap) || !cap || cap > FS_SCHED_CAPACITY_SCALE)
			return ERR("%s: cpu_capacity: '%s', want 1..%d", path, buf, FS_SCHED_CAPACITY_SCALE);
		em->capacity[cpu] = (__u32)cap;
	}
	return 0;
}

static int by_first_cpu(const void *a, const void *b)
{
	const struct fs_em_pd *x = a, *y = b;

	return fs_em_pd_first_cpu(x) - fs_em_pd_first_cpu(y);
}

int fs_em_read_netlink(struct fs_em *em, char *err, size_t errlen)
{
	static struct nl n;
	static struct pds pds;
	struct sockaddr_nl me = { .nl_family = AF_NETLINK };
	struct utsname u;
	__u64 all = 0;
	int rc;

	memset(em, 0, sizeof(*em));
	memset(&pds, 0, sizeof(pds));
	n.seq = 0;
	n.family = 0;
	n.fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (n.fd < 0)
		return ERR("netlink %s: socket: %s", EMNL_NAME, strerror(errno));
	if (bind(n.fd, (struct sockaddr *)&me, sizeof(me))) {
		rc = ERR("netlink %s: bind: %s", EMNL_NAME, strerror(errno));
		goto out;
	}
	rc = nl_request(&n, GENL_ID_CTRL, 0, CTRL_CMD_GETFAMILY, CTRL_ATTR_FAMILY_NAME, EMNL_NAME,
			sizeof(EMNL_NAME));
	if (!rc)
		rc = nl_receive(&n, false, family_id, &n.family);
	if (rc == -ENOENT || (!rc && !n.family)) {
		rc = 1; /* no such family: before v6.19, or no CONFIG_ENERGY_MODEL */
		fs_em_errf(err, errlen, "netlink: no %s family (a kernel before 6.19, or without "
			   "CONFIG_ENERGY_MODEL)", EMNL_NAME);
		goto out;
	}
	if (rc) {
		rc = ERR("netlink %s: resolving the family: %s", EMNL_NAME, strerror(-rc));
		goto out;
	}
	rc = nl_request(&n, n.family, NLM_F_DUMP, EMNL_CMD_GET_PDS, 0, NULL, 0);
	if (!rc)
		rc = nl_receive(&n, true, one_pd, &pds);
	if (rc) {
		rc = ERR("netlink %s: get-perf-domains: %s", EMNL_NAME,
			 rc == -E2BIG ? "more performance domains than feecscope holds" : strerror(-rc));
		goto out;
	}
	if (pds.too_many_cpus) {
		rc = ERR("netlink %s: get-perf-domains: a CPU beyond FS_MAX_CPUS (%d)", EMNL_NAME, FS_MAX_CPUS);
		goto out;
	}
	for (int i = 0; i < pds.nr; i++) {
		struct fs_em_pd *pd;
		struct table t;

		if (!pds.cpus[i])
			continue; /* a devfreq device (GPU, DSP...), not a CPU performance domain */
		if (em->nr_pd == FS_MAX_PDS) {
			rc = ERR("netlink %s: more than %d CPU performance domains (FS_MAX_PDS)", EMNL_NAME,
				 FS_MAX_PDS);
			goto out;
		}
		pd = &em->pd[em->nr_pd++];
		pd->cpus = pds.cpus[i];
		all |= pd->cpus;
		/* the name debugfs gives it: dev_name() of the first CPU */
		fs_snprintf(pd->name, sizeof(pd->name), "cpu%d", fs_em_pd_first_cpu(pd));
		pd->flags = (__u32)(pds.flags[i] & (FS_EM_PD_MICROWATTS | FS_EM_PD_SKIP_INEFFICIENT |
						    FS_EM_PD_ARTIFICIAL));
		pd->has_inefficient = true;
		/* v6.19+: not microwatts means "some other scale" */
		em->unit = (pds.flags[i] & EMNL_PD_MICROWATTS) ? FS_POWER_UW : FS_POWER_BOGO;
		t = (struct table){ .pd = pd };
		rc = nl_request(&n, n.family, 0, EMNL_CMD_GET_TABLE, EMNL_TABLE_PD_ID, &pds.id[i], sizeof(__u32));
		if (!rc)
			rc = nl_receive(&n, false, one_table, &t);
		if (rc || t.overflow || !pd->nr_ps) {
			rc = ERR("netlink %s: get-perf-table of domain %u (%s): %s", EMNL_NAME, pds.id[i], pd->name,
				 rc ? strerror(-rc) : t.overflow ? "more than FS_MAX_PS states" : "no states");
			goto out;
		}
	}
	if (!em->nr_pd) {
		rc = ERR("netlink %s: no CPU performance domains", EMNL_NAME);
		goto out;
	}
	qsort(em->pd, em->nr_pd, sizeof(em->pd[0]), by_first_cpu);
	if ((rc = read_capacities(all, em, err, errlen)))
		goto out;
	if (!uname(&u))
		fs_strlcpy(em->kernel, u.release, sizeof(em->kernel));
	fs_snprintf(em->source, sizeof(em->source), "netlink %s; capacities %s/cpuN/cpu_capacity", EMNL_NAME,
		    FS_SYSFS_CPU);
	rc = fs_em_finalize(em, err, errlen);
out:
	close(n.fd);
	return rc;
}
