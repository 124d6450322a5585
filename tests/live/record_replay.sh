#!/usr/bin/env bash
# Live recording replays to exactly the live numbers (root): the final summary
# and per-decision CSV of `live` byte-equal those of `replay` on its recording,
# after a normal end (--duration) and after SIGINT / SIGTERM mid-run.
. "$(dirname "$0")/../lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$TMP" || exit 1

# A load that keeps wake-ups coming whatever the machine is doing.
rt-app "$HERE/rtapp_duty.json" >rtapp.log 2>&1 &
RT=$!

# decided OUT: live's last status line shows at least 150 decisions (wake-ups x eligible)
decided() {
	awk '/^t=.*wakeups=/ { for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
	     END { exit !(v["wakeups"] * v["eligible"] / 100 >= 150) }' "$1" 2>/dev/null
}

# run NAME HOW [LIVE OPTIONS]: HOW = duration | INT | TERM | EARLY (SIGINT during start-up)
run() {
	local n=$1 how=$2 rc
	shift 2
	if [ "$how" = duration ]; then
		"$FEECSCOPE" live -d 3 -i 0.5 --record "$n.fsr" --csv "$n.live.csv" --summary "$n.live.sum" "$@" \
			--perfetto "$n.live.pftrace" >"$n.out" 2>"$n.err"
		rc=$?
	else
		"$FEECSCOPE" live -i 0.5 --record "$n.fsr" --csv "$n.live.csv" --summary "$n.live.sum" "$@" \
			--perfetto "$n.live.pftrace" >"$n.out" 2>"$n.err" &
		local pid=$!
		if [ "$how" = EARLY ]; then # Ctrl-C while the collector still loads
			sleep 0.1
			kill -INT $pid
		else
			# live's banner says the collector is up; the signal then lands mid-run
			for _ in $(seq 1 300); do grep -q '^feecscope live:' "$n.out" 2>/dev/null && break; sleep 0.1; done
			# ... once the status lines show 150 decisions (a loaded host slows rt-app's wake-ups)
			for _ in $(seq 1 600); do
				decided "$n.out" && break
				sleep 0.1
			done
			kill -"$how" $pid
		fi
		# a live that ignores the signal must fail the test, not hang it
		( sleep 120; kill -KILL $pid 2>/dev/null ) &
		local dog=$!
		wait $pid
		rc=$?
		kill $dog 2>/dev/null; wait $dog 2>/dev/null
	fi
	[ $rc -eq 0 ] && pass "$n: live exits 0 ($how)" || { fail "$n: live exit status ($how)" "$rc"; sed 's/^/    /' "$n.err" | tail -5; }
	# The summary is the last thing on stdout: its tail must be the --summary file.
	local bytes
	bytes=$(stat -c %s "$n.live.sum" 2>/dev/null || echo 0)
	if [ "$bytes" -gt 200 ] && tail -c "$bytes" "$n.out" | cmp -s - "$n.live.sum"; then
		pass "$n: stdout ends with the final summary ($bytes bytes)"
	else
		fail "$n: final summary on stdout" "summary file $bytes bytes"
	fi
	grep -q "^wake-ups:" "$n.live.sum" && pass "$n: summary has the wake-up counts" ||
		fail "$n: summary content" "$(head -3 "$n.live.sum")"
	# a collector without fentry on select_task_rq_fair (stderr's fallback line) shows in the summary
	local fb=0 sl=0
	grep -q "no fentry on select_task_rq_fair" "$n.err" && fb=1
	grep -q "^wake flags: not recorded" "$n.live.sum" && sl=1
	[ "$how" = EARLY ] || { [ $fb = $sl ] && pass "$n: wake flags line in the summary iff the fentry fallback ($fb)" ||
		fail "$n: fentry fallback $fb but summary's wake flags line $sl"; }
	if "$FEECSCOPE" replay "$n.fsr" --csv "$n.replay.csv" --perfetto "$n.replay.pftrace" "$@" \
		>"$n.replay.sum" 2>"$n.replay.err"; then
		pass "$n: recording replays"
	else
		fail "$n: replay of the recording" "$(head -3 "$n.replay.err")"
	fi
	expect_same "$n: replayed summary == live summary" "$n.live.sum" "$n.replay.sum"
	expect_same "$n: replayed CSV == live CSV" "$n.live.csv" "$n.replay.csv"
	expect_same "$n: replayed Perfetto trace == live trace" "$n.live.pftrace" "$n.replay.pftrace"
	local P=$HERE/../perfetto
	protoc --decode=perfetto.protos.Trace -I "$P" "$P/perfetto_trace.proto" <"$n.live.pftrace" >"$n.pf.txt" 2>&1
	"$FEECSCOPE" replay "$n.fsr" --csv-layout wide --csv "$n.wide.csv" --json "$n.json" "$@" >/dev/null 2>&1
	check "$n: the live trace decodes and matches the CSV and JSON" \
		python3 "$P/check_trace.py" "$n.pf.txt" "$n.wide.csv" "$n.json" "$n.live.sum"
	local rows
	rows=$(($(wc -l <"$n.live.csv") - 1))
	[ "$how" = EARLY ] || { [ "$rows" -ge 100 ] && pass "$n: CSV has $rows decisions" || fail "$n: CSV rows" "$rows"; }
}

