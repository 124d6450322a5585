#!/usr/bin/env bash
# feecscope report over many recordings: each recording's verdict equals `replay --json`'s, groups
# and the combined total add up, results do not depend on the number of threads, directories
# expand to their recordings, bad ones are listed; recordings of different devices are combined
# only with --mix; a group of one recording shows that recording's interval (one method); the
# kernel column keeps the version; and docs/analysis.md's pandas example, run on the same
# recordings' decision CSVs, gives the report's numbers.
. "$(dirname "$0")/../lib.sh"
F=$FS_FIXTURES/replay
DOCS=$(cd "$(dirname "$0")/../../docs" && pwd)
R=$TMP/runs
mkdir -p "$R"

"$FEECSCOPE" replay "$F/pixel4.csv" --em pixel4 --convert-record "$R/a-pixel4.fsr" >/dev/null 2>&1
"$FEECSCOPE" replay "$F/hikey960.csv" --em hikey960 --convert-record "$R/b-hikey960.fsr" >/dev/null 2>&1
"$FEECSCOPE" replay "$F/handworked.csv" --convert-record "$R/c-handworked.fsr" >/dev/null 2>&1
cp "$R/a-pixel4.fsr" "$R/d-pixel4-again.fsr"
echo "not a recording" >"$R/notes.txt"

