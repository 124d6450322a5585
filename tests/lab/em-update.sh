#!/usr/bin/env bash
# A runtime-modified Energy Model in the lab: the guest loads em_modify.ko
# (tests/qemu/em-modify/) while `feecscope live` runs; some seconds later it replaces
# CPU 0's domain table (power x FS_LAB_EM_PCT %) with em_dev_update_perf_domain().
# Checks (tests/qemu/check-em-update.py): the guest's debugfs EM is then the table the
# module meant; the recording holds an em record at about the module's time with that
# table; replay switches to it there (a replay with the em record dropped decides the
# same before it and differently after, where the kernel sides with the new table);
# the policy for the release agrees >= 99.5 % after the change.
#
# usage: tests/lab/em-update.sh   (not part of `make check`: headers and kbuild downloads)
# Env: FS_LAB_EM_KERNEL="series version parts" (default: debian-kernels.sh modkernel),
#      FS_LAB_EM_MODULE=KO (an em_modify.ko already built for that kernel: no headers),
#      FS_LAB_SECONDS (live seconds, 40), FS_LAB_EM_PCT (300), FS_LAB_MIN_FEEC (100 feec
#      wake-ups after the change; a guest with fewer boots once more), FS_LAB_REUSE=1.
cd "$(dirname "$0")/../.."
. tests/lib.sh
SECS=${FS_LAB_SECONDS:-40} PCT=${FS_LAB_EM_PCT:-300} MIN_FEEC=${FS_LAB_MIN_FEEC:-100}

kern=${FS_LAB_EM_KERNEL:-}
[ -n "$kern" ] || kern=$(tests/qemu/debian-kernels.sh modkernel 2>"$TMP/err") ||
	{ fail "a kernel to build em_modify for" "$(cat "$TMP/err")"; finish; exit; }
read -r series ver parts <<<"$kern"
kd=build/qemu/kernels/$series-mod
D=build/lab/em-update/$series
tests/qemu/debian-kernels.sh fetch "$ver" "$parts" "$kd" >"$TMP/err" 2>&1 ||
	{ fail "fetch $parts $ver" "$(cat "$TMP/err")"; finish; exit; }
# The module, cross-built against the kernel's headers (out of the source tree), or
# FS_LAB_EM_MODULE: one built for that kernel some other way.
B=build/qemu/em-modify/$series-mod
if [ -n "${FS_LAB_EM_MODULE:-}" ]; then
	mkdir -p "$B" && cp "$FS_LAB_EM_MODULE" "$B/em_modify.ko" ||
		{ fail "FS_LAB_EM_MODULE" "cannot copy $FS_LAB_EM_MODULE"; finish; exit; }
else
	hdr=$(tests/qemu/debian-kernels.sh headers "$kd" "build/qemu/headers/$series-mod" 2>"$TMP/err") ||
		{ fail "headers of $(cat "$kd/kernel-release")" "$(cat "$TMP/err")"; finish; exit; }
	rm -rf "$B" && mkdir -p "$B" && cp tests/qemu/em-modify/Kbuild tests/qemu/em-modify/em_modify.c "$B/"
	# Kernels built with a newer gcc than the cross compiler here (trixie's gcc 14) add
	# -fmin-function-alignment, which gcc 12 lacks: its fallback, -falign-functions, is
	# used instead. Module BTF needs the kernel's pahole version: none is made (the
	# module needs none).
	if make -C "$hdr" M="$PWD/$B" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- CC=aarch64-linux-gnu-gcc \
		CONFIG_CC_HAS_MIN_FUNCTION_ALIGNMENT= CONFIG_DEBUG_INFO_BTF_MODULES= \
		modules >"$TMP/build" 2>&1 && [ -s "$B/em_modify.ko" ]; then
		pass "em_modify.ko built for $(cat "$kd/kernel-release")"
	else
		fail "em_modify.ko built for $(cat "$kd/kernel-release")" "$(tail -n 5 "$TMP/build")"
		finish; exit
	fi
fi

