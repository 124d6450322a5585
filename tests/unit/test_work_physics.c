// SPDX-License-Identifier: GPL-2.0
/* The A/B runner's physics (tests/ab/work_physics.h) against hand values: the lab's
 * 2+2 facts, A53 capacity 462 at 533..1844 MHz, A73 1024 at 903..2362 MHz. */
#include "test.h"
#include "../ab/work_physics.h"

static const struct fsw_rate big_top = { 1024, 2362000, 2362000 };
static const struct fsw_rate big_low = { 1024, 903000, 2362000 };
static const struct fsw_rate little_top = { 462, 1844000, 1844000 };
static const struct fsw_rate little_low = { 462, 533000, 1844000 };

FS_TEST(work_physics_time_for_capacity_and_opp)
{
	/* 1 ms of work at the biggest CPU's top OPP takes 1 ms there... */
	EXPECT_EQ_U64(fsw_time_for(1000000, big_top), 1000000);
	/* ...1024/462 ms on a little CPU at its top: 2216450.21 -> 2216451 ns... */
	EXPECT_EQ_U64(fsw_time_for(1000000, little_top), 2216451);
	/* ...x 2362/903 on the big CPU's lowest OPP: 2615725.36 -> 2615726... */
	EXPECT_EQ_U64(fsw_time_for(1000000, big_low), 2615726);
	/* ...and both on the little's lowest: 1024/462 x 1844/533 = 7668169.9 ns. */
	EXPECT_EQ_U64(fsw_time_for(1000000, little_low), 7668170);
	/* the inverse, rounded down */
	EXPECT_EQ_U64(fsw_work_of(2216451, little_top), 1000000);
	EXPECT_EQ_U64(fsw_work_of(7668170, little_low), 1000000);
	EXPECT_EQ_U64(fsw_work_of(1000, little_low), 130);  /* 130.41 */
	/* a rate that does nothing: no work, no finite time */
	struct fsw_rate none = { 0, 533000, 1844000 };
	EXPECT_EQ_U64(fsw_work_of(1000000, none), 0);
	EXPECT_EQ_U64(fsw_time_for(1, none), UINT64_MAX);
	/* a second of work on 3 GHz-class numbers does not overflow */
	struct fsw_rate fast = { 1024, 3200000, 3200000 };
	EXPECT_EQ_U64(fsw_time_for(1000000000ull, fast), 1000000000ull);
}

/* Run w to its end at one rate, each spin overshooting its target by over ns
 * (the clock read that ends it); returns the CPU time spent. */
static uint64_t run(struct fsw_work *w, struct fsw_rate r, uint64_t quantum, uint64_t over)
{
	uint64_t t = 0, s;

	while ((s = fsw_next_spin(w, r, quantum))) {
		t += s + over;
		fsw_account(w, r, s + over);
	}
	return t;
}

FS_TEST(work_physics_quanta_at_one_rate)
{
	/* 1 ms of work in 100 us quanta on the little CPU's lowest OPP: 76 full
	 * quanta, then a partial one of the 68170 ns left; the fractions of a
	 * unit each quantum leaves are carried, so the sum is exact. */
	struct fsw_work w = { .left = 1000000 };
	EXPECT_EQ_U64(run(&w, little_low, 100000, 0), 7668170);
	EXPECT_EQ(w.quanta, 77);
	EXPECT_EQ_U64(w.left, 0);
	EXPECT_EQ_U64(w.done, 1000000);
	/* A 2 us overshoot per quantum (the clock read) is credited, not lost: the
	 * work ends sooner by what the overshoots did, the busy time stays W/rate
	 * to within the last overshoot. */
	w = (struct fsw_work){ .left = 1000000 };
	uint64_t t = run(&w, little_low, 100000, 2000);
	EXPECT_TRUE(t >= 7668170 && t <= 7668170 + 2000);
	EXPECT_EQ(w.quanta, 76);
	EXPECT_TRUE(w.done >= 1000000 && w.done - 1000000 <= fsw_work_of(2000, little_low));
}

FS_TEST(work_physics_partial_quanta_across_a_frequency_change)
{
	/* 300 us of work on a big CPU, 100 us quanta. Two quanta at the top OPP
	 * (200 units), then schedutil drops the policy to 903 MHz: the last 100
	 * units take 100 x 2362/903 = 261.6 us, three quanta (100, 100, 61.6). */
	struct fsw_work w = { .left = 300000 };
	EXPECT_EQ_U64(fsw_next_spin(&w, big_top, 100000), 100000);
	EXPECT_TRUE(!fsw_account(&w, big_top, 100000));
	EXPECT_TRUE(!fsw_account(&w, big_top, 100000));
	EXPECT_EQ_U64(w.left, 100000);
	uint64_t t = run(&w, big_low, 100000, 0);
	EXPECT_EQ_U64(t, 261573);   /* ceil(100000 x 2362000 / 903000): 261572.54 */
	EXPECT_EQ(w.quanta, 5);
	EXPECT_EQ_U64(w.busy, 200000 + 261573);
	/* A quantum during which the frequency changed is credited at the rate
	 * sampled before it: here 100 us that ran half at each OPP count as top
	 * OPP work (100000 units, not 69115), an error bounded by one quantum a
	 * change; schedutil changes a policy's OPP at most every few ms. */
	w = (struct fsw_work){ .left = 100000 };
	EXPECT_TRUE(fsw_account(&w, big_top, 100000));
	EXPECT_EQ_U64(fsw_work_of(50000, big_top) + fsw_work_of(50000, big_low), 69115);
	/* A migration to a little CPU mid-work: the rest at the little's rate. */
	w = (struct fsw_work){ .left = 1000000 };
	fsw_account(&w, big_top, 500000);
	EXPECT_EQ_U64(w.left, 500000);
	EXPECT_EQ_U64(run(&w, little_top, 100000, 0), 1108226); /* 500000 x 1024/462 = 1108225.1 */
}

