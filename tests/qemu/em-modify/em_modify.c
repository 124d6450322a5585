// SPDX-License-Identifier: GPL-2.0
/*
 * em_modify: the lab's runtime-modified Energy Model (v6.9+ kernels).
 *
 * delay_ms after loading, the performance domain of CPU `cpu` gets a new table
 * through em_dev_update_perf_domain(): every state's power times power_pct / 100,
 * frequency and performance kept, cost and the inefficient flag recomputed the way
 * em_compute_costs() does for a non-artificial domain (6.12 and mainline: power * 10 /
 * performance; walking down from the top state, a cost not below the last efficient
 * one is inefficient). em_table_alloc() and em_dev_compute_costs() are declared but
 * not exported (Debian 6.12's Module.symvers; mainline's energy_model.c has no
 * EXPORT_SYMBOL for them either), so the table is allocated here the way
 * em_table_alloc() does (kzalloc, one kref) and the kernel frees it with
 * kfree_rcu() once replaced.
 *
 * Before changing anything the module recomputes the costs of the kernel's current
 * table the same way: if they differ from the kernel's, its rule is not this kernel's
 * and it refuses (-EINVAL, and says so) rather than install a table no kernel would.
 *
 * Read-only parameters tell the host what happened: changed_ns is CLOCK_BOOTTIME
 * at the update (0 until then), result its return value. The new table is printed
 * as "em_modify: new cpuN ps FREQ power P cost C inefficient I" lines.
 */
#include <linux/cpu.h>
#include <linux/device.h>
#include <linux/energy_model.h>
#include <linux/kref.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>

static unsigned int delay_ms = 5000;
module_param(delay_ms, uint, 0444);
MODULE_PARM_DESC(delay_ms, "milliseconds from loading to the update");
static unsigned int cpu;
module_param(cpu, uint, 0444);
MODULE_PARM_DESC(cpu, "a CPU of the performance domain to change");
static unsigned int power_pct = 300;
module_param(power_pct, uint, 0444);
MODULE_PARM_DESC(power_pct, "each state's new power, in percent of the old");

static unsigned long long changed_ns;
module_param(changed_ns, ullong, 0444);
MODULE_PARM_DESC(changed_ns, "CLOCK_BOOTTIME of the update, 0 before");
static int result = 1;
module_param(result, int, 0444);
MODULE_PARM_DESC(result, "1 pending, else em_dev_update_perf_domain()'s return value");

/* The kernel frees a replaced table with kfree_rcu() on its last kref_put(). */
static void table_release(struct kref *kref)
{
	kfree_rcu(container_of(kref, struct em_perf_table, kref), rcu);
}

/* v6.9+ em_compute_costs() for a non-artificial CPU domain: cost and inefficient. */
static int compute_costs(struct em_perf_state *ps, int n)
{
	unsigned long last = ULONG_MAX;
	int i;

	for (i = n - 1; i >= 0; i--) {
		if (!ps[i].performance)
			return -EINVAL;
		ps[i].cost = ps[i].power * 10 / ps[i].performance;
		ps[i].flags &= ~EM_PERF_STATE_INEFFICIENT;
		if (ps[i].cost >= last)
			ps[i].flags |= EM_PERF_STATE_INEFFICIENT;
		else
			last = ps[i].cost;
	}
	return 0;
}

static int modify(void)
{
	struct device *dev = get_cpu_device(cpu);
	struct em_perf_domain *pd = em_pd_get(dev);
	struct em_perf_table *t;
	struct em_perf_state *now;
	int n, i, ret;

	if (!pd) {
		pr_err("em_modify: CPU %u has no performance domain\n", cpu);
		return -ENODEV;
	}
	if (pd->flags & EM_PERF_DOMAIN_ARTIFICIAL) {
		pr_err("em_modify: CPU %u's domain is artificial: its costs come from its driver\n", cpu);
		return -EINVAL;
	}
	n = pd->nr_perf_states;
	t = kzalloc(struct_size(t, state, n), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	kref_init(&t->kref);
	rcu_read_lock();
	now = em_perf_state_from_pd(pd);
	memcpy(t->state, now, n * sizeof(*now));
	rcu_read_unlock();

	/* Is our cost rule this kernel's? Check it on the kernel's own table first. */
	ret = compute_costs(t->state, n);
	for (i = 0; !ret && i < n; i++) {
		rcu_read_lock();
		now = em_perf_state_from_pd(pd);
		if (t->state[i].cost != now[i].cost ||
		    (t->state[i].flags ^ now[i].flags) & EM_PERF_STATE_INEFFICIENT) {
			pr_err("em_modify: state %lu kHz: the kernel's cost %lu, ours %lu: not this kernel's rule\n",
			       now[i].frequency, now[i].cost, t->state[i].cost);
			ret = -EINVAL;
		}
		rcu_read_unlock();
	}
	for (i = 0; !ret && i < n; i++) {
		t->state[i].power = t->state[i].power * power_pct / 100;
		if (!t->state[i].power || t->state[i].power > EM_MAX_POWER)
			ret = -ERANGE;
	}
	if (!ret)
		ret = compute_costs(t->state, n);
	if (!ret)
		ret = em_dev_update_perf_domain(dev, t);
	if (!ret) {
		changed_ns = ktime_get_boottime_ns();
		for (i = 0; i < n; i++)
			pr_info("em_modify: new cpu%u ps %lu power %lu cost %lu inefficient %d\n", cpu,
				t->state[i].frequency, t->state[i].power, t->state[i].cost,
				!!(t->state[i].flags & EM_PERF_STATE_INEFFICIENT));
	}
	/* Our reference: on success the domain holds its own, else this frees it. */
	kref_put(&t->kref, table_release);
	return ret;
}

static void modify_work(struct work_struct *w)
{
	result = modify();
	pr_info("em_modify: CPU %u's domain, power x %u %%: result %d at %llu ns\n", cpu, power_pct,
		result, changed_ns);
}
static DECLARE_DELAYED_WORK(work, modify_work);

static int __init em_modify_init(void)
{
	if (cpu >= nr_cpu_ids || !power_pct)
		return -EINVAL;
	schedule_delayed_work(&work, msecs_to_jiffies(delay_ms));
	return 0;
}

static void __exit em_modify_exit(void)
{
	cancel_delayed_work_sync(&work);
}

module_init(em_modify_init);
module_exit(em_modify_exit);
MODULE_DESCRIPTION("feecscope lab: a runtime-modified Energy Model");
MODULE_LICENSE("GPL");
