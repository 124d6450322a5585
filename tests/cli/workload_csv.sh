#!/usr/bin/env bash
# --workload-csv (docs/csv.md, "Workload CSV"): a row per task of the workload the
# closed loop simulated, from a recording and from a trace; its tasks and
# activations are the summary's; its refusals.
cd "$(dirname "$0")/../.."
. tests/lib.sh
F=$FS_FIXTURES
REC=$F/view/live.fsr
TR=$F/trace/tracefs-tgid.txt
EM=$F/trace/hikey960-2cpu.em
HEADER=pid,tgid,comm,activations,forks,work,cpu_ns,first_wake_ns,last_wake_ns,exit_ns,open

# rows, activations, forks of a workload CSV against "the workload (N tasks, M activations)"
# of the summary; every row well formed
same_as_summary() { # NAME CSV SUMMARY
	local want got
	want=$(unwrap "$3" | sed -nE 's/.*the workload \(([0-9]+) tasks, ([0-9]+) activations\).*/\1 \2/p')
	got=$(awk -F, -v h="$HEADER" 'NR == 1 { if ($0 != h) { print "header: " $0; exit } next }
		NF != 11 || $1 !~ /^[0-9]+$/ || $4 !~ /^[0-9]+$/ || $6 !~ /^[0-9]+$/ || $8 > $9 { print "line " NR ": " $0; exit }
		{ n++; a += $4 } END { print n + 0, a + 0 }' "$2")
	if [ -n "$want" ] && [ "$got" = "$want" ]; then pass "$1: $got tasks and activations, as the summary says"
	else fail "$1: tasks and activations as the summary's" "csv '$got', summary '$want'"; fi
}

"$FEECSCOPE" replay "$REC" --workload-csv "$TMP/rec.csv" >"$TMP/rec.sum" 2>"$TMP/rec.err" ||
	fail "replay a recording with --workload-csv" "$(cat "$TMP/rec.err")"
same_as_summary "recording" "$TMP/rec.csv" "$TMP/rec.sum"
"$FEECSCOPE" replay "$REC" >"$TMP/plain.sum" 2>/dev/null
expect_same "recording: the summary is the same with --workload-csv" "$TMP/plain.sum" "$TMP/rec.sum"
"$FEECSCOPE" replay "$TR" --em "$EM" --workload-csv "$TMP/tr.csv" >"$TMP/tr.sum" 2>"$TMP/tr.err" ||
	fail "replay a trace with --workload-csv" "$(cat "$TMP/tr.err")"
same_as_summary "trace" "$TMP/tr.csv" "$TMP/tr.sum"

# lab physics: work is the CPU time itself (sim.h); device physics scales it
if "$FEECSCOPE" replay "$TR" --em "$EM" --sim-physics lab --workload-csv "$TMP/lab.csv" >/dev/null 2>&1 &&
	awk -F, 'NR > 1 && $6 != $7 { bad = 1 } END { exit bad }' "$TMP/lab.csv" &&
	awk -F, 'NR > 1 && $6 != $7 { d = 1 } END { exit !d }' "$TMP/tr.csv"; then
	pass "work is the CPU time under lab physics, not under device physics"
else
	fail "work is the CPU time under lab physics, not under device physics" "$(head -n 3 "$TMP/lab.csv" "$TMP/tr.csv")"
fi

# '-': the CSV on stdout, the summary kept off it; .gz written compressed
"$FEECSCOPE" replay "$REC" --workload-csv - >"$TMP/stdout.csv" 2>/dev/null
expect_same "--workload-csv -: the CSV alone on stdout" "$TMP/rec.csv" "$TMP/stdout.csv"
"$FEECSCOPE" replay "$REC" --workload-csv "$TMP/rec.csv.gz" >/dev/null 2>&1 && gzip -dc "$TMP/rec.csv.gz" >"$TMP/gz.csv"
expect_same "--workload-csv FILE.gz: gzip'd" "$TMP/rec.csv" "$TMP/gz.csv"

expect_fail "--workload-csv with --no-sim: a usage error" 'workload-csv.*no-sim' \
	"$FEECSCOPE" replay "$REC" --no-sim --workload-csv "$TMP/x.csv"
"$FEECSCOPE" replay "$REC" --no-sim --workload-csv "$TMP/x.csv" >/dev/null 2>&1
[ $? = 2 ] && [ ! -e "$TMP/x.csv" ] && pass "--no-sim --workload-csv: exit 2, nothing written" ||
	fail "--no-sim --workload-csv: exit 2, nothing written"
cp "$REC" "$TMP/in.fsr"
expect_fail "--workload-csv FILE: the input is not overwritten" 'not overwritten' \
	"$FEECSCOPE" replay "$TMP/in.fsr" --workload-csv "$TMP/in.fsr"
cmp -s "$REC" "$TMP/in.fsr" && pass "the input is intact" || fail "the input is intact"
finish
