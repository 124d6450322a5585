#!/usr/bin/env bash
# Ring-buffer overflow is counted and reported, never hidden: with the smallest
# rings and a wake-up storm the collector must drop records, and the same count
# must appear in the collector line, the live summary and the recording's
# replay, and the interval lines must show it growing.
. "$(dirname "$0")/../lib.sh"
cd "$TMP" || exit 1

"$FEECSCOPE" live -d 5 -i 1 -v --ringbuf-size 32K --record drops.rec >live.out 2>live.err &
FS=$!
for _ in $(seq 100); do grep -q "^feecscope live: kernel" live.out 2>/dev/null && break; sleep 0.1; done
grep -q "^feecscope live: kernel" live.out || { fail "live starts" "$(head -c 400 live.err)"; kill $FS; finish; exit; }
# ~16k wake-ups/s against 16 KiB rings (~50 snapshots each) drained every 50 ms
perf bench sched messaging -g 2 -l 3000 >/dev/null 2>&1
wait $FS
rc=$?
[ $rc -eq 0 ] && pass "live exits 0 after --duration" || fail "live exit status" "$rc"

bpf=$(grep '^collector:' live.err | tail -1 | sed -nE 's/.*ring-buffer drops ([0-9]+), nested misses ([0-9]+).*/\1 \2/p')
read -r drops nested <<<"$bpf"
[ "${drops:-0}" -gt 0 ] && pass "the collector dropped records and counted them: $drops" ||
	fail "drops counted" "no drops with 16 KiB rings under messaging: $(grep '^collector:' live.err | tail -1)"
lost=$((${drops:-0} + ${nested:-0}))
grep -q "^LOST: $lost records dropped" live.out && pass "the live summary reports all $lost lost records" ||
	fail "live summary reports the loss" "want LOST: $lost; got: $(grep -i '^LOST' live.out || echo none)"
"$FEECSCOPE" replay drops.rec >replay.out 2>replay.err
grep -q "^LOST: $lost records dropped" replay.out && pass "the recording replays with the same $lost lost records" ||
	fail "replay reports the loss" "want LOST: $lost; got: $(grep -i '^LOST' replay.out || echo none) $(head -c 200 replay.err)"
# without a terminal (adb shell runs a command so) every line fits 80 columns
wide=$(cat live.out live.err | awk 'length > 80' | head -n 3)
[ -z "$wide" ] && pass "every line of live -v without a terminal fits 80 columns (stdout and stderr)" ||
	fail "80 columns without a terminal" "$wide"
# interval lines count as they go: up to the last one, the summary adds the rest
last=$(grep -o 'lost=[0-9]*' live.out | tail -1)
last=${last#lost=}
[ "${last:-0}" -gt 0 ] && [ "$last" -le "$lost" ] && pass "the interval lines show the loss as it happens (last lost=$last of $lost)" ||
	fail "interval lines show the loss" "last lost=${last:-none}, total $lost"
finish
