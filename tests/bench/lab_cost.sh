#!/usr/bin/env bash
# BPF cost per snapshot against the CPU count, in the QEMU lab: one kernel booted at 2,
# 4 and 8 vCPUs (topologies 1+1, 2+2, 4+3+1) with kernel.bpf_stats_enabled=1 under the
# lab's rt-app workload; each guest's `feecscope live` reports the run time of all its
# programs per snapshot ("bpf-stats:" line). A least-squares line through the three
# points splits it into a fixed part and a per-CPU slope (goal: slope <= 100 ns).
# Not hardware time: TCG emulates no cache, so the cache-line transfers that dominate
# the per-CPU cost on a real machine (tests/bench/landscape_cost.sh) cost nothing here.
# The guests run with -icount shift=0 (one guest nanosecond per instruction), so the
# figures count instructions, whatever the host's load: they compare kernels and code
# versions. The vCPUs then take turns on one host thread and the guest clock counts
# every vCPU's instructions: a program run that spans a turn is charged the others'
# too (two 8-vCPU boots of one binary gave 16.2 and 36.6 us per snapshot), so each
# topology boots BOOTS times and keeps its smallest figure. Those outliers are
# rare but long, and the stats' sum keeps them: the second fit is of each snapshot
# program's own clock ("bpf-self:", FS_BENCH_SELF_TIME), its median, which leaves
# them out. The first fit is every program's run time per snapshot, the second the
# snapshot alone (what the landscape loop is in).
# usage: tests/bench/lab_cost.sh [OUT]   (make bench passes build/)
# Env: FS_BENCH_SERIES (a tests/qemu/debian-kernels.sh series, default 6.18),
#      FS_LAB_SECONDS (live seconds per guest, 10), BOOTS (per topology, 2),
#      FS_LAB_QEMU_ARGS (default -icount shift=0; empty: TCG's own clock, host-bound),
#      FS_LAB_FEECSCOPE (another static arm64 feecscope, as tests/qemu/run-lab.sh).
set -u
cd "$(dirname "$0")/../.."
series=${FS_BENCH_SERIES:-6.18}
SECS=${FS_LAB_SECONDS:-10}
BOOTS=${BOOTS:-2}
export FS_LAB_QEMU_ARGS=${FS_LAB_QEMU_ARGS--icount shift=0}
line=$(tests/qemu/debian-kernels.sh list | grep "^$series ") || { echo "lab_cost: no series $series"; exit 1; }
set -- $line
kd=build/qemu/kernels/$series
tests/qemu/debian-kernels.sh fetch "$2" "$3" "$kd" || exit 1
pts=
self=
keep=
for topo in 1+1 2+2 4+3+1; do
	best=
	bself=
	for b in $(seq "$BOOTS"); do
		d=build/lab/cost/$series-$topo-$b
		FS_LAB_BPF_STATS=1 tests/qemu/run-lab.sh -t "$topo" -d "$SECS" -K "$kd" -o "$d" $keep >/dev/null 2>&1
		keep=-k
		l=$(grep '^bpf-stats:' "$d/out/live.err" 2>/dev/null | tail -n 1)
		if [ -z "$l" ]; then
			echo "lab_cost: $series $topo: no bpf-stats line (live exit $(cat "$d/out/live.rc" 2>/dev/null || echo -))"
			continue
		fi
		echo "  $series $topo boot $b: ${l#bpf-stats: }"
		p=$(echo "$l" | sed -E 's/.* ([0-9]+) ns per snapshot \(([0-9]+) snapshots, ([0-9]+) CPUs\).*/\3:\1:\2/')
		[ -z "$best" ] || [ "$(echo "$p" | cut -d: -f2)" -lt "$(echo "$best" | cut -d: -f2)" ] && best=$p
		m=$(grep '^bpf-self:' "$d/out/live.err" 2>/dev/null | tail -n 1)
		[ -n "$m" ] || continue
		echo "  $series $topo boot $b: ${m#bpf-self: }"
		m=$(echo "$m" | sed -E 's/.*median ([0-9]+) ns.*/\1/')
		[ -z "$bself" ] || [ "$m" -lt "${bself#*:}" ] && bself=${p%%:*}:$m
	done
	pts="$pts $best"
	self="$self $bself"
done
fit() {
	python3 - "$FS_LAB_QEMU_ARGS" "$@" <<'EOF'
import sys
what, pts = sys.argv[2], [tuple(int(x) for x in a.split(':')[:2]) for a in sys.argv[3:]]
if len(pts) < 2:
    sys.exit(f"lab_cost: {what}: fewer than two points, no slope")
n = len(pts)
mx = sum(p[0] for p in pts) / n
my = sum(p[1] for p in pts) / n
slope = sum((p[0] - mx) * (p[1] - my) for p in pts) / sum((p[0] - mx) ** 2 for p in pts)
fixed = my - slope * mx
clock = "icount: instructions" if "icount" in sys.argv[1] else "TCG's clock"
print(f"{what} = {fixed:.0f} ns + {slope:.0f} ns x CPUs ({clock}, not hardware time;"
      f" goal slope <= 100 ns)")
EOF
}
fit "BPF per snapshot" $pts
fit "snapshot median" $self
