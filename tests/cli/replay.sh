#!/usr/bin/env bash
# feecscope replay: golden summaries/decision CSVs, CSV <-> recording equivalence, and every kind of bad input.
. "$(dirname "$0")/../lib.sh"
F=$FS_FIXTURES/replay

for dev in pixel4 hikey960; do
	"$FEECSCOPE" replay "$F/$dev.csv" --em $dev --csv-layout wide --csv "$TMP/$dev.dec.csv" >"$TMP/$dev.sum" 2>"$TMP/$dev.err"
	check "$dev: replay exits 0" test -s "$TMP/$dev.sum"
	expect_same "$dev: summary matches golden" "$F/$dev.summary.txt" "$TMP/$dev.sum"
	expect_same "$dev: decision CSV matches golden" "$F/$dev.decisions.csv" "$TMP/$dev.dec.csv"
	# CSV -> binary recording -> replay: byte for byte the same outputs, with and without --em
	check "$dev: convert CSV to a recording" "$FEECSCOPE" replay "$F/$dev.csv" --em $dev --convert-record "$TMP/$dev.fsr"
	"$FEECSCOPE" replay "$TMP/$dev.fsr" --csv-layout wide --csv "$TMP/$dev.rdec.csv" >"$TMP/$dev.rsum"
	expect_same "$dev: recording replays to the same summary" "$F/$dev.summary.txt" "$TMP/$dev.rsum"
	expect_same "$dev: recording replays to the same decision CSV" "$F/$dev.decisions.csv" "$TMP/$dev.rdec.csv"
	# recording -> CSV -> recording -> CSV: the record CSVs are identical (lossless both ways)
	check "$dev: recording to CSV" "$FEECSCOPE" replay "$TMP/$dev.fsr" --convert-csv "$TMP/$dev.rec1.csv"
	check "$dev: that CSV back to a recording" "$FEECSCOPE" replay "$TMP/$dev.rec1.csv" --convert-record "$TMP/$dev.2.fsr"
	check "$dev: and to CSV again" "$FEECSCOPE" replay "$TMP/$dev.2.fsr" --convert-csv "$TMP/$dev.rec2.csv"
	expect_same "$dev: CSV -> recording -> CSV is lossless" "$TMP/$dev.rec1.csv" "$TMP/$dev.rec2.csv"
	"$FEECSCOPE" replay "$TMP/$dev.rec1.csv" >"$TMP/$dev.csum"
	expect_same "$dev: full-column CSV replays to the same summary" "$F/$dev.summary.txt" "$TMP/$dev.csum"
done

