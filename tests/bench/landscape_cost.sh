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
trap 'for p in $PIDS; do kill "$p" 2>/dev/null; done; [ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT
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
owned() { # name kind (prog or map): the ids of that kind its process holds
	local p
	eval "p=\$pid_$1"
	grep -h "^$2_id:" /proc/"$p"/fdinfo/* 2>/dev/null | awk '{ print $2 }' | sort -u | paste -sd,
}
counters() { # name: the id of its counters map (per-CPU event counts, live_wire.h)
	local id
	for id in $(owned "$1" map | tr , ' '); do
		bpftool map show id "$id" -j 2>/dev/null | grep -q '"name":"counters"' && { echo "$id"; return; }
	done
}
snapshot_state() { # tag: every program's run time, and both collectors' counters
	bpftool prog show -j >"$T/prog.$1.json"
	bpftool map dump id "$cnt_one" -j >"$T/one.$1.json"
	bpftool map dump id "$cnt_all" -j >"$T/all.$1.json"
}
# Each round: both collectors attached, then the window: every program's run time
# and each collector's snapshot count (bpftool) before and after the workload, so both
# are measured over the same wake-ups at the same host speed.
: >"$T/rounds"
for r in $(seq "$ROUNDS"); do
	if [ $((r % 2)) = 1 ]; then start one 1; start all "$N"; else start all "$N"; start one 1; fi
	sleep 0.5
	ids_one=$(owned one prog) ids_all=$(owned all prog)
	cnt_one=$(counters one) cnt_all=$(counters all)
	snapshot_state before.$r
	perf bench sched pipe -l "$LOOPS" >/dev/null 2>&1
	snapshot_state after.$r
	stop one
	stop all
	echo "$r ${ids_one:-none} ${ids_all:-none}" >>"$T/rounds"
done
sysctl -qw kernel.bpf_stats_enabled="$old_stats"
python3 - "$T" "$N" user/source/live_wire.h <<'EOF'
import json, re, sys
T, n = sys.argv[1], int(sys.argv[2])
names = re.findall(r'^\s*(FS_CNT_\w+)', open(sys.argv[3]).read(), re.M)
SNAP = names.index('FS_CNT_SNAPSHOT')  # the counters map's key (enum fs_live_counter)
def le(hexbytes):  # bpftool's raw bytes (["0x07", "0x00", ...]) as a little-endian number
    return int.from_bytes(bytes(int(x, 16) for x in hexbytes), 'little')
def snapshots(who, tag):
    for e in json.load(open(f"{T}/{who}.{tag}.json")):
        if le(e['key']) == SNAP:
            return sum(le(v['value']) for v in e['values'])  # a per-CPU array: one per CPU
    return 0
def window(r, who, ids):
    """run time (ns) of the programs ids and the collector's snapshots over round r's window"""
    b = {p['id']: p for p in json.load(open(f"{T}/prog.before.{r}.json"))}
    a = {p['id']: p for p in json.load(open(f"{T}/prog.after.{r}.json"))}
    ns = sum(a[i].get('run_time_ns', 0) - b[i].get('run_time_ns', 0) for i in ids & a.keys() & b.keys())
    return ns, snapshots(who, f"after.{r}") - snapshots(who, f"before.{r}")
slopes, fixed = {1: [], 0: []}, {1: [], 0: []}  # by which collector started first
for l in open(f"{T}/rounds"):
    r, one, all_ = l.split()
    r = int(r)
    (ns1, s1), (nsn, sn) = [window(r, who, {int(x) for x in ids.split(',') if x.isdigit()})
                            for who, ids in (("one", one), ("all", all_))]
    if not s1 or not sn or not ns1 or not nsn:
        print(f"  round {r}: nothing measured ({ns1} / {nsn} ns, {s1} / {sn} snapshots), skipped")
        continue
    c1, cn = ns1 / s1, nsn / sn
    slope = (cn - c1) / (n - 1)
    slopes[r % 2].append(slope)
    fixed[r % 2].append(c1 - slope)
    first = "1 CPU" if r % 2 else f"{n} CPUs"
    print(f"  round {r} ({first} first): {s1} / {sn} snapshots; per snapshot "
          f"1 CPU {c1:.0f} ns, {n} CPUs {cn:.0f} ns: slope {slope:.0f} ns")
if not slopes[0] or not slopes[1]:
    sys.exit("landscape_cost: no complete round of each order")
# The mean of each order's mean: whichever runs second finds the shared lines in cache.
m = lambda v: sum(v) / len(v)
both = lambda d: (m(d[0]) + m(d[1])) / 2
allv = slopes[0] + slopes[1]
print(f"BPF per snapshot = {both(fixed):.0f} ns + {both(slopes):.0f} ns x CPUs (native, {len(allv)} "
      f"rounds, slope {min(allv):.0f} to {max(allv):.0f}; goal slope <= 100 ns)")
EOF
