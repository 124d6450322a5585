#!/usr/bin/env bash
# The Perfetto trace fixtures (tests/fixtures/perfetto/, read by
# tests/unit/test_perfetto_trace.c): the committed generator writes them
# again byte for byte, and protoc decodes them with the committed schema
# subset (tests/perfetto/ftrace_input.proto), finding in them the events
# their .expected files list and no field the subset lacks but the one
# unknown field the generator puts in every event to be skipped.
. "$(dirname "$0")/../lib.sh"
cd "$(dirname "$0")/../.."
FX=tests/fixtures/perfetto
PROTO=tests/perfetto/ftrace_input.proto

check "generator runs" python3 tests/perfetto/gen_ftrace_traces.py "$TMP/gen"
for f in "$FX"/*.pftrace "$FX"/*.expected; do
	n=$(basename "$f")
	case $n in compressed.pftrace) continue ;; esac # zlib's bytes are its version's: decoded below
	expect_same "regenerated $n" "$f" "$TMP/gen/$n"
done

if ! command -v protoc >/dev/null; then
	fail "protoc" "not installed (make deps: protobuf-compiler)"
	finish
	exit
fi
decode() { protoc --proto_path=tests/perfetto --decode=feecscope.ftrace_input.Trace "$PROTO" <"$1"; }
for t in ftrace compact clocks clocks-mono generic rails rails-mono; do
	check "protoc decodes $t.pftrace" decode "$FX/$t.pftrace"
	decode "$FX/$t.pftrace" >"$TMP/$t.txt" 2>&1
	# unknown fields show as numbers: only the generator's field 1999
	if grep -Ev '^ *1999: 7$' "$TMP/$t.txt" | grep -Eq '^ *[0-9]+:'; then
		fail "$t: only known fields" "$(grep -E '^ *[0-9]+:' "$TMP/$t.txt" | grep -v 1999 | head -n 3)"
	else
		pass "$t: only known fields"
	fi
done
# every event the reader must hand out is in the trace, as an event or a compact array entry
for t in ftrace clocks clocks-mono; do
	bad=
	for e in sched_switch sched_waking sched_wakeup sched_wakeup_new sched_migrate_task sched_process_fork \
		sched_process_exit sched_process_free task_newtask task_rename cpu_frequency cpu_idle; do
		want=$(awk -F'\t' -v e=$e '$3 == e' "$FX/$t.expected" | wc -l)
		got=$(grep -c "^ *$e {" "$TMP/$t.txt")
		[ "$want" = "$got" ] || bad="$bad $e: protoc finds $got, the reader is to give $want;"
	done
	[ -z "$bad" ] && pass "$t: every event type, as many as expected" || fail "$t: events" "$bad"
done
# the power rails: every descriptor and sample the reader is to give is in the trace
for t in rails rails-mono; do
	want="$(awk -F'\t' '$1 == "rail"' "$FX/$t.expected" | wc -l) $(awk -F'\t' '$1 == "sample"' "$FX/$t.expected" | wc -l)"
	got="$(grep -c '^ *rail_descriptor {' "$TMP/$t.txt") $(grep -c '^ *energy_data {' "$TMP/$t.txt")"
	[ "$want" = "$got" ] && pass "$t: rails and samples, as many as expected ($got)" ||
		fail "$t: rails" "protoc finds $got (descriptors, samples), the reader is to give $want"
done
# LISA's events as generic ones: each the reader gives is a generic event of that name (or lisa__ that name)
want=$(awk -F'\t' '$3 ~ /^sched_(pelt|util_est)_/' "$FX/generic.expected" | wc -l)
got=$(grep -Ec '^ *event_name: "(lisa__)?sched_(pelt|util_est)_(se|cfs)"' "$TMP/generic.txt")
all=$(grep -c '^ *generic {' "$TMP/generic.txt")
[ "$want" = "$got" ] && [ "$all" = $((got + 1)) ] && pass "generic: $got of LISA's events, one other" ||
	fail "generic events" "protoc finds $got of LISA's ($all generic), the reader is to give $want"
sw=$(awk -F'\t' '$3 == "sched_switch"' "$FX/compact.expected" | wc -l)
wk=$(awk -F'\t' '$3 == "sched_waking"' "$FX/compact.expected" | wc -l)
got_sw=$(grep -c '^ *switch_timestamp:' "$TMP/compact.txt")
got_wk=$(grep -c '^ *waking_timestamp:' "$TMP/compact.txt")
if [ "$sw $wk" = "$got_sw $got_wk" ] && [ "$sw" -gt 0 ]; then
	pass "compact: $sw switches, $wk wakings in the arrays"
else
	fail "compact arrays" "protoc finds $got_sw switches, $got_wk wakings; expected $sw, $wk"
fi
check "protoc decodes compressed_packets" decode "$FX/compressed.pftrace"
n=0
while read -r hex; do
	printf '%b' "$hex" | python3 -c 'import sys, zlib; sys.stdout.buffer.write(zlib.decompress(sys.stdin.buffer.read()))' \
		>"$TMP/block" && decode "$TMP/block" >>"$TMP/blocks.txt" && n=$((n + 1))
done < <(python3 - "$FX/compressed.pftrace" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
def varint(b, i):
    v = s = 0
    while True:
        v |= (b[i] & 0x7f) << s; s += 7; i += 1
        if b[i - 1] < 0x80: return v, i
i = 0
while i < len(data):
    _, i = varint(data, i); n, i = varint(data, i); pkt = data[i:i + n]; i += n
    _, j = varint(pkt, 0); m, j = varint(pkt, j)
    print("".join("\\x%02x" % c for c in pkt[j:j + m]))
PY
)
want=$(awk -F'\t' '$3 == "sched_switch"' "$FX/ftrace.expected" | wc -l)
got=$(grep -c '^ *sched_switch {' "$TMP/blocks.txt")
[ "$n" -ge 2 ] && [ "$want" = "$got" ] && pass "compressed: $n blocks, $got switches" ||
	fail "compressed blocks" "$n blocks, $got switches of $want"

# replay finds a Perfetto trace by its content, gzip'd or not, whatever its name
nev=$(grep -vc '^task' "$FX/compact.expected")
cp "$FX/compact.pftrace.gz" "$TMP/run.fsr"
check "replay a gzip'd Perfetto trace called run.fsr" "$FEECSCOPE" replay "$TMP/run.fsr" --em hikey960
"$FEECSCOPE" replay "$TMP/run.fsr" --em hikey960 >"$TMP/sum.txt" 2>&1
unwrap "$TMP/sum.txt" | grep -q "trace: Perfetto trace, $nev events" && pass "summary: Perfetto trace, $nev events" ||
	fail "summary" "no 'trace: Perfetto trace, $nev events' line"
expect_fail "replay: wrong wire type" \
	"bad-wire.pftrace: packet 1 \(offset 11\): ftrace_events.event.sched_switch: next_pid \(field 6\)" \
	"$FEECSCOPE" replay "$FX/bad-wire.pftrace" --em hikey960
expect_fail "replay: no sched events" "nosched.pftrace: no sched events" \
	"$FEECSCOPE" replay "$FX/nosched.pftrace" --em hikey960
expect_fail "replay: a generic event's field of the wrong kind" \
	"bad-generic.pftrace: packet 2 \(offset [0-9]+\): ftrace_events.event.generic.sched_pelt_cfs: util: a string" \
	"$FEECSCOPE" replay "$FX/bad-generic.pftrace" --em hikey960
"$FEECSCOPE" replay "$FX/generic.pftrace" --em tests/fixtures/trace/one-cpu.em --json "$TMP/gen.json" \
	>"$TMP/gen.sum" 2>"$TMP/gen.err"
check "replay: LISA's generic events start the rq's PELT, the other is skipped by name" python3 -c "
t = __import__('json').load(open('$TMP/gen.json'))['simulation']['trace']
assert t['rq_pelt'] == 'traced' and t['cfs_events'] == 2 and t['pelt_events'] == 2, t
assert t['unknown_events'] == 1, t
s = ' '.join(open('$TMP/gen.sum').read().split())
assert 'traced: rq PELT: CPU 0 starts from its first sched_pelt_cfs' in s, s
assert '1 of other kinds skipped (first sched_overutilized)' in s, s"
finish
