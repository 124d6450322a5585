#!/usr/bin/env bash
# One guest run recorded twice (issue 31, "Tests and measurement"): in one boot of the
# EAS lab (2+2, the lab's 6.1 kernel, under QEMU's -icount like the matrix and the A/B
# runs, so the host's load changes how long the boot takes, not what the guest sees)
# rt-app runs under `feecscope live --record` while tracefs records the events of
# docs/traces.md into one buffer, kept as tracefs text and as trace-cmd's trace.dat
# (Debian's arm64 trace-cmd in the guest; tests/lab/trace/guest-steps.sh). On the
# host, tests/tools/trace_agree.py replays the recording and each trace with the
# guest's EM under lab physics and checks, per rt-app thread, the same activations
# within 1 % and the same work within 2 %, and that the closed-loop verdicts agree
# within their intervals. It also drops 3 % of one thread's wake-ups from the text
# and checks that the comparison then fails (the check is not blind). The recorded work
# is compared less the waits the kernel charged (the text's sched_stat_runtime against
# its switches: docs/traces.md, "The lab's check"). A second check replays both under
# device physics, the recording's work at its frequency steps (freq records): the same
# activations, each thread's work and their sum within 2 % and the verdicts within
# their intervals (docs/traces.md, "Under device physics"), and that the per-thread
# check fails when 5 % of one thread's stretches are traced at the top OPP; the guest
# pins each CPU's frequency as tracing starts, so the trace knows it throughout
# (docs/traces.md, "The summed work's lean").
# FS_LAB_TRACE_KEEP=DIR copies the run's trace, trace.dat, recording and EM there
# (how tests/fixtures/lab-trace/ was made).
#
# usage: tests/lab/trace.sh   (root: the QEMU lab)
# Env: FS_LAB_TRACE_SECONDS (rt-app's seconds, 4), FS_LAB_TRACE_QEMU_ARGS (-icount
#      shift=0,sleep=on; empty: TCG's own clock), FS_LAB_REUSE=1 re-checks
#      build/lab/trace/ without booting, FS_LAB_KEEP_BUILD=1 boots the arm64 feecscope
#      already built (run-lab.sh -k).
cd "$(dirname "$0")/../.."
. tests/lib.sh
FEECSCOPE=${FEECSCOPE:-build/feecscope}
SECS=${FS_LAB_TRACE_SECONDS:-4}
D=build/lab/trace
O=$D/out
Q=build/qemu

# Debian's arm64 trace-cmd and the libraries it needs (libtracecmd is inside it), into X.
stage_trace_cmd() {
	local X=$1 u=$Q/root/tracecmd p
	mkdir -p "$Q/debs"
	for p in trace-cmd libtraceevent1 libtracefs1 libzstd1; do
		ls "$Q/debs/${p}_"*_arm64.deb >/dev/null 2>&1 && continue
		(cd "$Q/debs" && apt-get download -q -o APT::Sandbox::User=root "$p:arm64" >/dev/null 2>&1) ||
			{ echo "apt-get download $p:arm64 failed"; return 1; }
	done
	if [ ! -e "$u/.done" ]; then
		rm -rf "$u" && mkdir -p "$u"
		for p in trace-cmd libtraceevent1 libtracefs1 libzstd1; do
			dpkg-deb -x "$(ls "$Q/debs/${p}_"*_arm64.deb | head -n 1)" "$u" || return 1
		done
		touch "$u/.done"
	fi
	mkdir -p "$X/tclib"
	cp "$u/usr/bin/trace-cmd" "$X/trace-cmd" &&
		cp -L "$u"/usr/lib/aarch64-linux-gnu/lib{traceevent,tracefs,zstd}.so.1 "$X/tclib/"
}

