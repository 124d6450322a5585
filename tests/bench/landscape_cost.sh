#!/usr/bin/env bash
# The landscape's BPF cost per CPU on this machine, in real hardware time (the lab's
# lab_cost.sh measures it in TCG's emulated time). Two `feecscope live` run side by side
# under one workload (`perf bench sched pipe`) with kernel.bpf_stats_enabled=1: one reads
# the landscape of CPU 0 only, the other of all N possible CPUs. The hidden environment
# variable FS_BENCH_LANDSCAPE_CPUS=K (read by user/source/live_bpf.c for this bench only;
# live warns when it is set) makes a collector read CPUs 0..K-1 and leave the rest zero.
# Each live reports its programs' run time per snapshot ("bpf-stats:"); both see the same
# wake-ups, so the difference over N-1 CPUs is the per-CPU slope and the rest of the
# 1-CPU figure the fixed part (goal: slope <= 100 ns). The second collector attached
# runs second on each event and finds CPU 0's rq in cache: the rounds alternate which
# one starts first, and the figures are their means.
# usage: tests/bench/landscape_cost.sh [OUT]   (make bench passes build/)
# Env: ROUNDS (4), LOOPS (perf bench sched pipe loops per round, 100000).
set -u
OUT=${1:-build}
FS=${FEECSCOPE:-$OUT/feecscope}
ROUNDS=${ROUNDS:-4}
LOOPS=${LOOPS:-100000}
[ "$(id -u)" -eq 0 ] || { echo "landscape_cost: needs root (BPF)"; exit 1; }
command -v perf >/dev/null || { echo "landscape_cost: needs perf (linux-perf)"; exit 1; }
N=$(getconf _NPROCESSORS_CONF)
[ "$N" -ge 2 ] || { echo "landscape_cost: one CPU, no slope"; exit 1; }
T=$(mktemp -d)
PIDS=
trap 'for p in $PIDS; do kill "$p" 2>/dev/null; done; rm -rf "$T"' EXIT
old_stats=$(sysctl -n kernel.bpf_stats_enabled)
sysctl -qw kernel.bpf_stats_enabled=1

start() { # name cpus: a live in the background, returns once its events flow
	FS_BENCH_LANDSCAPE_CPUS=$2 "$FS" live -i 1 >"$T/$1.out" 2>"$T/$1.err" &
	PIDS="$PIDS $!"
	eval "pid_$1=$!"
	for _ in $(seq 200); do
		grep -q "^feecscope live: kernel" "$T/$1.out" 2>/dev/null && return 0
		sleep 0.1
	done
	echo "landscape_cost: feecscope live did not start: $(head -c 400 "$T/$1.err")"
	exit 1
}
stop() { # name
	local p
	eval "p=\$pid_$1"
	kill -INT "$p"
	wait "$p"
	PIDS=$(echo "$PIDS" | sed "s/ $p\b//")
}
owned() { # name: the program ids its process holds
	local p
	eval "p=\$pid_$1"
	grep -h '^prog_id:' /proc/"$p"/fdinfo/* 2>/dev/null | awk '{ print $2 }' | sort -u | paste -sd,
}
# Each round: both collectors attached, then the window: every program's run time and
# run count (bpftool) before and after the workload, so both are measured over the same
# wake-ups at the same host speed; the share of sched_waking runs that took a snapshot
# (the live summary) turns "per run" into "per snapshot".
: >"$T/rounds"
for r in $(seq "$ROUNDS"); do
	if [ $((r % 2)) = 1 ]; then start one 1; start all "$N"; else start all "$N"; start one 1; fi
	sleep 0.5
	ids_one=$(owned one) ids_all=$(owned all)
	bpftool prog show -j >"$T/before.$r.json"
	perf bench sched pipe -l "$LOOPS" >/dev/null 2>&1
	bpftool prog show -j >"$T/after.$r.json"
	stop one
	stop all
	snaps=$(sed -nE 's/^collector: snapshots ([0-9]+) .*/\1/p' "$T/all.err" | tail -n 1)
	runs=$(sed -nE 's/^collector: sched_waking ([0-9]+),.*/\1/p' "$T/all.err" | tail -n 1)
	echo "$r ${ids_one:-none} ${ids_all:-none} ${snaps:-0} ${runs:-0}" >>"$T/rounds"
done
sysctl -qw kernel.bpf_stats_enabled="$old_stats"
python3 - "$T" "$N" <<'EOF'
import json, sys
T, n = sys.argv[1], int(sys.argv[2])
def window(r, ids):
    """run time (ns) of the programs ids over round r's window, and their sched_waking runs"""
    b = {p['id']: p for p in json.load(open(f"{T}/before.{r}.json"))}
    a = {p['id']: p for p in json.load(open(f"{T}/after.{r}.json"))}
    ns = runs = 0
    for i in ids & a.keys() & b.keys():
        ns += a[i].get('run_time_ns', 0) - b[i].get('run_time_ns', 0)
        if 'sched_waking' in a[i].get('name', ''):
            runs += a[i].get('run_cnt', 0) - b[i].get('run_cnt', 0)
    return ns, runs
slopes, fixed = [], []
for l in open(f"{T}/rounds"):
    r, one, all_, snaps, wakings = l.split()
    r, snaps, wakings = int(r), int(snaps), int(wakings)
    (ns1, w1), (nsn, wn) = [window(r, {int(x) for x in ids.split(',') if x.isdigit()})
                            for ids in (one, all_)]
    if not w1 or not wn or not snaps or not wakings:
        print(f"  round {r}: no sched_waking runs or snapshots measured, skipped")
        continue
    share = snaps / wakings  # snapshots per sched_waking run, over the N-CPU live's run
    c1, cn = ns1 / (w1 * share), nsn / (wn * share)
    slope = (cn - c1) / (n - 1)
    slopes.append(slope)
    fixed.append(c1 - slope)
    first = "1 CPU" if r % 2 else f"{n} CPUs"
    print(f"  round {r} ({first} first): {wn} wake-ups, {share * 100:.0f}% with a snapshot; "
          f"per snapshot 1 CPU {c1:.0f} ns, {n} CPUs {cn:.0f} ns: slope {slope:.0f} ns")
if not slopes:
    sys.exit("landscape_cost: no complete round")
m = lambda v: sum(v) / len(v)
print(f"BPF per snapshot = {m(fixed):.0f} ns + {m(slopes):.0f} ns x CPUs (native, {len(slopes)} "
      f"rounds, slope {min(slopes):.0f} to {max(slopes):.0f}; goal slope <= 100 ns)")
EOF
