#!/usr/bin/env bash
# Live collector on this kernel (root): loads and attaches, watches a known
# rt-app workload, checks each task's util_est against the band its duty
# cycle implies, and cross-checks every wake-up and migration of those tasks
# against the kernel's own tracefs events recorded over the same window.
. "$(dirname "$0")/../lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)

# --- command line and privileges --------------------------------------------
check "live --help exits 0" "$FEECSCOPE" live --help
expect_fail "live rejects an unknown option" "unknown option '--bogus'" "$FEECSCOPE" live --bogus
expect_fail "live --ringbuf-size must be a power of two" "power of two" "$FEECSCOPE" live --ringbuf-size 3000
expect_fail "live --interval must be a number" "interval 'abc'" "$FEECSCOPE" live --interval abc
if command -v setpriv >/dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups "$FEECSCOPE" live -d 1 >"$TMP/np" 2>&1
	rc=$?
	if [ $rc -eq 3 ] && grep -q "CAP_BPF" "$TMP/np"; then pass "live without privileges exits 3 naming CAP_BPF"
	else fail "live without privileges" "exit $rc: $(head -c 300 "$TMP/np")"; fi
fi

# --- tracefs: an instance of our own, boot clock = bpf_ktime_get_boot_ns -----
# wherever tracefs is mounted (/sys/kernel/tracing preferred), else mounted there
TR=$(awk '$3 == "tracefs" { print $2 }' /proc/self/mounts | grep -x /sys/kernel/tracing ||
	awk '$3 == "tracefs" { print $2; exit }' /proc/self/mounts)
[ -n "$TR" ] || { TR=/sys/kernel/tracing; mount -t tracefs nodev "$TR" 2>/dev/null; }
INST="$TR/instances/feecscope_test_$$"
if ! mkdir "$INST" 2>/dev/null; then
	fail "tracefs instance" "cannot create $INST"; finish; exit
fi
cleanup() { echo 0 >"$INST/tracing_on" 2>/dev/null; rmdir "$INST" 2>/dev/null; [ -n "${FS_KEEP_TMP:-}" ] && echo "kept $TMP" || rm -rf "$TMP"; }
trap cleanup EXIT
echo boot >"$INST/trace_clock"
echo 16384 >"$INST/buffer_size_kb"

# --- run: feecscope first, then the workload, then trace the workload's tids ---
cd "$TMP" || exit 1
# live and rt-app (60 s) outlast the window however slowly a loaded machine
# gets there; both are stopped once it closes.
"$FEECSCOPE" live -d 60 -i 1 -vv ${FS_LIVE_ARGS:-} >live.out 2>live.err &
FS=$!
for _ in $(seq 100); do grep -q "^feecscope live: kernel" live.out 2>/dev/null && break; sleep 0.1; done
if ! grep -q "^feecscope live: kernel" live.out; then
	fail "live loads and attaches" "no banner; stderr: $(head -c 600 live.err)"; kill $FS 2>/dev/null; finish; exit
fi
pass "live loads and attaches on $(uname -r)"
if [ -n "${FS_EXPECT_EVENTS:-}" ]; then # set by collector_raw_tp.sh
	grep -q "events as $FS_EXPECT_EVENTS;" live.err && pass "events attached as $FS_EXPECT_EVENTS" ||
		fail "events attached as $FS_EXPECT_EVENTS" "$(grep -m1 'events as' live.err)"
fi

