#!/bin/busybox sh
# In the lab guest (run-lab.sh with FS_LAB_HOTPLUG=CPU): CPU hotplug under
# `feecscope live`. CPU goes offline before live starts, comes online during the
# run and runs a pinned spinner for SPIN seconds, then goes offline again.
# The times of each change (/proc/uptime: CLOCK_BOOTTIME, the recording's
# clock) go to /out/hotplug.marks for tests/qemu/check-hotplug.py.
# usage: hotplug.sh CPU SECONDS SPIN
c=$1 d=$2 spin=$3
on=/sys/devices/system/cpu/cpu$c/online
up() { cut -d' ' -f1 /proc/uptime; }
mark() { echo "$1 $(up)" >>/out/hotplug.marks; }
: >/out/hotplug.marks
echo 0 >"$on" || { echo "cannot offline CPU $c" >&2; exit 1; }
mark first-offline
echo "online $(cat /sys/devices/system/cpu/online) at the start" >&2
feecscope live -v -i 0.5 --duration "$d" --record /out/hotplug.rec >/out/hotplug-live.out 2>/out/hotplug-live.err &
l=$!
# live's banner: the busy-time map is armed and read once (start-up is 1-3 s under TCG)
i=0
while [ $i -lt 300 ] && ! grep -q '^feecscope live: kernel' /out/hotplug-live.out; do
	sleep 0.1; i=$((i + 1))
done
sleep 2
mark online-begin
echo 1 >"$on" || { echo "cannot online CPU $c" >&2; kill $l; exit 1; }
mark online-end
timeout "$spin" taskset -c "$c" sh -c 'while :; do :; done'
mark spin-end
sleep 1
mark offline-begin
echo 0 >"$on" || { echo "cannot offline CPU $c again" >&2; kill $l; exit 1; }
mark offline-end
wait $l
r=$?
echo 1 >"$on"
exit $r