# The guest's steps: live with rt-app; once the collector runs (its banner), the module is loaded
# and changes the table 40 % into the live time; then the EM as the kernel has it.
kp=$("$FEECSCOPE" policies -r "$(cat "$kd/kernel-release")" 2>/dev/null | cut -f1)
[ -n "$kp" ] || { fail "a policy for $(cat "$kd/kernel-release")" "$FEECSCOPE policies -r gave none"; finish; exit; }
X=$TMP/extra && mkdir -p "$X" && cp "$B/em_modify.ko" "$X/"
cat >"$X/steps.sh" <<EOF
step em-save feecscope em --save /out/guest.em
rt-app /lab/workload.json >/out/rt-app.log 2>&1 &
w=\$!
sleep 1
feecscope live -v --duration $SECS --interval 0.5 --record /out/live.rec --csv-layout wide \
	--csv /out/live.csv --policies $kp,v5.4 >/out/live.out 2>/out/live.err &
l=\$!
i=0
while ! grep -q '^feecscope live:' /out/live.out 2>/dev/null && [ \$i -lt 600 ]; do sleep 0.2; i=\$((i + 1)); done
insmod /lab/em_modify.ko delay_ms=$((SECS * 400)) cpu=0 power_pct=$PCT 2>/out/insmod.err
wait \$l
echo \$? >/out/live.rc
kill \$w; wait
P=/sys/module/em_modify/parameters
echo "changed_ns \$(cat \$P/changed_ns)" >/out/em-modify.txt
echo "result \$(cat \$P/result)" >>/out/em-modify.txt
echo "cpu \$(cat \$P/cpu)" >>/out/em-modify.txt
(cd /sys/kernel/debug/energy_model && find . -type f | sort | while read -r f; do
	echo "\${f#./}: \$(cat "\$f")"
done) >/out/em-debugfs-after.txt 2>&1
dmesg >/out/dmesg-after.txt
EOF

run() {
	FS_LAB_EXTRA=$X tests/qemu/run-lab.sh -t 2+2 -d "$SECS" -K "$kd" -o "$D" "$@" >"$TMP/run" 2>&1
}
O=$D/out
if [ "${FS_LAB_REUSE:-0}" != 1 ] || [ ! -d "$O" ]; then
	run || { fail "guest boots and returns its files" "$(tail -n 3 "$TMP/run")"; finish; exit; }
fi
judge() {
	"$FEECSCOPE" replay "$O/live.rec" --convert-csv "$TMP/records.csv" >"$TMP/conv" 2>&1 &&
	"$FEECSCOPE" replay "$O/live.rec" --policies "$kp" --csv-layout wide --csv "$TMP/new.csv" >"$TMP/new.sum" 2>&1 &&
	grep -v '^em,\|^9,' "$TMP/records.csv" >"$TMP/old-records.csv" &&
	"$FEECSCOPE" replay "$TMP/old-records.csv" --policies "$kp" --csv-layout wide --csv "$TMP/old.csv" >"$TMP/old.sum" 2>&1
}
if [ "$(cat "$O/live.rc" 2>/dev/null)" != 0 ]; then
	fail "feecscope live ran in the guest" "exit $(cat "$O/live.rc" 2>/dev/null): $(grep -v '^libbpf' "$O/live.err" | head -c 300)"
	finish; exit
fi
judge || { fail "host replays of the recording" "$(cat "$TMP/conv" "$TMP/new.sum" "$TMP/old.sum" 2>/dev/null | head -c 400)"; finish; exit; }
if ! python3 tests/qemu/check-em-update.py "$O" "$TMP/records.csv" "$TMP/new.csv" "$TMP/old.csv" "$kp" "$PCT" "$MIN_FEEC" >"$TMP/check" &&
	grep -q 'FAIL.*feec wake-ups after the change' "$TMP/check" && [ "${FS_LAB_REUSE:-0}" != 1 ]; then
	echo "    too few feec wake-ups after the change (guest overutilized): booting it again"
	run -k || { fail "guest boots again" "$(tail -n 3 "$TMP/run")"; finish; exit; }
	judge || { fail "host replays of the recording" "$(cat "$TMP/conv" "$TMP/new.sum" "$TMP/old.sum" 2>/dev/null | head -c 400)"; finish; exit; }
	python3 tests/qemu/check-em-update.py "$O" "$TMP/records.csv" "$TMP/new.csv" "$TMP/old.csv" "$kp" "$PCT" "$MIN_FEEC" >"$TMP/check"
fi
cp "$TMP/check" "$D/check.txt"
report "$TMP/check"
finish
