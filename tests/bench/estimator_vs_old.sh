#!/usr/bin/env bash
# Replay cost of this tree against the last one with the wall-time estimator
# (FS_BENCH_BASELINE, default fb4d09a: before CPU times were recorded), both
# built here from git, on the same generated trace (256 tasks, pixel4's EM,
# the v5.4 pair): throughput run alternately, best of 3 each, and, where
# valgrind is installed, instructions per replay (callgrind: the same count
# whatever else the machine does). Prints the ratios now / then; issue 13
# allows at most 10 % slower.
set -u
OUT=${1:-build}
cd "$(dirname "$0")/../.."
base=${FS_BENCH_BASELINE:-fb4d09a}
if ! git cat-file -e "$base^{commit}" 2>/dev/null; then
	echo "estimator_vs_old: baseline $base is not in this clone's history; not measured"
	exit 0
fi
dir=$OUT/bench-baseline
if [ ! -x "$dir/build/bench/replay_bench" ]; then
	rm -rf "$dir" && mkdir -p "$dir"
	git archive "$base" | tar -x -C "$dir"
	# only the core and the bench: no BPF needed
	(cd "$dir" && make -s build/libfeecscope.a >/dev/null && mkdir -p build/bench &&
	 cc -O2 -g -std=c11 -D_GNU_SOURCE -Iuser -Ibuild tests/bench/replay_bench.c build/libfeecscope.a -lz -lm \
		-o build/bench/replay_bench) || { echo "estimator_vs_old: building $base failed"; exit 1; }
fi
rate() { "$1" 25000 --table-only | awk '/^ +25000 / { print $2 }'; }
old=0 new=0
for _ in 1 2 3; do
	o=$(rate "$dir/build/bench/replay_bench"); n=$(rate "$OUT/bench/replay_bench")
	old=$(awk -v a="$old" -v b="$o" 'BEGIN { print (b > a ? b : a) }')
	new=$(awk -v a="$new" -v b="$n" 'BEGIN { print (b > a ? b : a) }')
done
awk -v o="$old" -v n="$new" -v b="$base" 'BEGIN {
	printf "estimator_vs_old: %s (wall time) %.2f M decisions/s, now (CPU time) %.2f M/s: x%.3f\n", b, o / 1e6, n / 1e6, (o > 0 ? n / o : 0) }'
command -v valgrind >/dev/null || { echo "estimator_vs_old: no valgrind: instruction counts not measured"; exit 0; }
# Instructions per replayed wake-up: the difference between 85,000 and 42,500 wake-ups, so start-up
# (EM tables) and the end of the run (the interval's bootstrap, the report) cancel out.
ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" "$2" --table-only 2>&1 | awk '/Collected/ { print $4 }'; }
o1=$(ir "$dir/build/bench/replay_bench" 500); o2=$(ir "$dir/build/bench/replay_bench" 1000)
n1=$(ir "$OUT/bench/replay_bench" 500); n2=$(ir "$OUT/bench/replay_bench" 1000)
awk -v o1="$o1" -v o2="$o2" -v n1="$n1" -v n2="$n2" -v b="$base" 'BEGIN {
	o = (o2 - o1) / 42500; n = (n2 - n1) / 42500
	printf "estimator_vs_old: instructions per replayed wake-up: %s %.0f, now %.0f: x%.3f\n", b, o, n, (o > 0 ? n / o : 0)
	printf "estimator_vs_old: instructions for 42,500 wake-ups, start and end included: %s %d, now %d: x%.3f\n", b, o1, n1, (o1 > 0 ? n1 / o1 : 0) }'
