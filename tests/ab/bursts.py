#!/usr/bin/env python3
"""How bursts on little CPUs end, from the A/B runs' recordings.

usage: bursts.py FEECSCOPE RUNS_DIR [WORKLOAD]
For each topology and kernel under RUNS_DIR (tests/ab/run.sh's build/ab), every
recording of WORKLOAD (default bigsmall) is replayed with --policies v6.1,v6.1+margin
and the long decision CSV is read: placements the kernel made on a little CPU (the
first PD) in which the task ran more than half the time and at least 5 ms (a burst
after a small wake-up) are counted by how they ended (`until`: the next wake-up, a
balance migration, an exit), with the median time to a balance migration.
docs/validation.md uses it for what a trace of one kernel cannot show: the
balancer's misfit pull that would have ended a burst placed on a little CPU.
Exit 1 naming the file when a replay fails.
"""
import collections
import csv
import glob
import os
import subprocess
import sys


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    fs, root = argv[0], argv[1]
    work = argv[2] if len(argv) > 2 else 'bigsmall'
    little = {'2+2': {0, 1}, '4+3+1': {0, 1, 2, 3}}  # tests/qemu's topologies
    print('topology kernel bursts  CPU_s  ended_by_wakeup  ended_by_migration  median_ms_to_migration')
    for topo in sorted(little):
        for k in ('A', 'B'):
            st = collections.Counter()
            to_mig = []
            for rec in sorted(glob.glob(os.path.join(root, topo, k, 'run*', 'out', work + '.rec'))):
                p = subprocess.run([fs, 'replay', rec, '--policies', 'v6.1,v6.1+margin', '--csv', '/dev/stdout'],
                                   capture_output=True, text=True)
                if p.returncode:
                    sys.exit(f'bursts.py: {rec}: replay exit {p.returncode}: {p.stderr.strip()}')
                for r in csv.DictReader(p.stdout.splitlines()):
                    if r['is_reference'] != '1' or not r['runtime_ns']:
                        continue
                    dt, run = int(r['dt_ns']), int(r['runtime_ns'])
                    if int(r['kernel_cpu']) not in little[topo] or dt <= 0 or run <= dt / 2 or run < 5e6:
                        continue
                    st[r['until']] += 1
                    st['n'] += 1
                    st['run_ns'] += run
                    if r['until'] == 'migrate':
                        to_mig.append(dt)
            if not st['n']:
                continue
            to_mig.sort()
            med = to_mig[len(to_mig) // 2] / 1e6 if to_mig else 0
            print(f"{topo:8} {k:6} {st['n']:6} {st['run_ns'] / 1e9:6.1f} {st['wakeup']:16} {st['migrate']:19} "
                  f"{med:23.1f}")


if __name__ == '__main__':
    main(sys.argv[1:])
