#!/usr/bin/env bash
# --packages (docs/apps.md): packages.list read, processes grouped by the app their uid is.
# The fixture (tests/fixtures/apps/) is pixel4.csv with uids: an app's two threads, a shared
# system uid, the app under Android user 10 and a root daemon. What each app must hold is
# re-derived here from packages.list and the JSON's processes, not written down.
. "$(dirname "$0")/../lib.sh"
A=$FS_FIXTURES/apps
PKG=$A/packages.list
R=("$FEECSCOPE" replay "$A/apps.csv" --em pixel4)

# one_line NAME WANT_RC REGEX CMD...: exit WANT_RC, nothing on stdout, one message on stderr (wrapped
# at 80 columns; a usage error's "try" hint aside) matching REGEX
one_line() {
	local n=$1 want=$2 re=$3; shift 3
	"$@" >"$TMP/o" 2>"$TMP/e2"; local rc=$?
	unwrap "$TMP/e2" | grep -v "^try 'feecscope" >"$TMP/e"
	if [ $rc -ne "$want" ]; then fail "$n" "exit $rc, expected $want"; sed 's/^/    /' "$TMP/e" | head -5
	elif [ "$(wc -l <"$TMP/e")" -ne 1 ] || [ -s "$TMP/o" ]; then fail "$n" "not one line on stderr"; head -5 "$TMP/e"
	elif ! grep -Eq -e "$re" "$TMP/e"; then fail "$n" "'$(cat "$TMP/e")' lacks /$re/"
	else pass "$n"; fi
}

"${R[@]}" --packages "$PKG" --threads --json "$TMP/a.json" >"$TMP/a.txt" 2>"$TMP/a.err"
check "replay --packages exits 0, nothing on stderr" test -s "$TMP/a.txt" -a ! -s "$TMP/a.err"
check "every line of the summary fits 80 columns" awk 'length > 80 { exit 1 }' "$TMP/a.txt"
"${R[@]}" >"$TMP/plain.txt" 2>/dev/null
"${R[@]}" --packages "$A/empty.list" >"$TMP/empty.txt" 2>/dev/null
expect_same "an empty packages.list: the summary as without one" "$TMP/plain.txt" "$TMP/empty.txt"

cat >"$TMP/check.py" <<'PY'
import json, sys
pkg_path, rep_path, txt_path = sys.argv[1:4]
by_id = {}
for line in open(pkg_path):
    f = line.split(' ')
    by_id.setdefault(int(f[1]), []).append(f[0])
rep = json.load(open(rep_path))
txt = open(txt_path).read().splitlines()
bad = []
def label(uid):
    names = sorted(by_id.get(uid % 100000, []))
    if not names:
        return None
    user = f' (user {uid // 100000})' if uid >= 100000 else ''
    return (names[0] if len(names) == 1 else f'shared:uid {uid} ({", ".join(names)})') + user
apps = {a['uid']: a for a in rep['apps']}
for p in rep['processes']:
    want = label(p['uid']) if p['uid'] is not None else None
    if p.get('app', 'absent') != want:
        bad.append(f'process {p["tgid"]} uid {p["uid"]}: app {p.get("app")!r}, packages.list says {want!r}')
    if want and p['tgid'] not in apps.get(p['uid'], {}).get('tgids', []):
        bad.append(f'process {p["tgid"]} is not under app uid {p["uid"]}')
