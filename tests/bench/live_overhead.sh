#!/usr/bin/env bash
# Overhead of `feecscope live` on this machine (root): BPF run time per event
# from kernel.bpf_stats_enabled, `perf bench sched pipe` and `messaging` throughput without and
# with feecscope attached, and the event rate the collector holds without drops.
# Goals (issue): < 1.5 us of BPF time per wake-up, < 3 % throughput loss
# (judged on messaging; pipe, nothing but wake-ups, is printed as the worst case).
set -u
OUT=${1:-build}
FS=${FEECSCOPE:-$OUT/feecscope}
[ "$(id -u)" -eq 0 ] || { echo "live_overhead: needs root (BPF)"; exit 1; }
command -v perf >/dev/null || { echo "live_overhead: needs perf (linux-perf)"; exit 1; }
T=$(mktemp -d); trap 'kill $LIVE 2>/dev/null; rm -rf "$T"' EXIT
LIVE=
LOOPS=${LOOPS:-50000}

pipe_ops() { # ops/sec of one run
	perf bench sched pipe -l "$LOOPS" 2>/dev/null | awk '/ops\/sec/ { print $1 }'
}
msg_time() { # seconds of one `perf bench sched messaging` run (a fixed amount of work)
	perf bench sched messaging -g 4 -l "$MSG_LOOPS" 2>/dev/null | awk '/Total time/ { print $3 }'
}
start_live() { # extra args...
	"$FS" live -v -i 1 "$@" >"$T/live.out" 2>"$T/live.err" &
	LIVE=$!
	for _ in $(seq 100); do grep -q "^feecscope live: kernel" "$T/live.out" 2>/dev/null && return 0; sleep 0.1; done
	echo "live_overhead: feecscope live did not start: $(head -c 400 "$T/live.err")"; exit 1
}
stop_live() { kill -INT "$LIVE"; wait "$LIVE"; LIVE=; }
MSG_LOOPS=${MSG_LOOPS:-1000}

# Throughput, bpf_stats off (its clock reads would add to the loss). The host's
# speed drifts by 2-3x within a minute, so each of ROUNDS rounds runs without, with,
# and without feecscope again; a round's ratio is "with" against the mean of its two
# runs without, and the median over rounds is the figure. The two runs without, against
# each other, show how far this host moves on its own (the noise floor of the ratio).
ROUNDS=${ROUNDS:-5}
old_stats=$(sysctl -n kernel.bpf_stats_enabled)
sysctl -qw kernel.bpf_stats_enabled=0
busy() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 }' /proc/stat; } # all CPUs, ticks
self_cpu() { awk '{ print $14 + $15 }' /proc/"$LIVE"/stat; }         # the daemon's ticks
without() { echo "$(pipe_ops) $(msg_time)" >"$T/${1:-without}"; }
with() { # messaging also accounts what the CPUs spent: all busy ticks, the daemon's, sched_waking runs
	start_live; sleep 0.5; pipe_ops >"$T/with.pipe"; stop_live
	start_live; sleep 0.5
	local b0 d0; b0=$(busy); d0=$(self_cpu)
	msg_time >"$T/with.msg"
	echo "$(($(busy) - b0)) $(($(self_cpu) - d0))" >"$T/with.cpu"
	stop_live
	sed -nE 's/^collector: sched_waking ([0-9]+).*/\1/p' "$T/live.err" | tail -n 1 >>"$T/with.cpu"
}
: >"$T/rounds"
for r in $(seq "$ROUNDS"); do
	without; with; without without2
	# pipe0 msg0 pipe_w msg_w busy_ticks daemon_ticks sched_waking pipe1 msg1
	# (busy, daemon, sched_waking: while messaging ran with feecscope)
	echo "$(cat "$T/without") $(cat "$T/with.pipe" "$T/with.msg" "$T/with.cpu" "$T/without2" | paste -sd' ')" >>"$T/rounds"
done

# BPF run time per program, bpf_stats on.
sysctl -qw kernel.bpf_stats_enabled=1
# The floor under every bpf_stats figure: programs that do nothing on the same two
# tracepoints, same workload, no feecscope (tests/bench/bpf/floor.bpf.c).
floor=
if [ -x "$OUT/bench/bpf_floor" ] && [ -e "$OUT/bench/floor.bpf.o" ]; then
	floor=$("$OUT/bench/bpf_floor" "$OUT/bench/floor.bpf.o" perf bench sched pipe -l "$LOOPS" 2>/dev/null |
		awk '/^floor_/ { s += $3 } END { if (NR) printf "%.0f", s }')
