# Sourced by the lab guest's /init (tests/qemu/guest-init.sh) through the
# /lab/steps.sh that tests/lab/trace.sh writes: one run recorded twice.
# trace_run SECONDS: `feecscope live --record` starts; once it is attached
# tracefs records the events of docs/traces.md (clock mono, the clock of
# feecscope's records; the tgid column) while rt-app runs /lab/workload.json,
# and stops before live does, so the workload lies inside both windows and
# the trace's window inside the recording's. Then tracing stops and the one
# buffer is kept twice: as tracefs text (the `trace` file, read without
# consuming it) and, where /lab/trace-cmd is, as trace.dat (`trace-cmd
# extract`, which consumes it). Files in /out: live.rec, live.out/.err/.rc,
# rt-app.log/.rc, trace.txt.gz, trace.tstats (ring overruns: must be 0),
# trace.dat, trace-cmd.out/.err/.rc, guest.em (the EM the trace is read with).
T=/sys/kernel/tracing
# sched_stat_runtime (skipped by the readers) is the kernel's own CPU-time charge:
# the host compares it with the switches' (tests/tools/trace_agree.py)
TRACE_EVENTS="sched/sched_switch sched/sched_waking sched/sched_wakeup
sched/sched_wakeup_new sched/sched_migrate_task sched/sched_process_fork
sched/sched_process_exit task/task_newtask task/task_rename
power/cpu_frequency power/cpu_idle sched/sched_stat_runtime"

trace_run() {
	secs=$1
	feecscope em --save /out/guest.em >/out/em-save.out 2>&1
	echo 0 >$T/tracing_on
	echo mono >$T/trace_clock
	echo ${TRACE_BUF_KB:-16384} >$T/buffer_size_kb
	echo 1 >$T/options/record-tgid
	for e in $TRACE_EVENTS; do
		echo 1 >$T/events/$e/enable || echo "$e" >>/out/trace-missing
	done
	echo >$T/trace
	feecscope live --duration $((secs + 300)) --record /out/live.rec \
		>/out/live.out 2>/out/live.err &
	fs=$!
	i=0
	while [ $i -lt 900 ] && ! grep -q '^feecscope live: kernel' /out/live.out 2>/dev/null; do
		kill -0 $fs 2>/dev/null || break
		sleep 0.1; i=$((i + 1))
	done
	# The trace's window inside the recording's: the collector's start-up (hundreds
	# of ms of CPU) and this wait are left out of both workloads' verdicts alike.
	echo 1 >$T/tracing_on
	# Each CPU's frequency known from the trace's start: a trace tells it only from
	# the CPU's first cpu_frequency on, and the reader takes the top OPP before it
	# (on this guest the CPUs start at 1402 and 1805 MHz: the first activations read
	# up to 31 % more work than their PELT). A policy's floor raised to its top moves
	# it there, traced, or finds it there, as assumed (cpufreq_policy_apply_limits()
	# from sugov_limits(), kernel/sched/cpufreq_schedutil.c, v6.1); schedutil takes
	# over at its next update once the floor is back.
	for p in /sys/devices/system/cpu/cpufreq/policy*; do
		lo=$(cat $p/scaling_min_freq) || continue
		cat $p/cpuinfo_max_freq >$p/scaling_min_freq
		echo "$lo" >$p/scaling_min_freq
	done
	rt-app /lab/workload.json >/out/rt-app.log 2>&1
	echo $? >/out/rt-app.rc
	sleep 0.2
	echo 0 >$T/tracing_on
	kill -TERM $fs 2>/dev/null
	wait $fs
	echo $? >/out/live.rc
	grep -H overrun $T/per_cpu/cpu*/stats >/out/trace.tstats
	gzip -9 <$T/trace >/out/trace.txt.gz
	[ -x /lab/trace-cmd ] || return 0
	# kallsyms would add megabytes to the file and the reader needs none of it
	mount --bind /dev/null /proc/kallsyms
	LD_LIBRARY_PATH=/lab/tclib /lab/trace-cmd extract -o /out/trace.dat \
		>/out/trace-cmd.out 2>/out/trace-cmd.err
	echo $? >/out/trace-cmd.rc
	umount /proc/kallsyms
}