"$FEECSCOPE" report --mix "$R" --json "$TMP/rep.json" --csv "$TMP/rep.csv" >"$TMP/rep.txt" 2>"$TMP/rep.err"
check "report --mix over a directory exits 0" test -s "$TMP/rep.json" -a ! -s "$TMP/rep.err"
"$FEECSCOPE" report --mix --jobs 1 "$R" --json "$TMP/rep1.json" >/dev/null 2>&1
expect_same "one thread gives the same JSON as one per CPU" "$TMP/rep.json" "$TMP/rep1.json"
for f in "$R"/*.fsr; do "$FEECSCOPE" replay "$f" --json "$TMP/$(basename "$f").json" >/dev/null 2>&1; done

cat >"$TMP/sum.py" <<'PY'
import json, sys
from decimal import Decimal as D
rep = json.load(open(sys.argv[1]))
bad = []
runs = rep['recordings']
if [r['path'].rsplit('/', 1)[-1] for r in runs] != ['a-pixel4.fsr', 'b-hikey960.fsr', 'c-handworked.fsr', 'd-pixel4-again.fsr']:
    bad.append(f'recordings found: {[r["path"] for r in runs]}')
for r in runs:
    one = json.load(open(sys.argv[2] + '/' + r['path'].rsplit('/', 1)[-1] + '.json'))
    v = one['verdicts'][0]
    for k, want in (('delta_mj', v['delta_mj']), ('ci95_mj', v['ci95_mj']), ('measurable', v['measurable']),
                    ('policy', v['policy']), ('twin', v['twin']), ('wakeups', one['counts']['wakeups']),
                    ('cpu_energy_mj', one['cpu_energy_mj']), ('kernel_release', one['kernel_release'])):
        if r[k] != want:
            bad.append(f'{r["path"]}: {k} {r[k]} but replay says {want}')
total = sum(D(str(r['delta_mj'])) for r in runs)
if D(str(rep['combined']['delta_mj'])) != total:
    bad.append(f'combined {rep["combined"]["delta_mj"]} != sum of recordings {total}')
if sum(D(str(g['delta_mj'])) for g in rep['groups']) != total or len(rep['groups']) != 3:
    bad.append(f'{len(rep["groups"])} groups (want 3: pixel4 twice is one) or they do not add up')
for g in rep['groups']:
    one = [r for r in runs if g['recordings'] == 1 and r['kernel_release'] == g['kernel_release']
           and r['em'] == g['em']]
    if one and (g['ci95_mj'] != one[0]['ci95_mj'] or g['delta_mj'] != one[0]['delta_mj']):
        bad.append(f'group of {one[0]["path"]}: {g["delta_mj"]} {g["ci95_mj"]} but its row '
                   f'{one[0]["delta_mj"]} {one[0]["ci95_mj"]}')
if sum(1 for g in rep['groups'] if g['recordings'] == 1) != 2:
    bad.append('want 2 groups of one recording to compare with their rows')
# a sum has an interval where every part has one (a recording too short for one has none)
ci = rep['combined']['ci95_mj']
if (ci is None) != any(r['ci95_mj'] is None for r in runs):
    bad.append(f'combined interval {ci} but the recordings\' {[r["ci95_mj"] for r in runs]}')
elif ci and not ci[0] <= rep['combined']['delta_mj'] <= ci[1]:
    bad.append('the combined interval does not hold the combined figure')
procs = {p['comm']: p for p in rep['processes']}
if procs.get('render', {}).get('wakeups') != 8:
    bad.append('render (pixel4, recorded twice) is not summed over both recordings')
print('\n'.join(bad) or f'{len(runs)} recordings, {len(rep["groups"])} groups, combined {total} mJ')
sys.exit(1 if bad else 0)
PY
check "each recording's verdict = its replay's; groups and the combined total add up" \
	python3 "$TMP/sum.py" "$TMP/rep.json" "$TMP"
sed 's/^/    /' "$TMP/out"
check "the text report leads with the combined verdict" grep -q "^margin verdict over 4 of 4 recordings: " "$TMP/rep.txt"
check "the text report fits 80 columns" sh -c "! awk 'length > 80' '$TMP/rep.txt' | grep -q ."
check "the CSV has a row per recording" test "$(wc -l <"$TMP/rep.csv")" -eq 5

# docs/analysis.md's pandas block on the same recordings' decision CSVs (Debian's python3-pandas)
PY3=/usr/bin/python3
if "$PY3" -c 'import pandas' 2>/dev/null; then
	mkdir -p "$TMP/csvs"
	for f in "$R"/*.fsr; do "$FEECSCOPE" replay "$f" --csv "$TMP/csvs/$(basename "$f" .fsr).csv.gz" >/dev/null 2>&1; done
	awk '/^```python$/ { on = 1; next } /^```$/ { on = 0 } on' "$DOCS/analysis.md" >"$TMP/example.py"
	check "docs/analysis.md has the pandas example" grep -q "read_csv" "$TMP/example.py"
	"$PY3" "$TMP/example.py" "$TMP/csvs" >"$TMP/pandas.out" 2>&1
	sed 's/^/    /' "$TMP/pandas.out"
	cat >"$TMP/cmp.py" <<'PY'
import json, re, sys
rep = json.load(open(sys.argv[1]))
out = open(sys.argv[2]).read().splitlines()
# the decision CSVs hold the per-decision estimate: each recording's replay JSON per_decision
# (report's rows are the closed loop's where it ran)
def per_decision(path):
    v = json.load(open(sys.argv[3] + '/' + path.rsplit('/', 1)[-1] + '.json'))['verdicts']
    return v[0]['per_decision']['delta_mj'] if v else 0.0
want = {r['path'].rsplit('/', 1)[-1][:-4]: per_decision(r['path']) for r in rep['recordings']}
got = {}
for line in out[1:-1]:
    f = line.split()
    got[f[0].rsplit('/', 1)[-1][:-7]] = float(f[1])
bad = [f'{k}: pandas {got.get(k)} mJ, report {v}' for k, v in want.items()
       if got.get(k) is None or abs(got[k] - v) > 1e-6]
m = re.match(r'all runs: (\S+) mJ', out[-1]) if out else None
if not m or abs(float(m.group(1)) - sum(want.values())) > 1e-6:
    bad.append(f'total: {out[-1] if out else ""} vs the per-decision sum {sum(want.values())}')
print('\n'.join(bad) or 'pandas = the per-decision verdict of every run and in all')
sys.exit(1 if bad else 0)
PY
	check "the pandas example's figures equal each run's per-decision verdict" \
		python3 "$TMP/cmp.py" "$TMP/rep.json" "$TMP/pandas.out" "$TMP"
	sed 's/^/    /' "$TMP/out"
else
	fail "python3-pandas is installed (scripts/install-deps.sh)"
fi

# different devices: refused without --mix, one line naming two files and what differs, and the
# usage error's "try" line (exit 2)
"$FEECSCOPE" report "$R/a-pixel4.fsr" "$R/b-hikey960.fsr" >"$TMP/mix.out" 2>"$TMP/mix.err"; rc=$?
[ $rc -eq 2 ] && [ ! -s "$TMP/mix.out" ] && [ "$(wc -l <"$TMP/mix.err")" -eq 2 ] &&
	[ "$(tail -n 1 "$TMP/mix.err")" = "try 'feecscope report --help'" ] &&
	grep -q 'a-pixel4.fsr and .*b-hikey960.fsr: different Energy Models (profile pixel4; profile hikey960); --mix' "$TMP/mix.err" &&
	pass "different EMs: refused without --mix, exit 2, one line: $(cut -c1-60 "$TMP/mix.err")..." ||
	fail "different EMs refused without --mix" "exit $rc: $(head -c 300 "$TMP/mix.err")"
"$FEECSCOPE" report "$R/a-pixel4.fsr" "$R/c-handworked.fsr" >/dev/null 2>"$TMP/cpus.err"; rc=$?
[ $rc -eq 2 ] && grep -q 'a-pixel4.fsr and .*c-handworked.fsr: recorded on 8 and 4 CPUs; --mix' "$TMP/cpus.err" &&
	pass "different CPU counts: refused without --mix, exit 2" ||
	fail "different CPU counts refused without --mix" "exit $rc: $(head -c 300 "$TMP/cpus.err")"
check "the same device twice needs no --mix" "$FEECSCOPE" report "$R/a-pixel4.fsr" "$R/d-pixel4-again.fsr"

# one recording: its row, its group and the combined line show one interval
"$FEECSCOPE" replay "$F/handworked.csv" --json "$TMP/hw.json" >/dev/null 2>&1
"$FEECSCOPE" report "$R/c-handworked.fsr" --json "$TMP/one.json" >/dev/null 2>&1
python3 - "$TMP/one.json" "$TMP/hw.json" >"$TMP/one.out" 2>&1 <<'PY'
import json, sys
rep, one = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
want = one['verdicts'][0]['ci95_mj']
got = [rep['recordings'][0]['ci95_mj'], rep['groups'][0]['ci95_mj'], rep['combined']['ci95_mj']]
print(f'replay {want}; row, group, combined {got}')
sys.exit(0 if want is not None and all(g == want for g in got) else 1)
PY
[ $? -eq 0 ] && pass "one recording: row, group and combined intervals = replay's: $(cat "$TMP/one.out")" ||
	fail "one interval per recording" "$(cat "$TMP/one.out")"

# a closed-loop verdict's interval holds the replicas' spread (ab-light.rec: the time blocks
# agree but for one wake-up, the replicas do not): the group and the total show the row's, not a point; two
# recordings' variances add (half-width above one's, at most sqrt(2) times it)
cp "$F/ab-light.rec" "$TMP/light1.fsr"
cp "$F/ab-light.rec" "$TMP/light2.fsr"
"$FEECSCOPE" replay "$TMP/light1.fsr" --json "$TMP/l1.json" >/dev/null 2>&1
"$FEECSCOPE" report "$TMP/light1.fsr" --json "$TMP/lone.json" >/dev/null 2>&1
"$FEECSCOPE" report "$TMP/light1.fsr" "$TMP/light2.fsr" --json "$TMP/ltwo.json" >"$TMP/ltwo.txt" 2>&1
python3 - "$TMP/lone.json" "$TMP/l1.json" "$TMP/ltwo.json" >"$TMP/light.out" 2>&1 <<'PY'
import json, sys
one, rep1, two = (json.load(open(a)) for a in sys.argv[1:4])
want = rep1['verdicts'][0]['ci95_mj']
got = [one['recordings'][0]['ci95_mj'], one['groups'][0]['ci95_mj'], one['combined']['ci95_mj']]
lo, hi = two['combined']['ci95_mj']
h1, h2 = (want[1] - want[0]) / 2, (hi - lo) / 2
print(f'replay {want}; one: {got}; two: {[lo, hi]}')
ok = want[0] < want[1] and all(g == want for g in got) and h1 < h2 <= 2 ** 0.5 * h1 * 1.0001
sys.exit(0 if ok else 1)
PY
[ $? -eq 0 ] && grep -q 'closed loop, each' "$TMP/ltwo.txt" &&
	pass "closed loop: the replicas' spread in group and total: $(cat "$TMP/light.out")" ||
	fail "closed-loop intervals summed" "$(cat "$TMP/light.out")"

# the kernel column keeps the version, not the build id
sed 's/^# kernel_release=5.4.0/# kernel_release=6.1.75-android14-11-g1234abcd5678-ab11223344/' \
	"$F/pixel4.csv" >"$TMP/gki.csv"
"$FEECSCOPE" replay "$TMP/gki.csv" --em pixel4 --convert-record "$TMP/gki.fsr" >/dev/null 2>&1
"$FEECSCOPE" report "$TMP/gki.fsr" >"$TMP/gki.txt" 2>&1
grep -q 'gki.fsr  *6\.1\.75-andro' "$TMP/gki.txt" && ! grep -q 'ab11223344 ' "$TMP/gki.txt" &&
	! grep -q '\.\.\.ab11223344' "$TMP/gki.txt" &&
	pass "the kernel column keeps the version: $(grep -o 'gki.fsr .*' "$TMP/gki.txt" | cut -c1-32 | tr -s ' ')" ||
	fail "the kernel column keeps the version" "$(grep -m1 gki "$TMP/gki.txt")"

# a trace's simulated energy in fJ: µW and mW EMs as replay's mJ; a bogoWatt EM has none
# (replay says bogo-J), so its row keeps no verdict rather than a figure in mJ
T="$(dirname "$0")/../fixtures/trace"
sed 's/^unit uW$/unit mW/' "$T/hikey960-2cpu.em" >"$TMP/mw.em"
sed 's/^unit uW$/unit bogoW/' "$T/hikey960-2cpu.em" >"$TMP/bogo.em"
for u in hikey960-2cpu mw bogo; do
	em="$TMP/$u.em"; [ "$u" = hikey960-2cpu ] && em="$T/$u.em"
	"$FEECSCOPE" replay "$T/tracefs.txt" --em "$em" --json "$TMP/t-$u.json" >"$TMP/t-$u.sum" 2>&1
	"$FEECSCOPE" report "$T/tracefs.txt" --em "$em" --json "$TMP/r-$u.json" >"$TMP/r-$u.txt" 2>&1
done
python3 - "$TMP" >"$TMP/units.out" 2>&1 <<'PY'
import json, sys
d = sys.argv[1]
bad = []
for u in ('hikey960-2cpu', 'mw'):
    t, r = json.load(open(f'{d}/t-{u}.json')), json.load(open(f'{d}/r-{u}.json'))
    want, got = t['verdicts'][0]['delta_mj'], r['recordings'][0].get('delta_mj')
    print(f'{u}: replay {want} report {got};', end=' ')
    if got is None or abs(got - want) > 1e-6 * max(1.0, abs(want)):
        bad.append(u)
r = json.load(open(f'{d}/r-bogo.json'))['recordings'][0]
print(f"bogoW: report {r.get('delta_mj')}")
sys.exit(1 if bad or r.get('delta_mj') is not None else 0)
PY
[ $? -eq 0 ] && grep -q 'bogo-J' "$TMP/t-bogo.sum" && grep -q 'tracefs.txt no verdict: a bogoWatt EM has no unit' "$TMP/r-bogo.txt" &&
	pass "a trace's energy: report = replay in uW and mW, none for bogoWatts: $(cat "$TMP/units.out")" ||
	fail "a trace's energy units" "$(cat "$TMP/units.out"; grep -m1 tracefs "$TMP/r-bogo.txt")"

head -c 200 "$R/a-pixel4.fsr" >"$TMP/cut.fsr"
expect_fail "a damaged recording is listed with its error, exit 1" "cut.fsr" \
	"$FEECSCOPE" report "$R/a-pixel4.fsr" "$TMP/cut.fsr"
expect_fail "a missing file names it" "nosuch.fsr" "$FEECSCOPE" report "$TMP/nosuch.fsr"
expect_fail "no argument is a usage error" "give recordings" "$FEECSCOPE" report
finish
