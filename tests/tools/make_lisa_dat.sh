#!/usr/bin/env bash
# Makes tests/fixtures/trace/lisa-uprobes.dat (tests/fixtures/trace/README.md): a
# trace.dat holding LISA's PELT events with the module's event and field names, for the
# trace.dat reader's decoder of them (no kernel here carries LISA's module). Each event
# is a uprobe event on a function of tests/tools/lisa_tp.c whose arguments are the
# fields (this kernel has no synthetic events, eprobes or hist triggers, but
# uprobe_events); sched_switch and the wake-ups come from the kernel. Recorded in a
# tracing instance of its own filtered to lisa_tp's pid (no other tracefs user is
# disturbed), `trace-cmd extract`ed without kallsyms, converted to version 6 and cut to
# the systems read (tests/fuzz/trace_dat_seed.py).
# Needs root, tracefs with uprobe_events and instances, trace-cmd, gcc, python3, x86-64
# (the fetchargs name its argument registers). usage: make_lisa_dat.sh [OUT]
set -eu
cd "$(dirname "$0")/../.."
OUT=${1:-tests/fixtures/trace/lisa-uprobes.dat}
TR=/sys/kernel/tracing
NAME=feecscope_lisa_$$
I=$TR/instances/$NAME
TMP=$(mktemp -d)
B=$TMP/lisa_tp
probes=(lisa/lisa__sched_pelt_cfs lisa/lisa__sched_pelt_se lisa/lisa__sched_util_est_se
	feecscope_test/sched_util_est_cfs)
cleanup() {
	[ -d "$I" ] && { echo 0 >"$I/tracing_on"; echo 0 >"$I/events/enable"; rmdir "$I"; }
	for p in "${probes[@]}"; do echo "-:$p" >>"$TR/uprobe_events" 2>/dev/null || true; done
	rm -rf "$TMP"
}
trap cleanup EXIT
gcc -O0 -o "$B" tests/tools/lisa_tp.c
# a function's file offset: its address less its segment's address, plus the segment's offset
off() {
	local a t o va pa fs rest
	a=$((16#$(nm "$B" | awk -v f="$1" '$3 == f { print $1 }')))
	while read -r t o va pa fs rest; do
		[ "$t" = LOAD ] && [ $a -ge $((va)) ] && [ $a -lt $((va + fs)) ] && printf '0x%x\n' $((a - va + o))
	done < <(readelf -lW "$B")
}
# The fields as LISA's TP_STRUCT__entry names them (ftrace_events.h), in the x86-64 argument registers.
cat >>"$TR/uprobe_events" <<EOT
p:lisa/lisa__sched_pelt_cfs $B:$(off lisa_pelt_cfs) cpu=%di:s32 path=+0(%si):string load=%dx:u64 util=%cx:u64
p:lisa/lisa__sched_pelt_se $B:$(off lisa_pelt_se) cpu=%di:s32 path=+0(%si):string comm=+0(%dx):string pid=%cx:s32 load=%r8:u64 util=%r9:u64
p:lisa/lisa__sched_util_est_se $B:$(off lisa_util_est_se) cpu=%di:s32 comm=+0(%si):string pid=%dx:s32 enqueued=%cx:u32 ewma=%r8:u32 util=%r9:u64
p:feecscope_test/sched_util_est_cfs $B:$(off lisa_util_est_cfs) cpu=%di:s32 path=+0(%si):string enqueued=%dx:u32 ewma=%cx:u32 util=%r8:u64
EOT
mkdir "$I"
echo 0 >"$I/tracing_on"
for e in sched/sched_switch sched/sched_waking sched/sched_wakeup sched/sched_wakeup_new "${probes[@]}"; do
	echo 1 >"$I/events/$e/enable"
done
mkfifo "$TMP/go"
"$B" <"$TMP/go" &
pid=$!
echo "$pid" >"$I/set_event_pid"
echo 1 >"$I/tracing_on"
echo go >"$TMP/go"
wait "$pid"
echo 0 >"$I/tracing_on"
# kallsyms left out (5 MB): /proc/kallsyms bound over by /dev/null in a private mount namespace
unshare -m sh -c "mount --bind /dev/null /proc/kallsyms && cd '$TMP' && trace-cmd extract -B '$NAME' -o full.dat" >/dev/null 2>&1
trace-cmd convert --file-version 6 --compression none -i "$TMP/full.dat" -o "$TMP/v6.dat" >/dev/null 2>&1
# only the events recorded and lisa_tp's own saved command line: 20 KB instead of 2 MB
python3 tests/fuzz/trace_dat_seed.py "$TMP/v6.dat" "$OUT" --pids="$pid" sched:sched_switch sched:sched_waking \
	sched:sched_wakeup sched:sched_wakeup_new lisa feecscope_test
echo "$OUT: $(wc -c <"$OUT") bytes"