for uid, a in apps.items():
    procs = [p for p in rep['processes'] if p['uid'] == uid]
    if a['label'] != label(uid) or a['shared_uid'] != (len(by_id[uid % 100000]) > 1) or \
            sorted(a['packages']) != sorted(by_id[uid % 100000]):
        bad.append(f'app {uid}: {a["label"]!r} {a["packages"]}, packages.list says {label(uid)!r}')
    for k in ('wakeups', 'runtime_ns', 'threads'):
        if a[k] != sum(p[k] for p in procs):
            bad.append(f'app {uid}: {k} {a[k]} is not its processes\' sum')
    if abs(a['delta_mj'][0] - sum(p['delta_mj'][0] for p in procs)) > 1e-6:
        bad.append(f'app {uid}: delta_mj is not its processes\' sum')
    # the summary: the app's row (its label, or the label's line then the figures), its processes under it
    head = [i for i, l in enumerate(txt) if l.strip().startswith(a['label'][:29]) and l.startswith('  ')]
    if not head:
        bad.append(f'app {a["label"]!r}: no row in the summary')
        continue
    i = head[0] + (1 if len(a['label']) > 29 else 0)
    if txt[i].split()[-4] != str(a['wakeups']):
        bad.append(f'app {a["label"]!r}: summary row {txt[i]!r} lacks its {a["wakeups"]} wake-ups')
    under = [int(l.split()[0]) for l in txt[i + 1:i + 1 + 2 * len(procs)] if l.split()[0].isdigit()]
    for p in procs:
        if p['tgid'] not in under:
            bad.append(f'app {a["label"]!r}: process {p["tgid"]} not listed under it')
shared = [a for a in apps.values() if a['shared_uid']]
if not shared or not any(uid >= 100000 for uid in apps) or len(apps) == len(rep['processes']):
    bad.append('the fixture no longer has a shared uid, another user\'s app and a process of no app')
print('\n'.join(bad) if bad else f'{len(apps)} apps ({len(shared)} shared), {len(rep["processes"])} processes')
sys.exit(1 if bad else 0)
PY
check "apps and processes in the JSON and the summary follow packages.list" \
	python3 "$TMP/check.py" "$PKG" "$TMP/a.json" "$TMP/a.txt"
sed 's/^/    /' "$TMP/out"

# without --packages: no "app" anywhere in the JSON, the list by process as before
"${R[@]}" --json "$TMP/p.json" >/dev/null 2>&1
check "without --packages the JSON has no apps" \
	python3 -c "import json,sys; r=json.load(open('$TMP/p.json')); sys.exit('apps' in r or any('app' in p for p in r['processes']))"

# report: the same recording, summed by app
"${R[@]}" --convert-record "$TMP/a.fsr" >/dev/null 2>&1
"$FEECSCOPE" report "$TMP/a.fsr" --packages "$PKG" --json "$TMP/r.json" >"$TMP/r.txt" 2>"$TMP/r.err"
check "report --packages: apps in the text within 80 columns" \
	bash -c "grep -q '^com.example.rtapp ' '$TMP/r.txt' && grep -q '^shared:uid 1000 (' '$TMP/r.txt' && ! awk 'length > 80' '$TMP/r.txt' | grep -q ."
check "report --packages: each app's row sums its processes (the replay's JSON)" python3 -c "
import json
r, a = json.load(open('$TMP/r.json')), json.load(open('$TMP/a.json'))
got = {p['app']: p['wakeups'] for p in r['processes'] if p['app']}
want = {x['label']: x['wakeups'] for x in a['apps']}
assert got == want, (got, want)"

# bad input: one line naming the file (and line and field), exit 1 as for any bad input file
printf 'com.a 10123 0 /data/a x\ncom.b 10x 0 /data/b x\n' >"$TMP/bad.list"
one_line "--packages nosuch: one line, exit 1" 1 "^feecscope replay: --packages nosuch: cannot open: No such file" \
	"${R[@]}" --packages nosuch
one_line "--packages a bad line: the file, line and field, exit 1" 1 \
	"^feecscope replay: --packages $TMP/bad.list: line 2: uid: not an app id" "${R[@]}" --packages "$TMP/bad.list"
one_line "--packages a directory: said, exit 1" 1 "--packages $TMP: is a directory" "${R[@]}" --packages "$TMP"
one_line "--packages a recording: refused on its first line, exit 1" 1 "line 1: name: not a package name" \
	"${R[@]}" --packages "$TMP/a.fsr"
one_line "report --packages nosuch: one line, exit 1" 1 "^feecscope report: --packages nosuch: cannot open" \
	"$FEECSCOPE" report "$TMP/a.fsr" --packages nosuch
