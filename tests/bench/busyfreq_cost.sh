#!/usr/bin/env bash
# What busy time at each frequency (bpf/busyfreq.bpf.c) adds to the collector (root),
# side by side in one run:
# - BPF time: its two programs' run_time_ns against the rest of the collector's
#   (feecscope -v's bpf-stats lines, kernel.bpf_stats_enabled=1), under
#   `perf bench sched messaging` (every wake-up also switches into and out of idle);
# - throughput: messaging's time with feecscope live with it and without it
#   (FS_BENCH_NO_BUSYFREQ=1), alternating, ROUNDS rounds; the figure is the median of
#   the rounds' ratios, the noise floor the median |ratio - 1| of two runs without.
set -u
OUT=${1:-build}
FS=${FEECSCOPE:-$OUT/feecscope}
[ "$(id -u)" -eq 0 ] || { echo "busyfreq_cost: needs root (BPF)"; exit 1; }
command -v perf >/dev/null || { echo "busyfreq_cost: needs perf (linux-perf)"; exit 1; }
T=$(mktemp -d); LIVE=; trap '[ -n "$LIVE" ] && kill $LIVE 2>/dev/null; rm -rf "$T"' EXIT
ROUNDS=${ROUNDS:-3}
MSG_LOOPS=${MSG_LOOPS:-500}

msg_time() { perf bench sched messaging -g 4 -l "$MSG_LOOPS" 2>/dev/null | awk '/Total time/ { print $3 }'; }
start_live() { # env assignments go before: NAME=1 start_live
	"$FS" live -v -i 1 >"$T/live.out" 2>"$T/live.err" &
	LIVE=$!
	for _ in $(seq 100); do grep -q "^feecscope live: kernel" "$T/live.out" 2>/dev/null && return 0; sleep 0.1; done
	echo "busyfreq_cost: feecscope live did not start: $(head -c 400 "$T/live.err")"; exit 1
}
stop_live() { kill -INT "$LIVE"; wait "$LIVE"; LIVE=; }
one() { # with|without: messaging time with feecscope live and busyfreq on or off
	if [ "$1" = without ]; then export FS_BENCH_NO_BUSYFREQ=1; else unset FS_BENCH_NO_BUSYFREQ; fi
	start_live; sleep 0.5; msg_time; stop_live
	unset FS_BENCH_NO_BUSYFREQ
}

old_stats=$(sysctl -n kernel.bpf_stats_enabled)
sysctl -qw kernel.bpf_stats_enabled=0
: >"$T/rounds"
for _ in $(seq "$ROUNDS"); do
	echo "$(one without) $(one with) $(one without)" >>"$T/rounds"
done
sysctl -qw kernel.bpf_stats_enabled=1
start_live; sleep 0.5; msg_time >/dev/null; stop_live
sysctl -qw kernel.bpf_stats_enabled="$old_stats"
grep -q "^busyfreq: on" "$T/live.err" || { echo "busyfreq_cost: busyfreq not on: $(grep -m1 '^busyfreq' "$T/live.err")"; exit 1; }
python3 - "$T/rounds" "$T/live.err" <<'PY'
import re, sys
rounds = [[float(x) for x in l.split()] for l in open(sys.argv[1]) if len(l.split()) == 3]
err = open(sys.argv[2]).read()
snap = re.findall(r"^bpf-stats: (\d+) ns per snapshot \((\d+) snapshots", err, re.M)
busy = re.findall(r"^bpf-stats: busyfreq (\d+) ns per run \((\d+) runs, ([\d.]+) ms\)", err, re.M)
if not rounds or not snap or not busy:
    sys.exit("busyfreq_cost: missing figures (rounds, or -v's bpf-stats lines)")
def median(v):
    v = sorted(v); n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2
ns_snap, snaps = map(int, snap[-1])
ns_run, runs, busy_ms = int(busy[-1][0]), int(busy[-1][1]), float(busy[-1][2])
rest_ms = ns_snap * snaps / 1e6
print(f"busyfreq BPF: {ns_run} ns per run ({runs} runs, {busy_ms:.3f} ms); the rest of the collector "
      f"{rest_ms:.3f} ms ({snaps} snapshots x {ns_snap} ns)")
print(f"  ratio busyfreq / rest of the collector, BPF time: {busy_ms / rest_ms:.3f}" if rest_ms else "")
ratio = median([r[1] / ((r[0] + r[2]) / 2) for r in rounds])
noise = median([abs(r[2] / r[0] - 1) for r in rounds])
print(f"messaging time with busyfreq / without (feecscope live in both): {ratio:.3f} "
      f"(median of {len(rounds)} rounds; noise floor {noise:.3f})")
PY
