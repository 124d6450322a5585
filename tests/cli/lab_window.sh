#!/usr/bin/env bash
# tests/lab/window-agreement.py (the lab matrix's judge) on hand-made CSVs: which wake-ups
# it judges, over every window and over the short ones, and that a decision without its
# record is an error.
. "$(dirname "$0")/../lib.sh"
W="python3 tests/lab/window-agreement.py"
# Four wake-ups: pid 1 window 10 us, pid 2 60 us, pid 3 500 us, pid 4 placement unknown
# (no decided_ns, kernel_cpu -1). Policy p agrees on 1 and 3, q on 1 and 2; pid 2's
# reason for q is overutilized (feec did not compare energies: not judged).
cat >"$TMP/r.csv" <<'CSV'
# nr_cpus=4
type,ts_ns,pid,prev_cpu,chosen_cpu,decided_ns
wakeup,1000000,1,0,2,1010000
wakeup,2000000,2,0,3,2060000
wakeup,3000000,3,0,1,3500000
wakeup,4000000,4,0,-1,0
CSV
cat >"$TMP/d.csv" <<'CSV'
seq,ts_ns,pid,kernel_cpu,policy,cpu,reason
1,1000000,1,2,p,2,moved
1,1000000,1,2,q,2,moved
2,2000000,2,3,p,0,prev-best
2,2000000,2,3,q,3,overutilized
3,3000000,3,1,p,1,moved
3,3000000,3,1,q,2,moved
4,4000000,4,-1,p,2,moved
4,4000000,4,-1,q,2,moved
CSV
$W --window-us 100 --bins p "$TMP/d.csv" "$TMP/r.csv" >"$TMP/w.txt" 2>&1
check "window: p judged 3, agrees 2; 2 short, agrees 1" grep -qx 'p 3 2 2 1' "$TMP/w.txt"
check "window: q judged 2 (overutilized is not feec), agrees 1; 1 short, agrees 1" grep -qx 'q 2 1 1 1' "$TMP/w.txt"
check "window: p's bins (10 us, 60 us, 500 us)" test "$(grep '^bin' "$TMP/w.txt" | tr '\n' ' ')" = "bin 0 25 1 0 bin 50 100 1 1 bin 400 800 1 0 "
$W --window-us 1000 "$TMP/d.csv" "$TMP/r.csv" >"$TMP/w2.txt" 2>&1
check "window: 1000 us judges every placed wake-up" grep -qx 'p 3 2 3 2' "$TMP/w2.txt"
grep -v '^wakeup,3000000' "$TMP/r.csv" >"$TMP/r2.csv"
expect_fail "window: a decision without its record names it" 'ts_ns 3000000 pid 3 has no record' \
	$W "$TMP/d.csv" "$TMP/r2.csv"
finish
