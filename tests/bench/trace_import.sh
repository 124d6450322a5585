#!/usr/bin/env bash
# trace.dat import speed (docs/traces.md, "Import speed"): as root with tracefs and
# trace-cmd, capture a trace.dat of a pipe ping-pong in a tracing instance of its own
# (no other tracefs user is disturbed), `trace-cmd extract` it and time the reader with
# build/bench/trace_bench --dat. Then the same against the reader of FS_TRACEDAT_BASELINE
# (default 353a01a: before its record loop was reworked), built here from git with this
# tree's trace_bench.c: runs alternated, best of 3 each, and where valgrind is installed
# the instructions of one read and of the open alone (callgrind: the same count whatever
# else the machine does). Prints the ratios now / then. Without root, tracefs or
# trace-cmd it says what is missing and exits 0.
set -u
OUT=${1:-build}
cd "$(dirname "$0")/../.."
TR=/sys/kernel/tracing
B="$OUT/bench/trace_bench"
[ -x "$B" ] || { echo "trace_import: $B not built"; exit 1; }
if [ "$(id -u)" -ne 0 ] || [ ! -d "$TR/instances" ] || ! command -v trace-cmd >/dev/null ||
	! command -v python3 >/dev/null; then
	echo "trace_import: skipped (needs root, $TR/instances, trace-cmd and python3)"
	exit 0
fi
NAME=feecscope_bench_$$
I="$TR/instances/$NAME"
TMP=$(mktemp -d)
trap 'rmdir "$I" 2>/dev/null; rm -rf "$TMP"' EXIT
mkdir "$I" || exit 1
echo 32768 >"$I/buffer_size_kb"
for e in sched/sched_switch sched/sched_waking sched/sched_wakeup sched/sched_wakeup_new \
	sched/sched_migrate_task sched/sched_process_fork sched/sched_process_exit; do
	echo 1 >"$I/events/$e/enable"
done
echo 1 >"$I/tracing_on"
# two processes handing one byte back and forth: a wake-up and two switches per hand-over
python3 - <<'PY'
import os
a, b = os.pipe(), os.pipe()
if os.fork() == 0:
    for _ in range(150000):
        os.read(a[0], 1); os.write(b[1], b'x')
    os._exit(0)
for _ in range(150000):
    os.write(a[1], b'x'); os.read(b[0], 1)
os.wait()
PY
echo 0 >"$I/tracing_on"
(cd "$TMP" && trace-cmd extract -B "$NAME" -o "$TMP/bench.dat" >/dev/null 2>&1) ||
	{ echo "trace_import: trace-cmd extract failed"; exit 1; }
echo "trace.dat: $(du -k "$TMP/bench.dat" | cut -f1) KB"
"$B" --dat "$TMP/bench.dat" || exit 1

base=${FS_TRACEDAT_BASELINE:-353a01a}
if ! git cat-file -e "$base^{commit}" 2>/dev/null; then
	echo "trace_import: baseline $base is not in this clone's history; not compared"
	exit 0
fi
dir=$OUT/bench-baseline-tracedat-$base
if [ ! -x "$dir/build/bench/trace_bench" ] || ! cmp -s tests/bench/trace_bench.c "$dir/tests/bench/trace_bench.c"; then
	if [ ! -e "$dir/build/libfeecscope.a" ]; then
		rm -rf "$dir" && mkdir -p "$dir" && git archive "$base" | tar -x -C "$dir"
	fi
	cp tests/bench/trace_bench.c tests/bench/bench_gen.h "$dir/tests/bench/"
	(cd "$dir" && make -s build/bench/trace_bench >/dev/null) ||
		{ echo "trace_import: building $base failed"; exit 1; }
fi
OLD=$dir/build/bench/trace_bench
# "trace.dat N events  read R M/s  into the workload W M/s" -> "R W"
rates() { "$1" --dat "$TMP/bench.dat" | awk '/^trace.dat .* events  read / { print $5, $10 }'; }
best() { awk -v a="$1" -v b="$2" 'BEGIN { print (b > a ? b : a) }'; }
or=0 ow=0 nr=0 nw=0
for _ in 1 2 3; do
	read -r r w < <(rates "$OLD"); or=$(best "$or" "$r"); ow=$(best "$ow" "$w")
	read -r r w < <(rates "$B"); nr=$(best "$nr" "$r"); nw=$(best "$nw" "$w")
done
awk -v b="$base" -v or="$or" -v ow="$ow" -v nr="$nr" -v nw="$nw" 'BEGIN {
	printf "trace_import: %s -> now, alternated, best of 3 each (M events/s):\n", b
	printf "trace_import:   read              %6.2f -> %6.2f  x%.2f\n", or, nr, (or > 0 ? nr / or : 0)
	printf "trace_import:   into the workload %6.2f -> %6.2f  x%.2f\n", ow, nw, (ow > 0 ? nw / ow : 0) }'
command -v valgrind >/dev/null || { echo "trace_import: no valgrind: instruction counts not measured"; exit 0; }
ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" --dat "$TMP/bench.dat" "$2" 2>&1 |
	awk '/Collected/ { print $4 }'; }
events=$("$B" --dat "$TMP/bench.dat" | awk '/^trace.dat .* events  read / { print $2; exit }')
o=$(ir "$OLD" --once) n=$(ir "$B" --once) op=$(ir "$B" --open)
awk -v b="$base" -v o="$o" -v n="$n" -v op="$op" -v e="$events" 'BEGIN {
	printf "trace_import: instructions (callgrind) for one read, %s -> now:\n", b
	printf "trace_import:   the read      %7.0f M -> %7.0f M  x%.2f\n", o / 1e6, n / 1e6, (o > 0 ? n / o : 0)
	printf "trace_import:   the open alone           %7.0f M  (%.0f%% of the read now)\n", op / 1e6, 100 * op / n
	printf "trace_import:   per record after it %5.0f -> %5.0f    x%.2f\n", (o - op) / e, (n - op) / e,
		(o > op ? (n - op) / (o - op) : 0) }'
