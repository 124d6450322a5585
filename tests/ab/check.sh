#!/usr/bin/env bash
# The cheap part of the A/B check, run by `make check`: the meter on a canned
# trace (figures worked by hand below), its bad-input errors, and, when
# tests/ab/build-kernels.sh has left the kernel source in the cache, that the
# margin patch still applies to it. The A/B runs themselves are tests/ab/run.sh.
. "$(dirname "$0")/../lib.sh"
D=$(dirname "$0")
F=$D/fixtures
M="python3 $D/meter.py"

# The canned trace: window 1.0 - 4.0 s. cpu0 (PD 0: 500 MHz 100 uW, 1 GHz 300 uW)
# idles to 2.0, runs pid 7 at 1 GHz to 2.5 and at 500 MHz to 3.5: 0.5*300 +
# 1.0*100 = 250 uJ. cpu1 (PD 1-2: 1 GHz 1000 uW, 2 GHz 4000 uW) runs pid 42 from
# before the window (first switch at 2.0, so busy since 1.0) at 1 GHz to 1.5 and
# 2 GHz to 2.0, idles to 3.0, runs pid 9 past the end marker: 0.5*1000 +
# 0.5*4000 + 1.0*4000 = 6500 uJ. cpu2 sees no switch: idle, 0 uJ.
$M "$F/meter-trace.txt" "$F/meter-em.txt" "$F/meter-freq0.txt" --json "$TMP/m.json" >"$TMP/m.txt" 2>&1
field() { python3 -c "import json,sys; r=json.load(open('$TMP/m.json')); print(eval(sys.argv[1]))" "$1"; }
check "meter: canned trace runs" test -s "$TMP/m.json"
check "meter: total 6750 uJ" test "$(field "round(r['energy_uj'], 6)")" = 6750.0
check "meter: cpu0 250 uJ, 1.5 s busy" test "$(field "(round(r['cpus']['0']['energy_uj'], 6), round(r['cpus']['0']['busy_s'], 6))")" = "(250.0, 1.5)"
check "meter: cpu1 1 GHz 0.5 s, 2 GHz 1.5 s" test "$(field "sorted((k, round(v, 6)) for k, v in r['cpus']['1']['busy_at_khz'].items())")" = "[('1000000', 0.5), ('2000000', 1.5)]"
check "meter: cpu1 idle loop 1.0 s" test "$(field "round(r['cpus']['1']['idle_loop_s'], 6)")" = 1.0
check "meter: cpu2 flagged without a switch" test "$(field "r['cpus']['2']['no_switch_seen']")" = True
check "meter: window 3 s, 5 switches" test "$(field "(round(r['window_s'], 6), r['events']['sched_switch'])")" = "(3.0, 5)"
check "meter: printout in mJ" grep -q '^window 3.000000 s   CPU energy 6.750 mJ$' "$TMP/m.txt"
check "meter: no collector in the canned trace" test "$(field "(r['collector']['energy_uj'], r['collector']['busy_s'])")" = "(0.0, 0.0)"
# The collector's share (comm feecscope): pid 42 renamed (it ran from before the window:
# 0.5 s at 1 GHz + 0.5 s at 2 GHz = 2500 uJ) and pid 9 (1.0 s at 2 GHz = 4000 uJ) are
# 6500 uJ over 2.0 s of the same 6750 uJ; pid 7 stays the workload's.
sed -e 's/prev_comm=rt-app prev_pid=42/prev_comm=feecscope prev_pid=42/' \
	-e 's/next_comm=rt-app next_pid=9/next_comm=feecscope next_pid=9/' "$F/meter-trace.txt" >"$TMP/own.txt"
$M "$TMP/own.txt" "$F/meter-em.txt" "$F/meter-freq0.txt" --json "$TMP/m.json" >"$TMP/m.txt" 2>&1
check "meter: the collector's share 6500 uJ over 2 s, total unchanged" \
	test "$(field "(round(r['collector']['energy_uj'], 6), round(r['collector']['busy_s'], 6), round(r['energy_uj'], 6))")" = "(6500.0, 2.0, 6750.0)"