/* One activation asking `units` at rate r in 100 us quanta, the thread's CPU clock
 * stepping `jump` ns past the target in the quantum that ends it (under -icount,
 * another vCPU's turn); `carry` false is the runner before the ledger: each
 * activation's goal is all it asks. Returns the units it credited. */
static uint64_t activation(struct fsw_ledger *l, uint64_t units, struct fsw_rate r, uint64_t jump, bool carry)
{
	uint64_t goal, s;
	struct fsw_work w;

	if (!carry)
		l->credit = 0;
	goal = fsw_goal(l, units);
	w = (struct fsw_work){ .left = goal };
	while ((s = fsw_next_spin(&w, r, 100000)))
		fsw_account(&w, r, s + (fsw_next_spin(&w, r, UINT64_MAX) <= 100000 ? jump : 0));
	fsw_settle(l, goal, w.done);
	return w.done;
}

FS_TEST(work_physics_ledger_carries_the_last_quantums_jump)
{
	/* audio (300 us) on the little CPU's lowest OPP, a 2 ms jump in its last
	 * quantum: the work needs 2300451 ns there (fsw_time_for), the quantum
	 * ends 2 ms later, and 4300451 ns do 4300451 x 462 x 533000 / (1024 x
	 * 1844000) = 560818.5 units: 87 % more than it asked, the lab's excess. */
	struct fsw_ledger l = { 0 };
	EXPECT_EQ_U64(activation(&l, 300000, little_low, 2000000, true), 560818);
	EXPECT_EQ_U64(l.over, 260818);
	EXPECT_EQ_U64(l.credit, 260818);
	/* The next one's goal is what it asks less the credit: 39182 units, and
	 * without a jump it does just that; over the two, exactly what was asked. */
	EXPECT_EQ_U64(activation(&l, 300000, little_low, 0, true), 39182);
	EXPECT_EQ_U64(l.asked, 600000);
	EXPECT_EQ_U64(l.done, 600000);
	EXPECT_EQ_U64(l.credit, 0);
	EXPECT_EQ_U64(l.over_max, 260818);
	/* A credit larger than what an activation asks: it does nothing and the
	 * credit shrinks by what it asked (a 5 ms jump on a 300-unit activation). */
	l = (struct fsw_ledger){ 0 };
	activation(&l, 300000, little_low, 5000000, true);
	EXPECT_EQ_U64(l.credit, 652046);  /* 7300451 ns: 952046.5 units, less 300000 */
	EXPECT_EQ_U64(activation(&l, 300000, little_low, 0, true), 0);
	EXPECT_EQ_U64(l.credit, 352046);
	EXPECT_EQ(l.acts, 2);
}

FS_TEST(work_physics_ledger_keeps_a_run_to_what_it_asked)
{
	/* 200 activations of 300 units on the little CPU at its top OPP, every
	 * third with a jump of 0.5 - 3 ms in its last quantum. Before the ledger
	 * the run did the asked work plus every overshoot; with it, the asked work
	 * plus the credit left at the end, at most one overshoot. */
	struct fsw_ledger with = { 0 }, without = { 0 };
	uint64_t jumps = 0;

	for (int i = 0; i < 200; i++) {
		uint64_t j = i % 3 ? 0 : 500000 + (uint64_t)(i % 6) * 500000;
		activation(&with, 300000, little_top, j, true);
		activation(&without, 300000, little_top, j, false);
		jumps += j;
	}
	EXPECT_EQ_U64(with.asked, 60000000);
	EXPECT_EQ_U64(with.done, with.asked + with.credit);
	EXPECT_TRUE(with.credit <= with.over_max);
	/* without: the overshoots add up, 67 jumps of 0.5 or 2 ms at 462/1024 (to
	 * a unit an activation: each last spin is rounded up to a whole ns) */
	EXPECT_EQ_U64(without.done, without.asked + without.over);
	EXPECT_TRUE(without.over + 200 >= fsw_work_of(jumps, little_top) && without.over <= fsw_work_of(jumps, little_top) + 200);
	EXPECT_TRUE(without.done > without.asked + without.asked / 10);
	EXPECT_TRUE(with.done - with.asked <= with.asked / 100);
}
