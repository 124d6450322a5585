#!/usr/bin/env python3
"""feecscope's prediction of the margin's cost against the A/B kernels' meter.

usage: compare.py --replay DIR FEECSCOPE [--tsv OUT]   replay every recording under DIR
       compare.py PREDICTIONS.tsv RUNS.tsv              the table from committed files

For every run (tests/ab/run.sh: build/ab/<topology>/<kernel>/run<N>/out/<workload>.rec)
feecscope replays the kernel's own recording with --policies v6.1,v6.1+margin and
--json: its verdict is the margin's cost predicted from that trace, E(v6.1+margin) -
E(v6.1), with its 95 % interval, and its CPU energy estimate over the same
observation. The meter (runs.tsv, tests/ab/summarize.py) measured what the margin
really cost: B - A, paired by run index.

The table, per topology and workload: the measured B - A (mean, 95 % Student t
interval over the paired runs) and as % of A; the prediction from A's traces and
from B's traces (mean of the runs' verdicts, its 95 % interval over runs, as % of
feecscope's CPU energy); and how many runs' own bootstrap intervals were
"measurable" (excluded 0).
"""
import json
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summarize import interval, rows_from_tsv  # noqa: E402

PCOLS = ['topology', 'workload', 'kernel', 'run', 'delta_mj', 'ci_lo_mj', 'ci_hi_mj', 'measurable',
         'cpu_energy_mj', 'duration_s', 'decisions', 'differ']


def replay(root, feecscope):
    rows = []
    for topo in sorted(os.listdir(root)):
        for kernel in ('A', 'B'):
            kdir = os.path.join(root, topo, kernel)
            if not os.path.isdir(kdir):
                continue
            for run in sorted(os.listdir(kdir), key=lambda r: int(r[3:]) if r[3:].isdigit() else 0):
                out = os.path.join(kdir, run, 'out')
                if not run.startswith('run') or not run[3:].isdigit() or not os.path.isdir(out):
                    continue
                for f in sorted(os.listdir(out)):
                    if not f.endswith('.rec'):
                        continue
                    p = subprocess.run([feecscope, 'replay', os.path.join(out, f), '--policies',
                                        'v6.1,v6.1+margin', '--json', '-'],
                                       capture_output=True, text=True)
                    if p.returncode != 0:
                        sys.exit(f'compare.py: {out}/{f}: replay exit {p.returncode}: {p.stderr.strip()}')
                    d = json.loads(p.stdout)
                    v = d['verdicts'][0]
                    rows.append({'topology': topo, 'workload': f[:-4], 'kernel': kernel,
                                 'run': int(run[3:]), 'delta_mj': v['delta_mj'],
                                 'ci_lo_mj': v['ci95_mj'][0], 'ci_hi_mj': v['ci95_mj'][1],
                                 'measurable': int(v['measurable']),
                                 'cpu_energy_mj': d['cpu_energy_mj'], 'duration_s': d['duration_s'],
                                 'decisions': v['decisions'], 'differ': v['differ']})
    return rows


def read_predictions(path):
    rows = []
    with open(path) as f:
        head = f.readline().rstrip('\n').split('\t')
        if head != PCOLS:
            sys.exit(f'compare.py: {path}: header is not {PCOLS}')
        for n, line in enumerate(f, 2):
            cells = line.rstrip('\n').split('\t')
            if len(cells) != len(PCOLS):
                sys.exit(f'compare.py: {path}:{n}: {len(cells)} cells, want {len(PCOLS)}')
            r = dict(zip(PCOLS, cells))
            try:
                for k in ('run', 'measurable', 'decisions', 'differ'):
                    r[k] = int(r[k])
                for k in ('delta_mj', 'ci_lo_mj', 'ci_hi_mj', 'cpu_energy_mj', 'duration_s'):
                    r[k] = float(r[k])
            except ValueError as e:
                sys.exit(f'compare.py: {path}:{n}: {e}')
            rows.append(r)
    return rows


def fmt(m, h, digits=1):
    return f'{m:+.{digits}f}' + (f' ± {h:.{digits}f}' if h is not None else '')


def table(preds, runs):
    meter = {(r['topology'], r['workload'], r['kernel'], r['run']): r['energy_mj'] for r in runs}
    keys = sorted({(p['topology'], p['workload']) for p in preds})
    out = ['| topology | workload | runs | measured B − A mJ | measured % of A | predicted from A mJ | '
           'predicted from B mJ | predicted % of CPU (A; B) | runs measurable A; B |',
           '|---|---|---|---|---|---|---|---|---|']
    for topo, wl in keys:
        idx = sorted({p['run'] for p in preds if (p['topology'], p['workload']) == (topo, wl)})
        pairs = [(meter[(topo, wl, 'A', i)], meter[(topo, wl, 'B', i)]) for i in idx
                 if (topo, wl, 'A', i) in meter and (topo, wl, 'B', i) in meter]
        dm, dh = interval([b - a for a, b in pairs])
        am = sum(a for a, _ in pairs) / len(pairs)
        cells = []
        for k in ('A', 'B'):
            ps = [p for p in preds if (p['topology'], p['workload'], p['kernel']) == (topo, wl, k)]
            m, h = interval([p['delta_mj'] for p in ps])
            pct = 100 * sum(p['delta_mj'] for p in ps) / sum(p['cpu_energy_mj'] for p in ps)
            meas = sum(p['measurable'] for p in ps)
            cells.append((fmt(m, h), pct, f'{meas}/{len(ps)}'))
        out.append(f'| {topo} | {wl} | {len(pairs)} | {fmt(dm, dh)} | {100 * dm / am:+.1f} | {cells[0][0]} | '
                   f'{cells[1][0]} | {cells[0][1]:+.1f}; {cells[1][1]:+.1f} | {cells[0][2]}; {cells[1][2]} |')
    return '\n'.join(out)


def main(argv):
    if len(argv) >= 3 and argv[0] == '--replay':
        rows = replay(argv[1], argv[2])
        if len(argv) == 5 and argv[3] == '--tsv':
            with open(argv[4], 'w') as f:
                f.write('\t'.join(PCOLS) + '\n')
                for r in rows:
                    f.write('\t'.join(str(r[c]) for c in PCOLS) + '\n')
        print(f'compare.py: {len(rows)} recordings replayed')
        return 0
    if len(argv) == 2:
        print(table(read_predictions(argv[0]), rows_from_tsv(argv[1])))
        return 0
    sys.exit(__doc__.strip().split('\n\n')[0])


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