check "meter: the collector's line" grep -qxF 'of which the collector (feecscope) 6.500 mJ, busy 2.000 s' "$TMP/m.txt"
$M "$F/meter-trace.txt" "$F/meter-em.txt" "$F/meter-freq0.txt" --json "$TMP/m.json" --collector-comm rt-app >/dev/null 2>&1
check "meter: --collector-comm names it (rt-app: all 3.5 s)" \
	test "$(field "(round(r['collector']['energy_uj'], 6), round(r['collector']['busy_s'], 6))")" = "(6750.0, 3.5)"

# Bad input: exit 1 naming the file, the line and what is wrong.
sed 's/state=500000 cpu_id=0/state=700000 cpu_id=0/' "$F/meter-trace.txt" >"$TMP/badfreq.txt"
expect_fail "meter: frequency not in the EM" 'badfreq.txt:13: cpu0 at 700000 kHz' \
	$M "$TMP/badfreq.txt" "$F/meter-em.txt" "$F/meter-freq0.txt"
grep -v 'fsab end' "$F/meter-trace.txt" >"$TMP/onemarker.txt"
expect_fail "meter: one marker only" 'onemarker.txt: only one of' $M "$TMP/onemarker.txt" "$F/meter-em.txt" "$F/meter-freq0.txt"
{ cat "$F/meter-trace.txt"; echo "CPU:1 [LOST 12 EVENTS]"; } >"$TMP/lost.txt"
expect_fail "meter: lost events" 'lost.txt:[0-9]+: the ring buffer lost events' $M "$TMP/lost.txt" "$F/meter-em.txt" "$F/meter-freq0.txt"
grep -v cpu1 "$F/meter-freq0.txt" >"$TMP/f0.txt"
grep -v 'cpu_id=1$' "$F/meter-trace.txt" >"$TMP/nof.txt"
expect_fail "meter: busy CPU with no known frequency" 'cpu1 busy before any cpu_frequency' $M "$TMP/nof.txt" "$F/meter-em.txt" "$TMP/f0.txt"
sed 's/power: 4000/power: 4k/' "$F/meter-em.txt" >"$TMP/em.txt"
expect_fail "meter: bad EM power" "em.txt:12: power '4k' is not a number" $M "$F/meter-trace.txt" "$TMP/em.txt" "$F/meter-freq0.txt"
# --window 1.0 4.5 (past the end marker, e.g. the span of feecscope's busyfreq records): cpu1
# stays busy 3.0 - 4.5 at 2 GHz (1.5 s x 4000) after 1.0 - 1.5 at 1 GHz (500) and 1.5 - 2.0
# at 2 GHz (2000): 8500 uJ; cpu0 as before, 250: 8750 uJ over 3.5 s.
$M "$F/meter-trace.txt" "$F/meter-em.txt" "$F/meter-freq0.txt" --window 1.0 4.5 --json "$TMP/m.json" >/dev/null 2>&1
check "meter: --window 1.0 4.5: 8750 uJ over 3.5 s, cpu1 8500" \
	test "$(field "(round(r['energy_uj'], 6), round(r['window_s'], 6), round(r['cpus']['1']['energy_uj'], 6))")" = "(8750.0, 3.5, 8500.0)"
expect_fail "meter: a window that begins before the trace" 'window 0.100000 - 4.500000 s begins before' \
	$M "$F/meter-trace.txt" "$F/meter-em.txt" "$F/meter-freq0.txt" --window 0.1 4.5
expect_fail "meter: missing trace" 'nothere.txt: No such file' $M "$TMP/nothere.txt" "$F/meter-em.txt" "$F/meter-freq0.txt"
$M >/dev/null 2>&1; check "meter: usage error exits 2" test $? -eq 2

