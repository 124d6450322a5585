#!/usr/bin/env bash
# What the frequency-change records (FS_REC_FREQ, bpf/busyfreq.bpf.c) add to the
# collector's cpu_frequency program (root): its BPF time per run with them and
# without them (FS_BENCH_NO_FREQREC=1), each run a change (so each writes a record
# where they are on), from bpf_prog_info (kernel.bpf_stats_enabled=1). This machine's
# kernel may never trace cpu_frequency (no cpufreq, as on this x86 VM), so the program
# of a running `feecscope live` is run by BPF_PROG_TEST_RUN (build/bench/prog_run),
# RUNS runs alternating two frequencies, ROUNDS rounds alternating without / with /
# without; the figure is the median of the rounds' ratios, with / mean of the two
# without, the noise floor the median |ratio - 1| of the two without.
set -u
OUT=${1:-build}
FS=${FEECSCOPE:-$OUT/feecscope}
RUN=$OUT/bench/prog_run
[ "$(id -u)" -eq 0 ] || { echo "freqrec_cost: needs root (BPF)"; exit 1; }
command -v bpftool >/dev/null || { echo "freqrec_cost: needs bpftool"; exit 1; }
[ -x "$RUN" ] || { echo "freqrec_cost: no $RUN (make bench builds it)"; exit 1; }
T=$(mktemp -d); LIVE=; trap '[ -n "$LIVE" ] && kill $LIVE 2>/dev/null; rm -rf "$T"' EXIT
ROUNDS=${ROUNDS:-3}
RUNS=${RUNS:-20000}

start_live() {
	"$FS" live -v -i 1 >"$T/live.out" 2>"$T/live.err" &
	LIVE=$!
	for _ in $(seq 100); do grep -q "^feecscope live: kernel" "$T/live.out" 2>/dev/null && return 0; sleep 0.1; done
	echo "freqrec_cost: feecscope live did not start: $(head -c 400 "$T/live.err")"; exit 1
}
stop_live() { kill -INT "$LIVE"; wait "$LIVE"; LIVE=; }
# the newest program of that name (15 characters in the kernel) is the live one's
prog_id() {
	bpftool prog show -j | python3 -c 'import json, sys
ids = [p["id"] for p in json.load(sys.stdin) if p.get("name", "").startswith("busy_cpu_freq")]
print(max(ids) if ids else "")'
}
one() { # with|without: ns per run of busy_cpu_frequency
	if [ "$1" = without ]; then export FS_BENCH_NO_FREQREC=1; else unset FS_BENCH_NO_FREQREC; fi
	start_live
	unset FS_BENCH_NO_FREQREC
	# the busy programs attach after the banner: wait for this run's (a new id; one runs
	# in a subshell, so the last id is kept in a file)
	last=$(cat "$T/last_id" 2>/dev/null)
	for _ in $(seq 50); do id=$(prog_id); [ -n "$id" ] && [ "$id" != "$last" ] && break; sleep 0.1; done
	[ -n "$id" ] && [ "$id" != "$last" ] || { echo "freqrec_cost: no busy_cpu_frequency program loaded"; exit 1; }
	echo "$id" >"$T/last_id"
	"$RUN" "$id" "$RUNS" 0 500000 1000000 | awk '{ print $4 }'
	stop_live
	cp "$T/live.err" "$T/$1.err"
}

old_stats=$(sysctl -n kernel.bpf_stats_enabled)
sysctl -qw kernel.bpf_stats_enabled=1
: >"$T/rounds"
for _ in $(seq "$ROUNDS"); do
	echo "$(one without) $(one with) $(one without)" >>"$T/rounds"
done
sysctl -qw kernel.bpf_stats_enabled="$old_stats"
grep -q "frequency records on" "$T/with.err" ||
	{ echo "freqrec_cost: frequency records not on: $(grep -m1 '^busyfreq' "$T/with.err")"; exit 1; }
grep -q "frequency records off" "$T/without.err" ||
	{ echo "freqrec_cost: frequency records not off: $(grep -m1 '^busyfreq' "$T/without.err")"; exit 1; }
python3 - "$T/rounds" <<'PY'
import sys
rounds = [[float(x) for x in l.split()] for l in open(sys.argv[1]) if len(l.split()) == 3]
if not rounds:
    sys.exit("freqrec_cost: no figures")
def median(v):
    v = sorted(v); n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2
w = median([r[1] for r in rounds])
wo = median([(r[0] + r[2]) / 2 for r in rounds])
ratio = median([r[1] / ((r[0] + r[2]) / 2) for r in rounds])
noise = median([abs(r[2] / r[0] - 1) for r in rounds])
print(f"busy_cpu_frequency, every run a change: {w:.0f} ns per run with frequency records, "
      f"{wo:.0f} without (+{w - wo:.0f} ns per change)")
print(f"  ratio with / without: {ratio:.3f} (median of {len(rounds)} rounds; noise floor {noise:.3f})")
PY