one_line "--packages without a file is a usage error" 2 "needs a value \\(FILE\\)" "${R[@]}" --packages
cp "$PKG" "$TMP/p.list"
one_line "--packages may not be an output too" 2 "--packages" "${R[@]}" --packages "$TMP/p.list" --json "$TMP/p.list"
expect_same "... and is left as it was" "$PKG" "$TMP/p.list"
# a recording keeps its packages list (format version 5): replay names the apps without --packages
"${R[@]}" --packages "$PKG" --convert-record "$TMP/own.fsr" >/dev/null 2>&1
check "--convert-record with --packages writes version 5" \
	test "$(od -An -tu4 -j8 -N4 "$TMP/own.fsr" | tr -d ' ')" = 5
check "... without a list, version 4 (older builds read it)" \
	test "$(od -An -tu4 -j8 -N4 "$TMP/a.fsr" | tr -d ' ')" = 4
"$FEECSCOPE" replay "$TMP/own.fsr" --threads --json "$TMP/own.json" >"$TMP/own.txt" 2>"$TMP/own.err"
check "replay of it without --packages: exit 0, nothing on stderr" test -s "$TMP/own.txt" -a ! -s "$TMP/own.err"
check "... the summary says the recording's list named the apps" \
	grep -qx "apps named from the recording's own list ($(grep -c . "$PKG") packages)" "$TMP/own.txt"
unwrap "$TMP/own.txt" | grep -v '^apps named from' >"$TMP/own.cut" # the line wraps with a long TMP
unwrap "$TMP/a.txt" | grep -v '^apps named from' >"$TMP/a.cut"
expect_same "... and the rest of it is the summary with --packages" "$TMP/a.cut" "$TMP/own.cut"
check "... the JSON's apps and processes are those with --packages; apps_from says which" python3 -c "
import json
a, b = json.load(open('$TMP/a.json')), json.load(open('$TMP/own.json'))
assert a['apps'] == b['apps'] and a['processes'] == b['processes'], 'apps differ'
assert a['apps_from'] == '--packages $PKG' and b['apps_from'] == \"the recording's own list\", (a['apps_from'], b['apps_from'])"
check "apps and processes from the recording's list follow packages.list" \
	python3 "$TMP/check.py" "$PKG" "$TMP/own.json" "$TMP/own.txt"
# --packages still wins: another list names the app otherwise
sed 's/^com.example.rtapp /com.other.name /' "$PKG" >"$TMP/other.list"
"$FEECSCOPE" replay "$TMP/own.fsr" --packages "$TMP/other.list" >"$TMP/other.txt" 2>&1
check "--packages on replay overrides the recording's list, and says so" bash -c "
grep -qx 'apps named from --packages $TMP/other.list ($(grep -c . "$PKG") packages)' '$TMP/other.txt' &&
grep -q '^  com.other.name ' '$TMP/other.txt' && ! grep -q 'com.example.rtapp ' '$TMP/other.txt'"
"$FEECSCOPE" replay "$TMP/own.fsr" --packages "$A/empty.list" --convert-record "$TMP/none.fsr" >/dev/null 2>&1
"$FEECSCOPE" replay "$TMP/none.fsr" >"$TMP/none.txt" 2>&1
expect_same "--convert-record --packages EMPTY drops the list: the summary as without one" \
	"$TMP/plain.txt" "$TMP/none.txt"
"$FEECSCOPE" replay "$TMP/own.fsr" --convert-record "$TMP/again.fsr" >/dev/null 2>&1
expect_same "--convert-record keeps a recording's list: the same file again" "$TMP/own.fsr" "$TMP/again.fsr"
# the live view's list is by app too (view_shot draws it from the recording as live did)
VIEW_SHOT=${VIEW_SHOT:-$(dirname "$FEECSCOPE")/tests/view_shot}
if [ ! -x "$VIEW_SHOT" ]; then
	fail "the view of a recording with a list" "$VIEW_SHOT not built (make unit)"
else
	# the fixture spans 12 ms: one more wake-up 2 s on gives the view an interval to draw
	{ cat "$A/apps.csv"; grep '^wakeup,' "$A/apps.csv" | tail -n 1 | sed 's/^wakeup,[0-9]*,/wakeup,2000000000,/'; } \
		>"$TMP/long.csv"
	"$FEECSCOPE" replay "$TMP/long.csv" --em pixel4 --packages "$PKG" --convert-record "$TMP/long.fsr" >/dev/null 2>&1
	"$VIEW_SHOT" "$TMP/long.fsr" 80x24 - >"$TMP/view.txt" 2>&1
	check "the view of a recording with a list: 24 rows of 80, apps listed with their processes" python3 -c "