# summarize.py on three canned runs per kernel: A 10/12/14 mJ -> 12 +- t(2)=4.303 *
# 2/sqrt(3) = 4.97; B - A is 1 mJ every run -> 1.0 +- 0.0, +8.3 %; agreement 3 x 995
# of 1000 = 99.50 %, 3 x 999 = 99.90 %; where the policies differ 3 x 9 with the own
# policy, 3 x 1 with the twin; overutilized 1,1,4 % per kernel: mean 2, max 4.
python3 "$D/summarize.py" "$F/summarize-runs.tsv" >"$TMP/s.md" 2>&1
check "summarize: the hand-worked row" grep -qxF '| 2+2 | phone | 3/3 | 12.0 ± 5.0 | 13.0 ± 5.0 | 1.0 ± 0.0 | +8.3 | 1.00/2.00 | 99.50% of 3000 | 99.90% of 3000 | 27/3; 27/3 | 2.0 (4.0) |' "$TMP/s.md"
sed '1s/energy_mj/energy/' "$F/summarize-runs.tsv" >"$TMP/badhead.tsv"
expect_fail "summarize: wrong header" 'badhead.tsv: header is not' python3 "$D/summarize.py" "$TMP/badhead.tsv"
sed '3s/\t12.000000\t/\t12,0\t/' "$F/summarize-runs.tsv" >"$TMP/badnum.tsv"
expect_fail "summarize: a bad number names the line" 'badnum.tsv:3:' python3 "$D/summarize.py" "$TMP/badnum.tsv"

