/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private to user/em/: the generic netlink plumbing the dev-energymodel
 * reader (em_netlink.c) and the change watch (em_watch.c) share. The
 * family's numbers are those of include/uapi/linux/dev_energymodel.h
 * (v6.19+, family version 1). Plain sockets: no libnl in the static binary.
 */
#ifndef FEECSCOPE_EM_NL_H
#define FEECSCOPE_EM_NL_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#define EMNL_NAME            "dev-energymodel"
#define EMNL_EVENT_GROUP     "event" /* the multicast group of the three notifications */
#define EMNL_CMD_GET_PDS     1
#define EMNL_CMD_GET_TABLE   2
#define EMNL_CMD_PD_CREATED  3 /* notification: a perf-table (domain id, every state) */
#define EMNL_CMD_PD_UPDATED  4 /* notification: a perf-table, the domain's new states */
#define EMNL_CMD_PD_DELETED  5 /* notification: the domain id alone */
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

#define EMNL_BUF (64 * 1024)

struct fs_nl {
	int fd;
	__u16 family;
	__u32 event_group; /* 0: the family has no "event" group */
	__u32 seq;
	unsigned char buf[EMNL_BUF];
};

/* Every attribute between start and end that fits whole (a short or overlong one ends the walk). */
#define fs_for_each_nla(a, start, end)                                                             \
	for (const struct nlattr *a = (const void *)(start);                                       \
	     (const unsigned char *)a + NLA_HDRLEN <= (const unsigned char *)(end) &&              \
	     a->nla_len >= NLA_HDRLEN && (const unsigned char *)a + a->nla_len <= (const unsigned char *)(end); \
	     a = (const void *)((const unsigned char *)a + NLA_ALIGN(a->nla_len)))

/* An attribute's u64 (nla_put_u64_64bit) or u32/u16 payload, widened. */
__u64 fs_nla_uint(const struct nlattr *a);

/* Send one generic netlink request with at most one attribute (attr 0: none). */
int fs_nl_request(struct fs_nl *n, __u16 type, __u16 flags, __u8 cmd, __u16 attr, const void *val,
		  size_t vlen);

/* The callback of fs_nl_receive: one message's attributes. */
typedef int (*fs_nl_msg_fn)(void *ctx, const unsigned char *attrs, const unsigned char *end);

/* Read replies to the last request until it is answered (NLMSG_DONE for a dump). */
int fs_nl_receive(struct fs_nl *n, bool dump, fs_nl_msg_fn fn, void *ctx);

/*
 * The attributes of a CTRL_CMD_GETFAMILY reply: family id and the id of the
 * "event" multicast group (fs_nl_msg_fn; ctx is the struct fs_nl).
 */
int fs_nl_family_attrs(void *ctx, const unsigned char *attrs, const unsigned char *end);

/*
 * Open a generic netlink socket and resolve dev-energymodel: 0; 1 when the
 * kernel has no such family (err says so, n->fd closed); -1 on any other
 * error (n->fd closed).
 */
int fs_nl_open_em(struct fs_nl *n, char *err, size_t errlen);

#endif /* FEECSCOPE_EM_NL_H */
