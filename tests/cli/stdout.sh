#!/usr/bin/env bash
# '-' is stdout for every option that takes an output FILE (issue 32): what
# goes to stdout is byte for byte what the same option writes to a file, and
# nothing else goes there (no summary, no report text); no file named '-' is
# created; two outputs on stdout at once are refused (exit 2, one line).
# live's own '-' run is tests/live/stdout.sh (root).
. "$(dirname "$0")/../lib.sh"
out_inputs

# --- every output option: '-' gives the file's bytes, alone --------------------
for cmd in "replay in.fsr --csv" "replay in.fsr --csv-layout wide --csv" "replay in.fsr --json" \
	"replay in.fsr --summary" "replay in.fsr --perfetto" "replay in.fsr --convert-csv" \
	"replay in.csv --em pixel4 --convert-record" "report in.fsr --json" "report in.fsr --csv" \
	"em --em pixel4 --save"; do
	rm -f file.out
	# shellcheck disable=SC2086 # the command's words
	"$FEECSCOPE" $cmd file.out >file.stdout 2>/dev/null
	# shellcheck disable=SC2086
	"$FEECSCOPE" $cmd - >dash.stdout 2>dash.err
	rc=$?
	[ $rc -eq 0 ] && [ -s dash.stdout ] && cmp -s dash.stdout file.out && [ ! -e ./- ] &&
		pass "$cmd -: stdout holds the output and nothing else" ||
		fail "$cmd -" "exit $rc, $(wc -c <dash.stdout) bytes vs $(wc -c <file.out): $(head -c 200 dash.err)"
done

# --- what consumers read from it -------------------------------------------------
"$FEECSCOPE" replay in.fsr --json - 2>/dev/null | python3 -c 'import json, sys; d = json.load(sys.stdin); assert d["verdicts"]' &&
	pass "replay --json -: python's json reads stdout" || fail "replay --json - | json.load"
"$FEECSCOPE" replay in.fsr --csv - 2>/dev/null | python3 -c '
import csv, sys
rows = list(csv.DictReader(sys.stdin))
assert rows and "seq" in rows[0] and all(len(r) == len(rows[0]) for r in rows), rows[:1]' &&
	pass "replay --csv -: python's csv reads stdout" || fail "replay --csv - | csv.DictReader"
if command -v jq >/dev/null; then
	"$FEECSCOPE" replay in.fsr --json - 2>/dev/null | jq -e .verdicts >/dev/null &&
		pass "replay --json - | jq .verdicts" || fail "replay --json - | jq .verdicts"
fi
"$FEECSCOPE" replay in.fsr >file.sum 2>/dev/null
"$FEECSCOPE" replay in.csv --em pixel4 --convert-record - 2>/dev/null | "$FEECSCOPE" replay - >pipe.sum 2>/dev/null
expect_same "--convert-record - piped into replay - gives the file's summary" file.sum pipe.sum

# --- one output at most on stdout ---------------------------------------------
# refused NAME REGEX CMD...: exit 2, the first line REGEX, at most the 'try' line after it, nothing on stdout
refused() {
	local n=$1 re=$2; shift 2
	"$@" >o 2>e; local rc=$?
	[ $rc -eq 2 ] && [ ! -s o ] && [ "$(wc -l <e)" -le 2 ] && head -n 1 e | grep -Eq -- "$re" && [ ! -e ./- ] &&
		pass "$n: exit 2, one line" || fail "$n" "exit $rc: $(head -c 300 e)"
}
refused "replay --csv - --json -" '^feecscope replay: --json -: standard output is already --csv.s' \
	"$FEECSCOPE" replay in.fsr --csv - --json -
refused "replay --perfetto - --summary /dev/stdout" '^feecscope replay: --perfetto -: standard output is already --summary.s' \
	"$FEECSCOPE" replay in.fsr --perfetto - --summary /dev/stdout
refused "replay --convert-csv - --json -" 'standard output is already' \
	"$FEECSCOPE" replay in.fsr --convert-csv - --json -
refused "report --json - --csv -" '^feecscope report: --csv -: standard output is already --json.s' \
	"$FEECSCOPE" report in.fsr --json - --csv -
refused "live --record - --json - (before any BPF work)" '^feecscope live: --json -: standard output is already --record.s' \
	"$FEECSCOPE" live -d 1 --record - --json -
finish
