#!/usr/bin/env bash
# A Perfetto trace's power rails (docs/traces.md, "Power rails") through
# replay, on the fixtures tests/perfetto/gen_ftrace_traces.py writes
# (tests/fixtures/perfetto/rails*.pftrace) and hikey960's EM. The figures
# are worked by hand from the generator's RAILS and rail_events():
#
# The window is the workload's, 10.050 .. 10.250 s (200 ms). The rails'
# counters (uWs) are read every 100 ms from 10.0 s, so each edge lies
# 50 ms from a sample on either side and is interpolated halfway:
#   S4M_VDD_CPUCL0 (pd0): 1000000 1010000 1030000 1040000
#     E(10.05) = 1005000, E(10.25) = 1035000: 30000 uWs = 30.0 mJ
#   S2M_VDD_CPUCL2 (pd1): 2000000 2050000 2060000 2160000
#     E(10.05) = 2025000, E(10.25) = 2110000: 85000 uWs = 85.0 mJ
#   S10M_VDD_TPU: 7000 7000 9000 9000: 9000 - 7000 = 2.0 mJ (not a CPU rail)
#   S4M_VDD_CPUCL0_M: the cluster's memory, not a CPU rail: 0.2 mJ
# The EM for the traced busy time: CPU 0 ran 100 ms at 533 MHz (28728 uW),
# 2.8728 mJ; CPU 4 40 ms with no cpu_frequency, so at pd1's top OPP
# (1571911 uW): 62.87644 mJ; 65.74924 mJ in all.
# rails-partial has no sample after 10.2 s: the rails cover 10.05 .. 10.2,
# 150 ms: pd0 25 mJ (166.7 mW), pd1 35 mJ (233.3 mW); the EM's 65.74924 mJ
# over the 200 ms window is 328.7 mW.
. "$(dirname "$0")/../lib.sh"
cd "$(dirname "$0")/../.."
FX=tests/fixtures/perfetto

for t in rails rails-mono; do
	"$FEECSCOPE" replay "$FX/$t.pftrace" --em hikey960 --json "$TMP/$t.json" >"$TMP/$t.sum" 2>"$TMP/$t.err"
	check "$t: the rails by hand" python3 - "$TMP/$t.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["simulation"]["trace"]["power_rails"]
near = lambda a, b: a is not None and abs(a - b) < 1e-6
by = {x["name"]: x for x in r["rails"]}
assert r["window_ns"] == 200_000_000 and r["matched"] and r["cpu_rails"] == 2, r
assert [x["name"] for x in r["rails"]][:2] == ["S4M_VDD_CPUCL0", "S2M_VDD_CPUCL2"], r
for name, pd, mj, em in [("S4M_VDD_CPUCL0", "pd0", 30.0, 2.8728), ("S2M_VDD_CPUCL2", "pd1", 85.0, 62.87644)]:
    x = by[name]
    assert x["cpu"] and x["pd"] == pd and near(x["measured_mj"], mj) and near(x["em_traced_mj"], em), x
    assert x["before_ns"] == 50_000_000 and x["after_ns"] == 50_000_000 and x["covered_ns"] == 200_000_000, x
for name, mj in [("S10M_VDD_TPU", 2.0), ("S4M_VDD_CPUCL0_M", 0.2)]:
    assert not by[name]["cpu"] and by[name]["pd"] is None and near(by[name]["measured_mj"], mj), by[name]
assert near(r["em_traced_mj"], 65.74924), r
PY
	unwrap "$TMP/$t.sum" | grep -q "^power rails: CPU 115.0 mJ measured; the EM: 65.7 mJ for the traced busy time, [0-9.]* mJ simulated; by PD, measured/EM mJ: pd0 30.0/2.9, pd1 85.0/62.9$" &&
		pass "$t: the summary's rails line" || fail "$t: summary" "$(grep -A1 '^power rails' "$TMP/$t.sum")"
	awk 'length > 80 { bad = 1 } END { exit bad }' "$TMP/$t.sum" && pass "$t: within 80 columns" ||
		fail "$t: a summary line past 80 columns"
done
"$FEECSCOPE" replay "$FX/rails-partial.pftrace" --em hikey960 >"$TMP/part.sum" 2>&1
grep -q "^power rails: no sample after the window's end: 0.150 of its 0.200 s covered$" "$TMP/part.sum" &&
	unwrap "$TMP/part.sum" | grep -q "covered mean power: CPU 400.0 mW measured where covered; the EM: 328.7 mW for the traced busy time.*pd0 166.7/14.4, pd1 233.3/314.4$" &&
	pass "rails-partial: one line says so, mean power compared" || fail "rails-partial" "$(sed -n 5,9p "$TMP/part.sum")"
# a trace without rails prints no rails line
"$FEECSCOPE" replay "$FX/compact.pftrace" --em hikey960 >"$TMP/none.sum" 2>&1
grep -q "power rails" "$TMP/none.sum" && fail "no rails: no line" || pass "no rails: no line"

# report: a line per trace with rails, and their JSON members
mkdir -p "$TMP/rep"
cp "$FX/rails.pftrace" "$FX/rails-partial.pftrace" "$FX/compact.pftrace" "$TMP/rep/"
"$FEECSCOPE" report "$TMP/rep" --em hikey960 --json "$TMP/rep.json" >"$TMP/rep.txt" 2>&1
grep -Eq '^  .*rails.pftrace +115.0 / 65.7 mJ$' "$TMP/rep.txt" &&
	grep -Eq '^  .*partial.pftrace +400.0 / 328.7 mW mean, partly covered$' "$TMP/rep.txt" &&
	pass "report: the traces' rails" || fail "report: rails" "$(grep -A3 '^power rails' "$TMP/rep.txt")"
check "report --json: rails members only for the traces with rails" python3 -c "
import json
rs = {r['path'].split('/')[-1]: r for r in json.load(open('$TMP/rep.json'))['recordings']}
assert abs(rs['rails.pftrace']['rails_cpu_mj'] - 115.0) < 1e-6, rs
assert abs(rs['rails.pftrace']['rails_em_traced_mj'] - 65.74924) < 1e-6, rs
assert abs(rs['rails-partial.pftrace']['rails_cpu_mw'] - 400.0) < 1e-6, rs
assert not [k for k in rs['compact.pftrace'] if 'rails' in k], rs"

# a rail sampled but never described (a ring buffer that wrapped): counted, left out, the answer given
"$FEECSCOPE" replay "$FX/rail-undescribed.pftrace" --em hikey960 --json "$TMP/und.json" >"$TMP/und.sum" 2>&1
check "replay: a rail without a descriptor is left out, not an error" \
	grep -q "^power rails: 1 sampled without a rail_descriptor" "$TMP/und.sum"
check "replay --json: the undescribed rail counted" python3 -c "
import json
r = json.load(open('$TMP/und.json'))['simulation']['trace']['power_rails']
assert r['undescribed'] == 1 and [x['name'] for x in r['rails']] == ['VDD_CPU0'], r"
expect_fail "replay: a rail's counter going backwards" \
	"bad-rail-back.pftrace: packet 3 \(offset [0-9]+\): power_rails.energy_data: energy: 900 uWs, below rail 0's previous 1000 uWs" \
	"$FEECSCOPE" replay "$FX/bad-rail-back.pftrace" --em hikey960
expect_fail "replay: a rail field of the wrong wire type" \
	"bad-rail-wire.pftrace: packet 3 \(offset [0-9]+\): power_rails.energy_data: energy \(field 3\): length-delimited, expected varint" \
	"$FEECSCOPE" replay "$FX/bad-rail-wire.pftrace" --em hikey960
finish
