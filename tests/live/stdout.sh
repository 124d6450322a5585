#!/usr/bin/env bash
# live with an output on stdout ('-', issue 32), as root: stdout holds that
# output alone, parsed by python's json (and jq if installed) or replayed as
# a recording; the header and the interval lines go to stderr.
. "$(dirname "$0")/../lib.sh"
cd "$TMP" || exit 1

"$FEECSCOPE" live -d 2 -i 0.5 --json - >live.json 2>live.err
rc=$?
[ $rc -eq 0 ] && python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["verdicts"]' live.json &&
	pass "live -d 2 --json -: stdout parses as JSON" || fail "live --json -" "exit $rc: $(head -c 300 live.err)"
if command -v jq >/dev/null; then
	jq -e .verdicts live.json >/dev/null && pass "  ... and jq .verdicts reads it" || fail "jq .verdicts" "$(head -c 200 live.json)"
fi
grep -q '^feecscope live: kernel ' live.err && grep -q '^t=.*wakeups=' live.err &&
	pass "  ... the header and the interval lines went to stderr" || fail "live header on stderr" "$(head -c 300 live.err)"
"$FEECSCOPE" live -d 2 -i 0.5 --record - 2>rec.err | "$FEECSCOPE" replay - >rec.sum 2>rec.replay.err
rc=${PIPESTATUS[0]}
[ $rc -eq 0 ] && grep -q '^records [0-9]*; wake-ups' rec.sum &&
	pass "live --record - piped into replay -: a complete recording" ||
	fail "live --record -" "exit $rc: $(head -c 300 rec.err) $(head -c 300 rec.replay.err)"
finish
