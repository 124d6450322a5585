#!/usr/bin/env python3
# One sample of each task's sum_exec_runtime (the kernel's own account of the
# CPU time it got, /proc/TID/schedstat field 1, ns), bracketed by the boot
# clock tracefs uses, and the steal time of all CPUs so far (/proc/stat, in
# ns): prints "T_BEFORE T_AFTER STEAL_NS TID:NS...".
# Usage: schedstat_sample.py TID...
import os
import sys
import time

before = time.clock_gettime_ns(time.CLOCK_BOOTTIME)
vals = []
for tid in sys.argv[1:]:
    try:
        with open(f'/proc/{tid}/schedstat') as f:
            vals.append(f'{tid}:{f.read().split()[0]}')
    except OSError:
        vals.append(f'{tid}:gone')
after = time.clock_gettime_ns(time.CLOCK_BOOTTIME)
with open('/proc/stat') as f:
    cpu = f.readline().split()
steal = int(cpu[8]) * 10**9 // os.sysconf('SC_CLK_TCK') if len(cpu) > 8 else 0
print(before, after, steal, ' '.join(vals))
