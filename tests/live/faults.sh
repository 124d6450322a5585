#!/usr/bin/env bash
# Live under faults (root; issue 14): killed with SIGKILL, a full disk, its
# output directory removed, two sessions at once, and SIGINT/SIGTERM/SIGHUP
# at random moments. Whatever happens, a file under its final name is
# complete (the recording: up to its last chunk), errors name the file and
# the exit code is documented.
. "$(dirname "$0")/../lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$TMP" || exit 1

rt-app "$HERE/rtapp_duty.json" >rtapp.log 2>&1 &
RT=$!
cleanup() {
	kill $RT 2>/dev/null
	mountpoint -q full && umount full
	[ -n "${FS_KEEP_TMP:-}" ] && echo "kept $TMP" || rm -rf "$TMP"
}
trap cleanup EXIT

# started NAME: wait (up to 15 s on a loaded machine) for live's banner on NAME.out.
started() {
	for _ in $(seq 150); do grep -q "^feecscope live: kernel" "$1.out" 2>/dev/null && return 0; sleep 0.1; done
	return 1
}
# wakeups FILE: the wake-up count of a replay summary ("records N; wake-ups N ...").
wakeups() { sed -n "s/^records [0-9]*; wake-ups \([0-9]*\).*/\1/p" "$1" | head -n 1; }
no_tmp() { [ -z "$(find "${1:-.}" -name '.*.tmp' 2>/dev/null)" ]; }

# --- SIGKILL: the recording replays up to its last chunk ------------------------
"$FEECSCOPE" live -i 0.3 --record k.fsr --csv k.csv --summary k.sum >k.out 2>k.err &
pid=$!
if started k; then
	sleep 2
	kill -KILL $pid; wait $pid 2>/dev/null
	seen=$(sed -n 's/^t=.* wakeups=\([0-9]*\) .*/\1/p' k.out | tail -n 1)
	"$FEECSCOPE" replay k.fsr >k.replay 2>k.replay.err
	rc=$?
	[ $rc -eq 1 ] && grep -q 'k.fsr: chunk [0-9]* at byte [0-9]*: file ends without the end marker' k.replay.err &&
		pass "SIGKILL: the recording replays and says where it was cut (exit 1)" ||
		fail "SIGKILL: replay" "exit $rc: $(head -c 300 k.replay.err)"
	got=$(wakeups k.replay)
	[ -n "$seen" ] && [ "${got:-0}" -ge "$seen" ] && [ "$seen" -gt 0 ] &&
		pass "SIGKILL: replay has every wake-up live reported at its last flush ($got >= $seen)" ||
		fail "SIGKILL: replayed wake-ups" "replay ${got:-none}, live's last line ${seen:-none}"
	[ ! -e k.csv ] && [ ! -e k.sum ] && pass "SIGKILL: no partial CSV or summary under its name" ||
		fail "SIGKILL: partial files" "$(ls)"
else
	fail "SIGKILL run started" "$(head -c 300 k.err)"; kill -KILL $pid 2>/dev/null
fi
rm -f .k.*.tmp

# --- a full disk (a 256 KiB tmpfs) ---------------------------------------------
mkdir full && mount -t tmpfs -o size=256k tmpfs full
"$FEECSCOPE" live -d 60 -i 0.3 --record full/r.fsr --csv full/c.csv >f.out 2>f.err
rc=$?
[ $rc -eq 1 ] && grep -Eq '^feecscope live: full/(r.fsr|c.csv): .*No space left on device$' f.err &&
	pass "full disk: live stops with exit 1 naming the file" || fail "full disk: exit" "exit $rc: $(tail -c 300 f.err)"
"$FEECSCOPE" replay full/r.fsr >f.replay 2>f.replay.err
rc=$?
n=$(wakeups f.replay)
[ $rc -le 1 ] && [ "${n:-0}" -gt 0 ] && ! grep -q 'CRC mismatch' f.replay.err &&
	pass "full disk: the recording replays its complete chunks ($n wake-ups)" ||
	fail "full disk: replay" "exit $rc, ${n:-no} wake-ups: $(head -c 300 f.replay.err)"
[ ! -e full/c.csv ] && no_tmp full && pass "full disk: no partial CSV, no temporary file" ||
	fail "full disk: leftovers" "$(ls -A full)"
umount full