if [ "${FS_LAB_REUSE:-0}" != 1 ] || [ ! -s "$O/live.rec" ]; then
	X=$TMP/extra && mkdir -p "$X"
	cp tests/lab/trace/guest-steps.sh "$X/"
	stage_trace_cmd "$X" >"$TMP/tc" 2>&1 ||
		fail "Debian's arm64 trace-cmd staged for the guest" "$(head -c 300 "$TMP/tc")"
	# the lab's workload (run-lab.sh), for SECS seconds
	cat >"$X/workload.json" <<JSON
{
	"global": { "duration": $SECS, "calibration": 100, "default_policy": "SCHED_OTHER",
		    "ftrace": false, "lock_pages": false, "logdir": "/tmp", "log_basename": "rt" },
	"tasks": {
		"tiny":   { "instance": 4, "loop": -1, "runtime": 300,  "timer": { "ref": "unique", "period": 8000 } },
		"small":  { "instance": 2, "loop": -1, "runtime": 1500, "timer": { "ref": "unique", "period": 16000 } },
		"medium": { "instance": 1, "loop": -1, "runtime": 5000, "timer": { "ref": "unique", "period": 32000 } }
	}
}
JSON
	printf '. /lab/guest-steps.sh\ntrace_run %s\n' "$SECS" >"$X/steps.sh"
	FS_LAB_EXTRA=$X FS_LAB_QEMU_ARGS="${FS_LAB_TRACE_QEMU_ARGS--icount shift=0,sleep=on}" \
		FS_LAB_TIMEOUT=${FS_LAB_TIMEOUT:-900} tests/qemu/run-lab.sh -t 2+2 -d "$SECS" -o "$D" ${FS_LAB_KEEP_BUILD:+-k} >"$TMP/run" 2>&1 ||
		{ fail "guest boots and returns its files" "$(tail -n 3 "$TMP/run")"; finish; exit; }
	sed 's/^run-lab.sh: /    /' "$D/cycle.txt"
fi

ok_rc() { [ "$(cat "$O/$1.rc" 2>/dev/null)" = 0 ]; }
if ok_rc live && [ -s "$O/live.rec" ]; then pass "the guest's feecscope live recorded"
else fail "the guest's feecscope live recorded" "exit $(cat "$O/live.rc" 2>/dev/null): $(head -c 300 "$O/live.err" 2>/dev/null)"; fi
if "$FEECSCOPE" replay "$O/live.rec" 2>/dev/null | grep -q '^lost records: 0$'; then pass "the recording lost no records"
else fail "the recording lost no records" "$("$FEECSCOPE" replay "$O/live.rec" 2>&1 | grep -m1 -i 'lost')"; fi
if ok_rc rt-app; then pass "rt-app ran $SECS s"
else fail "rt-app ran" "$(head -c 300 "$O/rt-app.log" 2>/dev/null)"; fi
if [ -s "$O/guest.em" ]; then pass "the guest's EM saved"; else fail "the guest's EM saved" "$(head -c 300 "$O/em-save.out" 2>/dev/null)"; fi
if [ -e "$O/trace-missing" ]; then fail "every traced event exists in the guest" "$(tr '\n' ' ' <"$O/trace-missing")"
else pass "every traced event exists in the guest"; fi
# an overrun ring lost events: the two workloads would differ for that reason
over=$(awk '{ s += $NF } END { print s + 0 }' "$O/trace.tstats" 2>/dev/null)
if [ -s "$O/trace.tstats" ] && [ "$over" = 0 ]; then pass "tracefs ring buffer: no overrun"
else fail "tracefs ring buffer: no overrun" "${over:-no stats}"; fi
gzip -dc "$O/trace.txt.gz" >"$TMP/trace.txt" 2>/dev/null ||
	{ fail "the guest's tracefs text arrived" "no $O/trace.txt.gz"; finish; exit; }
have_dat=0 dat_read=0
if ok_rc trace-cmd && [ -s "$O/trace.dat" ]; then pass "trace-cmd extract wrote a trace.dat in the guest"; have_dat=1
else fail "trace-cmd extract wrote a trace.dat in the guest" "exit $(cat "$O/trace-cmd.rc" 2>/dev/null): $(head -c 300 "$O/trace-cmd.err" 2>/dev/null)"; fi

# rt-app names its threads after the workload's tasks (tiny, small, medium)
# (the recorded work less the waits the kernel charged, from the text's sched_stat_runtime)
agree() {
	python3 tests/tools/trace_agree.py --feecscope "$FEECSCOPE" --em "$O/guest.em" --charges "$TMP/trace.txt" \
		--comm '^(tiny|small|medium)' --tasks 7 "$@"
}
agree "$O/live.rec" "$TMP/trace.txt" >"$TMP/agree.txt" 2>&1
report "$TMP/agree.txt"
if [ $have_dat = 1 ] && "$FEECSCOPE" replay "$O/trace.dat" --em "$O/guest.em" 2>&1 >/dev/null |
	grep -q 'not supported in this build'; then
	echo "    trace.dat: this build reads none (no libtracecmd): its comparison left out"
