#!/usr/bin/env bash
# Runs every test suite and ends with one line: "N passed, N failed".
# Suites: unit tests (plain and ASan+UBSan), the kept fuzz inputs (and with
# FS_FUZZ_SECONDS=N a fuzzing run of N s per target), then tests/cli/*.sh, then
# tests/live/*.sh (root only: they load the BPF programs on this kernel), then
# tests/lab/*.sh (root: the arm64 build and the QEMU EAS guest).
# Each suite prints its own "N passed, N failed"; this script adds them up.
set -u
OUT=${1:-build}
cd "$(dirname "$0")/.."
export FEECSCOPE="$PWD/$OUT/feecscope" FS_FIXTURES="$PWD/tests/fixtures" FS_OUT="$PWD/$OUT"
total_pass=0 total_fail=0
log_dir="$OUT/test-logs"; mkdir -p "$log_dir"

run_suite() { # name command...
	local name=$1; shift
	local log="$log_dir/$name.log"
	echo "== $name"
	"$@" >"$log" 2>&1
	local rc=$?
	grep -aE -B4 -A2 '^(FAIL|not ok)' "$log" | head -n 40 | sed 's/^/   /' # a failure with the lines that explain it
	local line
	line=$(grep -aE '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
	if [ -z "$line" ]; then
		echo "   no result line (exit $rc); see $log"; tail -n 20 "$log" | sed 's/^/   | /'
		total_fail=$((total_fail + 1)); return
	fi
	local p f
	p=$(echo "$line" | sed -E 's/^([0-9]+) passed.*/\1/')
	f=$(echo "$line" | sed -E 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/')
	[ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && { echo "   exit $rc with no failures counted; see $log"; f=1; }
	echo "   $line"
	total_pass=$((total_pass + p)); total_fail=$((total_fail + f))
}

run_suite unit "$OUT/tests/unit_tests"
run_suite unit-asan-ubsan "$OUT/tests/unit_tests_san"
run_suite unit-gzip-libdeflate "$OUT/tests/unit_gzip_libdeflate"
run_suite fuzz-inputs bash tests/fuzz/replay.sh
# `make check` (CI) also fuzzes each target for a while (docs/fuzzing.md).
[ -n "${FS_FUZZ_SECONDS:-}" ] && run_suite fuzz bash tests/fuzz/run.sh "$OUT" "$FS_FUZZ_SECONDS"
for t in tests/cli/*.sh; do
	[ -e "$t" ] || continue
	run_suite "cli-$(basename "$t" .sh)" bash "$t"
done
run_suite ab-meter bash tests/ab/check.sh   # the A/B meter on a canned trace (tests/ab/run.sh is not run here)
if [ "$(id -u)" -eq 0 ]; then
	for t in tests/live/*.sh tests/lab/*.sh; do
		[ -e "$t" ] || continue
		run_suite "$(basename "$(dirname "$t")")-$(basename "$t" .sh)" bash "$t"
	done
else
	echo "== live, lab: not root, not run (counted as one failure)"; total_fail=$((total_fail + 1))
fi
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
