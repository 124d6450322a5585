#!/usr/bin/env python3
"""docs/validation.md's tables and plot, recomputed from the committed fixtures.

usage: validation.py table [FIXTURES]           the comparison (Markdown)
       validation.py analysis [FIXTURES]        where the energy went (Markdown)
       validation.py pd [FIXTURES]              the same per PD, bigsmall (Markdown)
       validation.py moved [FIXTURES]           CPU time the policies place apart, by PD
       validation.py check DOC [FIXTURES]       exit 1 if DOC's generated blocks differ
       validation.py write DOC [FIXTURES]       rewrite DOC's generated blocks
       validation.py plot OUT.png [FIXTURES]    the figure of docs/validation.md
FIXTURES defaults to tests/ab/fixtures/runs (tests/ab/fixture.py writes it: one JSON
per topology, kernel and run). B - A is paired by run index (the two boots of an
index ran back to back); intervals are 95 %, Student t over runs. A generated block
in DOC sits between `<!-- validation:NAME -->` and `<!-- /validation:NAME -->`.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summarize import interval  # noqa: E402
import pngplot  # noqa: E402

DEFAULT = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'fixtures', 'runs')
WORKLOADS = ('bigsmall', 'phone', 'light')


def die(msg):
    sys.exit(f'validation.py: {msg}')


def need(d, path, keys):
    for k in keys:
        if k not in d:
            die(f'{path}: no field "{k}"')
    return d


def load(root):
    """{(topology, workload): {'A': {run: w}, 'B': {run: w}}}"""
    cases = {}
    if not os.path.isdir(root):
        die(f'{root}: no such directory (tests/ab/fixture.py writes it)')
    for topo in sorted(os.listdir(root)):
        for f in sorted(os.listdir(os.path.join(root, topo))):
            if not f.endswith('.json'):
                continue
            path = os.path.join(root, topo, f)
            try:
                with open(path) as fh:
                    r = json.load(fh)
            except (OSError, ValueError) as e:
                die(f'{path}: {e}')
            need(r, path, ('topology', 'kernel', 'run', 'workloads'))
            if r['kernel'] not in ('A', 'B') or r['topology'] != topo:
                die(f'{path}: kernel "{r["kernel"]}", topology "{r["topology"]}" do not match the file')
            for wl, w in r['workloads'].items():
                for part, keys in (('meter', ('energy_mj', 'pd')),
                                   ('feecscope', ('delta_mj', 'differ', 'decisions')),
                                   ('kernel', ('pd_changes', 'placements_known', 'overutilized_share')),
                                   ('moved', ('cpu_s', 'lab_mj', 'scaled_mj'))):
                    need(need(w, f'{path} {wl}', (part,))[part], f'{path} {wl}.{part}', keys)
                cases.setdefault((topo, wl), {'A': {}, 'B': {}})[r['kernel']][r['run']] = w
    if not cases:
        die(f'{root}: no fixtures')
    return cases


def order(cases):
    return sorted(cases, key=lambda k: (k[0], WORKLOADS.index(k[1]) if k[1] in WORKLOADS else 9, k[1]))


def paired(case):
    idx = sorted(set(case['A']) & set(case['B']))
    return [(case['A'][i], case['B'][i]) for i in idx]


def smallest_pd(w):
    return min(w['meter']['pd'].items(), key=lambda kv: kv[1]['capacity'])[0]


def big_share(w):
    pd = w['meter']['pd']
    small = smallest_pd(w)
    total = sum(p['busy_s'] for p in pd.values())
    return sum(p['busy_s'] for n, p in pd.items() if n != small) / total if total else 0.0


def mean(xs):
    return sum(xs) / len(xs)


def pm(m, h, digits=1, sign=True):
    s = f'{m:+.{digits}f}' if sign else f'{m:.{digits}f}'
    return s + (f' ± {h:.{digits}f}' if h is not None else '')


def case_figures(case):
    pairs = paired(case)
    d = [b['meter']['energy_mj'] - a['meter']['energy_mj'] for a, b in pairs]
    f = {'runs': len(pairs), 'measured': interval(d),
         'a_mj': mean([a['meter']['energy_mj'] for a, _ in pairs])}
    for k, j in (('A', 0), ('B', 1)):
        ws = [p[j] for p in pairs]
        f['pred_' + k] = interval([w['feecscope']['delta_mj'] for w in ws])
        f['differ_' + k] = mean([w['feecscope']['differ'] for w in ws])
        f['pdchg_' + k] = mean([w['kernel']['pd_changes'] for w in ws])
        f['big_' + k] = mean([big_share(w) for w in ws])
        f['over_' + k] = mean([w['kernel']['overutilized_share'] for w in ws])
        f['overmax_' + k] = max(w['kernel']['overutilized_share'] for w in ws)
        f['lab_' + k] = interval([w['moved']['lab_mj'] for w in ws])
        f['scaled_' + k] = interval([w['moved']['scaled_mj'] for w in ws])
        f['moved_' + k] = mean([sum(w['moved']['cpu_s'].values()) for w in ws])
    # E = sum over PDs of busy x price: B - A = busy shift at A's prices + B's busy x price change
    shift = freq = 0.0
    for a, b in pairs:
        for n, pa in a['meter']['pd'].items():
            pb = b['meter']['pd'][n]
            price_a = pa['energy_mj'] / pa['busy_s'] if pa['busy_s'] else 0.0
            price_b = pb['energy_mj'] / pb['busy_s'] if pb['busy_s'] else 0.0
            shift += (pb['busy_s'] - pa['busy_s']) * price_a
            freq += pb['busy_s'] * (price_b - price_a)
    f['shift'] = shift / len(pairs)
    f['freq'] = freq / len(pairs)
    f['busy_all'] = [mean([sum(p['busy_s'] for p in w['meter']['pd'].values()) for w in
                           [q[j] for q in pairs]]) for j in (0, 1)]
    return f


def inside(m, h, x):
    return h is not None and m - h <= x <= m + h


def table(cases):
    out = ['| topology | workload | runs | measured B − A mJ | % of A | predicted from A mJ | '
           'predicted from B mJ | inside (A; B) | decisions differ A; B | kernel PD changes A; B | '
           'big-PD busy % A; B | overutilized % A; B, mean (max) |',
           '|---|---|---|---|---|---|---|---|---|---|---|---|']
    for key in order(cases):
        f = case_figures(cases[key])
        if not f['runs']:
            continue
        m, h = f['measured']
        ins = '; '.join('yes' if inside(m, h, f['pred_' + k][0]) else 'no' for k in 'AB')
        out.append(f'| {key[0]} | {key[1]} | {f["runs"]} | {pm(m, h)} | {100 * m / f["a_mj"]:+.1f} | '
                   f'{pm(*f["pred_A"])} | {pm(*f["pred_B"])} | {ins} | '
                   f'{f["differ_A"]:.0f}; {f["differ_B"]:.0f} | {f["pdchg_A"]:.0f}; {f["pdchg_B"]:.0f} | '
                   f'{100 * f["big_A"]:.1f}; {100 * f["big_B"]:.1f} | '
                   f'{100 * f["over_A"]:.1f} ({100 * f["overmax_A"]:.1f}); '
                   f'{100 * f["over_B"]:.1f} ({100 * f["overmax_B"]:.1f}) |')
    return '\n'.join(out)


def analysis(cases):
    out = ['| topology | workload | measured B − A mJ | busy shift at A\'s prices | price change | '
           'busy s A; B | CPU s the policies place apart, A; B | lab physics from A | lab physics from B | '
           'capacity-scaled from A; B | feecscope from A; B |',
           '|---|---|---|---|---|---|---|---|---|---|---|']
    for key in order(cases):
        f = case_figures(cases[key])
        if not f['runs']:
            continue
        out.append(f'| {key[0]} | {key[1]} | {pm(*f["measured"])} | {f["shift"]:+.1f} | {f["freq"]:+.1f} | '
                   f'{f["busy_all"][0]:.2f}; {f["busy_all"][1]:.2f} | '
                   f'{f["moved_A"]:.2f}; {f["moved_B"]:.2f} | {pm(*f["lab_A"])} | {pm(*f["lab_B"])} | '
                   f'{f["scaled_A"][0]:+.1f}; {f["scaled_B"][0]:+.1f} | '
                   f'{f["pred_A"][0]:+.1f}; {f["pred_B"][0]:+.1f} |')
    return '\n'.join(out)


def per_pd(cases):
    out = ['| topology | workload | PD (capacity) | busy s A; B | mean busy power mW A; B | '
           'busy-weighted MHz A; B | busy shift × A\'s price mJ | B\'s busy × price change mJ |',
           '|---|---|---|---|---|---|---|---|']
    for key in order(cases):
        pairs = paired(cases[key])
        if not pairs or key[1] != 'bigsmall':
            continue
        for n in sorted(pairs[0][0]['meter']['pd'], key=lambda n: pairs[0][0]['meter']['pd'][n]['capacity']):
            a = [x['meter']['pd'][n] for x, _ in pairs]
            b = [y['meter']['pd'][n] for _, y in pairs]
            price = lambda p: p['energy_mj'] / p['busy_s'] if p['busy_s'] else 0.0  # noqa: E731
            shift = mean([(q['busy_s'] - p['busy_s']) * price(p) for p, q in zip(a, b)])
            freq = mean([q['busy_s'] * (price(q) - price(p)) for p, q in zip(a, b)])
            out.append(f'| {key[0]} | {key[1]} | {n} ({a[0]["capacity"]}) | '
                       f'{mean([p["busy_s"] for p in a]):.2f}; {mean([p["busy_s"] for p in b]):.2f} | '
                       f'{mean([price(p) for p in a]):.0f}; {mean([price(p) for p in b]):.0f} | '
                       f'{mean([p["mean_khz"] for p in a]) / 1000:.0f}; {mean([p["mean_khz"] for p in b]) / 1000:.0f} | '
                       f'{shift:+.1f} | {freq:+.1f} |')
    return '\n'.join(out)


def moved(cases):
    out = ['| topology | workload | v6.1\'s PD > v6.1+margin\'s PD | CPU s per run in A\'s recordings | '
           'in B\'s recordings |', '|---|---|---|---|---|']
    for key in order(cases):
        pairs = paired(cases[key])
        if not pairs or key[1] != 'bigsmall':
            continue
        keys = sorted({k for a, b in pairs for w in (a, b) for k in w['moved']['cpu_s']})
        for k in keys:
            ma = mean([a['moved']['cpu_s'].get(k, 0.0) for a, _ in pairs])
            mb = mean([b['moved']['cpu_s'].get(k, 0.0) for _, b in pairs])
            if ma >= 0.005 or mb >= 0.005:
                out.append(f'| {key[0]} | {key[1]} | {k} | {ma:.2f} | {mb:.2f} |')
    return '\n'.join(out)


BLOCKS = {'table': table, 'analysis': analysis, 'pd': per_pd, 'moved': moved}


def blocks_of(doc_path):
    try:
        with open(doc_path) as f:
            text = f.read()
    except OSError as e:
        die(f'{doc_path}: {e}')
    found = {}
    for name in BLOCKS:
        a, b = f'<!-- validation:{name} -->\n', f'<!-- /validation:{name} -->'
        i, j = text.find(a), text.find(b)
        if i < 0 or j < i:
            die(f'{doc_path}: no block "{a.strip()}" ... "{b}"')
        found[name] = (i + len(a), j)
    return text, found


def check(doc_path, cases):
    text, found = blocks_of(doc_path)
    bad = 0
    for name, (i, j) in found.items():
        want = BLOCKS[name](cases) + '\n'
        if text[i:j] != want:
            bad += 1
            have = text[i:j].splitlines()
            for n, line in enumerate(want.splitlines()):
                if n >= len(have) or have[n] != line:
                    print(f'{doc_path}: block "{name}" line {n + 1}:\n  doc:      '
                          f'{have[n] if n < len(have) else "(missing)"}\n  fixtures: {line}', file=sys.stderr)
                    break
            else:
                print(f'{doc_path}: block "{name}" has extra lines', file=sys.stderr)
    return 1 if bad else 0


def write(doc_path, cases):
    text, found = blocks_of(doc_path)
    for name, (i, j) in sorted(found.items(), key=lambda kv: -kv[1][0]):
        text = text[:i] + BLOCKS[name](cases) + '\n' + text[j:]
    with open(doc_path, 'w') as f:
        f.write(text)
    return 0


def plot(out_png, cases):
    rows = []
    for key in order(cases):
        f = case_figures(cases[key])
        if f['runs']:
            rows.append((f'{key[0]} {key[1]}'.upper(), f['measured'], f['pred_A'][0], f['pred_B'][0], f['lab_B'][0]))
    pngplot.bars(out_png, rows, ('MEASURED B-A (95%)', 'FEECSCOPE FROM A', 'FEECSCOPE FROM B',
                                 'LAB PHYSICS FROM B'), 'B - A, mJ')
    return 0


def main(argv):
    if not argv or argv[0] not in ('table', 'analysis', 'pd', 'moved', 'check', 'write', 'plot'):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    cmd = argv[0]
    needs_path = cmd in ('check', 'write', 'plot')
    if len(argv) < 1 + needs_path or len(argv) > 2 + needs_path:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    root = argv[1 + needs_path] if len(argv) == 2 + needs_path else DEFAULT
    cases = load(root)
    if cmd in BLOCKS:
        print(BLOCKS[cmd](cases))
        return 0
    return {'check': check, 'write': write, 'plot': plot}[cmd](argv[1], cases)


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
