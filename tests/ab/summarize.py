#!/usr/bin/env python3
"""The A/B table from every run.json under a results directory (tests/ab/run.sh)
or from a runs TSV (tests/ab/results/runs.tsv, what the docs' figures come from).

usage: summarize.py DIR|RUNS.tsv [--tsv OUT]
Per topology and workload: runs, each kernel's metered energy (mean and 95%
interval, Student t), B - A paired by run index (the two boots of one index ran
back to back) with its 95% interval and as % of A, the busy time on the PDs
above the smallest, the kernels' agreement with their own policies (summed over
runs), where v6.1 and v6.1+margin chose differently how often the kernel sided with
its own policy and with the twin, and the overutilized share of wake-ups (mean and
worst run).
--tsv writes one line per (run, kernel, topology, workload) to OUT.
"""
import glob
import json
import math
import os
import sys

# Student t, two-sided 95%, by degrees of freedom (beyond 30: 1.96).
T975 = [None, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
        2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]
COLS = ['topology', 'workload', 'kernel', 'run', 'energy_mj', 'window_s', 'busy_big_s',
        'busy_all_s', 'agree', 'counted', 'differ', 'sides_own', 'sides_twin',
        'overutilized_share', 'problems']


def interval(xs):
    """(mean, half-width of the 95% interval); half-width None below 2 values."""
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, None
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    t = T975[n - 1] if n - 1 < len(T975) else 1.96
    return m, t * sd / math.sqrt(n)


def rows_from_dir(d):
    rows = []
    for f in sorted(glob.glob(os.path.join(d, '*', '[AB]', 'run*', 'run.json'))):
        r = json.load(open(f))
        for name, w in sorted(r['workloads'].items()):
            busy = w['busy_s_per_pd']
            small = min(busy)  # PDs are named by their first CPU: cpu0 is the smallest
            a = w['agree']
            rows.append({
                'topology': r['topology'], 'workload': name, 'kernel': r['kernel'],
                'run': r['run'], 'energy_mj': w['energy_mj'], 'window_s': w['window_s'],
                'busy_big_s': sum(v for k, v in busy.items() if k != small),
                'busy_all_s': sum(busy.values()), 'agree': a['agree'], 'counted': a['counted'],
                'differ': a['differ'], 'sides_own': a['kernel_sides_with_own'],
                'sides_twin': a['kernel_sides_with_twin'],
                'overutilized_share': w['overutilized_share'],
                'problems': ';'.join(w['problems']) or '-'})
    return rows


def rows_from_tsv(path):
    rows = []
    with open(path) as fh:
        head = fh.readline().rstrip('\n').split('\t')
        if head != COLS:
            raise SystemExit(f'summarize.py: {path}: header is not {" ".join(COLS)}')
        for n, line in enumerate(fh, 2):
            f = line.rstrip('\n').split('\t')
            if len(f) != len(COLS):
                raise SystemExit(f'summarize.py: {path}:{n}: {len(f)} fields, expected {len(COLS)}')
            r = dict(zip(COLS, f))
            try:
                for k in ('run', 'agree', 'counted', 'differ', 'sides_own', 'sides_twin'):
                    r[k] = int(r[k])
                for k in ('energy_mj', 'window_s', 'busy_big_s', 'busy_all_s', 'overutilized_share'):
                    r[k] = float(r[k])
            except ValueError as e:
                raise SystemExit(f'summarize.py: {path}:{n}: {e}')
            rows.append(r)
    return rows


def fmt(m, h, digits=1):
    return f'{m:.{digits}f}' + (f' ± {h:.{digits}f}' if h is not None else '')


def table(rows):
    out = ['| topology | workload | runs A/B | A mJ | B mJ | B − A mJ (paired) | B − A % | '
           'big-PD busy s A / B | agree A (v6.1) | agree B (v6.1+margin) | '
           'policies differ: kernel sides with own / twin, A; B | overutilized % mean (max) |',
           '|---|---|---|---|---|---|---|---|---|---|---|---|']
    cases = sorted({(r['topology'], r['workload']) for r in rows})
    for topo, wl in cases:
        rs = [r for r in rows if (r['topology'], r['workload']) == (topo, wl)]
        by = {k: {r['run']: r for r in rs if r['kernel'] == k} for k in 'AB'}
        if not by['A'] or not by['B']:
            continue
        ea = interval([r['energy_mj'] for r in by['A'].values()])
        eb = interval([r['energy_mj'] for r in by['B'].values()])
        both = sorted(set(by['A']) & set(by['B']))
        diff = interval([by['B'][i]['energy_mj'] - by['A'][i]['energy_mj'] for i in both]) \
            if both else (float('nan'), None)
        pct = 100 * diff[0] / ea[0] if ea[0] else float('nan')
        big = '/'.join(f'{sum(r["busy_big_s"] for r in by[k].values()) / len(by[k]):.2f}'
                       for k in 'AB')
        agree = []
        for k in 'AB':
            a = sum(r['agree'] for r in by[k].values())
            c = sum(r['counted'] for r in by[k].values())
            agree.append(f'{100 * a / c:.2f}% of {c}' if c else '-')
        sides = '; '.join(f'{sum(r["sides_own"] for r in by[k].values())}/'
                          f'{sum(r["sides_twin"] for r in by[k].values())}' for k in 'AB')
        ou = [r['overutilized_share'] for r in rs]
        out.append(f'| {topo} | {wl} | {len(by["A"])}/{len(by["B"])} | {fmt(*ea)} | {fmt(*eb)} | '
                   f'{fmt(*diff)} | {pct:+.1f} | {big} | {agree[0]} | {agree[1]} | {sides} | '
                   f'{100 * sum(ou) / len(ou):.1f} ({100 * max(ou):.1f}) |')
    return '\n'.join(out)


def main(argv):
    tsv = None
    if '--tsv' in argv:
        i = argv.index('--tsv')
        tsv = argv[i + 1]
        del argv[i:i + 2]
    if len(argv) != 1:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    src = argv[0]
    rows = rows_from_dir(src) if os.path.isdir(src) else rows_from_tsv(src)
    if not rows:
        print(f'summarize.py: {src}: no runs', file=sys.stderr)
        return 1
    if tsv:
        with open(tsv, 'w') as fh:
            fh.write('\t'.join(COLS) + '\n')
            for r in sorted(rows, key=lambda r: (r['topology'], r['workload'], r['kernel'], r['run'])):
                fh.write('\t'.join(f'{r[c]:.6f}' if isinstance(r[c], float) else str(r[c])
                                   for c in COLS) + '\n')
    print(table(rows))
    bad = [r for r in rows if r['problems'] != '-']
    for r in bad:
        print(f'\n{r["topology"]} {r["kernel"]} run {r["run"]} {r["workload"]}: {r["problems"]}')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
