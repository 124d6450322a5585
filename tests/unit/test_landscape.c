// SPDX-License-Identifier: GPL-2.0
/* emulate_eas: capacities from the EM, gates from the landscape; hand-worked numbers. */
#include "test.h"
#include "engine/landscape.h"

/* 2 little (cap 512) + 2 big (cap 1024), one PD each pair. */
static void small_em(struct fs_em *em)
{
	memset(em, 0, sizeof(*em));
	em->nr_cpus = 4;
	em->nr_pd = 2;
	em->pd[0].cpus = 0x3;
	em->pd[1].cpus = 0xc;
	em->capacity[0] = em->capacity[1] = 512;
	em->capacity[2] = em->capacity[3] = 1024;
	em->cpu_pd[0] = em->cpu_pd[1] = 0;
	em->cpu_pd[2] = em->cpu_pd[3] = 1;
}

static void rec(struct fs_wakeup *w, int n)
{
	memset(w, 0, sizeof(*w));
	w->hdr.type = FS_REC_WAKEUP;
	w->hdr.nr_cpus = n;
	w->hdr.size = (__u32)fs_wakeup_size(n);
	for (int c = 0; c < n; c++) {
		w->cpu[c].flags = FS_CPU_ONLINE;
		w->cpu[c].capacity = 1000;
		w->cpu[c].capacity_orig = 1000;
	}
	/* the recording machine had no EAS */
	w->flags = FS_WAKE_NO_PD | FS_WAKE_NO_ASYM;
}

FS_TEST(landscape_scales_capacity_and_opens_gates)
{
	struct fs_em em;
	struct fs_wakeup in, out;
	char err[128];
	small_em(&em);
	rec(&in, 4);
	in.cpu[0].capacity = 900; /* 10% lost to RT/IRQ on the recording machine */
	ASSERT_TRUE(fs_landscape_apply(&em, &in, true, false, &out, err, sizeof(err)) == 0);
	EXPECT_EQ(out.cpu[0].capacity, 460);       /* 900 * 512 / 1000 = 460.8 -> 460 */
	EXPECT_EQ(out.cpu[0].capacity_orig, 512);
	EXPECT_EQ(out.cpu[2].capacity, 1024);      /* 1000 * 1024 / 1000 */
	EXPECT_TRUE(out.cpu[3].flags & FS_CPU_IN_SD);
	EXPECT_EQ(out.flags & (FS_WAKE_NO_PD | FS_WAKE_NO_ASYM | FS_WAKE_OVERUTILIZED), 0);
}

FS_TEST(landscape_overutilized_boundary)
{
	struct fs_em em;
	struct fs_wakeup in, out;
	char err[128];
	small_em(&em);
	rec(&in, 4);
	in.cpu[0].capacity = 900; /* -> capacity_of 460: fits iff util*1280 < 460*1024 = 471040 */
	in.cpu[0].util_avg = 367; /* 367*1280 = 469760 < 471040: fits */
	fs_landscape_apply(&em, &in, true, false, &out, err, sizeof(err));
	EXPECT_EQ(out.flags & FS_WAKE_OVERUTILIZED, 0);
	in.cpu[0].util_avg = 368; /* 368*1280 = 471040, not < : overutilized */
	fs_landscape_apply(&em, &in, true, false, &out, err, sizeof(err));
	EXPECT_TRUE(out.flags & FS_WAKE_OVERUTILIZED);
	/* util_est counts when UTIL_EST is on, not when off */
	in.cpu[0].util_avg = 100;
	in.cpu[0].util_est = 400;
	fs_landscape_apply(&em, &in, true, false, &out, err, sizeof(err));
	EXPECT_TRUE(out.flags & FS_WAKE_OVERUTILIZED);
	in.flags |= FS_WAKE_UTIL_EST_OFF;
	fs_landscape_apply(&em, &in, true, false, &out, err, sizeof(err));
	EXPECT_EQ(out.flags & FS_WAKE_OVERUTILIZED, 0);
	/* an offline CPU never makes the system overutilized */
	in.flags &= ~FS_WAKE_UTIL_EST_OFF;
	in.cpu[0].flags = 0;
	fs_landscape_apply(&em, &in, true, false, &out, err, sizeof(err));
	EXPECT_EQ(out.flags & FS_WAKE_OVERUTILIZED, 0);
	EXPECT_EQ(out.cpu[0].flags & FS_CPU_IN_SD, 0);
}

FS_TEST(landscape_cpu_util_cfs_clamps_to_capacity_orig)
{
	struct fs_cpu c = { .util_avg = 700, .util_est = 900, .capacity_orig = 512 };
	EXPECT_EQ(fs_cpu_util_cfs(&c, true), 512);
	c.capacity_orig = 1024;
	EXPECT_EQ(fs_cpu_util_cfs(&c, true), 900);
	EXPECT_EQ(fs_cpu_util_cfs(&c, false), 700);
}

FS_TEST(landscape_symmetric_em_has_no_eas)
{
	struct fs_em em;
	struct fs_wakeup in, out;
	char err[128];
	small_em(&em);
	em.capacity[2] = em.capacity[3] = 512;
	rec(&in, 4);
	in.flags = 0;
	fs_landscape_apply(&em, &in, true, false, &out, err, sizeof(err));
	EXPECT_EQ(out.flags & (FS_WAKE_NO_PD | FS_WAKE_NO_ASYM), FS_WAKE_NO_PD | FS_WAKE_NO_ASYM);
}

FS_TEST(landscape_cpu_count_mismatch_names_both)
{
	struct fs_em em;
	struct fs_wakeup in, out;
	char err[128];
	small_em(&em);
	rec(&in, 8);
	EXPECT_EQ(fs_landscape_apply(&em, &in, true, false, &out, err, sizeof(err)), -1);
	EXPECT_STR(err, "the EM has 4 CPUs but the recording has 8");
}

FS_TEST(landscape_kernel_em_keeps_record_but_fills_unknown_rd)
{
	struct fs_em em;
	struct fs_wakeup in, out;
	char err[128];
	small_em(&em);
	rec(&in, 4);
	in.flags = FS_WAKE_EAS_UNKNOWN;
	in.cpu[1].capacity = 333;
	fs_landscape_apply(&em, &in, false, true, &out, err, sizeof(err));
	EXPECT_EQ(out.cpu[1].capacity, 333);
	EXPECT_TRUE(out.flags & FS_WAKE_OVERUTILIZED);
	fs_landscape_apply(&em, &in, false, false, &out, err, sizeof(err));
	EXPECT_EQ(out.flags & FS_WAKE_OVERUTILIZED, 0);
	in.flags = FS_WAKE_OVERUTILIZED; /* known rd: the record wins over the tracked state */
	fs_landscape_apply(&em, &in, false, false, &out, err, sizeof(err));
	EXPECT_TRUE(out.flags & FS_WAKE_OVERUTILIZED);
}
