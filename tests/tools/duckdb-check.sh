#!/usr/bin/env bash
# Runs docs/analysis.md's DuckDB queries on the report test's recordings plus a lab capture
# (whose CSV.gz has several gzip members) and checks them against `feecscope report --json`.
# Needs Node.js and @duckdb/node-api (npm: not a Debian package, so not in `make check`).
# Usage: tests/tools/duckdb-check.sh NODE_MODULES_DIR [FEECSCOPE]
set -eu
[ $# -ge 1 ] && [ -d "$1/@duckdb/node-api" ] || { echo "usage: $0 NODE_MODULES_DIR (holding @duckdb/node-api)" >&2; exit 2; }
MODS=$(cd "$1" && pwd)
REPO=$(cd "$(dirname "$0")/../.." && pwd)
FS=$(realpath "${2:-$REPO/build/feecscope}")
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
F=$REPO/tests/fixtures
mkdir "$T/runs"
"$FS" replay "$F/replay/pixel4.csv" --em pixel4 --convert-record "$T/runs/a-pixel4.fsr" >/dev/null
"$FS" replay "$F/replay/hikey960.csv" --em hikey960 --convert-record "$T/runs/b-hikey960.fsr" >/dev/null
"$FS" replay "$F/replay/handworked.csv" --convert-record "$T/runs/c-handworked.fsr" >/dev/null
cp "$F/view/live.fsr" "$T/runs/e-lab.fsr"
for f in "$T"/runs/*.fsr; do "$FS" replay "$f" --csv "${f%.fsr}.csv.gz" >/dev/null; done
(cd "$T" && "$FS" report runs --json report.json --csv report.csv >/dev/null)
# query 3's answer computed without DuckDB: Python's gzip (members and all) and csv modules
python3 - "$T"/runs/*.csv.gz >"$T/threads.json" <<'PY'
import csv, gzip, json, sys
mj = {}
for path in sys.argv[1:]:
    for r in csv.DictReader(gzip.open(path, 'rt')):
        if r['twin']:
            mj[r['comm']] = mj.get(r['comm'], 0.0) + float(r['denergy_nj']) * (1 if r['has_margin'] == '1' else -1) / 1e6
print(json.dumps(mj))
PY
ln -s "$MODS" "$T/node_modules"
cp "$REPO/tests/tools/duckdb_check.mjs" "$T/"
cd "$T" && node duckdb_check.mjs "$REPO/docs/analysis.md" report.json threads.json
