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
#include "em_internal.h"
#include "em_nl.h"

#define ERR(...) (fs_em_errf(err, errlen, __VA_ARGS__), -1)

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
	fs_for_each_nla(a, attrs, end) {
		__u64 v = fs_nla_uint(a);

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

	fs_for_each_nla(a, attrs, end) {
		if ((a->nla_type & NLA_TYPE_MASK) != EMNL_TABLE_STATE)
			continue;
		if (t->pd->nr_ps == FS_MAX_PS) {
			t->overflow = true;
			continue;
		}
		struct fs_em_ps *ps = &t->pd->ps[t->pd->nr_ps++];

		fs_for_each_nla(s, (const unsigned char *)a + NLA_HDRLEN, (const unsigned char *)a + a->nla_len) {
			__u64 v = fs_nla_uint(s);

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
	static struct fs_nl n;
	static struct pds pds;
	struct utsname u;
	__u64 all = 0;
	int rc;

	memset(em, 0, sizeof(*em));
	memset(&pds, 0, sizeof(pds));
	rc = fs_nl_open_em(&n, err, errlen);
	if (rc)
		return rc;
	rc = fs_nl_request(&n, n.family, NLM_F_DUMP, EMNL_CMD_GET_PDS, 0, NULL, 0);
	if (!rc)
		rc = fs_nl_receive(&n, true, one_pd, &pds);
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
		rc = fs_nl_request(&n, n.family, 0, EMNL_CMD_GET_TABLE, EMNL_TABLE_PD_ID, &pds.id[i], sizeof(__u32));
		if (!rc)
			rc = fs_nl_receive(&n, false, one_table, &t);
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
