#!/usr/bin/env bash
# A device's Perfetto trace merged with ours (docs/perfetto.md, Merged with a device trace): no
# trace processor is installed here, so the merged file is decoded twice by protoc (the device's
# packets with tests/perfetto/ftrace_input.proto, ours with perfetto_trace.proto) and
# tests/perfetto/merge_check.py checks that our thread and process tracks name the pid/tid the
# device trace has for those threads, on a packet sequence of their own, and that each decision
# sits before the device's sched slice of its thread. The device trace is made from the same
# recording's decision CSV (merge_check.py device): traced_probes' process tree and sched events.
# Our own Perfetto reader must read the merged file as the device trace alone.
. "$(dirname "$0")/../lib.sh"
P=$(cd "$(dirname "$0")/../perfetto" && pwd)
FX=$FS_FIXTURES
if ! command -v protoc >/dev/null; then
	fail "protoc is installed (Debian protobuf-compiler, scripts/install-deps.sh)"
	finish
	exit
fi
# the apps fixture (a thread 202 of process 101) and the lab recording (real pids, 100 decisions)
"$FEECSCOPE" replay "$FX/apps/apps.csv" --em pixel4 --convert-record "$TMP/apps.fsr" >/dev/null 2>&1
for rec in "$TMP/apps.fsr" "$FX/view/live.fsr"; do
	n=$(basename "$rec" .fsr)
	"$FEECSCOPE" replay "$rec" --csv "$TMP/$n.csv" --perfetto "$TMP/$n.pftrace" >/dev/null 2>&1
	python3 "$P/merge_check.py" device "$TMP/$n.csv" "$TMP/$n-dev.pftrace"
	cat "$TMP/$n-dev.pftrace" "$TMP/$n.pftrace" >"$TMP/$n-merged.pftrace"
	protoc --proto_path="$P" --decode=feecscope.ftrace_input.Trace "$P/ftrace_input.proto" \
		<"$TMP/$n-merged.pftrace" >"$TMP/$n-dev.txt" 2>"$TMP/$n.err" &&
		protoc --proto_path="$P" --decode=perfetto.protos.Trace "$P/perfetto_trace.proto" \
			<"$TMP/$n-merged.pftrace" >"$TMP/$n-ours.txt" 2>>"$TMP/$n.err"
	check "$n: protoc decodes the merged trace with both schemas" test ! -s "$TMP/$n.err"
	check "$n: our tracks bind to the device's pid/tid, each decision before its thread's slice" \
		python3 "$P/merge_check.py" check "$TMP/$n-dev.txt" "$TMP/$n-ours.txt"
	sed 's/^/    /' "$TMP/out"
	"$FEECSCOPE" replay "$TMP/$n-dev.pftrace" --em pixel4 >"$TMP/$n-dev.sum" 2>&1
	"$FEECSCOPE" replay "$TMP/$n-merged.pftrace" --em pixel4 >"$TMP/$n-merged.sum" 2>&1
	check "$n: our Perfetto reader reads the device trace (its sched events)" \
		grep -q '^trace: Perfetto trace, [1-9][0-9]* events' "$TMP/$n-dev.sum"
	expect_same "$n: ... and the merged trace as the device trace alone" "$TMP/$n-dev.sum" "$TMP/$n-merged.sum"
done
# the check fails where a track names the wrong thread: tid 202's track said as pid 202 (its tgid is 101)
python3 - "$TMP/apps-ours.txt" "$TMP/wrong.txt" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
t = re.sub(r'(thread \{\s*pid: )101(\s*tid: 202)', r'\g<1>202\2', t)
open(sys.argv[2], 'w').write(t)
PY
if python3 "$P/merge_check.py" check "$TMP/apps-dev.txt" "$TMP/wrong.txt" >"$TMP/wrong.out" 2>&1; then
	fail "a thread track with the wrong pid is caught" "merge_check.py passed it"
else
	pass "a thread track with the wrong pid is caught: $(head -1 "$TMP/wrong.out" | cut -c1-60)"
fi
finish
