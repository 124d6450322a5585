#!/usr/bin/env bash
# The arm64 EAS lab: boots Debian's arm64 6.1 kernel under qemu-system-aarch64 (TCG) on a
# big.LITTLE device tree, lets the kernel build its Energy Model and start EAS, runs
# feecscope (em, em --save, live under an rt-app workload) inside, and brings every
# output back to the host.
#
# usage: tests/qemu/run-lab.sh [-t 2+2|4+3+1] [-d SECONDS] [-o DIR] [-k] [-K KDIR]
#   -t  topology (default 2+2; 4+3+1 boots 8 vCPUs, 1+1 two)
#   -d  seconds of `feecscope live` under the workload (default 15)
#   -o  results directory (default build/lab/<topology>)
#   -k  keep the existing build/arm64/feecscope (do not run make ARCH=arm64)
#   -K  boot the kernel in KDIR (Image, cpufreq-dt.ko, kernel-release: what
#       tests/qemu/debian-kernels.sh fetch leaves) instead of fetch-guest.sh's 6.1
# Env: FS_LAB_FEECSCOPE=PATH puts another static arm64 feecscope in the guest;
#      FS_LAB_BPF_STATS=1 turns kernel.bpf_stats_enabled on before the live step, and
#      the snapshots' own clock (FS_BENCH_SELF_TIME=1: a "bpf-self:" line);
#      FS_LAB_LIVE_ARGS: extra options of the guest's `feecscope live` (default --policies <policy for the guest release>,v5.4);
#      FS_LAB_EXTRA=DIR: its files go into the guest's /lab last (a steps.sh there replaces the generated one);
#      FS_LAB_QEMU_ARGS: extra options of the guest's qemu-system-aarch64 (e.g. -icount);
#      FS_LAB_APPEND: kernel arguments after the lab's own (default skew_tick=1: each CPU's
#      tick at its own offset, which keeps QEMU's -icount turns to a tick, docs/ab.md "Turns");
#      FS_LAB_TIMEOUT: seconds the guest may take beyond -d (240; under -icount the console
#      transfer alone takes minutes); FS_LAB_NO_CSV=1: live writes no CSV (only the
#      recording comes back: half the transfer);
#      FS_LAB_UCLAMP="PREFIX MIN MAX ...": per-task clamps for the rt-app threads named PREFIX*, set
#      with tests/qemu/uclamp-set.c once rt-app runs (Debian's rt-app has no util_min/util_max).
#      FS_LAB_HOTPLUG=CPU: after the live step, a second `feecscope live` across CPU hotplug
#      (tests/qemu/hotplug.sh: CPU offline at its start, online with a 2 s spinner, offline
#      again; out/hotplug.rec and hotplug.marks for tests/qemu/check-hotplug.py).
# Results in DIR: console.log, eas.dts, dt-facts.tsv, expected-em/ (dt-to-em.py),
# out/ (the guest's files: guest-facts.txt, em-debugfs.txt, dmesg.txt, <step>.out/.rc,
# live.rec, live.csv, guest.em), vmlinux.btf (the guest kernel's BTF).
# Exit: 0 when the guest ran to the end and its files arrived intact, 1 otherwise.
set -eu
cd "$(dirname "$0")/../.."
topo=2+2 dur=15 dir= keep=0 K=
while getopts "t:d:o:kK:h" o; do
	case $o in
	t) topo=$OPTARG ;;
	d) dur=$OPTARG ;;
	o) dir=$OPTARG ;;
	k) keep=1 ;;
	K) K=$OPTARG ;;
	h) sed -n '2,/^set -eu/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
	*) exit 2 ;;
	esac
done
case $topo in
1+1) ncpu=2 ;;
2+2) ncpu=4 ;;
4+3+1) ncpu=8 ;;
*) echo "run-lab.sh: -t $topo: unknown topology (1+1, 2+2 or 4+3+1)" >&2; exit 2 ;;
esac
dir=${dir:-build/lab/$topo}
Q=build/qemu
die() { echo "run-lab.sh: $*" >&2; exit 1; }
for t in qemu-system-aarch64 dtc cpio python3; do
	command -v $t >/dev/null || die "$t not found: run tests/qemu/install-deps.sh"
done

