#!/usr/bin/env bash
# The arm64 EAS lab: boot the Debian 6.1 guest on each lab device tree (run-lab.sh) and
# check what came back: the kernel's EM and capacities equal what the DT implies,
# feecscope read that EM, the BPF collector loaded on 6.1 and recorded, the kernel's
# placements agree with the policy for its version, and the host replays the guest's
# recording to the guest's own numbers. Anything that did not run is a failure.
# Each boot also records live across CPU hotplug of its last CPU (run-lab.sh's
# FS_LAB_HOTPLUG, tests/qemu/check-hotplug.py): ~0 busy while offline, counted once online.
# Env: FS_LAB_TOPOLOGIES ("2+2 4+3+1"), FS_LAB_SECONDS (live seconds, 20),
#      FS_LAB_REUSE=1 checks the results already in $FS_OUT/lab/<topology> without booting.
cd "$(dirname "$0")/../.."
. tests/lib.sh
OUTD=${FS_OUT:-build}
SECS=${FS_LAB_SECONDS:-20}

# The reference policy the guest's live chose for its kernel (banner "policies [0] NAME").
kernel_policy() { sed -n 's/.*policies \[0\] \([^ ,]*\).*/\1/p' "$1" | head -n 1; }

tree_lines() { # debugfs-layout dir -> "path: value" lines, as guest-init.sh writes them
	(cd "$1" && find . -path ./cpus -prune -o -type f -print | sort | while read -r f; do
		echo "${f#./}: $(cat "$f")"; done)
}

# The BPF object loads on this machine's kernel too (6.18: v6.8+ util_est, no capacity_orig).
if [ -n "$(ls bpf/*.bpf.c 2>/dev/null)" ]; then
	check "host: BPF collector loads and runs on $(uname -r)" \
		"$FEECSCOPE" live --duration 1
else
	fail "host: BPF collector loads" "no bpf/*.bpf.c in the tree yet"
fi

