#!/usr/bin/env bash
# The kernel A/B check: kernels A (Debian's 6.1 as shipped) and B (the same with
# feec's energy margin put back, tests/ab/margin.patch) boot in the arm64 EAS lab
# (tests/qemu/run-lab.sh -K) on both topologies; each boot runs every workload once
# under the trace-event meter and feecscope live --record (tests/ab/guest-steps.sh).
# The guest runs under QEMU's -icount (shift 0: one instruction a nanosecond of
# guest time, idle skipped), so guest time follows the instructions executed, not
# the host's load: without it TCG's overhead, and so the overutilized share and
# the energy, varied by half between two boots of the same kernel on a busy host.
# Runs alternate A,B / B,A all the same. Not part of `make check`: about three
# minutes a boot, 4 boots per run index (FS_AB_QEMU_ARGS replaces the -icount).
#
# usage: tests/ab/run.sh [-n RUNS] [-t "2+2 4+3+1"] [-w "phone light bigsmall"]
#                        [-s SECONDS] [-o DIR] [-r]
#   -n  runs of each (kernel, topology, workload) (default 10)
#   -s  seconds of each workload (default 8; the JSON's duration is rewritten)
#   -o  results (default build/ab): DIR/<topology>/<kernel>/run<N>/ (run-lab.sh's
#       files, the guest's in out/, run.json from collect.py), DIR/summary.md
#   -r  device physics: the workloads run under tests/ab/workrun.c from
#       tests/ab/workloads/NAME.wr (default -w "phone light bigsmall frame", results
#       in build/ab-device) instead of rt-app on NAME.json (the lab's physics)
# A run whose run.json exists is not redone: a second call resumes. Kernels come
# from tests/ab/build-kernels.sh (cached in FS_AB_CACHE, /var/cache/feecscope-ab).
# Exit 0 when every run produced its figures, 1 otherwise.
set -eu
cd "$(dirname "$0")/../.."
n=10 topos="2+2 4+3+1" wls= secs=8 out= runner=rt-app
while getopts "n:t:w:s:o:rh" o; do
	case $o in
	n) n=$OPTARG ;;
	t) topos=$OPTARG ;;
	w) wls=$OPTARG ;;
	s) secs=$OPTARG ;;
	o) out=$OPTARG ;;
	r) runner=workrun ;;
	h) sed -n '2,/^set -eu/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
	*) exit 2 ;;
	esac
done
if [ $runner = workrun ]; then
	wls=${wls:-phone light bigsmall frame} out=${out:-build/ab-device}
else
	wls=${wls:-phone light bigsmall} out=${out:-build/ab}
fi
C=${FS_AB_CACHE:-/var/cache/feecscope-ab}
tests/ab/build-kernels.sh
make -s -j2 >/dev/null
mkdir -p "$out"
make -s -j2 ARCH=arm64 >"$out/make-arm64.log" 2>&1 || { echo "run.sh: make ARCH=arm64 failed (see $out/make-arm64.log)" >&2; exit 1; }

# What goes into the guest's /lab: the steps, their functions, the workloads.
stage=$(mktemp -d "$out/stage.XXXXXX")   # one per call: two calls (e.g. -t 2+2, -t 4+3+1) may run at once
trap 'rm -rf "$stage"' EXIT
cp tests/ab/guest-steps.sh "$stage/"
if [ $runner = workrun ]; then
	aarch64-linux-gnu-gcc -static -O2 -Wall -Wextra -Werror -o "$stage/workrun" tests/ab/workrun.c -lpthread ||
		{ echo "run.sh: cannot build tests/ab/workrun.c for the guest" >&2; exit 1; }
fi
for w in $wls; do
	if [ $runner = workrun ]; then
		[ -f "tests/ab/workloads/$w.wr" ] || { echo "run.sh: no workload tests/ab/workloads/$w.wr" >&2; exit 2; }
		cp "tests/ab/workloads/$w.wr" "$stage/"   # its -d is the seconds given to ab_run
		continue
	fi
	[ -f "tests/ab/workloads/$w.json" ] || { echo "run.sh: no workload tests/ab/workloads/$w.json" >&2; exit 2; }
	sed "s/\"duration\": [0-9]*/\"duration\": $secs/" "tests/ab/workloads/$w.json" >"$stage/$w.json"
done
{
	echo ". /lab/guest-steps.sh"
	echo "ab_setup"
	for w in $wls; do echo "ab_run $w $secs"; done
} >"$stage/steps.sh"
budget=$(( $(echo $wls | wc -w) * (secs + 60) + 120 ))

failed=0
for r in $(seq 1 "$n"); do
	for t in $topos; do
		order="A B"
		[ $((r % 2)) -eq 0 ] && order="B A"
		for k in $order; do
			d="$out/$t/$k/run$r"
			[ -s "$d/run.json" ] && continue
			mkdir -p "$(dirname "$d")"
			if ! FS_LAB_QEMU_ARGS="${FS_AB_QEMU_ARGS:--icount shift=0,sleep=on}" \
				FS_LAB_EXTRA="$stage" tests/qemu/run-lab.sh -k -K "$C/kernel-$k" -t "$t" \
				-d "$budget" -o "$d" >"$d.log" 2>&1; then
				echo "run.sh: $t $k run $r: the guest failed (see $d.log, $d/console.log)" >&2
				failed=$((failed + 1)); continue
			fi
			python3 tests/ab/collect.py "$d" "$k" "$t" "$r" $wls || failed=$((failed + 1))
		done
	done
done
python3 tests/ab/summarize.py "$out" >"$out/summary.md" && cat "$out/summary.md"
[ $failed -eq 0 ]
