#!/usr/bin/env bash
# `make test`: every kept fuzz input (tests/fuzz/<target>/seed and found)
# through its harness built without libFuzzer under gcc's ASan and UBSan
# (build/tests/fuzz_replay_<target>). One check per input: the harness must
# return normally (no crash, no sanitizer report, no leak, no broken invariant).
. "$(dirname "$0")/../lib.sh"
cd "$(dirname "$0")/../.." || exit 1
FS_OUT=${FS_OUT:-build}
for h in tests/fuzz/fuzz_*.c; do
	t=${h#tests/fuzz/fuzz_}; t=${t%.c}
	bin=$FS_OUT/tests/fuzz_replay_$t
	n=0
	for f in tests/fuzz/"$t"/seed/* tests/fuzz/"$t"/found/*; do
		[ -f "$f" ] || continue
		n=$((n + 1))
		if "$bin" "$f" >"$TMP/out" 2>&1; then
			[ "${f#*/found/}" != "$f" ] && pass "$t: found input ${f##*/} handled"
		else
			fail "$t: ${f#tests/fuzz/}" "$(grep -m 2 -E 'ERROR|runtime error|invariant|SUMMARY' "$TMP/out" | cut -c1-160)"
		fi
	done
	[ $n -gt 0 ] && pass "$t: $n kept inputs replayed" || fail "$t" "no kept inputs in tests/fuzz/$t"
done
finish
