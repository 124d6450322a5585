#!/usr/bin/env python3
"""Compare an EM saved by `feecscope em --save` with the EM the device tree implies
(the debugfs-layout tree dt-to-em.py wrote): capacities, PD spans, flags, and every
state's frequency, power, cost and inefficient flag. Independent of feecscope's reader.

usage: check-em.py SAVED.em EXPECTED_DIR
Prints one line per difference ("cpu2 ps:903000 cost: saved 636557, DT implies 636556")
and exits 1 if there is any, 0 if the two are equal.
"""
import os
import sys


def read_expected(d):
    caps, pds = {}, {}
    for c in os.listdir(os.path.join(d, 'cpus')):
        caps[int(c[3:])] = int(open(os.path.join(d, 'cpus', c, 'cpu_capacity')).read())
    for name in os.listdir(d):
        if not name.startswith('cpu') or name == 'cpus':
            continue
        p = os.path.join(d, name)
        rd = lambda *f: open(os.path.join(p, *f)).read().strip()
        states = {}
        for ps in os.listdir(p):
            if ps.startswith('ps:'):
                states[int(rd(ps, 'frequency'))] = {
                    k: int(rd(ps, k)) for k in ('power', 'cost', 'inefficient')}
        pds[rd('cpus')] = {'flags': int(rd('flags'), 16), 'states': states, 'name': name}
    return caps, pds


def read_saved(path):
    caps, pds, cur = {}, {}, None
    for line in open(path):
        w = line.split()
        if not w or w[0].startswith('#'):
            continue
        if w[0] == 'capacity':
            caps[int(w[1])] = int(w[2])
        elif w[0] == 'pd':
            kv = dict(x.split('=', 1) for x in w[2:])
            cur = {'flags': int(kv['flags'], 0), 'states': {}, 'name': w[1]}
            pds[kv['cpus']] = cur
        elif w[0] == 'ps' and cur is not None:
            kv = dict(x.split('=', 1) for x in w[1:])
            cur['states'][int(kv['frequency'])] = {
                k: int(kv[k]) for k in ('power', 'cost', 'inefficient')}
    return caps, pds


def main(saved, expected):
    ecaps, epds = read_expected(expected)
    scaps, spds = read_saved(saved)
    diffs = []
    if scaps != ecaps:
        diffs.append(f'capacities: saved {scaps}, DT implies {ecaps}')
    if set(spds) != set(epds):
        diffs.append(f'PD spans: saved {sorted(spds)}, DT implies {sorted(epds)}')
    for span in sorted(set(spds) & set(epds)):
        s, e = spds[span], epds[span]
        if s['flags'] != e['flags']:
            diffs.append(f'{e["name"]} flags: saved {s["flags"]:#x}, DT implies {e["flags"]:#x}')
        if set(s['states']) != set(e['states']):
            diffs.append(f'{e["name"]} frequencies: saved {sorted(s["states"])}, '
                         f'DT implies {sorted(e["states"])}')
        for f in sorted(set(s['states']) & set(e['states'])):
            for k in ('power', 'cost', 'inefficient'):
                if s['states'][f][k] != e['states'][f][k]:
                    diffs.append(f'{e["name"]} ps:{f} {k}: saved {s["states"][f][k]}, '
                                 f'DT implies {e["states"][f][k]}')
    for d in diffs:
        print(d)
    if not spds:
        print(f'{saved}: no "pd" lines: not an EM saved by feecscope em --save')
        return 1
    return 1 if diffs else 0


if __name__ == '__main__':
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
