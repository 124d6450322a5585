#!/usr/bin/env bash
# `make fuzz`: run every fuzzer (build/fuzz/<target>) for SECONDS seconds,
# starting from its kept inputs (tests/fuzz/<target>/seed and found) and the
# working corpus it grew in earlier runs (build/fuzz/corpus/<target>, not in
# git). Any crash, sanitizer report, leak, broken invariant or timeout fails
# the target; the input is left in build/fuzz/artifacts/ (copy it to
# tests/fuzz/<target>/found/ once fixed: `make test` then replays it).
# Each run's executions are appended to build/fuzz/executions.tsv.
# FUZZ_TIMEOUT (default 20) is the seconds one input may take: raise it for
# long runs under SCHED_IDLE (chrt -i 0) on a busy host, where the fuzzer may
# get no CPU for longer than that and libFuzzer counts wall time.
# Usage: run.sh OUT SECONDS [TARGET...]; ends "N passed, N failed".
set -u
OUT=${1:-build}
SECS=${2:-30}
shift 2 2>/dev/null
cd "$(dirname "$0")/../.."
# Absolute: a harness may change directory (fuzz_cli.c runs commands in a scratch one).
OUT=$(realpath "$OUT")
pass=0 fail=0
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
	for h in tests/fuzz/fuzz_*.c; do t=${h#tests/fuzz/fuzz_}; targets+=("${t%.c}"); done
fi
mkdir -p "$OUT/fuzz/artifacts" "$OUT/fuzz/logs"
for t in "${targets[@]}"; do
	bin=$OUT/fuzz/$t
	if [ ! -x "$bin" ]; then
		echo "FAIL fuzz $t: $bin not built (make fuzz-build)"; fail=$((fail + 1)); continue
	fi
	corpus=$OUT/fuzz/corpus/$t
	mkdir -p "$corpus"
	dirs=("$corpus")
	for d in seed found; do [ -d "tests/fuzz/$t/$d" ] && dirs+=("$PWD/tests/fuzz/$t/$d"); done
	opts=(-max_total_time="$SECS" -timeout="${FUZZ_TIMEOUT:-20}" -rss_limit_mb=2048 -print_final_stats=1
	      -artifact_prefix="$OUT/fuzz/artifacts/$t-")
	[ -f "tests/fuzz/$t/dict" ] && opts+=(-dict="$PWD/tests/fuzz/$t/dict")
	# a target's own libFuzzer flags, one a line, after the defaults (so they win)
	[ -f "tests/fuzz/$t/options" ] && while read -r f; do [ -n "$f" ] && opts+=("$f"); done <"tests/fuzz/$t/options"
	log=$OUT/fuzz/logs/$t.log
	"$bin" "${opts[@]}" "${dirs[@]}" >"$log" 2>&1 </dev/null
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	secs=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -n 1)
	printf '%s\t%s\t%s\t%s\t%s\n' "$(date -u +%F)" "$t" "${secs:-$SECS}" "${execs:-0}" "$rc" >>"$OUT/fuzz/executions.tsv"
	if [ $rc -eq 0 ] && [ -n "$execs" ]; then
		echo "ok   fuzz $t: $execs executions in ${secs:-$SECS} s, corpus $(ls "$corpus" | wc -l) inputs"
		pass=$((pass + 1))
	else
		art=$(grep -o "Test unit written to .*" "$log" | tail -n 1 | sed 's/Test unit written to //')
		echo "FAIL fuzz $t: exit $rc after ${execs:-?} executions; input ${art:-none}; log $log"
		grep -a -m 3 -E "ERROR: |runtime error|fuzz invariant|SUMMARY" "$log" | cut -c1-200 | sed 's/^/     /'
		fail=$((fail + 1))
	fi
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