import json
rows = open('$TMP/view.txt').read().splitlines()
rep = json.load(open('$TMP/own.json'))
app = rep['apps'][0]
assert len(rows) == 24 and max(map(len, rows)) <= 80, (len(rows), max(map(len, rows)))
at = [i for i, r in enumerate(rows) if r.startswith('  ' + app['label'][:29])]
assert at, 'no row for ' + app['label']
tgids = [int(r.split()[0]) for r in rows[at[0] + 1:at[0] + 3] if r.split() and r.split()[0].isdigit()]
assert tgids and set(tgids) <= set(app['tgids']), (tgids, app['tgids'])"
fi
# the records CSV keeps the list in "# package:" lines (docs/csv.md): recording -> CSV -> recording
# gives the same file, and the CSV's rows are those of the same recording without a list
"$FEECSCOPE" replay "$TMP/own.fsr" --convert-csv "$TMP/own.csv" >/dev/null 2>&1
"$FEECSCOPE" replay "$TMP/own.csv" --convert-record "$TMP/own-back.fsr" >/dev/null 2>&1
expect_same "recording -> records CSV -> recording keeps the packages list byte for byte" \
	"$TMP/own.fsr" "$TMP/own-back.fsr"
check "... the CSV holds a '# package:' line per line of packages.list" \
	test "$(grep -c '^# package: ' "$TMP/own.csv")" = "$(wc -l <"$PKG")"
"$FEECSCOPE" replay "$TMP/a.fsr" --convert-csv "$TMP/a.csv" >/dev/null 2>&1
check "... and its rows (the lines not starting with '#', Python's csv) are those without a list" python3 -c "
import csv
rows = lambda f: list(csv.reader(l for l in open(f) if not l.startswith('#')))
a, b = rows('$TMP/a.csv'), rows('$TMP/own.csv')
assert a == b and len(a) > 10, (len(a), len(b))"
if /usr/bin/python3 -c 'import pandas' 2>/dev/null; then # Debian's python3-pandas, as report.sh
	check "... pandas (comment='#') reads the same table from both" /usr/bin/python3 -c "
import pandas as pd
a, b = pd.read_csv('$TMP/a.csv', comment='#'), pd.read_csv('$TMP/own.csv', comment='#')
assert a.equals(b) and len(a) > 10, (a.shape, b.shape)"
else
	fail "python3-pandas is installed (scripts/install-deps.sh)"
fi
"$FEECSCOPE" replay "$TMP/own.csv" >"$TMP/own-csv.txt" 2>&1
expect_same "... replaying the CSV names the apps from its list, as the recording" "$TMP/own-csv.txt" \
	<("$FEECSCOPE" replay "$TMP/own.fsr" 2>&1)
sed 's/^# package: com.example.rtapp .*/# package: com.example.rtapp 10234 1 \\q\\n/' "$TMP/own.csv" >"$TMP/badpk.csv"
one_line "a bad '# package:' line: the file, its line and the escape, exit 1" 1 \
	"^feecscope replay: $TMP/badpk.csv:[0-9]+: package: '\\\\q' at [0-9]+ is not an escape" \
	"$FEECSCOPE" replay "$TMP/badpk.csv"
# a list that reads but is no packages.list: replay and report name the file, the list's line and field
sed 's/^# package: com.example.rtapp 10234 /# package: com.example.rtapp 10x34 /' "$TMP/own.csv" >"$TMP/badlist.csv"
n=$(grep -n '^# package: ' "$TMP/badlist.csv" | grep -n 10x34 | cut -d: -f1)
one_line "replay of a CSV whose list is bad: the file, the list's line and field, exit 1" 1 \
	"^feecscope replay: $TMP/badlist.csv: its packages list: line $n: uid: " "$FEECSCOPE" replay "$TMP/badlist.csv"
