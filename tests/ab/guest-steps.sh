# Sourced by the lab guest's /init (tests/qemu/guest-init.sh) through the
# /lab/steps.sh that tests/ab/run.sh writes: one A/B run per workload.
# ab_run NAME SECONDS: tracefs on (sched_switch, cpu_frequency, cpu_idle; clock
# mono, the clock of feecscope's records), each CPU's frequency, feecscope live
# --record started and attached, the "fsab begin" marker, rt-app on
# /lab/NAME.json (or workrun on /lab/NAME.wr, if staged), the "fsab end" marker, feecscope stopped (SIGTERM), the trace
# gzip'd. Files in /out: NAME.trace.gz, NAME.freq0, NAME.rec, NAME.live.out /
# .err / .rc, NAME.rtapp.log / .rc, NAME.tstats (ring-buffer overruns).
T=/sys/kernel/tracing

ab_setup() {
	echo 0 >$T/tracing_on
	echo mono >$T/trace_clock
	echo 4096 >$T/buffer_size_kb
	for e in sched/sched_switch power/cpu_frequency power/cpu_idle; do
		echo 1 >$T/events/$e/enable
	done
}

ab_run() {
	n=$1 secs=$2
	echo 0 >$T/tracing_on
	echo >$T/trace
	echo 1 >$T/tracing_on
	# After tracing is on: a later change is in the trace, an earlier one is here.
	for c in /sys/devices/system/cpu/cpu[0-9]*; do
		echo "${c##*/} $(cat $c/cpufreq/scaling_cur_freq)"
	done >/out/$n.freq0
	# --no-sim: the replay simulates afterwards; live's own closed loop ran in the guest
	# beside the workload and the meter counted it (docs/validation.md, "The collector
	# in the meter": up to 1.9 s of CPU in an 8 s run and a fifth of the energy)
	feecscope live --duration $((secs + 120)) --record /out/$n.rec --no-sim \
		--policies ${AB_POLICIES:-v6.1,v6.1+margin} >/out/$n.live.out 2>/out/$n.live.err &
	fs=$!
	i=0
	while [ $i -lt 600 ] && ! grep -q '^feecscope live: kernel' /out/$n.live.out 2>/dev/null; do
		kill -0 $fs 2>/dev/null || break
		sleep 0.1; i=$((i + 1))
	done
	echo "fsab begin" >$T/trace_marker
	# a workrun file (device physics, tests/ab/workrun.c) where run.sh staged one, else rt-app
	if [ -f /lab/$n.wr ]; then
		/lab/workrun -d $secs -f /lab/$n.wr >/out/$n.rtapp.log 2>&1
	else
		rt-app /lab/$n.json >/out/$n.rtapp.log 2>&1
	fi
	echo $? >/out/$n.rtapp.rc
	echo "fsab end" >$T/trace_marker
	kill -TERM $fs 2>/dev/null
	wait $fs
	echo $? >/out/$n.live.rc
	echo 0 >$T/tracing_on
	grep -H overrun $T/per_cpu/cpu*/stats >/out/$n.tstats
	gzip -1 <$T/trace >/out/$n.trace.gz
	echo >$T/trace
}
