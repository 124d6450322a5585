#!/usr/bin/env bash
# trace.dat import speed (docs/traces.md, "Import speed"): as root with tracefs and
# trace-cmd, capture a trace.dat of a pipe ping-pong in a tracing instance of its own
# (no other tracefs user is disturbed), `trace-cmd extract` it and time the reader with
# build/bench/trace_bench --dat. Without them it says what is missing and exits 0.
set -u
OUT=${1:-build}
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
"$B" --dat "$TMP/bench.dat"
