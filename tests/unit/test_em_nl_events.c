// SPDX-License-Identifier: GPL-2.0
/*
 * The dev-energymodel change notifications (v6.19+ em_notify_pd_*()) and the
 * family look-up's multicast group, from hand-built netlink messages; and
 * the watch falling back to polling on a kernel without the family.
 */
#include <sys/utsname.h>
#include "test.h"
#include "em/em_io.h"
#include "em/em_nl.h"

#define FAMILY 0x1a

struct msg {
	unsigned char b[4096];
	size_t len;   /* of the whole buffer */
	size_t start; /* of the message being built */
	size_t nest[4];
	int depth;
};

static void align(struct msg *m)
{
	while (m->len % 4)
		m->b[m->len++] = 0;
}

static void begin(struct msg *m, __u16 type, __u8 cmd)
{
	struct nlmsghdr h = { .nlmsg_type = type, .nlmsg_seq = 0 };
	struct genlmsghdr g = { .cmd = cmd, .version = 1 };

	align(m);
	m->start = m->len;
	memcpy(m->b + m->len, &h, sizeof(h));
	m->len += NLMSG_HDRLEN;
	memcpy(m->b + m->len, &g, sizeof(g));
	m->len += GENL_HDRLEN;
}

static void end(struct msg *m)
{
	__u32 len = (__u32)(m->len - m->start);

	memcpy(m->b + m->start, &len, sizeof(len)); /* nlmsg_len is the first field */
	align(m);
}

static void attr(struct msg *m, __u16 type, const void *val, size_t vlen)
{
	struct nlattr a = { .nla_len = (__u16)(NLA_HDRLEN + vlen), .nla_type = type };

	memcpy(m->b + m->len, &a, sizeof(a));
	if (vlen)
		memcpy(m->b + m->len + NLA_HDRLEN, val, vlen);
	m->len += NLA_HDRLEN + vlen;
	align(m);
}

static void u32_attr(struct msg *m, __u16 type, __u32 v)
{
	attr(m, type, &v, sizeof(v));
}

/* nla_put_u64_64bit: a pad attribute (type 1) first where the u64 would not start 8-byte aligned. */
static void u64_attr(struct msg *m, __u16 type, __u64 v)
{
	if ((m->len + NLA_HDRLEN) % 8)
		attr(m, 1, NULL, 0);
	attr(m, type, &v, sizeof(v));
}

static void nest_begin(struct msg *m, __u16 type)
{
	m->nest[m->depth++] = m->len;
	attr(m, type | NLA_F_NESTED, NULL, 0);
}

static void nest_end(struct msg *m)
{
	size_t at = m->nest[--m->depth];
	__u16 len = (__u16)(m->len - at);

	memcpy(m->b + at, &len, sizeof(len));
}

/* A perf-table notification: the domain's id and nstates states. */
static void table_msg(struct msg *m, __u8 cmd, __u32 pd, int nstates)
{
	begin(m, FAMILY, cmd);
	u32_attr(m, EMNL_TABLE_PD_ID, pd);
	for (int s = 0; s < nstates; s++) {
		nest_begin(m, EMNL_TABLE_STATE);
		u64_attr(m, EMNL_PS_PERFORMANCE, 256u * (s + 1));
		u64_attr(m, EMNL_PS_FREQUENCY, 500000u * (s + 1));
		u64_attr(m, EMNL_PS_POWER, 100000u * (s + 1) * (s + 1));
		u64_attr(m, EMNL_PS_COST, 0);
		u64_attr(m, EMNL_PS_FLAGS, 0);
		nest_end(m);
	}
	end(m);
}

FS_TEST(em_nl_an_updated_domain_is_one_notification_with_its_states)
{
	static struct msg m;
	struct fs_em_nl_events ev = { 0 };
	char err[200] = "";

	table_msg(&m, EMNL_CMD_PD_UPDATED, 3, 4);
	EXPECT_EQ(fs_em_nl_parse_events(m.b, m.len, FAMILY, &ev, err, sizeof(err)), 1);
	EXPECT_EQ(ev.updated, 1);
	EXPECT_EQ(ev.created + ev.deleted, 0);
	EXPECT_EQ(ev.last_pd, 3);
	EXPECT_EQ(ev.last_states, 4);
}