tests/qemu/fetch-guest.sh "$Q"
K=${K:-$Q}   # the kernel's files: Image, cpufreq-dt.ko, kernel-release, vmlinux.btf
for f in Image kernel-release; do [ -s "$K/$f" ] || die "$K/$f: missing"; done
[ -s "$K/vmlinux.btf" ] && [ "$K/vmlinux.btf" -nt "$K/Image" ] ||
	python3 tests/qemu/extract-btf.py "$K/Image" "$K/vmlinux.btf"
if [ $keep -eq 0 ]; then
	make -s ARCH=arm64 >"$Q/make-arm64.log" 2>&1 || echo "run-lab.sh: make ARCH=arm64 failed (see $Q/make-arm64.log); the guest runs without feecscope" >&2
fi

rm -rf "$dir" && mkdir -p "$dir/out"
cp "$K/vmlinux.btf" "$dir/vmlinux.btf"

# Device tree: QEMU's own virt tree with our CPUs, OPPs and clocks.
qemu-system-aarch64 -M virt,dumpdtb="$dir/virt.dtb" -cpu cortex-a53 -smp $ncpu -m 1G \
	-display none -nic none >"$dir/dumpdtb.log" 2>&1 || true   # exits non-zero after dumping
[ -s "$dir/virt.dtb" ] || die "qemu did not dump the virt DT (see $dir/dumpdtb.log)"
dtc -q -I dtb -O dts "$dir/virt.dtb" -o "$dir/virt.dts"
python3 tests/qemu/make-eas-dt.py "$topo" "$dir/virt.dts" "$dir/eas.dts" "$dir/dt-facts.tsv"
dtc -q -I dts -O dtb "$dir/eas.dts" -o "$dir/eas.dtb"
python3 tests/qemu/dt-to-em.py "$dir/dt-facts.tsv" "$dir/expected-em"

# initramfs: busybox, cpufreq-dt.ko, feecscope (static), rt-app with its libraries.
R="$dir/initramfs"
mkdir -p "$R"/{bin,usr/bin,lib/modules,lib/aarch64-linux-gnu,lab,proc,sys,dev,tmp}
cp "$Q/root/user/bin/busybox" "$R/bin/busybox"
cp tests/qemu/guest-init.sh "$R/init"
[ ! -s "$K/cpufreq-dt.ko" ] || cp "$K/cpufreq-dt.ko" "$R/lib/modules/"   # none: no EM
cp "$Q/root/user/usr/bin/rt-app" "$R/usr/bin/"
cp -L "$Q"/root/user/usr/lib/aarch64-linux-gnu/libjson-c.so.5 "$R/lib/aarch64-linux-gnu/"
X=/usr/aarch64-linux-gnu/lib
cp -L $X/ld-linux-aarch64.so.1 "$R/lib/"
for l in libc.so.6 libm.so.6 libpthread.so.0 libgcc_s.so.1; do
	cp -L "$X/$l" "$R/lib/aarch64-linux-gnu/"
done
have_fs=0 fs=${FS_LAB_FEECSCOPE:-build/arm64/feecscope}
if [ -x "$fs" ] && file -L "$fs" | grep -q 'ARM aarch64.*statically linked'; then
	cp "$fs" "$R/bin/feecscope"
	have_fs=1
fi
chmod +x "$R/init"
[ -z "${FS_LAB_HOTPLUG:-}" ] || cp tests/qemu/hotplug.sh "$R/lab/hotplug.sh"
uclamp_step=
if [ -n "${FS_LAB_UCLAMP:-}" ]; then
	aarch64-linux-gnu-gcc -static -O2 -Wall -Werror -o "$R/bin/uclamp-set" tests/qemu/uclamp-set.c ||
		die "cannot build tests/qemu/uclamp-set.c for the guest"
	uclamp_step="uclamp-set $FS_LAB_UCLAMP >/out/uclamp.log 2>&1; "
fi