# --- the output directory removed during a run ----------------------------------
mkdir gone
"$FEECSCOPE" live -d 3 -i 0.3 --record gone/r.fsr --csv gone/c.csv --summary gone/s.txt >g.out 2>g.err &
pid=$!
started g && sleep 1 && rm -rf gone
wait $pid
rc=$?
[ $rc -eq 1 ] && grep -Eq '^feecscope live: gone/(c.csv|s.txt): write failed: No such file or directory$' g.err &&
	pass "directory removed: exit 1 naming the file" || fail "directory removed" "exit $rc: $(tail -c 300 g.err)"

# --- two sessions at once ---------------------------------------------------------
"$FEECSCOPE" live -d 3 -i 0.5 --record a.fsr --summary a.sum >a.out 2>a.err &
pa=$!
"$FEECSCOPE" live -d 3 -i 0.5 --record b.fsr --summary b.sum >b.out 2>b.err &
pb=$!
wait $pa; ra=$?
wait $pb; rb=$?
[ $ra -eq 0 ] && [ $rb -eq 0 ] && pass "two sessions at once: both exit 0" ||
	fail "two sessions" "exit $ra and $rb: $(tail -c 200 a.err) | $(tail -c 200 b.err)"
for s in a b; do
	"$FEECSCOPE" replay $s.fsr >$s.replay 2>/dev/null
	expect_same "two sessions: session $s replays to its own summary" $s.sum $s.replay
	"$FEECSCOPE" replay $s.fsr --convert-csv $s.records.csv 2>/dev/null
done
# The checker first, on made-up sessions: it must pass lone misses and fail runs or too many.
mkdir synth && python3 "$HERE/same_wakeups_synth.py" synth
for c in same:0 scattered:0 too_many:1 run:1; do
	python3 "$HERE/same_wakeups.py" synth/${c%:*}.a.csv synth/${c%:*}.b.csv 1 >synth/out 2>&1
	rc=$?
	[ $rc -eq ${c#*:} ] && pass "same_wakeups.py on made-up sessions, ${c%:*}: exit $rc" ||
		fail "same_wakeups.py on made-up sessions, ${c%:*}" "exit $rc, not ${c#*:}: $(head -c 300 synth/out)"
done
# Each session leaves out its own threads (both processes' are left out of both).
if python3 "$HERE/same_wakeups.py" a.records.csv b.records.csv $pa $pb >same.out 2>&1; then
	pass "two sessions: the same wake-ups in both ($(head -n 1 same.out))"
else
	fail "two sessions: the same wake-ups" "$(head -c 400 same.out)"
fi

# --- SIGINT, SIGTERM, SIGHUP at random moments ----------------------------------
sigs=(INT TERM HUP)
for i in $(seq 1 ${FS_FAULT_RUNS:-9}); do
	sig=${sigs[$((RANDOM % 3))]}
	delay=$(awk -v r=$RANDOM 'BEGIN { printf "%.2f", 0.05 + 2.5 * r / 32768 }')
	"$FEECSCOPE" live -i 0.2 --record s$i.fsr --csv s$i.csv --summary s$i.sum >s$i.out 2>s$i.err &
	pid=$!
	# from the moment the outputs may exist: the banner follows them within milliseconds
	started s$i || { fail "run $i started" "$(head -c 200 s$i.err)"; kill -KILL $pid; continue; }
	sleep "$delay"
	kill -"$sig" $pid
	wait $pid
	rc=$?
	what="run $i: SIG$sig after ${delay}s"
	if [ $rc -ne 0 ]; then fail "$what: exit" "$rc: $(tail -c 200 s$i.err)"; continue; fi
	"$FEECSCOPE" replay s$i.fsr --csv s$i.replay.csv >s$i.replay 2>s$i.replay.err
	rc=$?
	if [ $rc -eq 0 ] && cmp -s s$i.sum s$i.replay && cmp -s s$i.csv s$i.replay.csv && no_tmp; then
		pass "$what: exit 0, every file complete (replay = live, $(($(wc -l <s$i.csv) - 1)) decisions)"
	else
		fail "$what: files" "replay exit $rc; summary $(cmp -s s$i.sum s$i.replay && echo same || echo differs), CSV $(cmp -s s$i.csv s$i.replay.csv && echo same || echo differs); $(head -c 200 s$i.replay.err)"
	fi
done
finish