run normal duration
run policies duration --policies v6.12,v6.12+margin,v5.4
run sigint INT
run sigterm TERM
run early EARLY
# A packages list (uid 0 as an app, so that rt-app and most of the machine are one): the
# recording keeps it (version 5), and replay without --packages names the same apps
echo "com.example.rootapp 0 0 /data/user/0/com.example.rootapp default none" >pk.list
run apps duration --packages pk.list
check "apps: the recording is version 5" test "$(od -An -tu4 -j8 -N4 apps.fsr | tr -d ' ')" = 5
"$FEECSCOPE" replay apps.fsr >apps.own.sum 2>apps.own.err
grep -v '^apps named from' apps.live.sum >apps.live.cut
grep -v '^apps named from' apps.own.sum >apps.own.cut
check "apps: replay without --packages names the apps from the recording's list" \
	grep -qx "apps named from the recording's own list (1 packages)" apps.own.sum
expect_same "apps: ... and the rest of its summary is live's" apps.live.cut apps.own.cut

# The machine's settings: CONFIG_HZ where the kernel's config tells it (else nothing guessed),
# and a line per cpufreq policy where there are any; live's summary and the replay's say so.
hz=$( { zcat /proc/config.gz 2>/dev/null || cat "/boot/config-$(uname -r)" 2>/dev/null; } |
	sed -n 's/^CONFIG_HZ=\([0-9]*\)$/\1/p' | head -n 1)
head -c 4096 normal.fsr | tr -c '[:print:]\n' '\n' >normal.head
if [ -n "$hz" ]; then
	check "settings: the recording keeps CONFIG_HZ ($hz)" grep -qx "hz=$hz" normal.head
	check "settings: the summary says HZ $hz was recorded" grep -q "HZ $hz (recorded)" <(unwrap normal.live.sum)
else
	check "settings: no CONFIG_HZ to read, none recorded" test -z "$(grep '^hz=' normal.head)"
fi
if ls /sys/devices/system/cpu/cpufreq/policy[0-9]* >/dev/null 2>&1; then
	check "settings: the recording keeps the cpufreq policies" grep -q '^cpufreq=' normal.head
else
	check "settings: no cpufreq policy, none recorded" test -z "$(grep '^cpufreq=' normal.head)"
fi

# Busy time at each frequency (bpf/busyfreq.bpf.c): a spinner pinned to the last CPU for
# 2 s inside the recording; its CPU time (its own clock: what it really got, whatever else ran
# there) must be in that CPU's recorded busy time, which must agree with cpustat's.
# The kernel's own sched_switch events over the same time (a tracefs instance of our own, boot
# clock: bpf_ktime_get_boot_ns()'s) are the reference: /proc/stat's tick samples drifted 10 % of
# the span from it beside CI's other work (timer-driven wake-ups land at ticks).
BCPU=$(($(nproc) - 1))
TI=/sys/kernel/tracing/instances/fs-busyfreq-$$
if mkdir "$TI" 2>/dev/null && echo boot >"$TI/trace_clock" && echo 8192 >"$TI/buffer_size_kb" &&
	echo 1 >"$TI/events/sched/sched_switch/enable"; then
	echo 1 >"$TI/tracing_on"
else
	rmdir "$TI" 2>/dev/null; TI=
fi
"$FEECSCOPE" live -d 6 -i 0.5 -v --record busy.fsr --summary busy.sum >busy.out 2>busy.err &
FS=$!
for _ in $(seq 100); do grep -q "^feecscope live: kernel" busy.out 2>/dev/null && break; sleep 0.1; done
sleep 0.5
# its CPU time from after the move to the CPU (CLOCK_THREAD_CPUTIME_ID: the kernel's sum_exec)
python3 -c '
import os, time
os.sched_setaffinity(0, {'"$BCPU"'})
c, t = time.thread_time_ns(), time.monotonic()
while time.monotonic() - t < 2:
    pass
print(time.thread_time_ns() - c)' >busy.work
wait $FS
rc=$?
if [ -n "$TI" ]; then
	echo 0 >"$TI/tracing_on"; cat "$TI/trace" >busy.trace; echo 0 >"$TI/events/sched/sched_switch/enable"
	rmdir "$TI"
fi
check "busyfreq: live with it exits 0" test $rc -eq 0
check "busyfreq: -v says it is on" grep -q "^busyfreq: on" busy.err
unwrap busy.sum >busy.sum1
check "busyfreq: the summary's busy time is sched_switch's" grep -q "busy time: sched_switch" busy.sum1
"$FEECSCOPE" replay busy.fsr --convert-csv busy.csv >/dev/null 2>&1
check "busyfreq: CPU $BCPU's busy time holds the spinner's and agrees with ${TI:+sched_switch in tracefs}${TI:-cpustat}" \
	python3 "$HERE/busyfreq_check.py" busy.csv "$BCPU" "$(cat busy.work)" ${TI:+busy.trace}
sed 's/^/    /' "$TMP/out"
# Without its programs (the bench's switch), live goes on and the denominator is the old one
FS_BENCH_NO_BUSYFREQ=1 "$FEECSCOPE" live -d 2 -i 0.5 -v --summary nobusy.sum >nobusy.out 2>nobusy.err
check "busyfreq: off, live still exits 0" test $? -eq 0
check "busyfreq: -v says it is off and why" grep -q "^busyfreq: off (FS_BENCH_NO_BUSYFREQ=1)" nobusy.err
unwrap nobusy.sum >nobusy.sum1
check "busyfreq: off, the summary has CPU energy" grep -q "^CPU energy: " nobusy.sum1
if grep -q "busy time: sched_switch" nobusy.sum1; then fail "busyfreq: off, busy time is not sched_switch's"
else pass "busyfreq: off, busy time is not sched_switch's"; fi

kill $RT 2>/dev/null; wait $RT 2>/dev/null
finish
