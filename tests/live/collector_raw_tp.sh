#!/usr/bin/env bash
# The path a kernel without /sys/kernel/btf/vmlinux takes (many Android
# kernels): CO-RE relocated against an external BTF file (--btf, here a copy
# of this kernel's own) and raw_tp programs that probe-read every task field
# (--raw-tp, since this kernel would allow tp_btf). collector.sh's checks,
# plus one that the events really attached as raw_tp.
HERE=$(cd "$(dirname "$0")" && pwd)
if [ ! -r /sys/kernel/btf/vmlinux ]; then
	echo "FAIL raw_tp collector: this kernel has no /sys/kernel/btf/vmlinux to copy"
	echo "0 passed, 1 failed"; exit 1
fi
BTF=$(mktemp) && trap 'rm -f "$BTF"' EXIT
cp /sys/kernel/btf/vmlinux "$BTF"
FS_LIVE_ARGS="--btf $BTF --raw-tp" FS_EXPECT_EVENTS=raw_tp bash "$HERE/collector.sh"
