# Adds LISA's cfs_rq events and wake-up PELT to a tracefs text trace
# (tests/cli/trace.sh): before each CPU's first event, its root cfs_rq's
# sched_pelt_cfs (util = 400 + 200 x cpu), a task group's (path
# /autogroup-7, util 999: to be left) and the root's sched_util_est_cfs;
# after each sched_wakeup / sched_wakeup_new, the task's sched_pelt_se
# (util = 50 + pid % 300), as the enqueue's update_load_avg() fires it
# before the task runs. -v lisa=1 writes the lisa module's names and
# layouts ("lisa__" names, runnable= last: lisa/_assets/kmodules/lisa/
# ftrace_events.h), else sched_tp's (lisa/_assets/kmodules/sched_tp/
# ftrace_events.h).
function cfs(cpu, path, u) {
	if (lisa)
		return sprintf("lisa__sched_pelt_cfs: cpu=%d path=%s load=%d util=%d update_time=1 runnable=%d", cpu, path, u, u, u)
	return sprintf("sched_pelt_cfs: cpu=%d path=%s load=%d runnable=%d util=%d update_time=1", cpu, path, u, u, u)
}
function se(cpu, comm, pid, u) {
	if (lisa)
		return sprintf("lisa__sched_pelt_se: cpu=%d path=(null) comm=%s pid=%s load=%d util=%d update_time=1 runnable=%d", cpu, comm, pid, u, u, u)
	return sprintf("sched_pelt_se: cpu=%d path=(null) comm=%s pid=%s load=%d runnable=%d util=%d update_time=1", cpu, comm, pid, u, u, u)
}
/^ *[^#].*\[[0-9]+\] / {
	match($0, /\[[0-9]+\]/)
	cpu = substr($0, RSTART + 1, RLENGTH - 2) + 0
	ts = ""
	for (i = 1; i <= NF; i++)
		if ($i ~ /^[0-9]+\.[0-9]+:$/)
			ts = $i
	if (ts != "" && !(cpu in seen)) {
		seen[cpu] = 1
		pre = sprintf("          <idle>-0       (-------) [%03d] d..1. %s ", cpu, ts)
		print pre cfs(cpu, "/", 400 + 200 * cpu)
		print pre cfs(cpu, "/autogroup-7", 999)
		print pre sprintf("%ssched_util_est_cfs: cpu=%d path=/ enqueued=%d ewma=%d util=%d", lisa ? "lisa__" : "", cpu, 100, 150, 400 + 200 * cpu)
	}
}
{ print }
/^ *[^#].*\[[0-9]+\].* sched_wakeup(_new)?: / {
	pid = ""
	for (i = 1; i <= NF; i++) {
		if ($i ~ /^pid=/)
			pid = substr($i, 5)
		if ($i ~ /^comm=/)
			comm = substr($i, 6)
		if ($i ~ /^target_cpu=/)
			tcpu = substr($i, 12) + 0
	}
	if (pid != "")
		print sprintf("          <idle>-0       (-------) [%03d] d..1. %s ", tcpu, ts) se(tcpu, comm, pid, 50 + pid % 300)
}