rt-app "$HERE/rtapp_duty.json" >rtapp.log 2>&1 &
RT=$!
tids=()
for _ in $(seq 50); do
	tids=()
	for t in /proc/$RT/task/*; do
		c=$(cat "$t/comm" 2>/dev/null) || continue
		case $c in fsa10|fsa20|fsa30) tids+=("$(basename "$t"):$c") ;; esac
	done
	[ ${#tids[@]} -eq 3 ] && break
	sleep 0.1
done
if [ ${#tids[@]} -ne 3 ]; then
	fail "rt-app workload started" "found ${tids[*]:-no threads}; $(tail -3 rtapp.log)"; kill $FS $RT 2>/dev/null; finish; exit
fi
filt=$(printf 'pid==%s||' "${tids[@]%%:*}"); filt=${filt%||}
echo "$filt" >"$INST/events/sched/sched_wakeup/filter"
echo "$filt" >"$INST/events/sched/sched_waking/filter"
echo "$filt" >"$INST/events/sched/sched_migrate_task/filter"
sfilt=$(for t in "${tids[@]%%:*}"; do printf 'prev_pid==%s||next_pid==%s||' "$t" "$t"; done); sfilt=${sfilt%||}
echo "$sfilt" >"$INST/events/sched/sched_switch/filter"
echo 1 >"$INST/events/sched/sched_switch/enable"
echo 1 >"$INST/events/sched/sched_wakeup/enable"
echo 1 >"$INST/events/sched/sched_migrate_task/enable"
echo 1 >"$INST/events/sched/sched_waking/enable"   # names the context each wake-up's select ran in
sleep 1   # let PELT settle before the window opens
echo 1 >"$INST/tracing_on"
python3 "$HERE/schedstat_sample.py" "${tids[@]%%:*}" >schedstat.txt
python3 "$HERE/proc_util_est.py" sample 4.5 proc_util_est.txt "${tids[@]%%:*}" &
SAMPLER=$!
# 5 s, then on (up to 20 s) until each task slept 200 times in the window: a
# loaded host runs rt-app late and less often, and the checks below need
# enough wake-ups of each task (an idle host gets ~310 per task in 5 s).
sleeps() { awk '/^voluntary_ctxt_switches/ { print $2 }' "/proc/$1/status" 2>/dev/null || echo 0; }
declare -A slept0
for t in "${tids[@]%%:*}"; do slept0[$t]=$(sleeps "$t"); done
sleep 5
for _ in $(seq 150); do
	short=0
	for t in "${tids[@]%%:*}"; do [ $(( $(sleeps "$t") - slept0[$t] )) -ge 200 ] || short=1; done
	[ $short -eq 0 ] && break
	sleep 0.1
done
python3 "$HERE/schedstat_sample.py" "${tids[@]%%:*}" >>schedstat.txt
echo 0 >"$INST/tracing_on"
wait $SAMPLER
cat "$INST/trace" >tracefs.txt
kill $RT; wait $RT
kill -INT $FS; wait $FS; rc=$?
[ $rc -eq 0 ] && pass "live exits 0 after SIGINT" || fail "live exit status after SIGINT" "$rc"
grep -q "ring-buffer drops 0" live.err && pass "no ring-buffer drops" ||
	fail "ring-buffer drops" "$(grep '^collector:' live.err | tail -1)"

# --- utilization against the kernel's own sched_switch ------------------------
# The duty cycle each task really got (sched_switch on/off CPU, same window)
# gives its PELT signal independently of BPF; util_avg and util_est read by
# the collector must sit in that bracket (util_from_sched_switch.py says how).
python3 "$HERE/util_from_sched_switch.py" "$TMP" "${tids[@]}" >bands.txt 2>&1 || echo "bad analysis: $(tail -1 bands.txt)" >>bands.txt
while read -r st rest; do
	case $st in ok) pass "$rest" ;; note) echo "     $rest" ;; *) fail "utilization vs sched_switch" "$rest" ;; esac
done <bands.txt
grep -q '^ok .*util_est' bands.txt || fail "util_est checked" "no util_est line: $(head -c 300 bands.txt)"
# The workload itself: the bands above come from what each task really ran
# (sched_switch), which a loaded host makes less than rt-app asked; that run
# time must be the kernel's own account of it (sum_exec_runtime), checked in
# util_from_sched_switch.py ("got N % of a CPU" lines, counted above).
grep -q '^ok .* got .* of a CPU' bands.txt || fail "run time vs sum_exec_runtime checked" "$(grep -m1 'schedstat' bands.txt)"

# --- util_est against the kernel's own /proc/TID/sched --------------------------
# proc_util_est.py says how: a value sampled while the task sleeps must be the
# one its next recorded wake-up carries.
python3 "$HERE/proc_util_est.py" check "$TMP" proc_util_est.txt "${tids[@]}" >proc.txt 2>&1 ||
	echo "bad analysis: $(tail -1 proc.txt)" >>proc.txt
while read -r st rest; do
	case $st in ok) pass "$rest" ;; *) fail "util_est vs /proc/TID/sched" "$rest" ;; esac
done <proc.txt
grep -q '^ok' proc.txt || grep -q '^bad' proc.txt || fail "util_est vs /proc/TID/sched" "no result: $(head -c 300 proc.txt)"

# --- cross-check against tracefs ----------------------------------------------
# crosscheck_tracefs.py says how: every sched_wakeup and sched_migrate_task of
# the workload against feecscope's records, each mismatch with its explanation.
python3 "$HERE/crosscheck_tracefs.py" "$TMP" "${tids[@]}" >cross.txt 2>&1 || echo "bad analysis: $(tail -1 cross.txt)" >>cross.txt
grep '^mismatch' cross.txt | sed 's/^/    /'
grep -q '^mismatch' cross.txt && grep '^context' cross.txt | sed 's/^/    /'
grep -q '^bad analysis' cross.txt && fail "tracefs cross-check ran" "$(tail -3 cross.txt)"
read -r _ _ w _ m _ r _ u _ hw hm < <(grep '^summary' cross.txt)
ratio() { awk -v f="$1" 'BEGIN { split(f, a, "/"); if (a[2] == 0) exit 1; exit !(a[1] / a[2] >= 0.99) }'; }
n_w=${w#*/}
[ "${n_w:-0}" -ge 300 ] && pass "tracefs saw $n_w wake-ups of the workload" || fail "tracefs wake-ups" "only ${w:-none}"
# A wake-up in a context where this VM runs none of our programs (docs/live.md,
# "Wake-ups this VM hides from BPF") is not the collector's to see: the more
# other work the host gives that context, the more there are (121 of 2480 beside
# a few other jobs). The bar applies to the rest; the hidden ones stay bounded
# (at most a quarter) so a collector that saw nothing cannot pass this way.
hw=${hw:-0} hm=${hm:-0}
seen_w="${w%/*}/$(( ${w#*/} - hw ))" seen_m="${m%/*}/$(( ${m#*/} - hm ))"
hidden_note="$hw wake-ups, $hm migrations hidden from BPF excluded"
ratio "$seen_w" && pass "wake-ups matching tracefs target_cpu: $seen_w (>= 99%; $r of them ttwu_runnable, no decision; $hidden_note)" ||
	fail "wake-ups matching tracefs" "$seen_w ($hidden_note)"
