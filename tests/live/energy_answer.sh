#!/usr/bin/env bash
# The energy answer on the real kernel (root): a phone-like rt-app load, a
# short-lived helper process that exits mid-run and an idle shell. The exited
# helper and the idle shell must not rank above the load in the processes
# table, the JSON's per-process CPU time must match /proc within 1 %, the
# summary must start with the verdict within 80 columns, and the JSON and the
# summary must replay from the recording.
. "$(dirname "$0")/../lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$TMP" || exit 1

"$FEECSCOPE" live -d 9 -i 1 --json live.json --record live.fsr --summary live.sum >live.out 2>live.err &
LIVE=$!
# wait for the banner: the collector is attached from then on
for _ in $(seq 1 200); do grep -q '^feecscope live:' live.out 2>/dev/null && break; sleep 0.1; done
rt-app "$HERE/energy/phone.json" >phone.log 2>&1 &
RT=$!
sleep 0.5
rt-app "$HERE/energy/helper.json" >helper.log 2>&1 &
HP=$!
bash -c 'while :; do sleep 3; done' &
SH=$!
wait $HP
sleep 4
# stop the load before live ends: its CPU time then stays what live reads at the end
kill -STOP $RT
wait $LIVE
rc=$?
proc_ns=$(cat /proc/$RT/task/*/schedstat | awk '{ s += $1 } END { print s + 0 }')
kill -CONT $RT; kill $RT $SH 2>/dev/null; wait $RT $SH 2>/dev/null
[ $rc -eq 0 ] && pass "live exits 0" || { fail "live exit" "$rc: $(tail -3 live.err)"; finish; exit; }

first=$(head -n 1 live.sum)
[ ${#first} -le 80 ] && echo "$first" | grep -Eq '^(v[^ ]*: )?margin' &&
	pass "summary starts with the verdict, ${#first} columns: $first" || fail "verdict line" "$first"
awk 'length > 80 { bad++ } END { exit bad > 0 }' live.sum && pass "every summary line fits 80 columns" ||
	fail "summary width" "$(awk 'length > 80' live.sum | head -3)"

python3 - "$RT" "$HP" "$SH" "$proc_ns" live.json <<'PY' >check.txt 2>&1
import json, sys
rt, hp, sh, proc_ns = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
d = json.load(open(sys.argv[5]))
assert d["schema"] == 2 and d["estimate"] == "cpu-time", "schema 2, CPU-time estimate"
procs = {p["tgid"]: p for p in d["processes"]}
assert rt in procs, "the load's process is in the JSON"
got = procs[rt]["runtime_ns"]
print(f"cpu_time load json={got} proc={proc_ns} ratio={got / proc_ns:.4f}")
elig = d["counts"]["feec_eligible"]
v = d["verdicts"][0]
print(f"verdict delta={v['delta_mj']} ci={v['ci95_mj']} decisions={v['decisions']} differ={v['differ']} eligible={elig}")
def mag(p): return abs(p["delta_mj"][0]) if p else 0.0
rank = [p["tgid"] for p in d["processes"]]
for name, pid in (("helper", hp), ("shell", sh)):
    p = procs.get(pid)
    print(f"{name} tgid={pid} rank={rank.index(pid) + 1 if pid in rank else '-'} "
          f"delta={p['delta_mj'] if p else '-'} cpu_ns={p['runtime_ns'] if p else '-'}")
print(f"load delta={procs[rt]['delta_mj']}")
PY
cat check.txt | sed 's/^/    /'
read -r _ _ json_ns proc_ns2 ratio < <(grep '^cpu_time' check.txt | tr '=' ' ' | awk '{ print $1, $2, $4, $6, $8 }')
if [ -n "${ratio:-}" ] && awk -v r="$ratio" 'BEGIN { exit !(r >= 0.99 && r <= 1.01) }'; then
	pass "the load's CPU time in the JSON matches /proc within 1 % ($ratio)"
else
	fail "per-process CPU time" "$(head -3 check.txt)"
fi
eligible=$(grep -o 'eligible=[0-9]*' check.txt | cut -d= -f2)
load=$(python3 -c "import json; d = json.load(open('live.json')); print(abs({p['tgid']: p for p in d['processes']}[$RT]['delta_mj'][0]))")
for who in helper shell; do
	pid=$([ $who = helper ] && echo $HP || echo $SH)
	mine=$(python3 -c "import json; d = json.load(open('live.json')); p = {p['tgid']: p for p in d['processes']}.get($pid); print(abs(p['delta_mj'][0]) if p else 0)")
	if awk -v a="$mine" -v b="$load" 'BEGIN { exit !(b > 0 && a < b) }'; then
		pass "the $who ranks below the load (|Δ| $mine < $load mJ)"
	elif awk -v b="$load" 'BEGIN { exit !(b == 0) }' && [ "${eligible:-0}" -lt 500 ]; then
		pass "the $who: not ranked (only ${eligible:-0} feec-eligible wake-ups: the machine was too busy for EAS)"
	elif awk -v a="$mine" -v b="$load" 'BEGIN { exit !(a == 0 && b == 0) }'; then
		# A busy host keeps the root domain overutilized for most of the load's
		# wake-ups: its few feec decisions may all agree. Nothing then ranks
		# above it, and there is nothing to rank.
		pass "the $who: not ranked (|Δ| 0 for it and for the load: no placement of theirs where the policies differ; ${eligible:-0} feec-eligible wake-ups in all)"
	else
		fail "the $who ranks above the load" "|Δ| $mine mJ, the load's $load mJ"
	fi
done

# The recording replays to the same summary and JSON.
"$FEECSCOPE" replay live.fsr --json replay.json --summary replay.sum >/dev/null 2>replay.err &&
	pass "the recording replays" || fail "replay" "$(head -3 replay.err)"
expect_same "replayed JSON == live JSON" live.json replay.json
expect_same "replayed summary == live summary" live.sum replay.sum
finish