for topo in ${FS_LAB_TOPOLOGIES:-2+2 4+3+1}; do
	d=$OUTD/lab/$topo o=$OUTD/lab/$topo/out
	last=$((topo - 1)) # "2+2" - 1: the topology's last CPU
	export FS_LAB_HOTPLUG=$last
	if [ "${FS_LAB_REUSE:-0}" = 1 ] && [ -d "$o" ]; then
		pass "$topo: reusing results in $d"
	else
		check "$topo: guest boots, runs its steps and returns its files" \
			tests/qemu/run-lab.sh -t "$topo" -d "$SECS" -o "$d"
		sed 's/^/    /' "$d/cycle.txt" 2>/dev/null
		# TCG runs 4-8 vCPUs on the host's cores: a busy host slows the guest until
		# its root domain stays overutilized and feec hardly runs. That says nothing
		# about feecscope; boot once more before judging, and say so.
		n=$(sed -nE 's/.*feec-eligible under [^ ]+ ([0-9]+).*/\1/p' "$o/live.out" 2>/dev/null | tail -n 1)
		if [ "${n:-0}" -lt "${FS_LAB_MIN_ELIGIBLE:-2000}" ]; then
			echo "    only ${n:-no} feec-eligible wake-ups ($(grep -o 'overutilized=[0-9.]*%' "$o/live.out" 2>/dev/null | tail -n 1)): guest too slow, booting it again"
			check "$topo: guest boots again, runs its steps and returns its files" \
				tests/qemu/run-lab.sh -t "$topo" -d "$SECS" -o "$d" -k
			sed 's/^/    /' "$d/cycle.txt" 2>/dev/null
		fi
	fi

	# What the kernel built from the DT.
	if grep -q 'starting EAS' "$o/dmesg.txt" 2>/dev/null; then pass "$topo: kernel started EAS"
	else fail "$topo: kernel started EAS" "no 'starting EAS' in $o/dmesg.txt"; fi
	sed -n 's/^capacity \(cpu[0-9]*\) \([0-9]*\)$/\1 \2/p' "$o/guest-facts.txt" >"$TMP/cap.guest" 2>/dev/null
	for c in "$d"/expected-em/cpus/cpu*; do echo "${c##*/} $(cat "$c/cpu_capacity")"; done |
		sort -V >"$TMP/cap.dt"
	expect_same "$topo: CPU capacities = DT (dmips x fmax, normalised to 1024)" "$TMP/cap.dt" "$TMP/cap.guest"
	tree_lines "$d/expected-em" >"$TMP/em.dt"
	expect_same "$topo: kernel EM debugfs = DT (power, cost, inefficient, flags)" "$TMP/em.dt" "$o/em-debugfs.txt"

	# What feecscope read from it, inside the guest.
	if [ "$(cat "$o/em.rc" 2>/dev/null)" = 0 ]; then pass "$topo: feecscope em on the guest's debugfs"
	else fail "$topo: feecscope em on the guest's debugfs" "$(cat "$o/em.err" "$o/em.out" 2>/dev/null | head -c 300 || echo 'step did not run')"; fi
	if [ "$(cat "$o/em-save.rc" 2>/dev/null)" = 0 ] && [ -s "$o/guest.em" ]; then
		check "$topo: em --save of the guest's EM = DT" python3 tests/qemu/check-em.py "$o/guest.em" "$d/expected-em"
		"$FEECSCOPE" em --em "$d/expected-em" >"$TMP/em.host" 2>&1
		grep -viE 'source|kernel|energy_model|expected-em' "$TMP/em.host" >"$TMP/em.host.n"
		grep -viE 'source|kernel|energy_model|expected-em' "$o/em.out" >"$TMP/em.guest.n"
		expect_same "$topo: guest 'feecscope em' = host 'feecscope em --em <DT-derived tree>'" "$TMP/em.host.n" "$TMP/em.guest.n"
	else
		fail "$topo: em --save of the guest's EM" "$(cat "$o/em-save.err" "$o/em-save.out" 2>/dev/null | head -c 300 || echo 'step did not run')"
	fi

	# Busy time at each frequency across CPU hotplug (its own live run, after the main one).
	if [ "$(cat "$o/hotplug.rc" 2>/dev/null)" = 0 ] && [ -s "$o/hotplug.rec" ] &&
		"$FEECSCOPE" replay "$o/hotplug.rec" --convert-csv "$TMP/hotplug.csv" >/dev/null 2>"$TMP/hp.err"; then
		python3 tests/qemu/check-hotplug.py "$TMP/hotplug.csv" "$o/hotplug.marks" "$last" 2 >"$TMP/hp" 2>&1
		while read -r st rest; do
			case $st in ok) pass "$topo: $rest" ;; FAIL) fail "$topo: $rest" ;; *) echo "    $st $rest" ;; esac
		done <"$TMP/hp"
		unwrap "$o/hotplug-live.err" | grep -q "may not run on" &&
			fail "$topo: no unvisited-CPU warning for a CPU offline at the start" "$(unwrap "$o/hotplug-live.err" | grep "may not run on")" ||
			pass "$topo: no unvisited-CPU warning for CPU $last, offline at the start"
	else
		fail "$topo: live across hotplug of CPU $last recorded" \
			"exit $(cat "$o/hotplug.rc" 2>/dev/null || echo '-'): $(cat "$o/hotplug.err" "$TMP/hp.err" 2>/dev/null | head -c 300)"
	fi

	# The collector on 6.1 (struct util_est {enqueued, ewma}, rq->cpu_capacity_orig).
	if [ "$(cat "$o/live.rc" 2>/dev/null)" = 0 ] && [ -s "$o/live.rec" ] && [ -s "$o/live.csv" ]; then
		pass "$topo: BPF collector loaded on the 6.1 guest and recorded"
	else
		fail "$topo: BPF collector loaded on the 6.1 guest and recorded" \
			"live exit $(cat "$o/live.rc" 2>/dev/null || echo '-'): $(cat "$o/live.err" "$o/live.out" 2>/dev/null | head -c 400 || echo 'step did not run')"
		continue
	fi

	# Pairing: nearly every sched_waking snapshot met its placement (observed >= 99.7 %).
	snaps=$(sed -nE 's/^collector:.* snapshots ([0-9]+).*/\1/p' "$o/live.err" | tail -n 1)
	paired=$(sed -nE 's/^pairing: paired ([0-9]+).*/\1/p' "$o/live.err" | tail -n 1)
	if [ -n "$snaps" ] && [ -n "$paired" ] && [ "$snaps" -gt 0 ] && [ $((paired * 100)) -ge $((snaps * 98)) ]; then
		pass "$topo: $paired of $snaps snapshots paired with their placement (>= 98 %)"
	else
		fail "$topo: snapshots paired with their placement (>= 98 %)" \
			"$(grep -E '^(collector|pairing):' "$o/live.err" 2>/dev/null || echo 'no collector/pairing lines in live.err')"
	fi

	# Fidelity: the kernel's own choices against the policy for its version, and v5.4's margin.
	kp=$(kernel_policy "$o/live.out")
	[ -n "$kp" ] || kp=v6.1
	python3 tests/qemu/check-fidelity.py "$o/live.csv" "$kp" v5.4 >"$TMP/fid" 2>&1; rc=$?
	sed 's/^/    /' "$TMP/fid" | head -n 60
	if [ $rc -eq 0 ]; then pass "$topo: kernel placements = $kp in >= 99%, and far more than v5.4"
	else fail "$topo: kernel placements = $kp in >= 99%, and far more than v5.4" "see above"; fi

	# The host replays the guest's recording to the guest's own numbers.
	"$FEECSCOPE" replay "$o/live.rec" --policies "$kp,${FS_LAB_POLICIES:-v5.4}" --csv-layout wide --csv "$TMP/replay.csv" \
		>"$TMP/replay.sum" 2>&1; rc=$?
	if [ $rc -ne 0 ]; then
		fail "$topo: host replay of the guest's recording" "exit $rc: $(head -c 300 "$TMP/replay.sum")"
		continue
	fi
	expect_same "$topo: host replay CSV = guest live CSV" "$o/live.csv" "$TMP/replay.csv"
	# live prints its banner and interval lines first; the summary starts at its verdict line.
	verdict='^(margin|no margin verdict|v[0-9][^ ]*: margin)'
	sed -En "/$verdict/,\$p" "$o/live.out" >"$TMP/live.sum"
	sed -En "/$verdict/,\$p" "$TMP/replay.sum" >"$TMP/replay.sum.n"
	expect_same "$topo: host replay summary = guest live summary" "$TMP/live.sum" "$TMP/replay.sum.n"
done
finish
