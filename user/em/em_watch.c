// SPDX-License-Identifier: GPL-2.0
/*
 * Noticing that the kernel changed its EM at run time (em_io.h). v6.19+
 * multicasts perf-domain-created/-updated/-deleted on the dev-energymodel
 * family's "event" group (kernel/power/em_netlink.c, em_notify_pd_*()):
 * created and updated carry the domain's new perf-table, deleted its id
 * alone. Older kernels say nothing, so the caller re-reads on a timer.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include "em_internal.h"
#include "em_nl.h"

struct fs_em_watch {
	struct fs_nl nl; /* nl.fd -1: polling */
	char how[200];
	struct fs_em_nl_events ev;
};

int fs_em_nl_parse_events(const void *buf, size_t len, __u16 family, struct fs_em_nl_events *ev, char *err,
			  size_t errlen)
{
	const unsigned char *p = buf, *end = p + len;
	int seen = 0;

	while (p < end) {
		const struct nlmsghdr *h = (const void *)p;
		size_t left = (size_t)(end - p);

		if (left < sizeof(*h) || h->nlmsg_len < sizeof(*h) || h->nlmsg_len > left) {
			fs_em_errf(err, errlen, "netlink %s event: a message of %u bytes in %zu left", EMNL_NAME,
				   left < sizeof(*h) ? 0u : h->nlmsg_len, left);
			return -1;
		}
		p += NLMSG_ALIGN(h->nlmsg_len);
		if (h->nlmsg_type != family)
			continue; /* another family, or the controller */
		if (h->nlmsg_len < NLMSG_LENGTH(GENL_HDRLEN)) {
			fs_em_errf(err, errlen, "netlink %s event: %u bytes, no room for its genetlink header",
				   EMNL_NAME, h->nlmsg_len);
			return -1;
		}
		const struct genlmsghdr *g = NLMSG_DATA(h);
		const unsigned char *attrs = (const unsigned char *)g + GENL_HDRLEN;
		const unsigned char *mend = (const unsigned char *)h + h->nlmsg_len;
		__u32 id = 0;
		int states = 0;
		bool have_id = false;

		if (g->cmd != EMNL_CMD_PD_CREATED && g->cmd != EMNL_CMD_PD_UPDATED && g->cmd != EMNL_CMD_PD_DELETED)
			continue; /* a reply, not a notification */
		fs_for_each_nla(a, attrs, mend) {
			if ((a->nla_type & NLA_TYPE_MASK) == EMNL_TABLE_PD_ID && a->nla_len >= NLA_HDRLEN + 4) {
				id = (__u32)fs_nla_uint(a);
				have_id = true;
			} else if ((a->nla_type & NLA_TYPE_MASK) == EMNL_TABLE_STATE) {
				states++;
			}
		}
		if (!have_id) {
			fs_em_errf(err, errlen, "netlink %s event %u: no perf-domain-id", EMNL_NAME, g->cmd);
			return -1;
		}
		if (g->cmd == EMNL_CMD_PD_CREATED)
			ev->created++;
		else if (g->cmd == EMNL_CMD_PD_UPDATED)
			ev->updated++;
		else
			ev->deleted++;
		ev->last_pd = id;
		ev->last_states = states;
		seen++;
	}
	return seen;
}

struct fs_em_watch *fs_em_watch_new(bool try_netlink)
{
	struct fs_em_watch *w = calloc(1, sizeof(*w));
	char why[200] = "";
	int rc = 1;

	if (!w)
		return NULL;
	w->nl.fd = -1;
	if (try_netlink)
		rc = fs_nl_open_em(&w->nl, why, sizeof(why));
	if (!rc && !w->nl.event_group) {
		fs_em_errf(why, sizeof(why), "the %s family has no \"%s\" group", EMNL_NAME, EMNL_EVENT_GROUP);
		rc = -1;
	}
	if (!rc && setsockopt(w->nl.fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &w->nl.event_group,
			      sizeof(w->nl.event_group))) {
		fs_em_errf(why, sizeof(why), "joining %s's \"%s\" group: %s", EMNL_NAME, EMNL_EVENT_GROUP,
			   strerror(errno));
		rc = -1;
	}
	if (!rc && fcntl(w->nl.fd, F_SETFL, fcntl(w->nl.fd, F_GETFL) | O_NONBLOCK)) {
		fs_em_errf(why, sizeof(why), "netlink %s: O_NONBLOCK: %s", EMNL_NAME, strerror(errno));
		rc = -1;
	}
	if (!rc) {
		fs_snprintf(w->how, sizeof(w->how), "netlink %s notifications", EMNL_NAME);
		return w;
	}
	if (w->nl.fd >= 0)
		close(w->nl.fd);
	w->nl.fd = -1;
	if (rc > 0 && try_netlink)
		fs_snprintf(w->how, sizeof(w->how), "re-read every interval (no %s netlink family: kernel "
			    "before 6.19)", EMNL_NAME);
	else
		fs_snprintf(w->how, sizeof(w->how), "re-read every interval (%s)", why[0] ? why : "polling");
	return w;
}

bool fs_em_watch_polls(const struct fs_em_watch *w)
{
	return w->nl.fd < 0;
}

const char *fs_em_watch_how(const struct fs_em_watch *w)
{
	return w->how;
}

int fs_em_watch_pending(struct fs_em_watch *w)
{
	char err[200];
	int n = 0;

	if (w->nl.fd < 0)
		return 0;
	for (;;) {
		ssize_t got = recv(w->nl.fd, w->nl.buf, sizeof(w->nl.buf), MSG_DONTWAIT);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0 && errno == ENOBUFS)
			n++; /* notifications overflowed the socket: one of them was a change */
		else if (got < 0)
			return n;
		else if (got == 0)
			return n;
		else {
			int e = fs_em_nl_parse_events(w->nl.buf, (size_t)got, w->nl.family, &w->ev, err, sizeof(err));

			n += e < 0 ? 1 : e; /* an unreadable notification is still a reason to re-read */
		}
	}
}

const struct fs_em_nl_events *fs_em_watch_events(const struct fs_em_watch *w)
{
	return &w->ev;
}

void fs_em_watch_free(struct fs_em_watch *w)
{
	if (!w)
		return;
	if (w->nl.fd >= 0)
		close(w->nl.fd);
	free(w);
}
