#!/usr/bin/env bash
# Each way of reading the other CPUs' struct rq, checked field by field on arm64: in a
# 6.12 2+2 guest under rt-app, a collector forced to load the fields through the
# runqueues ksym (the way Android's 5.15 and 6.1 GKI kernels, with KALLSYMS_ALL and no
# bpf_rdonly_cast(), would read them), then one forced through bpf_rdonly_cast() (what
# 6.12+ picks), each beside a --raw-tp collector that copies the rq by cache line.
# tests/live/rq_agree.py pairs the wake-ups both recorded and compares every per-CPU
# field (tests/live/landscape.sh does the same on the host, whose kernel may have no
# runqueues ksym). A field loaded from a wrong offset, a batch entry written to the
# wrong CPU or a CO-RE branch taken wrongly agrees on next to none.
#
# usage: tests/lab/rq-read.sh   (root: the QEMU lab)
# Env: FS_LAB_RQ_SERIES (a tests/qemu/debian-kernels.sh series, 6.12).
cd "$(dirname "$0")/../.."
. tests/lib.sh
series=${FS_LAB_RQ_SERIES:-6.12}
WAYS="ksym cast"

read -r _ ver parts < <(tests/qemu/debian-kernels.sh list 2>"$TMP/err" | grep "^$series ") ||
	{ fail "series $series in the archive" "$(head -c 300 "$TMP/err")"; finish; exit; }
kd=build/qemu/kernels/$series
tests/qemu/debian-kernels.sh fetch "$ver" "$parts" "$kd" >"$TMP/err" 2>&1 ||
	{ fail "fetch $parts $ver" "$(tail -n 3 "$TMP/err")"; finish; exit; }

# The copies start once the loads collector has loaded (start-up is 1-1.5 s under TCG)
# and stop before it: both see the same wake-ups for 4 s.
X=$TMP/extra && mkdir -p "$X"
{
	echo "rt-app /lab/workload.json >/out/rt-app.log 2>&1 &"
	echo "w=\$!"
	echo "sleep 1"
	for way in $WAYS; do
		echo "FS_BENCH_RQ_READ=$way feecscope live -v --duration 9 --record /out/$way.rec >/dev/null 2>/out/$way.err &"
		echo "l=\$!"
		echo "sleep 3"
		echo "feecscope live -v --raw-tp --duration 4 --record /out/$way-copies.rec >/dev/null 2>/out/$way-copies.err"
		echo "echo \$? >/out/$way-copies.rc"
		echo "wait \$l; echo \$? >/out/$way.rc"
	done
	echo "kill \$w; wait"
} >"$X/steps.sh"
D=build/lab/rq-read/$series
O=$D/out
FS_LAB_EXTRA=$X tests/qemu/run-lab.sh -t 2+2 -d 1 -K "$kd" -o "$D" >"$TMP/run" 2>&1 ||
	{ fail "guest boots and returns its files" "$(tail -n 3 "$TMP/run")"; finish; exit; }

for way in $WAYS; do
	case $way in
	ksym) how="the runqueues ksym" ;;
	cast) how="bpf_rdonly_cast()" ;;
	esac
	for f in "$way" "$way-copies"; do
		if [ "$(cat "$O/$f.rc" 2>/dev/null)" != 0 ]; then
			fail "$f: feecscope live ran in the guest" "exit $(cat "$O/$f.rc" 2>/dev/null): $(head -c 300 "$O/$f.err" 2>/dev/null)"
			continue 2
		fi
		"$FEECSCOPE" replay "$O/$f.rec" --convert-csv "$TMP/$f.csv" >"$TMP/conv" 2>&1 ||
			{ fail "$f: the host converts the guest's recording" "$(head -c 300 "$TMP/conv")"; continue 2; }
	done
	unwrap "$O/$way.err" | grep -q "loaded field by field through $how" &&
		unwrap "$O/$way.err" | grep -q "^programs: \([0-9]*\) of \1 loaded" &&
		pass "$way: every program loaded, the fields read through $how" ||
		fail "$way: every program loaded, the fields read through $how" \
			"$(unwrap "$O/$way.err" | grep -E '^programs:|field by field|warning' | head -n 3)"
	unwrap "$O/$way-copies.err" | grep -q "struct rq copied by cache lines" &&
		pass "$way-copies: the --raw-tp collector copied the rq" ||
		fail "$way-copies: the --raw-tp collector copied the rq" "$(unwrap "$O/$way-copies.err" | grep -iE 'struct rq|warning' | head -n 2)"
	# guest clocks run slow under TCG: a few microseconds between the two collectors' reads
	read -r pairs nf worst agree need < <(python3 tests/live/rq_agree.py "$TMP/$way.csv" "$TMP/$way-copies.csv" 50000)
	[ "${pairs:-0}" -ge 200 ] && [ "${nf:-0}" -ge 64 ] && [ $((agree * 100)) -ge $((pairs * ${need:-95})) ] &&
		pass "$way: rq fields = the copies' on $pairs wake-ups ($nf fields; nearest its bound: $worst $agree, >= $need %)" ||
		fail "$way: rq fields = the copies'" "$pairs $nf $worst $agree $need (wake-ups both saw, fields, nearest its bound, equal, % needed)"
done
finish