for s in "$F"/*.summary.txt; do
	awk 'length > 80 { bad++ } END { exit bad > 0 }' "$s" && pass "$(basename "$s"): every line fits 80 columns" ||
		fail "$(basename "$s") width" "$(awk 'length > 80' "$s" | head -n 2)"
done

# Independent re-computation from the decision CSV (rows re-sorted by ts in awk, not the pipeline's
# arithmetic): total = sum of policy 0's power_uw x (next wake-up ts - ts); policy 1 = sum of its denergy_nj.
energy_from_csv() {
	awk -F, 'NR > 1 { ts[NR] = $2; p[NR] = $21; n = NR; de += $32 }
	END { m = 0; for (i = 2; i <= n; i++) o[++m] = i
	      for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (ts[o[j]] + 0 < ts[o[i]] + 0) { t = o[i]; o[i] = o[j]; o[j] = t }
	      for (i = 1; i < m; i++) e += p[o[i]] * (ts[o[i + 1]] - ts[o[i]])
	      printf "%.3f %.3f\n", e / 1e12, de / 1e6 }' "$1"
}
for dev in pixel4 hikey960; do
	read -r total p1 < <(energy_from_csv "$F/$dev.decisions.csv")
	check "$dev: summary total = step-function sum of the CSV ($total mJ)" grep -q "^CPU energy: $total mJ under" "$F/$dev.summary.txt"
	check "$dev: summary policy-1 energy = sum of its CSV rows ($p1 mJ)" sh -c "grep -A2 '^policy ' '$F/$dev.summary.txt' | tail -n 1 | grep -q -- ' $p1 '"
done

# The hand-worked recording with CPU times (fixtures README: every figure derived by hand).
H=$F/handworked
"$FEECSCOPE" replay "$H.csv" --policies v5.4,v5.4-nomargin --json "$TMP/hw.json" --csv-layout wide --csv "$TMP/hw.dec.csv" >"$TMP/hw.sum"
expect_same "handworked: summary matches golden" "$H.summary.txt" "$TMP/hw.sum"
expect_same "handworked: decision CSV matches golden" "$H.decisions.csv" "$TMP/hw.dec.csv"
expect_same "handworked: JSON matches golden" "$H.json" "$TMP/hw.json"

# Both policies simulate the A/B lab's 2+2 light run alike under lab physics: every time block's
# difference is 0, and batch means alone gave the interval [0, 0] (certainty other runs of the
# workload do not bear out, docs/validation.md). The replicas' spread widens it; the same answer
# every time (seeded). (Under device physics, with the work inside its PELT bounds, one wake-up
# parts them: +0.28 mJ.)
L=$F/ab-light.rec
"$FEECSCOPE" replay "$L" --policies v6.1,v6.1+margin --sim-physics lab --json "$TMP/light.json" >"$TMP/light.sum"
"$FEECSCOPE" replay "$L" --policies v6.1,v6.1+margin --sim-physics lab --json "$TMP/light2.json" >/dev/null
check "ab-light: policies alike, yet the closed-loop interval is not a point" python3 -c '
import json, sys
v = json.load(open(sys.argv[1]))["simulation"]["verdicts"][0]
lo, hi = v["ci95_mj"]
assert v["delta_mj"] == 0 and lo < 0 < hi and v["ci_replicas"] == 8 and v["replica_sd_mj"] > 0, v' "$TMP/light.json"
expect_same "ab-light: the replicas give the same answer on every run" "$TMP/light.json" "$TMP/light2.json"
check "ab-light: the summary names the replicas" grep -q "and 8 replicas)" "$TMP/light.sum"
check "handworked: the closed loop's verdict is the first line" \
	grep -qx 'margin: no measurable difference: +0.000 mJ (+0.000..+0.000) over 0.033 s' <(head -n 1 "$TMP/hw.sum")
"$FEECSCOPE" replay "$H.csv" --policies v5.4,v5.4-nomargin --no-sim --json "$TMP/hw.nosim.json" >"$TMP/hw.nosim"
check "handworked: with --no-sim the JSON's verdict is the per-decision one, and says so" python3 -c '
import json, sys
v = json.load(open(sys.argv[1]))["verdicts"][0]
assert v["source"] == "per decision" and v["delta_mj"] == v["per_decision"]["delta_mj"] == 4.5, v' "$TMP/hw.nosim.json"
check "handworked: with --no-sim the per-decision verdict, as worked by hand, says so" \
	grep -qx 'margin: no measurable difference: +4.50 mJ (+0.000..+9.00), per decision' <(head -n 1 "$TMP/hw.nosim")
python3 - "$TMP/hw.json" "$TMP/hw.sum" >"$TMP/hw.check" 2>&1 <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1])); s = open(sys.argv[2]).read()
assert d["schema"] == 2
c = d["verdicts"][0]
assert c["source"] == "closed loop" and c["delta_mj"] == d["simulation"]["verdicts"][0]["delta_mj"], c
v = dict(c["per_decision"], policy=c["policy"], twin=c["twin"], percent=None, mean_mw=None)
assert (v["policy"], v["twin"]) == ("v5.4", "v5.4-nomargin")
assert v["delta_mj"] == 4.5 and v["ci95_mj"] == [0.0, 9.0] and not v["measurable"], v
assert v["ci_blocks"] == 4 and v["ci_block_s"] == 0.01, v
assert d["cpu_energy_mj"] == 63.6, d
assert d["estimate"] == "cpu-time" and d["counts"]["exits"] == 1 and d["task_cpu_time_ns"] == 5000000
p = {x["comm"]: x for x in d["processes"]}
assert p["periodic"]["delta_mj"] == [3.6] and p["helper"]["delta_mj"] == [0.9], p
assert p["periodic"]["runtime_ns"] == 4000000 and p["helper"]["runtime_ns"] == 1000000
# the summary says the same figures
m = re.search(r"per decision: E\(v5.4\) - E\(v5.4-nomargin\) = ([0-9.]+) mJ, 95% interval ([0-9.]+) \.\. ([0-9.]+)",
              s.replace("\n              ", " "))
assert m and [float(x) for x in m.groups()] == [4.5, 0.0, 9.0], m
assert re.search(r"^CPU energy: 63.600 mJ", s, re.M)
PY
check "handworked: JSON = the hand figures = the summary's" sh -c "test ! -s '$TMP/hw.check'" || sed 's/^/    /' "$TMP/hw.check"

# The closed-loop verdict does not depend on the order of --policies (issue 29: the per-decision
# one moved from +21.6 to -23.1 mJ on this recording when v6.12.97 led).
L=$FS_FIXTURES/view/live.fsr
for o in v5.4,v5.4-nomargin v5.4-nomargin,v5.4 v6.12.97,v5.4-nomargin,v5.4; do
	"$FEECSCOPE" replay "$L" -P "$o" --json "$TMP/order.$o.json" >"$TMP/order.$o.sum"
done
python3 - "$TMP"/order.*.json >"$TMP/order.check" 2>&1 <<'PY'
import json, sys
vs = [json.load(open(f))["verdicts"][0] for f in sys.argv[1:]]
got = {(v["policy"], v["twin"], v["source"], v["delta_mj"], tuple(v["ci95_mj"])) for v in vs}
assert len(vs) == 3 and len(got) == 1, got
assert vs[0]["source"] == "closed loop" and vs[0]["delta_mj"] != 0, vs[0]
PY
check "closed-loop verdict: the same for three orders of --policies" sh -c "test ! -s '$TMP/order.check'" ||
	sed 's/^/    /' "$TMP/order.check"
check "... and so is the first line" sh -c "head -qn 1 '$TMP'/order.*.sum | sort -u | wc -l | grep -qx 1"

# A version-1 recording (made by feecscope before sum_exec_ns and uid were recorded, from pixel4.csv)
# still replays, to the numbers of the CSV it was made from.
"$FEECSCOPE" replay "$F/pixel4.v1.fsr" --csv-layout wide --csv "$TMP/v1.dec.csv" >"$TMP/v1.sum"
expect_same "version-1 recording replays to pixel4's summary" "$F/pixel4.summary.txt" "$TMP/v1.sum"
expect_same "version-1 recording replays to pixel4's decision CSV" "$F/pixel4.decisions.csv" "$TMP/v1.dec.csv"

# Every older version (zlib chunks) written again as today's (zstd since version 4,
# docs/recording.md) holds the same records: the same records CSV, summary and decisions.
for old in "$F/pixel4.v1.fsr" "$FS_FIXTURES/view/live.fsr"; do
	n=$(basename "$old" .fsr)
	check "$n: written again as today's version" "$FEECSCOPE" replay "$old" --convert-record "$TMP/$n.new.fsr"
	check "$n: the new file says version 4" test "$(od -An -tu4 -j8 -N4 "$TMP/$n.new.fsr" | tr -d ' ')" = 4
	for v in old new; do
		f=$old
		[ $v = new ] && f=$TMP/$n.new.fsr
		"$FEECSCOPE" replay "$f" --convert-csv "$TMP/$n.$v.rec.csv" >/dev/null
		"$FEECSCOPE" replay "$f" --csv-layout wide --csv "$TMP/$n.$v.dec.csv" >"$TMP/$n.$v.sum"
	done
	expect_same "$n: the same records CSV" "$TMP/$n.old.rec.csv" "$TMP/$n.new.rec.csv"
	expect_same "$n: the same summary" "$TMP/$n.old.sum" "$TMP/$n.new.sum"
	expect_same "$n: the same decisions" "$TMP/$n.old.dec.csv" "$TMP/$n.new.dec.csv"
done

# Filters apply at replay: a recording keeps every task.
"$FEECSCOPE" replay "$TMP/pixel4.fsr" --pid 202 >"$TMP/pid.sum"
check "--pid keeps only that task's wake-ups" grep -q '^records 17; wake-ups 4 (forks 0); balance migrations 1; exits 0$' "$TMP/pid.sum"
check "--pid says what it filtered" grep -q '^filtered out: 10 wake-ups (--pid 202)$' "$TMP/pid.sum"
"$FEECSCOPE" replay "$TMP/pixel4.fsr" --comm small >"$TMP/comm.sum"
check "--comm keeps only that task's wake-ups" grep -q '^records 17; wake-ups 5 (forks 0);' "$TMP/comm.sum"
"$FEECSCOPE" replay "$F/pixel4.csv" --em pixel4 --policies v6.0,v5.4,v5.0 >"$TMP/pol.sum"
check "--policies runs the given list, first is the reference" grep -q '^v6.0 (ref) ' "$TMP/pol.sum"
"$FEECSCOPE" replay "$F/pixel4.csv" --em pixel4 --kernel-policy v6.0 >"$TMP/kp.sum"
check "--kernel-policy picks the reference and its twin" grep -q '^policies: v6.0 (reference: --kernel-policy v6.0), twin v6.0+margin$' "$TMP/kp.sum"
check "--help reads like a man page" sh -c "\"$FEECSCOPE\" replay --help | grep -q -- '--convert-record OUT'"

# Damaged recordings: every complete chunk replays, then the exact place is named, exit 1.
# A recording with several chunks: the pixel4 records repeated (the CSV converter is the only writer needed).
{ head -n 4 "$TMP/pixel4.rec1.csv" | grep '^#'; grep -v '^#' "$TMP/pixel4.rec1.csv" | head -n 1
  for i in $(seq 1 400); do grep -v '^#' "$TMP/pixel4.rec1.csv" | tail -n +2; done; } >"$TMP/big.csv"
grep '^# em:' "$TMP/pixel4.rec1.csv" >"$TMP/em.lines"
{ grep '^#' "$TMP/big.csv"; cat "$TMP/em.lines"; grep -v '^#' "$TMP/big.csv"; } >"$TMP/big2.csv"
check "multi-chunk recording" "$FEECSCOPE" replay "$TMP/big2.csv" --convert-record "$TMP/big.fsr"
size=$(stat -c %s "$TMP/big.fsr")
# chunk 1 starts after the 24-byte fixed header + meta + EM; read both lengths from the header
hdr_end=$(od -An -tu4 -j12 -N8 "$TMP/big.fsr" | awk '{print 24 + $1 + $2}')
c1_comp=$(od -An -tu4 -j$((hdr_end + 8)) -N4 "$TMP/big.fsr" | tr -d ' ')
c1_nr=$(od -An -tu4 -j$((hdr_end + 12)) -N4 "$TMP/big.fsr" | tr -d ' ')
c2=$((hdr_end + 20 + c1_comp))
head -c $((c2 + 50)) "$TMP/big.fsr" >"$TMP/trunc.fsr"
expect_fail "truncated recording names chunk, byte and replayed count" \
	"trunc.fsr: chunk 2 at byte $c2: truncated \(chunk needs [0-9]+ bytes, file has 50\); replayed $c1_nr records$" \
	"$FEECSCOPE" replay "$TMP/trunc.fsr"
cp "$TMP/out" "$TMP/trunc.out"
check "truncated recording still prints the summary of what replayed" grep -q "^records $c1_nr;" "$TMP/trunc.out"
cp "$TMP/big.fsr" "$TMP/flip.fsr"
printf '\xff' | dd of="$TMP/flip.fsr" bs=1 seek=$((c2 + 40)) conv=notrunc status=none
expect_fail "flipped byte in chunk 2 is a CRC mismatch" \
	"flip.fsr: chunk 2 at byte $c2: CRC mismatch; replayed $c1_nr records$" "$FEECSCOPE" replay "$TMP/flip.fsr"
head -c $c2 "$TMP/big.fsr" >"$TMP/cut.fsr"
expect_fail "recording cut at a chunk boundary lacks the end marker" \
	"cut.fsr: chunk 2 at byte $c2: file ends without the end marker \(recording cut short\); replayed $c1_nr records$" \
	"$FEECSCOPE" replay "$TMP/cut.fsr"
{ printf '\x89FSREX\r\n'; tail -c +9 "$TMP/pixel4.fsr"; } >"$TMP/magic.fsr"
expect_fail "bad magic" "magic.fsr: bad magic: not a feecscope recording, trace.dat or Perfetto trace \(nor text: a trace or a records CSV\)$" "$FEECSCOPE" replay "$TMP/magic.fsr"
{ head -c 8 "$TMP/pixel4.fsr"; printf '\x07\x00\x00\x00'; tail -c +13 "$TMP/pixel4.fsr"; } >"$TMP/ver.fsr"
expect_fail "unknown version" "ver.fsr: recording version 7 is not supported \(this build reads versions 1 to 5\)$" \
	"$FEECSCOPE" replay "$TMP/ver.fsr"
expect_fail "EM with another CPU count" "pixel4.fsr: the EM \(rk3399\) has 6 CPUs but the recording has 8$" \
	"$FEECSCOPE" replay "$TMP/pixel4.fsr" --em rk3399
cp "$TMP/out" "$TMP/cpus.out"
check "... and names the built-in profiles with 8 CPUs and --em FILE" \
	sh -c "grep -q '^hint: built-in profiles with 8 CPUs: .*pixel4' '$TMP/cpus.out' && grep -q -- '--em FILE' '$TMP/cpus.out'"
expect_fail "bad CSV value names line and column" \
	"bad_value.csv:5: column 5 \(cpu0_util_avg\): '1O' is not an unsigned 32-bit number$" \
	"$FEECSCOPE" replay "$F/bad_value.csv" --em hikey960
# A record far back in time (the records fuzzer's: the first wake-up at 1.5e19 ns, the next before it) is refused,
# naming the line; steps back within 60 s are the live collector's late records (docs/recording.md, Damage).
printf '# nr_cpus=8\ntype,ts_ns,pid,prev_cpu\nwakeup,15276491411018433088,11,4\nwakeup,2000000,22,0\n' >"$TMP/far.csv"
expect_fail "a record far before an earlier one names the line, the record and ts_ns" \
	"far.csv:4: wakeup: ts_ns: 2000000 is 1.528e\+10 s before an earlier record's 15276491411018433088 \(more than 60 s out of time order\)$" \
	"$FEECSCOPE" replay "$TMP/far.csv" --em pixel4
# Within 60 s every record can lie before the first: a span of 0 s, where the simulated machine runs until the work
# is done; 20,000 s of CPU time could take it past its 6 h, so it is not simulated (docs/simulation.md, Length).
printf '# nr_cpus=8\ntype,ts_ns,pid,prev_cpu,sum_exec_ns\nwakeup,2000000000,7,0,0\nwakeup,1000000000,7,0,20000000000000\n' \
	>"$TMP/span0.csv"
"$FEECSCOPE" replay "$TMP/span0.csv" --em pixel4 2>&1 | unwrap >"$TMP/span0.out"
check "a span of 0 s whose work could outrun the simulation's limit is not simulated, and says why" grep -q \
	"closed loop: not simulated: the recording spans 0 s and its work could take 2.688e+04 s at the slowest CPU" \
	"$TMP/span0.out"
expect_fail "CSV without an EM asks for --em" "no EM in the file: give --em" "$FEECSCOPE" replay "$F/pixel4.csv"
expect_fail "unknown policy" "unknown policy 'v9.9'" "$FEECSCOPE" replay "$F/pixel4.csv" --em pixel4 --policies v5.4,v9.9
expect_fail "missing file" "nope.fsr: cannot open: No such file or directory" "$FEECSCOPE" replay "$TMP/nope.fsr"

# `replay --policies` alone lists every policy with the kernels it follows, as `feecscope policies` does.
"$FEECSCOPE" replay --policies >"$TMP/pl" 2>&1
"$FEECSCOPE" policies >"$TMP/pp" 2>&1
expect_same "replay --policies lists the policy table" "$TMP/pl" "$TMP/pp"
n=$(grep -cE '^v[0-9]' "$TMP/pl")
for p in v5.0 v5.4 v5.10 v5.15 v6.0 v6.1 v6.6 v6.12; do
	grep -qE "^$p +[^ ]" "$TMP/pl" || fail "policy table" "$p missing"
done
[ "$n" -ge 16 ] && pass "policy table: $n policies, each with its kernel range and twin" || fail "policy table" "$n rows"

# HZ and schedutil's rate limit: recorded (the header's hz/cpufreq keys), given, or assumed; the
# simulation follows them, and a recording and its records CSV keep them both ways.
V=$FS_FIXTURES/view/live.fsr
"$FEECSCOPE" replay "$V" --convert-csv "$TMP/m.csv"
sed '5a # hz=300\n# cpufreq=f:schedutil:10000 70:schedutil:2000 80:performance:-' "$TMP/m.csv" >"$TMP/m2.csv"
check "hz/cpufreq: CSV to a recording" "$FEECSCOPE" replay "$TMP/m2.csv" --convert-record "$TMP/m2.fsr"
check "hz/cpufreq: and back to CSV" "$FEECSCOPE" replay "$TMP/m2.fsr" --convert-csv "$TMP/m3.csv"
expect_same "hz/cpufreq: CSV -> recording -> CSV is lossless" "$TMP/m2.csv" "$TMP/m3.csv"
"$FEECSCOPE" replay "$V" | unwrap >"$TMP/m.sum"
"$FEECSCOPE" replay "$TMP/m2.fsr" | unwrap >"$TMP/m2.sum"
"$FEECSCOPE" replay "$TMP/m2.fsr" --sim-rate-limit-us 1000 --sim-hz 250 | unwrap >"$TMP/m4.sum"
grep -q 'HZ 250 (assumed), schedutil rate limit 1000 us (assumed)' "$TMP/m.sum" &&
	pass "hz/cpufreq: an old recording's settings are assumed" || fail "assumed" "$(grep 'closed loop' "$TMP/m.sum")"
grep -q 'HZ 300 (recorded), schedutil rate limit cpu0 10000 us (recorded), cpu4 2000 us (recorded), cpu7 1000 us (assumed); PD cpu7 ran performance' "$TMP/m2.sum" &&
	pass "hz/cpufreq: recorded per PD, a governor other than schedutil named" || fail "recorded" "$(grep 'closed loop' "$TMP/m2.sum")"
grep -q 'HZ 250 (given), schedutil rate limit 1000 us (given)' "$TMP/m4.sum" &&
	pass "hz/cpufreq: the options override the recording" || fail "given" "$(grep 'closed loop' "$TMP/m4.sum")"
sim_delta() { grep -o 'margin: E([^=]*= [-+0-9.]* mJ' "$1"; }
a=$(sim_delta "$TMP/m.sum"); b=$(sim_delta "$TMP/m2.sum"); c=$(sim_delta "$TMP/m4.sum")
[ "$a" != "$b" ] && [ "$a" = "$c" ] && pass "hz/cpufreq: the simulation follows them (given = assumed values: the same answer)" ||
	fail "hz/cpufreq simulated" "$a / $b / $c"
"$FEECSCOPE" replay "$TMP/m2.fsr" -j - 2>/dev/null | grep -q '"hz": 300, "hz_from": "recorded", "rate_limit_ns": null, "pds": \[{"first_cpu": 0, "rate_limit_ns": 10000000, "rate_limit_from": "recorded", "governor": "schedutil"}' &&
	pass "hz/cpufreq: the JSON says each PD's and where it came from" || fail "hz/cpufreq JSON"
sed 's/^# hz=300/# hz=3/' "$TMP/m2.csv" >"$TMP/m5.csv"
expect_fail "hz out of range" "m5.csv:6: hz: '3': want a whole number 10..10000" "$FEECSCOPE" replay "$TMP/m5.csv"
sed 's/^# cpufreq=f:/# cpufreq=0:/' "$TMP/m2.csv" >"$TMP/m6.csv"
expect_fail "cpufreq: an empty CPU mask" "cpufreq: '0': not a CPU mask" "$FEECSCOPE" replay "$TMP/m6.csv"
expect_fail "--sim-hz out of range" "sim-hz '5': expected a whole number 10..10000" "$FEECSCOPE" replay "$V" --sim-hz 5
expect_fail "--sim-rate-limit-us not a number" "sim-rate-limit-us '1ms'" "$FEECSCOPE" replay "$V" --sim-rate-limit-us 1ms
finish
