#!/usr/bin/env bash
# --perfetto: every trace written is decoded with protoc against the subset of
# Perfetto's schema in tests/perfetto/perfetto_trace.proto, and its tracks,
# instants, counters and verdicts are re-derived from the same replay's
# decision CSV and JSON (tests/perfetto/check_trace.py). Also: .gz is the same
# trace gzip-compressed, traces are deterministic, write errors name the file.
. "$(dirname "$0")/../lib.sh"
F=$FS_FIXTURES/replay
P=$(cd "$(dirname "$0")/../perfetto" && pwd)

if ! command -v protoc >/dev/null; then
	fail "protoc is installed (Debian protobuf-compiler, scripts/install-deps.sh)"
	finish; exit
fi

# trace NAME ARGS...: replay with every output, decode the trace, check it against the CSV and JSON.
trace() {
	local n=$1; shift
	"$FEECSCOPE" replay "$@" --perfetto "$TMP/$n.pftrace" --csv-layout wide --csv "$TMP/$n.csv" --json "$TMP/$n.json" \
		--summary "$TMP/$n.sum" >/dev/null 2>"$TMP/$n.err"
	check "$n: replay with --perfetto exits 0" test -s "$TMP/$n.pftrace" -a ! -s "$TMP/$n.err"
	if protoc --decode=perfetto.protos.Trace -I "$P" "$P/perfetto_trace.proto" <"$TMP/$n.pftrace" \
		>"$TMP/$n.txt" 2>"$TMP/$n.perr"; then
		pass "$n: protoc decodes the trace as perfetto.protos.Trace"
	else
		fail "$n: protoc --decode" "$(head -3 "$TMP/$n.perr")"
	fi
	check "$n: tracks, instants, counters and verdicts match the CSV and JSON" \
		python3 "$P/check_trace.py" "$TMP/$n.txt" "$TMP/$n.csv" "$TMP/$n.json" "$TMP/$n.sum"
	sed 's/^/    /' "$TMP/out"
	# the same replay into FILE.gz: the same bytes, gzip-compressed
	"$FEECSCOPE" replay "$@" --perfetto "$TMP/$n.pftrace.gz" >/dev/null 2>&1
	if [ "$(head -c 2 "$TMP/$n.pftrace.gz" | od -An -tx1 | tr -d ' ')" = 1f8b ] &&
		gzip -dc "$TMP/$n.pftrace.gz" | cmp -s - "$TMP/$n.pftrace"; then
		pass "$n: FILE.gz is the trace gzip-compressed"
	else
		fail "$n: FILE.gz" "not gzip, or not the same trace"
	fi
	"$FEECSCOPE" replay "$@" --perfetto "$TMP/$n.again.pftrace" >/dev/null 2>&1
	expect_same "$n: a second replay writes the same trace" "$TMP/$n.pftrace" "$TMP/$n.again.pftrace"
}

trace pixel4 "$F/pixel4.csv" --em pixel4
trace hikey960 "$F/hikey960.csv" --em hikey960
trace lab "$FS_FIXTURES/view/live.fsr"
trace handworked "$F/handworked.csv" --policies v5.4,v5.4-nomargin
# no verdict (no margin/no-margin pair), three policies
trace three "$F/pixel4.csv" --em pixel4 --policies v6.0,v5.4,v5.0
# two verdicts
trace two-verdicts "$F/hikey960.csv" --em hikey960 --policies v6.12,v6.12+margin,v5.4,v5.4-nomargin
# a leader whose comm goes back to one it had (a shim exec()ing its way back to
# its name, as pyenv's do): the process track follows it back, named by the last
awk -F, -v OFS=, 'BEGIN { n = 0 }
	/^#/ || NR == 1 || $1 != "wakeup" || $3 != 101 { print; next }
	{ $4 = (++n == 2) ? "pyenv-exec" : "python3"; print }' "$F/pixel4.csv" >"$TMP/reexec-in.csv"
check "the re-exec fixture has the comms python3, pyenv-exec, python3" \
	test "$(awk -F, '$1 == "wakeup" && $3 == 101 { print $4 }' "$TMP/reexec-in.csv" | uniq | tr '\n' ' ')" = \
	"python3 pyenv-exec python3 "
trace reexec "$TMP/reexec-in.csv" --em pixel4
# the recording of a fixture converts like the CSV it came from
"$FEECSCOPE" replay "$F/pixel4.csv" --em pixel4 --convert-record "$TMP/p4.fsr" >/dev/null 2>&1
"$FEECSCOPE" replay "$TMP/p4.fsr" --perfetto "$TMP/p4rec.pftrace" >/dev/null 2>&1
expect_same "a recording converts to the trace its CSV gives" "$TMP/pixel4.pftrace" "$TMP/p4rec.pftrace"

# the trace is bounded per wake-up: the bytes the fixtures take per wake-up (docs/perfetto.md)
for n in pixel4 hikey960 three two-verdicts; do
	w=$(python3 -c "import json; print(json.load(open('$TMP/$n.json'))['counts']['wakeups'])")
	echo "     $n: $(stat -c %s "$TMP/$n.pftrace") bytes, $w wake-ups"
done

expect_fail "an unwritable trace path names the file" "nodir/t.pftrace: cannot create" \
	"$FEECSCOPE" replay "$F/pixel4.csv" --em pixel4 --perfetto "$TMP/nodir/t.pftrace"
expect_fail "--perfetto without a file is a usage error" "needs a value \\(FILE\\)" \
	"$FEECSCOPE" replay "$F/pixel4.csv" --em pixel4 --perfetto
finish