fi
start_live
sleep 1
pipe_ops >/dev/null
# run_time_ns / run_cnt of the programs this feecscope holds (prog_id in its fdinfo):
# another instance's programs on the same tracepoints must not count
bpftool prog show -j >"$T/progs.json"
owned=$(grep -h '^prog_id:' /proc/"$LIVE"/fdinfo/* 2>/dev/null | awk '{ print $2 }' | sort -u | paste -sd,)
stop_live
sysctl -qw kernel.bpf_stats_enabled="$old_stats"
python3 - "$T/progs.json" "${owned:-none}" "$T/rounds" "$MSG_LOOPS" "${floor:-}" "$(getconf CLK_TCK)" <<'EOF'
import json, sys
progs = json.load(open(sys.argv[1]))
owned = {int(x) for x in sys.argv[2].split(',') if x.isdigit()}
rounds_file, msg_loops = sys.argv[3], sys.argv[4]
floor = float(sys.argv[5]) if sys.argv[5] else None
hz = float(sys.argv[6])
rounds = [[float(x) for x in l.split()] for l in open(rounds_file) if len(l.split()) == 9]
if not rounds:
    sys.exit("live_overhead: no complete round of perf bench runs")
def median(v):
    v = sorted(v)
    return v[len(v) // 2] if len(v) % 2 else (v[len(v) // 2 - 1] + v[len(v) // 2]) / 2
pipe_w = median([r[2] for r in rounds])
others = 0
ours = []
for p in progs:
    if p.get('id') in owned:
        ours.append(p)
    elif p.get('name', '').startswith(('tp_btf_sched_', 'raw_sched_')):
        others += 1
if not ours:
    sys.exit("live_overhead: none of bpftool's programs is held by feecscope (prog_id in its fdinfo)")
if others:
    print(f"  note: {others} sched tracepoint programs of other processes were loaded too (they add to the loss)")
tot_ns = tot_cnt = 0
waking = 0
for p in sorted(ours, key=lambda p: p['name']):
    ns, cnt = p.get('run_time_ns', 0), p.get('run_cnt', 0)
    tot_ns += ns; tot_cnt += cnt
    if 'waking' in p['name']:
        waking = cnt
    print(f"  {p['name']:<16} run_cnt {cnt:>10}  {ns / cnt if cnt else 0:8.0f} ns/run")
if waking:
    print(f"BPF time per wake-up (all programs / sched_waking runs): {tot_ns / waking / 1000:.2f} us (goal < 1.5 us)")
if floor is not None:
    print(f"  floor: empty programs on sched_waking + sched_wakeup alone measure {floor / 1000:.2f} us per wake-up")
# pipe does 2 wake-ups per op: the share of the op time the BPF programs explain
if waking:
    op_us = 1e6 / pipe_w
    print(f"  BPF share of a pipe op: 2 x {tot_ns / waking / 1000:.2f} us of {op_us:.1f} us; the rest of the loss "
          f"is feecscope's userspace (pairing + feec replay) competing for the CPUs")
def report(name, col0, colw, col1, fmt, note, rate):
    """per round: throughput with / mean of the two without; rate() turns a figure into throughput"""
    rs = [rate(r[colw]) / ((rate(r[col0]) + rate(r[col1])) / 2) for r in rounds]
    aa = [rate(r[col1]) / rate(r[col0]) for r in rounds]
    m = median(rs)
    print(f"{name}: without {fmt(median([r[col0] for r in rounds] + [r[col1] for r in rounds]))}, with feecscope "
          f"{fmt(median([r[colw] for r in rounds]))} (medians of {len(rounds)} rounds); "
          f"throughput ratio {m:.3f} ({(1 - m) * 100:+.1f}% loss{note}; rounds {min(rs):.3f} - {max(rs):.3f}; "
          f"without against without: {median(aa):.3f}, {min(aa):.3f} - {max(aa):.3f})")
# The same cost accounted in CPU time, which the host's swings hardly move: the
# collector's BPF time (run time per wake-up x sched_waking runs) plus the daemon's
# CPU time, as a share of all CPU time spent while messaging ran with it. It leaves
# out indirect costs (cache lines the collector's reads take from other CPUs).
if waking:
    bpf_us = tot_ns / waking / 1000
    rs = [r for r in rounds if r[4] > 0 and r[6] > 0]
    if rs:
        shares = [(bpf_us * r[6] / 1e6 + r[5] / hz) / (r[4] / hz) for r in rs]
        bpf_part = median([bpf_us * r[6] / 1e6 / (r[4] / hz) for r in rs])
        per_rec = median([r[5] / hz * 1e6 / r[6] for r in rs])
        print(f"CPU time feecscope took during messaging: {median(shares) * 100:.1f}% of all busy CPU time "
              f"(median of {len(rs)} rounds, {min(shares) * 100:.1f} - {max(shares) * 100:.1f}%): "
              f"BPF {bpf_part * 100:.1f}% ({bpf_us:.2f} us x sched_waking runs), the daemon the rest "
              f"({per_rec:.2f} us per sched_waking); what a CPU-bound workload gives up")
report("perf bench sched pipe", 0, 2, 7, lambda x: f"{x:.0f} ops/s",
       "; nothing but wake-ups, the worst case", rate=lambda x: x)
report(f"perf bench sched messaging -g 4 -l {msg_loops}", 1, 3, 8, lambda x: f"{x:.3f} s",
       ", goal < 3%", rate=lambda t: 1 / t)
EOF

# Highest rate held without drops: ever heavier `perf bench sched messaging`.
echo "event rate vs drops (perf bench sched messaging, 8 MiB ring buffer):"
for g in 1 2 4 8 16; do
	start_live
	t0=$(date +%s.%N)
	perf bench sched messaging -g "$g" -l 2000 >/dev/null 2>&1
	t1=$(date +%s.%N)
	stop_live
	line=$(grep '^collector:' "$T/live.err" | tail -1)
	wk=$(echo "$line" | sed -E 's/.*sched_waking ([0-9]+).*/\1/')
	drops=$(echo "$line" | sed -E 's/.*ring-buffer drops ([0-9]+).*/\1/')
	awk -v g="$g" -v w="$wk" -v d="$drops" -v a="$t0" -v b="$t1" \
		'BEGIN { printf "  groups %2d: %9.0f sched_waking/s, drops %s\n", g, w / (b - a), d }'
done
