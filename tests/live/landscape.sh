#!/usr/bin/env bash
# The per-CPU landscape (bpf/feecscope.bpf.c landscape_cpu()) on this kernel (root):
# every snapshot carries every CPU's struct rq (a non-zero capacity, the online flag),
# and the cost bench's hidden FS_BENCH_LANDSCAPE_CPUS=1 (tests/bench/landscape_cost.sh)
# really leaves the waker's CPU alone in it: were it ignored, the bench would report a
# per-CPU cost of zero.
. "$(dirname "$0")/../lib.sh"

N=$(getconf _NPROCESSORS_CONF)
# `live -vv` prints each record: "wakeup ... cpu0[u=.. cap=C/O nr=.. f=0x..] cpu1[...]"
run() { # file, env...: two seconds of live under a few wake-ups of our own
	env "${@:2}" "$FEECSCOPE" live -d 2 -i 1 -vv >"$TMP/$1.out" 2>"$TMP/$1.err" &
	local p=$! c
	# sleepers pinned to each CPU: every CPU wakes something (a timer wakes each one)
	for c in $(seq 0 $((N - 1))); do
		taskset -c "$c" sh -c 'for i in $(seq 15); do sleep 0.1; done' 2>/dev/null &
	done
	wait
}
# per record: the CPUs it carries with a capacity and the online flag (bit 0x1);
# WAKER=1: "waker:" first
read_cpus() {
	awk -v waker="${WAKER:-0}" '/^wakeup / {
		out = ""
		for (i = 1; i <= NF; i++) {
			if (waker && $i ~ /^waker=/) { w = $i; sub(/^waker=/, "", w); out = w ":" }
			if ($i ~ /^cpu[0-9]+\[/) { c = $i; sub(/^cpu/, "", c); sub(/\[.*/, "", c) }
			if ($i ~ /^cap=/) { cap = $i; sub(/^cap=/, "", cap); sub(/\/.*/, "", cap) }
			if ($i ~ /^f=0x/) {
				f = $i; sub(/^f=0x/, "", f); sub(/\].*/, "", f)
				if (cap + 0 > 0 && index("13579bdf", substr(f, length(f)))) out = out " " c
			}
		}
		print out
	}' "$TMP/$1.err"
}

run all
n=$(grep -cE '^wakeup ' "$TMP/all.err")
if [ "$n" -lt 5 ]; then
	fail "live recorded wake-ups" "$n snapshots; stderr: $(head -c 400 "$TMP/all.err")"
	finish; exit
fi
want=$(seq -s' ' 0 $((N - 1)))
bad=$(read_cpus all | grep -vcx " $want")
[ "$bad" -eq 0 ] && pass "every one of $n snapshots has all $N CPUs' landscape" ||
	fail "every snapshot has all $N CPUs' landscape" "$bad of $n lack some: $(read_cpus all | grep -vx " $want" | head -n 3 | tr '\n' '|')"

if [ "$N" -ge 2 ]; then
	run one FS_BENCH_LANDSCAPE_CPUS=1
	grep -q "FS_BENCH_LANDSCAPE_CPUS=1: only the waker's CPU" "$TMP/one.err" &&
		pass "live warns that FS_BENCH_LANDSCAPE_CPUS is set" ||
		fail "live warns that FS_BENCH_LANDSCAPE_CPUS is set" "$(head -c 300 "$TMP/one.err")"
	n=$(grep -cE '^wakeup ' "$TMP/one.err")
	# "W: W": the waker's CPU W alone; both CPUs must have woken something
	bad=$(WAKER=1 read_cpus one | grep -cvE '^([0-9]+): \1$')
	wakers=$(WAKER=1 read_cpus one | cut -d: -f1 | sort -u | wc -l)
	[ "$n" -ge 5 ] && [ "$bad" -eq 0 ] && [ "$wakers" -ge 2 ] &&
		pass "FS_BENCH_LANDSCAPE_CPUS=1: the waker's CPU alone in all $n snapshots ($wakers wakers)" ||
		fail "FS_BENCH_LANDSCAPE_CPUS=1: the waker's CPU alone" "$bad of $n snapshots differ, $wakers waker CPUs: $(WAKER=1 read_cpus one | grep -vE '^([0-9]+): \1$' | head -n 3 | tr '\n' '|')"
	run bogus FS_BENCH_LANDSCAPE_CPUS=$((N + 1))
	grep -q "FS_BENCH_LANDSCAPE_CPUS=$((N + 1)) ignored" "$TMP/bogus.err" &&
		[ "$(read_cpus bogus | grep -vcx " $want")" -eq 0 ] &&
		pass "an out-of-range FS_BENCH_LANDSCAPE_CPUS is ignored, with a warning" ||
		fail "an out-of-range FS_BENCH_LANDSCAPE_CPUS is ignored" "$(grep -m1 FS_BENCH "$TMP/bogus.err")"
fi
finish
