#!/usr/bin/env bash
# Every output's bytes are pinned: both decision CSV layouts, the CSV.gz's text and the Perfetto
# trace (plain and the .gz's content) of every fixture recording, with two, three and four
# policies and a filter, hash to tests/fixtures/outputs/sha256sums. Speed work on the writers
# (docs/perfetto.md, Cost) must not change a byte; a deliberate change of an output regenerates
# the sums with `OUTPUT_BYTES_WRITE=1 bash tests/cli/output_bytes.sh` and says why in its commit.
# gzip's compressed bytes are not pinned (igzip and libdeflate differ), only what they hold.
. "$(dirname "$0")/../lib.sh"
F=$FS_FIXTURES
SUMS=$F/outputs/sha256sums
mkdir -p "$TMP/o"

# outputs NAME ARGS...: one replay per layout, every output into $TMP/o/NAME.*
outputs() {
	local n=$1; shift
	"$FEECSCOPE" replay "$@" --csv "$TMP/o/$n.long.csv" --perfetto "$TMP/o/$n.pftrace" >/dev/null 2>&1 ||
		fail "$n: replay with --csv and --perfetto exits 0"
	"$FEECSCOPE" replay "$@" --csv-layout wide --csv "$TMP/o/$n.wide.csv" >/dev/null 2>&1 ||
		fail "$n: replay with --csv-layout wide exits 0"
	"$FEECSCOPE" replay "$@" --csv "$TMP/gz.csv.gz" --perfetto "$TMP/gz.pftrace.gz" >/dev/null 2>&1 ||
		fail "$n: replay with the .gz outputs exits 0"
	gzip -dc "$TMP/gz.csv.gz" >"$TMP/o/$n.long.csv.gz.txt" || fail "$n: the CSV.gz decompresses"
	gzip -dc "$TMP/gz.pftrace.gz" >"$TMP/o/$n.pftrace.gz.bin" || fail "$n: the trace's .gz decompresses"
}

outputs pixel4 "$F/replay/pixel4.csv" --em pixel4
outputs pixel4-four "$F/replay/pixel4.csv" --em pixel4 --policies v6.12,v6.12+margin,v5.4,v5.4-nomargin
outputs pixel4-v1 "$F/replay/pixel4.v1.fsr"
outputs hikey960 "$F/replay/hikey960.csv" --em hikey960
outputs hikey960-three "$F/replay/hikey960.csv" --em hikey960 --policies v6.0,v5.4,v5.0
outputs handworked "$F/replay/handworked.csv" --policies v5.4,v5.4-nomargin
outputs lab "$F/view/live.fsr"
outputs lab-four "$F/view/live.fsr" --policies v6.12.97,v6.12.97+margin,v5.4,v5.4-nomargin
outputs lab-one "$F/view/live.fsr" --policies v5.4
outputs lab-comm "$F/view/live.fsr" --comm small,medium

(cd "$TMP/o" && sha256sum -- *) >"$TMP/sums"
if [ "${OUTPUT_BYTES_WRITE:-}" = 1 ]; then
	mkdir -p "$(dirname "$SUMS")" && cp "$TMP/sums" "$SUMS"
	echo "wrote $SUMS ($(wc -l <"$SUMS") outputs)"
fi
# The suite must be able to fail: a changed byte in any output is a different sum.
check "every fixture's outputs were written ($(wc -l <"$TMP/sums") files)" \
	test "$(wc -l <"$TMP/sums")" -eq "$(wc -l <"$SUMS")"
for f in "$TMP"/o/*; do
	n=$(basename "$f")
	want=$(awk -v n="$n" '$2 == n { print $1 }' "$SUMS")
	got=$(awk -v n="$n" '$2 == n { print $1 }' "$TMP/sums")
	if [ -z "$want" ]; then
		fail "$n: pinned in $SUMS"
	elif [ "$want" != "$got" ]; then
		fail "$n: the same bytes as before" "sha256 $got, pinned $want"
	else
		pass "$n: the same bytes as before"
	fi
done
# the CSV.gz holds the CSV, the trace's .gz the trace
for f in "$TMP"/o/*.long.csv; do
	cmp -s "$f" "$f.gz.txt" || fail "$(basename "$f").gz: holds the same CSV"
done
for f in "$TMP"/o/*.pftrace; do
	cmp -s "$f" "$f.gz.bin" || fail "$(basename "$f").gz: holds the same trace"
done
finish
