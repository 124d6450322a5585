#!/usr/bin/env bash
# WF_CURRENT_CPU (v6.6+) in the lab: select_task_rq_fair() returns the waker's CPU
# before feec for such a wake-up when the task may run there. A 6.12 2+2 guest runs
# tests/qemu/current-cpu-wake.c (a seccomp user-notification ping-pong whose wake-ups
# carry the flag) beside rt-app while `feecscope live` records. Checks: the recording
# has wake-ups flagged current_cpu, and the kernel put every one of them (with a known
# placement) on the waker's CPU, as the rule says (a flag read from the wrong bit or
# set without the affinity test would show wake-ups placed elsewhere); every policy
# answers current-cpu for each, and no other wake-up gets that answer.
#
# usage: tests/lab/current-cpu.sh   (root: the QEMU lab)
# Env: FS_LAB_CC_SERIES (a tests/qemu/debian-kernels.sh series, 6.12), FS_LAB_SECONDS (15).
cd "$(dirname "$0")/../.."
. tests/lib.sh
SECS=${FS_LAB_SECONDS:-15}
series=${FS_LAB_CC_SERIES:-6.12}

read -r _ ver parts < <(tests/qemu/debian-kernels.sh list 2>"$TMP/err" | grep "^$series ") ||
	{ fail "series $series in the archive" "$(head -c 300 "$TMP/err")"; finish; exit; }
kd=build/qemu/kernels/$series
tests/qemu/debian-kernels.sh fetch "$ver" "$parts" "$kd" >"$TMP/err" 2>&1 ||
	{ fail "fetch $parts $ver" "$(tail -n 3 "$TMP/err")"; finish; exit; }
kp=$("$FEECSCOPE" policies -r "$(cat "$kd/kernel-release")" 2>/dev/null | cut -f1)
[ -n "$kp" ] || { fail "a policy for $(cat "$kd/kernel-release")" "none"; finish; exit; }

X=$TMP/extra && mkdir -p "$X"
aarch64-linux-gnu-gcc -static -O2 -Wall -Werror -o "$X/current-cpu-wake" tests/qemu/current-cpu-wake.c \
	2>"$TMP/cc" || { fail "current-cpu-wake.c builds for the guest" "$(head -c 300 "$TMP/cc")"; finish; exit; }
# The ping-pong pauses 20 ms between calls: flat out it keeps the guest overutilized.
cat >"$X/steps.sh" <<EOF
rt-app /lab/workload.json >/out/rt-app.log 2>&1 &
w=\$!
/lab/current-cpu-wake $((SECS + 3)) 20000 >/out/ccw.log 2>&1 &
c=\$!
sleep 1
feecscope live -v --duration $SECS --record /out/live.rec --policies $kp,v5.4 >/out/live.out 2>/out/live.err
echo \$? >/out/live.rc
kill \$w; wait
EOF
D=build/lab/current-cpu/$series
O=$D/out
boot() {
	FS_LAB_EXTRA=$X tests/qemu/run-lab.sh -t 2+2 -d "$SECS" -K "$kd" -o "$D" "$@" >"$TMP/run" 2>&1 ||
		{ fail "guest boots and returns its files" "$(tail -n 3 "$TMP/run")"; finish; exit; }
}
# percent of the snapshots paired with their placement (sched_wakeup / migrate)
paired_pct() {
	local s p
	s=$(sed -nE 's/^collector: snapshots ([0-9]+).*/\1/p' "$O/live.err" 2>/dev/null | tail -n 1)
	p=$(sed -nE 's/^pairing: paired ([0-9]+).*/\1/p' "$O/live.err" 2>/dev/null | tail -n 1)
	[ "${s:-0}" -gt 0 ] && echo $((${p:-0} * 100 / s)) || echo 0
}
boot
# Seen once in TCG (CI, 6.12): the sched_wakeup program ran for 2 % of the wake-ups, so
# almost no placement was known (the symptom docs/agreement.md describes); boot again.
if [ "$(paired_pct)" -lt 90 ]; then
	echo "    only $(paired_pct) % of the snapshots paired with a placement: booting the guest again"
	boot -k
fi
if [ "$(cat "$O/live.rc" 2>/dev/null)" != 0 ]; then
	fail "feecscope live ran in the guest" "exit $(cat "$O/live.rc" 2>/dev/null): $(head -c 300 "$O/live.err" 2>/dev/null)"
	finish; exit
fi
grep -q '^rounds=[1-9]' "$O/ccw.log" && pass "the ping-pong ran: $(cat "$O/ccw.log")" ||
	fail "the ping-pong ran" "$(head -c 200 "$O/ccw.log" 2>/dev/null)"
"$FEECSCOPE" replay "$O/live.rec" --convert-csv "$TMP/records.csv" >"$TMP/conv" 2>&1 &&
	"$FEECSCOPE" replay "$O/live.rec" --csv-layout wide --csv "$TMP/decisions.csv" >"$TMP/sum" 2>&1 ||
	{ fail "host replays of the recording" "$(head -c 300 "$TMP/conv" "$TMP/sum")"; finish; exit; }
python3 - "$TMP/records.csv" "$TMP/decisions.csv" >"$TMP/check" 2>&1 <<'EOF'
import csv, sys
def rows(f):
    return [r for r in csv.DictReader(l for l in open(f) if not l.startswith('#'))]
flagged = lambda r: 'current_cpu' in r['flags'].split('|')
wakes = [r for r in rows(sys.argv[1]) if r['type'] == 'wakeup']
cc = [r for r in wakes if flagged(r)]
known = [r for r in cc if int(r['chosen_cpu']) >= 0]
off = [r for r in known if r['chosen_cpu'] != r['waker_cpu']]
print(("ok" if len(cc) >= 50 else "FAIL"), f"wake-ups flagged current_cpu: {len(cc)} of {len(wakes)} (>= 50)")
print(("ok" if known and not off else "FAIL"),
      f"every flagged wake-up on the waker's CPU: {len(known) - len(off)} of {len(known)} with a known placement"
      + (f"; elsewhere: {[(r['comm'], r['waker_cpu'], r['chosen_cpu']) for r in off[:3]]}" if off else ""))
dec = rows(sys.argv[2])
pols = [k[:-len('_reason')] for k in dec[0] if k.endswith('_reason')] if dec else []
bad = [(r['comm'], p, r[p + '_reason']) for r in dec for p in pols
       if flagged(r) != (r[p + '_reason'] == 'current-cpu')]
n = sum(flagged(r) for r in dec)
print(("ok" if pols and n and not bad else "FAIL"),
      f"policies {' '.join(pols)} answer current-cpu exactly for the {n} flagged wake-ups"
      + (f"; not so: {bad[:3]}" if bad else ""))
EOF
[ "$(grep -c '^ok\|^FAIL' "$TMP/check")" -eq 3 ] || echo "FAIL the checker: $(tail -n 2 "$TMP/check" | tr '\n' ' ')" >>"$TMP/check"
report "$TMP/check"
finish