# Workload: small periodic tasks of a few sizes, light enough that 4-8 vCPUs on two host
# cores stay mostly below the overutilized threshold, so EAS stays in charge.
cat >"$R/lab/workload.json" <<JSON
{
	"global": { "duration": $((dur + 120)), "calibration": 100, "default_policy": "SCHED_OTHER",
		    "ftrace": false, "lock_pages": false, "logdir": "/tmp", "log_basename": "rt" },
	"tasks": {
		"tiny":   { "instance": 4, "loop": -1, "runtime": 300,  "timer": { "ref": "unique", "period": 8000 } },
		"small":  { "instance": 2, "loop": -1, "runtime": 1500, "timer": { "ref": "unique", "period": 16000 } },
		"medium": { "instance": 1, "loop": -1, "runtime": 5000, "timer": { "ref": "unique", "period": 32000 } }
	}
}
JSON
# The guest's live compares the policy feecscope picks for the guest's release
# (what the fidelity check holds the kernel to) with v5.4's margin rule.
kp=$("${FEECSCOPE:-build/feecscope}" policies -r "$(cat "$K/kernel-release")" 2>/dev/null | cut -f1)
[ -n "$kp" ] || { echo "run-lab: no policy for guest release $(cat "$K/kernel-release" 2>/dev/null)" >&2; exit 1; }
# with the BPF stats also the snapshots' own clock (FS_BENCH_SELF_TIME, lab_cost.sh)
selftime=
[ "${FS_LAB_BPF_STATS:-0}" = 1 ] && selftime="FS_BENCH_SELF_TIME=1 "
csv="--csv-layout wide --csv /out/live.csv "
[ "${FS_LAB_NO_CSV:-0}" = 1 ] && csv=
{
	echo "# generated by run-lab.sh: topology $topo, live for $dur s"
	echo "step rtapp-check rt-app /lab/workload-short.json"
	if [ $have_fs -eq 1 ]; then
		[ "${FS_LAB_BPF_STATS:-0}" = 1 ] && echo "echo 1 >/proc/sys/kernel/bpf_stats_enabled"
		echo "step em feecscope em"
		echo "step em-save feecscope em --save /out/guest.em"
		echo "step em-netlink feecscope em --em netlink"   # v6.19+: the EM without debugfs
		# rt-app runs past the collector's start-up (seconds under TCG), stopped when live ends
		echo "step live sh -c 'rt-app /lab/workload.json >/out/rt-app.log 2>&1 & w=\$!; sleep 1; ${uclamp_step}${selftime}feecscope live -v --duration $dur --record /out/live.rec ${csv}${FS_LAB_LIVE_ARGS:---policies $kp,v5.4}; r=\$?; kill \$w; wait; exit \$r'"
		# a recording of its own after the main one: hotplug rebuilds the sched domains;
		# 20 s: the run must outlast its start-up (seconds under a loaded TCG) and the
		# script's 5 s of steps by two 0.5 s reads after the CPU is offline again
		[ -z "${FS_LAB_HOTPLUG:-}" ] || echo "step hotplug sh /lab/hotplug.sh $FS_LAB_HOTPLUG 20 2"
	fi
} >"$R/lab/steps.sh"
sed -e 's/"duration": [0-9]*/"duration": 1/' "$R/lab/workload.json" >"$R/lab/workload-short.json"
[ -z "${FS_LAB_EXTRA:-}" ] || cp -r "$FS_LAB_EXTRA"/. "$R/lab/"
(cd "$R" && find . | LC_ALL=C sort | cpio -o -H newc --owner 0:0 --quiet) | gzip -1 >"$dir/initrd.cpio.gz"

# Boot. TCG on two host cores: a 4-CPU cycle takes well under a minute.
start=$(date +%s)
timeout $((dur + ${FS_LAB_TIMEOUT:-240})) qemu-system-aarch64 -M virt -cpu cortex-a53 -smp $ncpu -m 1G \
	-display none -nic none -monitor none -serial file:"$dir/console.log" -no-reboot \
	-dtb "$dir/eas.dtb" -kernel "$K/Image" -initrd "$dir/initrd.cpio.gz" \
	-append "console=ttyAMA0 loglevel=4 panic=-1 sched_verbose ${FS_LAB_APPEND-skew_tick=1}" ${FS_LAB_QEMU_ARGS:-} || rc=$?
echo "run-lab.sh: $topo guest cycle took $(($(date +%s) - start)) s${rc:+ (qemu exit $rc)}" >"$dir/cycle.txt"
cat "$dir/cycle.txt"
python3 tests/qemu/unpack-console.py "$dir/console.log" "$dir/out"