for w in "$D"/workloads/*.json; do
	check "workload $(basename "$w") is JSON with a duration run.sh can rewrite" \
		python3 -c "import json,sys; g=json.load(open(sys.argv[1]))['global']; assert isinstance(g['duration'], int)" "$w"
done

# docs/ab.md's table is summarize.py's of the committed runs, figure for figure.
R=$D/results/runs.tsv
if [ -f "$R" ]; then
	python3 "$D/summarize.py" "$R" | sed -n '/^|/p' >"$TMP/table.md"
	sed -n '/^<!-- ab-table -->$/,/^<!-- \/ab-table -->$/p' "$D/../../docs/ab.md" | sed -n '/^|/p' >"$TMP/doc.md"
	check "docs/ab.md holds the table of tests/ab/results/runs.tsv" test -s "$TMP/doc.md"
	expect_same "docs/ab.md table = summarize.py of results/runs.tsv" "$TMP/table.md" "$TMP/doc.md"
fi

# validation.py on two canned runs per kernel (fixtures/validation-canned, one
# workload, PDs little cap 100 and big cap 400), worked by hand: E(A) 400, 420 and
# E(B) 525, 570 mJ -> B - A 125, 150: 137.5 +- t(1)=12.706 * 17.678/sqrt(2) = 158.8,
# 137.5/410 = +33.5 % (± 38.7); predicted from A 10, 20 -> 15.0 +- 63.5, from B 30, 30; busy
# shift at A's prices (-0.5 s x 50 + 0.5 s x 300, -0.5 x 60 + 0.5 x 300) = 122.5,
# price change (0, 1.5 s x 20 mW) = 15.0: the two sum to B - A. The simulation's B - A:
# from A's recordings 100, 140 -> +120.0 (inside), from B's 400, 420 -> +410.0 (above
# 296.3: no); A's own policy 404 and 441 mJ against 400 and 420 metered: +1 and +5 %,
# +3.0; B's 500 and 600 against 525 and 570: -4.76 and +5.26 %, +0.3. feecscope's CPU energy 380, 441, 525, 513 mJ: 95, 105, 100, 90 % of the meter;
# A's wall-time figures 300, 336: 75, 80 %. Its intervals: A's [0, 20] holds the other
# run's 20, [15, 25] not the other's 10; B's [20, 40] holds 30, [31, 40] not: 1/2 each.
# The simulation's: A's [60, 140] holds 140, [130, 150] not 100: 1/2; B's [350, 450]
# holds 420, [390, 450] holds 400: 2/2; 3/4 in all. Without the collector (20, 0, 25,
# 30 mJ: 0.0 - 5.3 % of the meter) the meter reads 380, 420, 500, 540 mJ: feecscope's
# CPU energy 100, 105, 105, 95 %, 4 of 4 within 5 % (3 of 4 against the whole meter);
# the simulation's own policy A +6.3, +5.0 -> +5.7, B 0.0, +11.1 -> +5.6; B - A 120, 120
# -> +120.0 ± 0.0, +30.0 % of A's 400.
V="python3 $D/validation.py"
C=$D/fixtures/validation-canned
$V table "$C" >"$TMP/vt.md" 2>&1
check "validation: the hand-worked comparison row" grep -qxF '| 2+2 | bigsmall | 2 | +137.5 ± 158.8 | +33.5 ± 38.7 | +15.0 ± 63.5 | +30.0 ± 0.0 | yes; yes | 5; 8 | 11; 2 | 33.3; 50.0 | 2.0 (3.0); 2.0 (2.0) | +120.0; +410.0 | yes; no | +3.0; +0.3 | 90 - 105 |' "$TMP/vt.md"
$V coverage "$C" >"$TMP/vc.md" 2>&1
# A run's interval (its value +- t(n-2) x sd(others) x sqrt(1 + 1/(n-1))) covers the others'
# mean: of 0, 0.1, 0.2, 100 the outlier's does not (0.1 +- 0.50), the other three do.
check "validation: leave-one-out coverage 3 of 4, the outlier out" python3 -c "import sys; sys.path.insert(0, '$D'); import validation as v; xs = [0, 0.1, 0.2, 100]; assert [v.loo_covers(xs, i) for i in range(4)] == [True, True, True, False]"
check "validation: the hand-worked coverage row" grep -qxF '| 2+2 | bigsmall | 2 | 0/0 | 1/2; 1/2 | 1/2; 2/2 | 90 - 105; 75 - 80 |' "$TMP/vc.md"
check "validation: the coverage totals" grep -qxF '| all | all | | 0/0 | 2/4 | 3/4 | |' "$TMP/vc.md"
$V collector "$C" >"$TMP/vo.md" 2>&1
check "validation: the hand-worked row without the collector" grep -qxF '| 2+2 | bigsmall | 2 | 0.0 - 5.3 | +120.0 ± 0.0 (+30.0 ± 0.0 %) | 90 - 105 (3/4) | 95 - 105 (4/4) | +5.7; +5.6 |' "$TMP/vo.md"
sed 's/"collector_mj": 20,/"collectormj": 20,/' "$C/2+2/A-run1.json" >"$TMP/nocol.json"
mkdir -p "$TMP/nocol/2+2" && cp "$C"/2+2/*.json "$TMP/nocol/2+2/" && cp "$TMP/nocol.json" "$TMP/nocol/2+2/A-run1.json"
$V collector "$TMP/nocol" >"$TMP/vo2.md" 2>&1
check "validation: a case with a run without the collector's share shows '–'" \
	grep -qxF '| 2+2 | bigsmall | 2 | – | – | 90 - 105 (3/4) | – | – |' "$TMP/vo2.md"
$V analysis "$C" >"$TMP/va.md" 2>&1
check "validation: the hand-worked decomposition row" grep -qxF '| 2+2 | bigsmall | +137.5 ± 158.8 | +122.5 | +15.0 | 3.00; 3.00 | 0.10; 0.60 | +6.0 ± 12.7 | +120.0 ± 254.1 | -1.0; +40.0 | +15.0; +30.0 |' "$TMP/va.md"
$V pd "$C" >"$TMP/vp.md" 2>&1
check "validation: the hand-worked per-PD row" grep -qxF '| 2+2 | bigsmall | big (400) | 1.00; 1.50 | 300; 310 | 1000; 1200 | +150.0 | +15.0 |' "$TMP/vp.md"
$V moved "$C" >"$TMP/vm.md" 2>&1
check "validation: the hand-worked CPU time placed apart" grep -qxF '| 2+2 | bigsmall | little>big | 0.10 | 0.60 |' "$TMP/vm.md"
mkdir -p "$TMP/bad/2+2"
sed 's/"delta_mj"/"delta"/' "$C/2+2/B-run1.json" >"$TMP/bad/2+2/B-run1.json"
expect_fail "validation: a missing field names the file and field" 'B-run1.json bigsmall.feecscope: no field "delta_mj"' $V table "$TMP/bad"
printf '# t\n<!-- validation:table -->\n| stale |\n<!-- /validation:table -->\n<!-- validation:analysis -->\n<!-- /validation:analysis -->\n<!-- validation:pd -->\n<!-- /validation:pd -->\n<!-- validation:moved -->\n<!-- /validation:moved -->\n<!-- validation:coverage -->\n<!-- /validation:coverage -->\n<!-- validation:collector -->\n<!-- /validation:collector -->\n' >"$TMP/doc.md"
expect_fail "validation: check names a stale block" 'doc.md: block "table" line 1' $V check "$TMP/doc.md" "$C"
check "validation: write fills the blocks" $V write "$TMP/doc.md" "$C"
check "validation: then check passes" $V check "$TMP/doc.md" "$C"
$V plot "$TMP/v.png" "$C" >/dev/null 2>&1
check "validation: the plot is a PNG" python3 -c "import sys; assert open(sys.argv[1], 'rb').read(8) == b'\x89PNG\r\n\x1a\n'" "$TMP/v.png"
# docs/validation.md holds validation.py's figures of the committed per-run fixtures, both sets.
check "docs/validation.md = validation.py of tests/ab/fixtures/runs-device and runs" $V check "$D/../../docs/validation.md"

# workrun (the runner with a device's physics) on the host, over made-up CPUs: cpu0 of
# capacity 512 at 1 of its 2 GHz does a quarter unit a ns, so 2 ms of work is 8 ms of
# CPU time (plus the last clock read); cpu1 (1024 at its top) 2 ms. Its arithmetic is
# tests/unit/test_work_physics.c; the guest's calibration tests/lab/physics.sh.
if gcc -O2 -Wall -Wextra -Werror -o "$TMP/workrun" "$D/workrun.c" -lpthread 2>"$TMP/cc"; then
	S=$TMP/sys
	for c in 0 1; do mkdir -p "$S/cpu$c/cpufreq"; echo 2000000 >"$S/cpu$c/cpufreq/cpuinfo_max_freq"; done
	echo 512 >"$S/cpu0/cpu_capacity"; echo 1000000 >"$S/cpu0/cpufreq/scaling_cur_freq"
	echo 1024 >"$S/cpu1/cpu_capacity"; echo 2000000 >"$S/cpu1/cpufreq/scaling_cur_freq"
	busy() { WORKRUN_SYSFS=$S "$TMP/workrun" "$@" | sed -n 's/.* busy_ns \([0-9]*\) .*/\1/p'; }
	b0=$(busy -c 0 once:2000) b1=$(busy -c 1 once:2000)
	check "workrun: 2 ms of work at capacity 512, half its fmax: 8 ms of CPU time (got ${b0:-?} ns)" \
		test "${b0:-0}" -ge 8000000 -a "${b0:-0}" -lt 8080000
	check "workrun: and at 1024, its fmax: 2 ms (got ${b1:-?} ns)" test "${b1:-0}" -ge 2000000 -a "${b1:-0}" -lt 2020000
	WORKRUN_SYSFS=$S "$TMP/workrun" -d 0.3 'p*2=20000:1000' 'b=100000:5000/100000,20000:500' 'f=chain:16667:500/1000/500' >"$TMP/wr.txt" 2>&1
	check "workrun: periodic, phases and a chain run and report each thread" \
		test "$(grep -c '^thread .* periods [1-9]' "$TMP/wr.txt")" -eq 7
	expect_fail "workrun: a bad spec is a usage error" 'usage: workrun' "$TMP/workrun" 'x=chain:10'
	for w in "$D"/workloads/*.wr; do
		check "workload $(basename "$w") runs under workrun" env WORKRUN_SYSFS="$S" "$TMP/workrun" -d 0.05 -f "$w"
	done
	rm "$S/cpu1/cpufreq/scaling_cur_freq"
	expect_fail "workrun: a CPU without cpufreq names the file" 'cpu1/cpufreq/scaling_cur_freq: No such file' \
		env WORKRUN_SYSFS=$S "$TMP/workrun" once:10
else
	fail "workrun.c builds on the host" "$(head -c 300 "$TMP/cc")"
fi

src=${FS_AB_CACHE:-/var/cache/feecscope-ab}/src/linux-source-6.1
if [ -f "$src/kernel/sched/fair.c" ]; then
	check "margin.patch applies to $(cat "$src/../version" 2>/dev/null)" \
		patch -d "$src" -p1 --dry-run -s -i "$PWD/$D/margin.patch"
else
	echo "note: no kernel source in the cache (tests/ab/build-kernels.sh): patch not checked"
fi
finish
