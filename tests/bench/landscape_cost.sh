#!/usr/bin/env bash
# The landscape's BPF cost per CPU on this machine, in hardware time (the lab's
# lab_cost.sh counts instructions under TCG), as a fixed part and a per-CPU slope.
#
# One `feecscope live` at a time, never two: windows alternate a collector reading one
# CPU's landscape (the waker's own, through the hidden FS_BENCH_LANDSCAPE_CPUS=1 that
# user/source/live_bpf.c reads for this bench only) and one reading all N CPUs:
# 1, N, 1, N, ..., 1. Each window runs the same workload with kernel.bpf_stats_enabled=1:
# a pipe ping-pong between two processes pinned to two CPUs (every wake-up crosses
# CPUs, so the CPU read besides the waker's is the one the woken task just left).
# (`perf bench sched pipe` does not fit: on 6.18 about two of three of its wake-ups find
# the task still queued, ttwu_runnable(): no placement, no snapshot.) A window's figure
# is the run time (bpftool's run_time_ns) of the programs that take snapshots
# (sched_waking, sched_wakeup_new, fentry select_task_rq_fair) over the snapshots the
# collector emitted (its counters map). Each N-CPU window is paired with the mean of the 1-CPU windows on
# either side (a slow drift of the host cancels): slope = (c_N - c_1) / (N - 1),
# fixed = c_1 - slope, so that a snapshot costs fixed + slope x CPUs. Printed as the
# median and min..max over the pairs, with the load average before and after.
#
# What the figures include: with bpf_stats on, the kernel reads the clock around every
# program run and part of that lands in run_time_ns (per run, so in the fixed part);
# the fixed part also holds sched_waking's runs that emit no snapshot (skipped or
# parked tasks) and the waker's own rq, which both collectors read (it gives feec's
# rd and sd). The slope is the cost of one more, other CPU's rq. Figures, not a verdict
# (goal: slope <= 100 ns); a busy host inflates both parts.
# usage: tests/bench/landscape_cost.sh [OUT]   (make bench passes build/)
# Env: PAIRS (8), LOOPS (round trips per window, 10000),
#      FEECSCOPE (the binary, OUT/feecscope), KEEP=1 keeps the work directory.
set -u
OUT=${1:-build}
FS=${FEECSCOPE:-$OUT/feecscope}
PAIRS=${PAIRS:-8}
LOOPS=${LOOPS:-10000}
[ "$(id -u)" -eq 0 ] || { echo "landscape_cost: needs root (BPF)"; exit 1; }
command -v bpftool >/dev/null || { echo "landscape_cost: needs bpftool"; exit 1; }
N=$(getconf _NPROCESSORS_CONF)
[ "$N" -ge 2 ] || { echo "landscape_cost: one CPU, no slope"; exit 1; }
T=$(mktemp -d)
LIVE=
old_stats=$(sysctl -n kernel.bpf_stats_enabled)
trap '[ -n "$LIVE" ] && kill "$LIVE" 2>/dev/null; sysctl -qw kernel.bpf_stats_enabled="$old_stats"
      [ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT
sysctl -qw kernel.bpf_stats_enabled=1

# The two online CPUs the ping-pong runs on: the first and the last.
cpus=$(python3 -c 'import os; c = sorted(os.sched_getaffinity(0)); print(c[0], c[-1])')
workload() {
	python3 - "$LOOPS" $cpus <<'EOF'
import os, sys
loops, a, b = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
r1, w1 = os.pipe()
r2, w2 = os.pipe()
if os.fork() == 0:  # the other end: pinned to b, echoes each byte back
    os.sched_setaffinity(0, {b})
    for _ in range(loops):
        os.write(w2, os.read(r1, 1))
    os._exit(0)
os.sched_setaffinity(0, {a})
for _ in range(loops):
    os.write(w1, b'x')
    os.read(r2, 1)
os.wait()
EOF
}
start() { # cpus: one live in the background; returns once its events flow
	FS_BENCH_LANDSCAPE_CPUS=$1 "$FS" live -v -i 1 >"$T/live.out" 2>"$T/live.err" &
	LIVE=$!
	for _ in $(seq 300); do
		grep -q "^feecscope live: kernel" "$T/live.out" 2>/dev/null && return 0
		kill -0 "$LIVE" 2>/dev/null || break
		sleep 0.1
	done
	echo "landscape_cost: feecscope live did not start: $(head -c 400 "$T/live.err")"
	exit 1
}
stop() {
	kill -INT "$LIVE"
	wait "$LIVE"
	LIVE=
}
owned() { # kind (prog or map): the ids of that kind the live holds
	grep -h "^$1_id:" /proc/"$LIVE"/fdinfo/* 2>/dev/null | awk '{ print $2 }' | sort -u
}
counters() { # the id of the live's counters map (per-CPU event counts, live_wire.h)
	local id
	for id in $(owned map); do
		bpftool map show id "$id" -j 2>/dev/null | grep -q '"name":"counters"' && { echo "$id"; return; }
	done
}
state() { # file: the live's programs (with run times) and its counters
	{
		echo '{"progs": ['
		local id sep=
		for id in $(owned prog); do
			echo "$sep"
			bpftool prog show id "$id" -j
			sep=,
		done
		echo '], "counters":'
		bpftool map dump id "$cnt" -j
		echo '}'
	} >"$1"
}

loadavg() { cut -d' ' -f1-3 /proc/loadavg; }
load_before=$(loadavg)
w=0
for k in $(seq $((2 * PAIRS + 1))); do
	cpus_read=1
	[ $((k % 2)) = 0 ] && cpus_read=$N
	start "$cpus_read"
	# -v wraps at 80 columns: a message goes on in lines indented by two blanks
	[ -s "$T/rq_read" ] || awk 'NR > 1 && !/^  / { print "" } { sub(/^  +/, " "); printf "%s", $0 }' "$T/live.err" |
		grep -o "other CPUs' struct rq .*" >"$T/rq_read"
	sleep 0.3
	cnt=$(counters)
	[ -n "$cnt" ] || { echo "landscape_cost: no counters map"; exit 1; }
	w=$((w + 1))
	state "$T/before.$w"
	workload
	state "$T/after.$w"
	stop
	echo "$w $cpus_read" >>"$T/windows"
done
echo "$(loadavg)" >"$T/load_after"
python3 - "$T" "$N" "$LOOPS" "$load_before" user/records/live_wire.h <<'EOF'
import json, re, statistics, sys
T, n, loops, load_before = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
names = re.findall(r'^\s*(FS_CNT_\w+)', open(sys.argv[5]).read(), re.M)
SNAP = names.index('FS_CNT_SNAPSHOT')  # the counters map's key (enum fs_live_counter)
TAKES = re.compile(r'sched_waking|sched_wakeup_new|select_task_rq_fair')
def le(hexbytes):  # bpftool's raw bytes (["0x07", "0x00", ...]) as a little-endian number
    return int.from_bytes(bytes(int(x, 16) for x in hexbytes), 'little')
def load(f):
    d = json.load(open(f))
    snaps = sum(sum(le(v['value']) for v in e['values'])  # a per-CPU array: one per CPU
                for e in d['counters'] if le(e['key']) == SNAP)
    progs = {p['id']: p for p in d['progs'] if TAKES.search(p.get('name', ''))}
    return snaps, progs
win = {}
for l in open(f"{T}/windows"):
    w, k = (int(x) for x in l.split())
    (s0, p0), (s1, p1) = load(f"{T}/before.{w}"), load(f"{T}/after.{w}")
    ns = sum(p1[i].get('run_time_ns', 0) - p0[i].get('run_time_ns', 0) for i in p1.keys() & p0.keys())
    snaps = s1 - s0
    if not p1:
        sys.exit("landscape_cost: no snapshot-taking program found (bpftool prog show)")
    if snaps < loops:  # the ping-pong makes two wake-ups a round trip
        print(f"  window {w} ({k} CPUs): {snaps} snapshots for {loops} round trips, skipped")
        continue
    win[w] = (k, ns / snaps, snaps)
slopes, fixed = [], []
for w, (k, c, _) in sorted(win.items()):
    if k != n or w - 1 not in win or w + 1 not in win:
        continue
    c1 = (win[w - 1][1] + win[w + 1][1]) / 2
    slopes.append((c - c1) / (n - 1))
    fixed.append(c1 - slopes[-1])
    print(f"  pair {len(slopes)}: 1 CPU {win[w - 1][1]:.0f} / {win[w + 1][1]:.0f} ns, "
          f"{n} CPUs {c:.0f} ns per snapshot ({win[w][2]} snapshots)")
if not slopes:
    sys.exit("landscape_cost: no complete pair")
load_after = open(f"{T}/load_after").read().strip()
med = statistics.median
print(f"BPF per snapshot = {med(fixed):.0f} ns + {med(slopes):.0f} ns x CPUs "
      f"(medians of {len(slopes)} pairs)")
print(f"  fixed {min(fixed):.0f} to {max(fixed):.0f} ns, slope {min(slopes):.0f} to "
      f"{max(slopes):.0f} ns; goal slope <= 100 ns")
print(f"  load average {load_before} before, {load_after} after")
rq = open(f"{T}/rq_read").read().strip()
print(f"  {rq or 'the way struct rq is read: not reported by this build'}")
EOF