"$FEECSCOPE" report "$TMP/own.fsr" "$TMP/badlist.csv" --json "$TMP/bl.json" >"$TMP/bl.txt" 2>"$TMP/bl.err"; rc=$?
[ $rc -eq 1 ] && grep -q "^feecscope report: $TMP/badlist.csv: its packages list: line $n: uid: " "$TMP/bl.err" &&
	python3 -c "
import json; r = json.load(open('$TMP/bl.json'))['recordings']
assert r[0]['error'] is None and 'its packages list: line $n' in r[1]['error'], r" &&
	pass "report: a recording whose list is bad is listed with the error, exit 1" ||
	fail "report: a recording whose list is bad" "exit $rc: $(head -c 300 "$TMP/bl.err")"
# a damaged list: one line naming the file and the section, exit 1
python3 - "$TMP/own.fsr" "$TMP/bad.fsr" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
at = 24 + struct.unpack_from('<I', b, 12)[0] + struct.unpack_from('<I', b, 16)[0]
assert b[at:at + 4] == b'FSPK'
b[at + 22] ^= 0x10
open(sys.argv[2], 'wb').write(b)
PY
one_line "a damaged packages section: the file and the section's byte, exit 1" 1 \
	"^feecscope replay: $TMP/bad.fsr: packages section at byte [0-9]+: CRC mismatch" \
	"$FEECSCOPE" replay "$TMP/bad.fsr"
# report: each recording's apps from its own list (uids differ between devices), summed by
# package name. Device B installed com.example.rtapp as app id 10300 (10234 on A) and gave the
# shared uid's packages 10500 (1000 on A): the same packages, other uids. Device C lists
# another package on A's uid 10234. What report must sum is derived from each one's replay.
sed -e 's/^com.example.rtapp 10234 /com.example.rtapp 10300 /' \
	-e 's/^\(android\|com.android.settings\|com.android.providers.settings\) 1000 /\1 10500 /' "$PKG" >"$TMP/b.list"
