# Adds LISA's sched_tp events to a tracefs text trace (tests/cli/trace.sh):
# before each task's first sched_waking / sched_wakeup, a sched_pelt_se and a
# sched_util_est_se of that task (util and ewma from its pid, so every task
# gets its own figure: util = 100 + pid % 400, ewma = util + 50), and before
# each of those a task group's sched_pelt_se (pid=-1), which must be left.
# Stamped with the wake-up's own timestamp; the field layouts are LISA's
# (lisa/_assets/kmodules/sched_tp/sched_events.h).
/^ *[^#].*\[[0-9]+\].* sched_(waking|wakeup): / {
	pid = ""
	for (i = 1; i <= NF; i++) {
		if ($i ~ /^[0-9]+\.[0-9]+:$/)
			ts = $i
		if ($i ~ /^pid=/)
			pid = substr($i, 5)
		if ($i ~ /^comm=/)
			comm = substr($i, 6)
		if ($i ~ /^target_cpu=/)
			cpu = substr($i, 12) + 0
	}
	if (pid != "" && !(pid in seen)) {
		seen[pid] = 1
		u = 100 + pid % 400
		printf "          <idle>-0       (-------) [%03d] d..1. %s sched_pelt_se: cpu=%d path=/ comm=(null) pid=-1 load=9 runnable=9 util=999 update_time=1\n", cpu, ts, cpu
		printf "          <idle>-0       (-------) [%03d] d..1. %s sched_pelt_se: cpu=%d path=(null) comm=%s pid=%s load=%d runnable=%d util=%d update_time=1\n", cpu, ts, cpu, comm, pid, u, u, u
		printf "          <idle>-0       (-------) [%03d] d..1. %s sched_util_est_se: cpu=%d path=(null) comm=%s pid=%s enqueued=%d ewma=%d util=%d\n", cpu, ts, cpu, comm, pid, u, u + 50, u
	}
}
{ print }