elif [ $have_dat = 1 ]; then
	dat_read=1
	agree "$O/live.rec" "$O/trace.dat" >"$TMP/agree.dat" 2>&1
	report "$TMP/agree.dat"
fi
# Under device physics (the default): the recording's work at its frequency steps (freq
# records) against the trace's cpu_frequency, per thread and summed (docs/traces.md)
if "$FEECSCOPE" replay "$O/live.rec" --sim-physics device 2>/dev/null | grep -q 'cpu_frequency at busy time'; then
	pass "the recording has busyfreq records (frequencies: cpu_frequency at busy time)"
else
	fail "the recording has busyfreq records" "$("$FEECSCOPE" replay "$O/live.rec" 2>&1 | grep -m1 -A1 'CPU energy')"
fi
nfreq=$("$FEECSCOPE" replay "$O/live.rec" --convert-csv /dev/stdout 2>/dev/null | grep -c '^freq,')
if [ "${nfreq:-0}" -gt 0 ]; then pass "the recording has the frequency steps ($nfreq freq records)"
else fail "the recording has the frequency steps (freq records)" "none"; fi
for t in "$TMP/trace.txt" "$O/trace.dat"; do
	[ "$t" = "$O/trace.dat" ] && [ "$dat_read" != 1 ] && continue
	agree "$O/live.rec" "$t" --physics device --total --each >"$TMP/agree.dev" 2>&1
	sed 's/^\(ok\|FAIL\) \[/\1 device: [/' "$TMP/agree.dev" >"$TMP/agree.dev.r"
	report "$TMP/agree.dev.r"
done
# not blind per thread: 5 % of a tiny thread's stretches traced at the top OPP
python3 tests/tools/trace_agree.py --raise-freq tiny:5 --em "$O/guest.em" <"$TMP/trace.txt" >"$TMP/raised.txt"
agree "$O/live.rec" "$TMP/raised.txt" --physics device --total --each >"$TMP/agree.raise" 2>&1
pid=$(sed -n 's/^FAIL .* pid \([0-9]*\) tiny: work.*/\1/p' "$TMP/agree.raise")
if [ -n "$pid" ] && ! grep '^FAIL' "$TMP/agree.raise" | grep -v ' work of the ' | grep -vq " pid $pid tiny: "; then
	pass "5 % of a tiny thread's stretches at the top OPP in the trace: that thread's work fails (device), no other"
else
	fail "5 % of a tiny thread's stretches at the top OPP in the trace: that thread's work fails (device), no other" \
		"$(grep '^FAIL' "$TMP/agree.raise" | head -c 400)"
fi
# not blind: a reader that dropped 3 % of one thread's wake-ups must fail the comparison
python3 tests/tools/trace_agree.py --drop-wakeups tiny:3 <"$TMP/trace.txt" >"$TMP/dropped.txt"
agree "$O/live.rec" "$TMP/dropped.txt" >"$TMP/agree.drop" 2>&1
pid=$(sed -n 's/^FAIL .* pid \([0-9]*\) tiny: activations.*/\1/p' "$TMP/agree.drop")
if [ -n "$pid" ] && ! grep '^FAIL' "$TMP/agree.drop" | grep -vq " pid $pid tiny: "; then
	pass "3 % of a tiny thread's wake-ups dropped from the trace: that thread fails (activations), no other"
else
	fail "3 % of a tiny thread's wake-ups dropped from the trace: that thread fails (activations), no other" \
		"$(grep '^FAIL' "$TMP/agree.drop" | head -c 400)"
fi
if [ -n "${FS_LAB_TRACE_KEEP:-}" ]; then
	mkdir -p "$FS_LAB_TRACE_KEEP" && cp "$O/live.rec" "$O/guest.em" "$O/trace.txt.gz" "$FS_LAB_TRACE_KEEP/" &&
		{ [ $have_dat = 0 ] || cp "$O/trace.dat" "$FS_LAB_TRACE_KEEP/"; }
fi
finish
