#!/usr/bin/env bash
# The on-device build: `make ARCH=arm64` gives a static aarch64 feecscope with the BPF
# object inside, and under qemu-user it prints exactly what the host build prints.
cd "$(dirname "$0")/../.."
. tests/lib.sh
ARM=${FS_ARM64:-build/arm64/feecscope}
QEMU_USER=$(command -v qemu-aarch64-static || command -v qemu-aarch64 || true)

check "make ARCH=arm64 builds" make -s ARCH=arm64
if [ $_fail -gt 0 ] || [ ! -x "$ARM" ]; then
	# An older binary may still be there: checking it would prove nothing about this tree.
	fail "arm64 binary" "$ARM not built from this tree; see the make failure above"
	finish; exit
fi
file -L "$ARM" >"$TMP/file"
if grep -q 'ARM aarch64' "$TMP/file" && grep -q 'statically linked' "$TMP/file"; then
	pass "arm64 binary is a static aarch64 ELF"
else
	fail "arm64 binary is a static aarch64 ELF" "$(cat "$TMP/file")"
fi
# The skeleton embeds the BPF ELF; its program section names show in the binary.
if ls bpf/*.bpf.c >/dev/null 2>&1; then
	if grep -aq 'sched_waking' "$ARM"; then pass "arm64 binary embeds the BPF object"
	else fail "arm64 binary embeds the BPF object" "no 'sched_waking' program section in $ARM"; fi
else
	fail "arm64 binary embeds the BPF object" "no bpf/*.bpf.c in the tree yet: nothing to embed"
fi

if [ -z "$QEMU_USER" ]; then
	fail "qemu-user" "qemu-aarch64-static not found: run tests/qemu/install-deps.sh"
	finish; exit
fi
arm() { "$QEMU_USER" "$ARM" "$@"; }

# Same command, same output, on both architectures (stdout and exit code).
same_output() { # name args...
	local n=$1; shift
	"$FEECSCOPE" "$@" >"$TMP/host.out" 2>"$TMP/host.err"; echo "exit $?" >>"$TMP/host.out"
	arm "$@" >"$TMP/arm.out" 2>"$TMP/arm.err"; echo "exit $?" >>"$TMP/arm.out"
	if grep -q '^exit 0$' "$TMP/host.out"; then
		expect_same "$n" "$TMP/host.out" "$TMP/arm.out"
	else
		fail "$n" "host build failed: $(head -c 300 "$TMP/host.err")"
	fi
}
same_output "em --em hikey960: arm64 = host" em --em hikey960
"$FEECSCOPE" em --em hikey960 --save "$TMP/host.em" >/dev/null 2>&1
arm em --em hikey960 --save "$TMP/arm.em" >/dev/null 2>&1
if [ -s "$TMP/host.em" ]; then expect_same "em --save: arm64 file = host file" "$TMP/host.em" "$TMP/arm.em"
else fail "em --save: arm64 file = host file" "the host build wrote no $TMP/host.em"; fi

# Replay of the committed fixtures exactly as tests/cli/replay.sh replays them: the record
# CSVs with their built-in profile (`--em <dev>`; *.decisions.csv and *.summary.txt are
# golden outputs, not inputs), the explicit policy lists, and the damaged CSV. Both builds
# must print the same bytes, and equal the golden files the replay suite checks by hand.
R=$FS_FIXTURES/replay
same_replay() { # name args...  (writes the CSV to $TMP/{host,arm}.csv)
	local n=$1; shift
	"$FEECSCOPE" replay "$@" --csv-layout wide --csv "$TMP/host.csv" >"$TMP/host.sum" 2>"$TMP/host.err"; hrc=$?
	arm replay "$@" --csv-layout wide --csv "$TMP/arm.csv" >"$TMP/arm.sum" 2>"$TMP/arm.err"; arc=$?
	if [ $hrc -ne 0 ] || [ $arc -ne 0 ]; then
		fail "$n: arm64 = host" "exit host $hrc, arm64 $arc: $(head -c 300 "$TMP/arm.err" | tr -cd '\11\12\40-\176')"
		return 1
	fi
	expect_same "$n: summary arm64 = host" "$TMP/host.sum" "$TMP/arm.sum"
	expect_same "$n: CSV arm64 = host" "$TMP/host.csv" "$TMP/arm.csv"
}
n=0
for dev in pixel4 hikey960; do
	[ -f "$R/$dev.csv" ] || continue
	n=$((n + 1))
	same_replay "replay $dev.csv --em $dev" "$R/$dev.csv" --em $dev || continue
	expect_same "replay $dev.csv: arm64 summary = golden $dev.summary.txt" "$R/$dev.summary.txt" "$TMP/arm.sum"
	expect_same "replay $dev.csv: arm64 CSV = golden $dev.decisions.csv" "$R/$dev.decisions.csv" "$TMP/arm.csv"
	same_replay "replay $dev.csv --em $dev --policies v6.0,v5.4,v5.0" "$R/$dev.csv" --em $dev --policies v6.0,v5.4,v5.0
	# A recording written by the arm64 build replays on the host to the golden files.
	arm replay "$R/$dev.csv" --em $dev --convert-record "$TMP/arm.fsr" >/dev/null 2>&1
	"$FEECSCOPE" replay "$TMP/arm.fsr" --csv-layout wide --csv "$TMP/host.csv" >"$TMP/host.sum" 2>&1
	expect_same "$dev: arm64-written recording replays on the host to the golden summary" "$R/$dev.summary.txt" "$TMP/host.sum"
	expect_same "$dev: arm64-written recording replays on the host to the golden CSV" "$R/$dev.decisions.csv" "$TMP/host.csv"
done
[ $n -gt 0 ] || fail "replay fixtures: arm64 = host" "no pixel4.csv or hikey960.csv in $R"
if [ -f "$R/bad_value.csv" ]; then
	"$FEECSCOPE" replay "$R/bad_value.csv" --em hikey960 >"$TMP/host.bad" 2>&1; hrc=$?
	arm replay "$R/bad_value.csv" --em hikey960 >"$TMP/arm.bad" 2>&1; arc=$?
	if [ $hrc -ne 0 ] && [ $hrc -lt 128 ] && [ $arc -eq $hrc ]; then
		expect_same "replay bad_value.csv: the same error on both (exit $arc)" "$TMP/host.bad" "$TMP/arm.bad"
	else
		fail "replay bad_value.csv: the same error on both" "exit host $hrc, arm64 $arc (want the same non-zero)"
	fi
fi
finish