/* One recv() can bring several messages; other families' and replies are not changes. */
FS_TEST(em_nl_counts_each_kind_and_skips_what_is_not_a_notification)
{
	static struct msg m;
	struct fs_em_nl_events ev = { 0 };
	char err[200] = "";

	begin(&m, FAMILY + 1, EMNL_CMD_PD_UPDATED); /* another family's command 4 */
	u32_attr(&m, EMNL_TABLE_PD_ID, 9);
	end(&m);
	table_msg(&m, EMNL_CMD_GET_TABLE, 7, 2);    /* a reply to someone's get-perf-table */
	table_msg(&m, EMNL_CMD_PD_CREATED, 0, 2);
	begin(&m, FAMILY, EMNL_CMD_PD_DELETED);
	u32_attr(&m, EMNL_TABLE_PD_ID, 5);
	end(&m);
	EXPECT_EQ(fs_em_nl_parse_events(m.b, m.len, FAMILY, &ev, err, sizeof(err)), 2);
	EXPECT_EQ(ev.created, 1);
	EXPECT_EQ(ev.updated, 0);
	EXPECT_EQ(ev.deleted, 1);
	EXPECT_EQ(ev.last_pd, 5);
	EXPECT_EQ(ev.last_states, 0);
	/* counts add up over calls */
	EXPECT_EQ(fs_em_nl_parse_events(m.b, m.len, FAMILY, &ev, err, sizeof(err)), 2);
	EXPECT_EQ(ev.created, 2);
	/* none of it is this family's when the family id differs */
	memset(&ev, 0, sizeof(ev));
	EXPECT_EQ(fs_em_nl_parse_events(m.b, m.len, FAMILY + 2, &ev, err, sizeof(err)), 0);
	EXPECT_EQ(ev.created + ev.updated + ev.deleted, 0);
}

FS_TEST(em_nl_a_truncated_or_anonymous_notification_is_an_error)
{
	static struct msg m;
	struct fs_em_nl_events ev = { 0 };
	char err[200] = "";

	table_msg(&m, EMNL_CMD_PD_UPDATED, 1, 2);
	EXPECT_EQ(fs_em_nl_parse_events(m.b, m.len - 8, FAMILY, &ev, err, sizeof(err)), -1);
	EXPECT_CONTAINS(err, "dev-energymodel event");
	EXPECT_EQ(fs_em_nl_parse_events(m.b, 10, FAMILY, &ev, err, sizeof(err)), -1);
	memset(&m, 0, sizeof(m));
	begin(&m, FAMILY, EMNL_CMD_PD_UPDATED);
	u64_attr(&m, EMNL_PS_POWER, 1); /* no perf-domain-id */
	end(&m);
	err[0] = '\0';
	EXPECT_EQ(fs_em_nl_parse_events(m.b, m.len, FAMILY, &ev, err, sizeof(err)), -1);
	EXPECT_CONTAINS(err, "no perf-domain-id");
	EXPECT_EQ(ev.updated, 0);
}

/* The controller's CTRL_CMD_GETFAMILY reply: the family id and the "event" group's id. */
FS_TEST(em_nl_family_reply_gives_the_event_group)
{
	static struct msg m;
	static struct fs_nl n;
	const __u16 fam = FAMILY;

	begin(&m, GENL_ID_CTRL, CTRL_CMD_NEWFAMILY);
	attr(&m, CTRL_ATTR_FAMILY_NAME, EMNL_NAME, sizeof(EMNL_NAME));
	attr(&m, CTRL_ATTR_FAMILY_ID, &fam, sizeof(fam));
	nest_begin(&m, CTRL_ATTR_MCAST_GROUPS);
	nest_begin(&m, 1);
	attr(&m, CTRL_ATTR_MCAST_GRP_NAME, "events", sizeof("events")); /* not ours: a longer name */
	u32_attr(&m, CTRL_ATTR_MCAST_GRP_ID, 11);
	nest_end(&m);
	nest_begin(&m, 2);
	u32_attr(&m, CTRL_ATTR_MCAST_GRP_ID, 12);
	attr(&m, CTRL_ATTR_MCAST_GRP_NAME, "event", sizeof("event"));
	nest_end(&m);
	nest_end(&m);
	end(&m);
	EXPECT_EQ(fs_nl_family_attrs(&n, m.b + NLMSG_HDRLEN + GENL_HDRLEN, m.b + m.len), 0);
	EXPECT_EQ(n.family, FAMILY);
	EXPECT_EQ(n.event_group, 12);
}

/* This machine's kernel: before 6.19 there is no family, and the watch polls and says why. */
FS_TEST(em_watch_falls_back_to_polling_without_the_family)
{
	struct utsname u;
	int major = 0, minor = 0;
	struct fs_em_watch *w = fs_em_watch_new(true);

	ASSERT_TRUE(w != NULL);
	ASSERT_TRUE(uname(&u) == 0 && sscanf(u.release, "%d.%d", &major, &minor) == 2);
	if (major < 6 || (major == 6 && minor < 19)) {
		EXPECT_TRUE(fs_em_watch_polls(w));
		EXPECT_CONTAINS(fs_em_watch_how(w), "no dev-energymodel netlink family");
	}
	if (fs_em_watch_polls(w)) {
		EXPECT_CONTAINS(fs_em_watch_how(w), "re-read every interval");
		EXPECT_EQ(fs_em_watch_pending(w), 0);
	} else {
		EXPECT_STR(fs_em_watch_how(w), "netlink dev-energymodel notifications");
	}
	fs_em_watch_free(w);

	w = fs_em_watch_new(false);
	ASSERT_TRUE(w != NULL);
	EXPECT_TRUE(fs_em_watch_polls(w));
	EXPECT_EQ(fs_em_watch_pending(w), 0);
	fs_em_watch_free(w);
}
