// SPDX-License-Identifier: GPL-2.0
/* Generic netlink plumbing for the dev-energymodel family (em_nl.h). */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include "em_internal.h"
#include "em_nl.h"

#define ERR(...) (fs_em_errf(err, errlen, __VA_ARGS__), -1)

/* One u32 or string attribute at most: all the family's requests need. */
int fs_nl_request(struct fs_nl *n, __u16 type, __u16 flags, __u8 cmd, __u16 attr, const void *val,
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

__u64 fs_nla_uint(const struct nlattr *a)
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

int fs_nl_receive(struct fs_nl *n, bool dump, fs_nl_msg_fn fn, void *ctx)
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

/* One CTRL_ATTR_MCAST_GROUPS entry: the "event" group's id. */
static void mcast_group(struct fs_nl *n, const struct nlattr *grp)
{
	const char *name = NULL;
	size_t nlen = 0;
	__u32 id = 0;

	fs_for_each_nla(a, (const unsigned char *)grp + NLA_HDRLEN, (const unsigned char *)grp + grp->nla_len) {
		if ((a->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_MCAST_GRP_NAME) {
			name = (const char *)a + NLA_HDRLEN;
			nlen = a->nla_len - NLA_HDRLEN;
		} else if ((a->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_MCAST_GRP_ID) {
			id = (__u32)fs_nla_uint(a);
		}
	}
	/* the name attribute holds the string and its NUL */
	if (name && nlen == sizeof(EMNL_EVENT_GROUP) && !memcmp(name, EMNL_EVENT_GROUP, nlen))
		n->event_group = id;
}

int fs_nl_family_attrs(void *ctx, const unsigned char *attrs, const unsigned char *end)
{
	struct fs_nl *n = ctx;

	fs_for_each_nla(a, attrs, end) {
		if ((a->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_FAMILY_ID)
			n->family = (__u16)fs_nla_uint(a);
		else if ((a->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_MCAST_GROUPS)
			fs_for_each_nla(g, (const unsigned char *)a + NLA_HDRLEN, (const unsigned char *)a + a->nla_len)
				mcast_group(n, g);
	}
	return 0;
}

int fs_nl_open_em(struct fs_nl *n, char *err, size_t errlen)
{
	struct sockaddr_nl me = { .nl_family = AF_NETLINK };
	int rc;

	n->seq = 0;
	n->family = 0;
	n->event_group = 0;
	n->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (n->fd < 0)
		return ERR("netlink %s: socket: %s", EMNL_NAME, strerror(errno));
	if (bind(n->fd, (struct sockaddr *)&me, sizeof(me))) {
		rc = ERR("netlink %s: bind: %s", EMNL_NAME, strerror(errno));
		goto fail;
	}
	rc = fs_nl_request(n, GENL_ID_CTRL, 0, CTRL_CMD_GETFAMILY, CTRL_ATTR_FAMILY_NAME, EMNL_NAME,
			   sizeof(EMNL_NAME));
	if (!rc)
		rc = fs_nl_receive(n, false, fs_nl_family_attrs, n);
	if (rc == -ENOENT || (!rc && !n->family)) {
		fs_em_errf(err, errlen, "netlink: no %s family (a kernel before 6.19, or without "
			   "CONFIG_ENERGY_MODEL)", EMNL_NAME);
		rc = 1;
		goto fail;
	}
	if (rc) {
		rc = ERR("netlink %s: resolving the family: %s", EMNL_NAME, strerror(-rc));
		goto fail;
	}
	return 0;
fail:
	close(n->fd);
	n->fd = -1;
	return rc;
}