sed -e 's/,10234$/,10300/' -e 's/,1010234$/,1010300/' -e 's/,1000$/,10500/' "$A/apps.csv" >"$TMP/b.csv"
check "device B's recording has other uids than A's" bash -c "! cmp -s '$A/apps.csv' '$TMP/b.csv' && grep -q ',10300\$' '$TMP/b.csv'"
"$FEECSCOPE" replay "$TMP/b.csv" --em pixel4 --packages "$TMP/b.list" --convert-record "$TMP/b.fsr" >/dev/null 2>&1
"$FEECSCOPE" replay "$TMP/own.fsr" --packages "$TMP/other.list" --convert-record "$TMP/c.fsr" >/dev/null 2>&1
for x in b c; do "$FEECSCOPE" replay "$TMP/$x.fsr" --json "$TMP/$x.json" >/dev/null 2>&1; done
cat >"$TMP/many.py" <<'PY'
import json, sys
# report JSON, then the replays' JSONs of its recordings in order ('-' for one without a list)
rep, *ones = sys.argv[1:]
rep = json.load(open(rep))
labels, wakeups = {}, {}
for one in ones:
    if one == '-':
        continue
    for a in json.load(open(one))['apps']:
        key = (tuple(sorted(a['packages'])), a['uid'] // 100000)
        labels.setdefault(key, set()).add(a['label'])
        wakeups[key] = wakeups.get(key, 0) + a['wakeups']
want = {}
for key, ls in labels.items():
    l = ls.pop() if len(ls) == 1 else 'shared:uids ' + next(iter(ls)).split(' ', 2)[2]
    want[l] = wakeups[key]
got = {p['app']: p['wakeups'] for p in rep['processes'] if p['app']}
print(json.dumps(got, sort_keys=True))
sys.exit(0 if got == want else f'want {want}')
PY
"$FEECSCOPE" report "$TMP/own.fsr" "$TMP/b.fsr" --json "$TMP/ab.json" --csv "$TMP/ab.csv" >"$TMP/ab.txt" 2>"$TMP/ab.err"
check "report of two devices' recordings, each with its list: exit 0, nothing on stderr" \
	test -s "$TMP/ab.txt" -a ! -s "$TMP/ab.err"
check "... an app sums over both by package name, a shared uid's label says its uids differ" \
	python3 "$TMP/many.py" "$TMP/ab.json" "$TMP/own.json" "$TMP/b.json"
sed 's/^/    /' "$TMP/out"
check "... the shared uid and the app each on one row of the page, within 80 columns" bash -c "
test \$(grep -c '^shared:uid' '$TMP/ab.txt') = 1 && grep -q '^shared:uids (android, ' '$TMP/ab.txt' &&
test \$(grep -cE '^com\.example\.rtapp +[0-9]' '$TMP/ab.txt') = 1 && ! awk 'length > 80' '$TMP/ab.txt' | grep -q ."
check "... the page says each recording's list named its apps" bash -c "
grep -qx \"apps named by each recording's list, summed by package name:\" '$TMP/ab.txt' &&
test \$(grep -cE '^  .*/(own|b)\.fsr +its own list \($(grep -c . "$PKG") packages\)\$' '$TMP/ab.txt') = 2"
check "... JSON and CSV: apps_from of each recording" python3 -c "
import csv, json
r = json.load(open('$TMP/ab.json'))['recordings']
c = list(csv.DictReader(open('$TMP/ab.csv')))
want = [\"the recording's own list\"] * 2
assert [x['apps_from'] for x in r] == want and [x['apps_from'] for x in c] == want, (r, c)"
# --packages still names every recording's apps: B's uids are no app of A's list
"$FEECSCOPE" report "$TMP/own.fsr" "$TMP/b.fsr" --packages "$PKG" --json "$TMP/abp.json" --csv "$TMP/abp.csv" \
	>"$TMP/abp.txt" 2>&1
check "report --packages overrides each recording's list: B's app ids name nothing" \
	python3 "$TMP/many.py" "$TMP/abp.json" "$TMP/own.json" -
sed 's/^/    /' "$TMP/out"
unwrap "$TMP/abp.txt" >"$TMP/abp.cut"
check "... the page, JSON and CSV say --packages named them all" bash -c "
grep -qx 'apps named from --packages $PKG ($(grep -c . "$PKG") packages), every recording' '$TMP/abp.cut' &&
python3 -c \"
import csv, json
r = json.load(open('$TMP/abp.json'))['recordings']
c = list(csv.DictReader(open('$TMP/abp.csv')))
assert [x['apps_from'] for x in r + c] == ['--packages $PKG'] * 4, (r, c)\""
"$FEECSCOPE" report "$TMP/own.fsr" "$TMP/b.fsr" --packages "$A/empty.list" --json "$TMP/abe.json" >/dev/null 2>&1
"$FEECSCOPE" report "$TMP/a.fsr" --json "$TMP/anone.json" >/dev/null 2>&1
check "report --packages EMPTY: no app in any recording, as replay" python3 -c "
import json
r = json.load(open('$TMP/abe.json'))
assert all(x['apps_from'] is None for x in r['recordings']), r['recordings']
assert not any('app' in p for p in r['processes']), r['processes']
assert len(r['processes']) == len(json.load(open('$TMP/anone.json'))['processes'])"
# a recording without a list: its processes by name, apps_from null; another package on the same uid
"$FEECSCOPE" report "$TMP/own.fsr" "$TMP/a.fsr" "$TMP/c.fsr" --json "$TMP/ac.json" >"$TMP/ac.txt" 2>&1
check "a recording without a list adds by name; another list's package on the same uid is apart" \
	python3 "$TMP/many.py" "$TMP/ac.json" "$TMP/own.json" - "$TMP/c.json"
sed 's/^/    /' "$TMP/out"
check "... its apps_from is null, the page says it has no list" bash -c "
python3 -c \"
import json
r = json.load(open('$TMP/ac.json'))['recordings']
assert [x['apps_from'] for x in r] == [\\\"the recording's own list\\\", None, \\\"the recording's own list\\\"], r\" &&
grep -qE '^  .*/a\.fsr +no list: its processes by name\$' '$TMP/ac.txt'"
finish