# The issue's bar is 99 % of wake-ups and migrations together: a 5 s window holds
# ~1100 wake-ups but often under 20 migrations, where one miss alone would be > 1 %.
# Each mismatch is still printed above.
all="$(( ${w%/*} + ${m%/*} ))/$(( ${w#*/} + ${m#*/} - hw - hm ))"
ratio "$all" && pass "wake-ups + migrations matching tracefs: $all (>= 99%; migrations $seen_m; $hidden_note)" ||
	fail "wake-ups + migrations matching tracefs" "$all (migrations $seen_m; $hidden_note)"
[ $(( 4 * (hw + hm) )) -le $(( ${w#*/} + ${m#*/} )) ] && pass "wake-ups hidden from BPF at most a quarter: $hw + $hm of $(( ${w#*/} + ${m#*/} ))" ||
	fail "wake-ups hidden from BPF at most a quarter" "$hw + $hm of $(( ${w#*/} + ${m#*/} ))"
grep -q '^summary' cross.txt && pass "migrations compared with tracefs dest_cpu: $m (mismatches listed above)"
# Every mismatch must carry its cause: a window edge, or a context where our
# programs did not run (shown by tracefs, with nothing lost). Any other is a
# collector or pairing bug until shown otherwise.
[ "${u:-x}" = 0 ] && pass "every mismatch with tracefs explained" ||
	fail "mismatches explained" "${u:-?} unexplained: $(grep -m 2 'unexplained:' cross.txt | cut -c1-300)"

finish
