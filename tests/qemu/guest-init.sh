#!/bin/busybox sh
# /init of the lab guest: bring up the EAS pieces (debugfs, tracefs, cpufreq-dt -> EM ->
# EAS), record what the kernel built, run the steps run-lab.sh put in /lab/steps.sh,
# then send every file of /out back over the console as base64 and power off.
/bin/busybox --install -s /bin
export PATH=/bin:/usr/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t debugfs none /sys/kernel/debug
mount -t tracefs none /sys/kernel/tracing 2>/dev/null
mount -t tmpfs none /tmp
# Kernel messages must not cut into the base64 stream on the console.
echo 1 >/proc/sys/kernel/printk
mkdir -p /out

# The EM appears when cpufreq-dt registers each policy; EAS starts once every
# policy has one (rebuild of the sched domains).
insmod /lib/modules/cpufreq-dt.ko
i=0
while [ $i -lt 50 ] && [ ! -d /sys/kernel/debug/energy_model/cpu0 ]; do
	sleep 0.1; i=$((i + 1))
done
sleep 0.5

{
	echo "release $(uname -r)"
	echo "nproc $(nproc)"
	echo "sched_energy_aware $(cat /proc/sys/kernel/sched_energy_aware 2>&1)"
	for p in /sys/devices/system/cpu/cpufreq/policy*; do
		echo "policy ${p##*/} cpus=$(cat $p/related_cpus | tr ' ' ,) governor=$(cat $p/scaling_governor) max=$(cat $p/cpuinfo_max_freq)"
	done
	for c in /sys/devices/system/cpu/cpu[0-9]*; do
		echo "capacity ${c##*/} $(cat $c/cpu_capacity)"
	done
	for d in /sys/kernel/debug/sched/domains/cpu0/domain*; do
		echo "domain0 ${d##*/} $(cat $d/name) $(cat $d/flags)"
	done
} >/out/guest-facts.txt 2>&1
# The kernel's EM tree as "path: value" lines, for the host to compare with the DT.
(cd /sys/kernel/debug/energy_model && find . -type f | sort | while read -r f; do
	echo "${f#./}: $(cat "$f")"
done) >/out/em-debugfs.txt 2>&1
dmesg >/out/dmesg.txt

# mark NAME: "@@STEP NAME <uptime>" on the console, so a guest that never finishes
# says where it stopped (unpack-console.py names the last mark).
mark() {
	echo "@@STEP $1 $(cut -d' ' -f1 /proc/uptime)"
}
# step NAME CMD...: run CMD; stdout in /out/NAME.out, stderr in /out/NAME.err, exit code in /out/NAME.rc.
step() {
	n=$1; shift
	mark "$n"
	"$@" >/out/$n.out 2>/out/$n.err
	echo $? >/out/$n.rc
}
# While the steps run, errors and worse (a soft lockup, an RCU stall, a panic) reach
# the console; the base64 stream after them may not be cut, so back to 1 for it.
echo 4 >/proc/sys/kernel/printk
[ -f /lab/steps.sh ] && . /lab/steps.sh
echo 1 >/proc/sys/kernel/printk
mark files

echo "@@LAB-BEGIN"
for f in /out/*; do
	[ -f "$f" ] || continue
	echo "@@FILE ${f##*/} $(wc -c <"$f") $(md5sum <"$f" | cut -d' ' -f1)"
	base64 "$f"
	echo "@@END"
done
echo "@@LAB-DONE"
poweroff -f
