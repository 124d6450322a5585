#!/usr/bin/env bash
# The per-CPU landscape (bpf/landscape.bpf.c landscape_waker(), _others()) here (root):
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

# nr_running is read on the waker's CPU only (its rq lock line; no feec reads another
# CPU's): every other CPU says so (FS_CPU_NO_NR_RUNNING, 0x20) and holds 0.
nr_bad() {
	awk '/^wakeup / {
		bad = 0
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^waker=/) { w = $i; sub(/^waker=/, "", w) }
			if ($i ~ /^cpu[0-9]+\[/) { c = $i; sub(/^cpu/, "", c); sub(/\[.*/, "", c) }
			if ($i ~ /^nr=/) { nr = $i; sub(/^nr=/, "", nr) }
			if ($i ~ /^f=0x/) {
				f = $i; sub(/^f=0x/, "", f); sub(/\].*/, "", f)
				skip = index("2367abef", substr(f, length(f) - 1, 1)) > 0 && length(f) >= 2
				if ((c == w) == skip || (skip && nr != 0)) bad = 1
			}
		}
		n += bad
	} END { print n + 0 }' "$TMP/$1.err"
}
bad=$(nr_bad all)
[ "$bad" -eq 0 ] && pass "nr_running read on the waker's CPU alone, in all $n snapshots" ||
	fail "nr_running read on the waker's CPU alone" "$bad of $n snapshots: $(grep -m1 '^wakeup ' "$TMP/all.err" | cut -c1-300)"
# Other CPUs' online comes from the waker's rd->online (landscape_others()); a CPU
# outside its root domain (isolcpus, a cpuset partition) would read its own rq.
own=$(unwrap "$TMP/all.err" | grep -o "online read from their own rq [0-9]*" | tail -n 1 | grep -o "[0-9]*$")
if [ -z "$(cat /sys/devices/system/cpu/isolated 2>/dev/null)" ] &&
	! grep -qsx root /sys/fs/cgroup/*/cpuset.cpus.partition; then
	[ "${own:-x}" = 0 ] && pass "every other CPU's online came from the waker's rd->online" ||
		fail "every other CPU's online came from the waker's rd->online" "read from their own rq: ${own:-not reported}"
fi

if [ "$N" -ge 2 ]; then
	run one FS_BENCH_LANDSCAPE_CPUS=1
	unwrap "$TMP/one.err" | grep -q "FS_BENCH_LANDSCAPE_CPUS=1: only the waker's CPU" &&
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
	unwrap "$TMP/bogus.err" | grep -q "FS_BENCH_LANDSCAPE_CPUS=$((N + 1)) ignored" &&
		[ "$(read_cpus bogus | grep -vcx " $want")" -eq 0 ] &&
		pass "an out-of-range FS_BENCH_LANDSCAPE_CPUS is ignored, with a warning" ||
		fail "an out-of-range FS_BENCH_LANDSCAPE_CPUS is ignored" "$(grep -m1 FS_BENCH "$TMP/bogus.err")"
fi

# The cost bench's own clock (hidden FS_BENCH_SELF_TIME=1, tests/bench/lab_cost.sh): each
# snapshot timed once, so the last report's run count is its snapshot count (the counters
# are read a moment before the histogram: a few more at most), the quantiles in order.
# Without it (the run "all" above) no such line.
run self FS_BENCH_SELF_TIME=1
snaps=$(grep -o '^collector: snapshots [0-9]*' "$TMP/self.err" | tail -n 1 | grep -o '[0-9]*$')
read -r med p10 p90 runs <<<"$(sed -nE 's/^bpf-self: median ([0-9]+) ns per snapshot \(p10 ([0-9]+), p90 ([0-9]+), ([0-9]+) runs\)$/\1 \2 \3 \4/p' "$TMP/self.err" | tail -n 1)"
[ -n "$runs" ] && [ "${snaps:-0}" -ge 5 ] && [ "$runs" -ge "$snaps" ] && [ "$runs" -le $((snaps + 50)) ] &&
	[ "$p10" -gt 0 ] && [ "$p10" -le "$med" ] && [ "$med" -le "$p90" ] &&
	! grep -q '^bpf-self:' "$TMP/all.err" &&
	pass "FS_BENCH_SELF_TIME=1: $runs snapshots timed of $snaps, median $med ns (p10 $p10, p90 $p90)" ||
	fail "FS_BENCH_SELF_TIME=1 times each snapshot" "snapshots ${snaps:-?}, line: $(grep '^bpf-self' "$TMP/self.err" | tail -n 1); without: $(grep -c '^bpf-self' "$TMP/all.err")"

# Where snapshots load the rq fields through a BTF pointer (bpf_rdonly_cast() or the
# runqueues ksym), they must give what the cache-line copies give: a --raw-tp collector
# (copies) runs beside the default one, both see the same sched_waking events a few
# microseconds apart, and each wake-up both recorded is compared field by field. A
# field may differ where the other CPU changed it in between (util and the waker's
# nr_running move fast), so each must agree on 95 % of them; the cap and flags fields,
# which change seldom, too. A `cfs_last_update_time` moves with every PELT update of
# its CPU, as often as every microsecond on a busy one, so those must agree on 80 %
# (seen: 432 of 456 beside a busy host). A field read from a wrong place would agree
# on next to none. Other CPUs' nr_running, read by neither, is empty in both (checked
# above).
if unwrap "$TMP/all.err" | grep -q "struct rq loaded field by field"; then
	how=$(unwrap "$TMP/all.err" | grep -o "loaded field by field through [^ ]*" | head -n 1)
	"$FEECSCOPE" live -d 4 -i 1 -w "$TMP/loads.rec" >/dev/null 2>"$TMP/loads.err" &
	p1=$!
	sleep 1
	"$FEECSCOPE" live --raw-tp -d 2 -i 1 -w "$TMP/copies.rec" >/dev/null 2>"$TMP/copies.err" &
	p2=$!
	for c in $(seq 0 $((N - 1))); do
		taskset -c "$c" sh -c 'for i in $(seq 20); do sleep 0.05; done' 2>/dev/null &
	done
	wait
	for f in loads copies; do
		"$FEECSCOPE" replay "$TMP/$f.rec" --convert-csv "$TMP/$f.csv" >/dev/null 2>&1
	done
	res=$(python3 "$(dirname "$0")/rq_agree.py" "$TMP/loads.csv" "$TMP/copies.csv")
	read -r pairs nf worst agree need <<<"$res"
	[ "${pairs:-0}" -ge 50 ] && [ "${nf:-0}" -ge $((16 * N)) ] && [ $((agree * 100)) -ge $((pairs * ${need:-95})) ] &&
		pass "rq fields $how = the copies' on $pairs wake-ups ($nf fields; nearest its bound: $worst $agree, >= $need %)" ||
		fail "rq fields $how = the copies'" "$res (wake-ups both saw, fields, nearest its bound, equal, % needed) $(grep -hm1 -iE 'error|refused' "$TMP/loads.err" "$TMP/copies.err")"
fi
finish
