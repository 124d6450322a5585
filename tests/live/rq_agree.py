#!/usr/bin/env python3
"""Do two collectors' records CSVs (`replay --convert-csv`) hold the same per-CPU
landscape? One loaded the other CPUs' struct rq fields through a BTF pointer, the other
copied them by cache line (--raw-tp). Wake-ups both saw are paired by pid and nearest
timestamp (within WINDOW_NS), and each per-CPU field is counted where the two agree.

usage: rq_agree.py LOADS.csv COPIES.csv [WINDOW_NS]
prints: pairs fields worst-field agreeing needed-percent
Each field must agree on 95 % of the pairs, a cfs_last_update_time on 80 % (it moves
with every PELT update of its CPU, as often as every microsecond on a busy one); a
field read from a wrong place would agree on next to none.
"""
import csv
import sys
from collections import defaultdict


def wakeups(path):
    try:
        with open(path) as f:
            return [r for r in csv.DictReader(l for l in f if not l.startswith('#'))
                    if r['type'] == 'wakeup']
    except OSError:
        return []


def main():
    a, b = wakeups(sys.argv[1]), wakeups(sys.argv[2])
    window = int(sys.argv[3]) if len(sys.argv) > 3 else 20000
    by_pid = defaultdict(list)
    for r in b:
        by_pid[r['pid']].append(r)
    fields = [k for k in (a[0] if a else {}) if k.startswith('cpu') and k[3].isdigit()
              and not k.endswith('_busy_ns')]
    same, pairs = defaultdict(int), 0
    for r in a:
        near = [x for x in by_pid[r['pid']] if abs(int(x['ts_ns']) - int(r['ts_ns'])) < window]
        if not near:
            continue
        x = min(near, key=lambda x: abs(int(x['ts_ns']) - int(r['ts_ns'])))
        pairs += 1
        for k in fields:
            same[k] += r[k] == x[k]
    need = {k: 80 if k.endswith('_last_update_time') else 95 for k in fields}
    worst = min(fields, key=lambda k: same[k] * 100 - need[k] * pairs) if fields else '-'
    print(pairs, len(fields), worst, same[worst] if fields else 0, need.get(worst, 95))


if __name__ == '__main__':
    main()
