#!/usr/bin/env python3
"""Where and how fast a workload's tasks ran, by slice length, from a run's trace.

usage: slices.py TRACE.gz PREFIX [MIN_MS]
From the guest's tracefs text (tests/ab/guest-steps.sh: NAME.trace.gz), between the
"fsab begin" and "fsab end" markers: for every CPU, the time tasks whose comm starts
with PREFIX (e.g. "shift", bigsmall's bursting tasks) ran in slices of at least MIN_MS
(default 5: bigsmall's 200 ms bursts) and in shorter ones, and the mean frequency
(cpu_frequency) over that time. docs/validation.md uses it on the prime CPU of
4+3+1 bigsmall. Exit 1 naming the file when it cannot be read or has no markers.
"""
import gzip
import re
import sys

SWITCH = re.compile(r'\[(\d+)\].*?\s(\d+\.\d+): sched_switch: .*?next_comm=(\S+) next_pid=(\d+)')
FREQ = re.compile(r'\s(\d+\.\d+): cpu_frequency: state=(\d+) cpu_id=(\d+)')


def scan(path, prefix, min_s):
    cur, since, freq, seg = {}, {}, {}, {}
    stats = {}  # (cpu, 'long'|'short') -> [seconds, seconds x kHz]
    state = 'before'

    def account(c, t):
        if state == 'in' and c in cur and cur[c].startswith(prefix):
            seg.setdefault(c, []).append((t - since[c], freq.get(c, 0)))
        since[c] = t

    def close(c):
        s = seg.pop(c, [])
        if s:
            d = stats.setdefault((c, 'long' if sum(x for x, _ in s) >= min_s else 'short'), [0.0, 0.0])
            d[0] += sum(x for x, _ in s)
            d[1] += sum(x * f for x, f in s)

    with gzip.open(path, 'rt') as f:
        for line in f:
            if 'fsab begin' in line:
                state = 'in'
            elif 'fsab end' in line:
                state = 'after'
                break
            m = FREQ.search(line)
            if m:
                c = int(m.group(3))
                account(c, float(m.group(1)))
                freq[c] = int(m.group(2))
                continue
            m = SWITCH.search(line)
            if m:
                c = int(m.group(1))
                account(c, float(m.group(2)))
                close(c)
                cur[c] = m.group(3)
    if state != 'after':
        raise ValueError('no "fsab begin" ... "fsab end" markers')
    return stats


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        min_ms = float(argv[2]) if len(argv) == 3 else 5.0
        stats = scan(argv[0], argv[1], min_ms / 1000)
    except (OSError, ValueError, EOFError) as e:
        print(f'slices.py: {argv[0]}: {e}', file=sys.stderr)
        return 1
    for (c, kind), (s, skhz) in sorted(stats.items()):
        print(f'cpu{c} {kind:5} {s:8.3f} s  {skhz / s / 1000 if s else 0:6.0f} MHz')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
