#!/usr/bin/env python3
"""docs/validation.md's tables and plot, recomputed from the committed fixtures.

usage: validation.py table [FIXTURES]           the comparison (Markdown)
       validation.py analysis [FIXTURES]        where the energy went (Markdown)
       validation.py pd [FIXTURES]              the same per PD, bigsmall (Markdown)
       validation.py moved [FIXTURES]           CPU time the policies place apart, by PD
       validation.py coverage [FIXTURES]        the intervals' coverage across runs
       validation.py collector [FIXTURES]       CPU energy and simulation against the
                                                meter without feecscope's own threads
       validation.py denominator [FIXTURES]     CPU energy against the meter, run by run
                                                (runs with busy time at each frequency)
       validation.py check DOC [FIXTURES]       exit 1 if DOC's generated blocks differ
       validation.py write DOC [FIXTURES]       rewrite DOC's generated blocks
       validation.py plot OUT.png [FIXTURES]    the figure of docs/validation.md
Without FIXTURES: three sets, the device-physics runs (tests/ab/fixtures/runs-device,
tests/ab/run.sh -r: work takes time in inverse proportion to capacity x frequency)
first, then the lab-physics runs (tests/ab/fixtures/runs, rt-app under -icount), then
the device-physics runs under skew_tick=1 with frequency records
(tests/ab/fixtures/runs-device-skew: its blocks `skew-table` and
`skew-coverage`); `table` prints all, check/write/plot use all (the device blocks are
named `device-NAME`; the device set also holds the `device-denominator` block: its
collector recorded busy time at each frequency). With FIXTURES: that set only, as
the lab's blocks. tests/ab/fixture.py
writes a set: one JSON per topology, kernel and run. B - A is paired by run index
(the two boots of an index ran back to back); intervals are 95 %, Student t over runs.
A generated block in DOC sits between `<!-- validation:NAME -->` and
`<!-- /validation:NAME -->`.
"""
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summarize import interval  # noqa: E402
import pngplot  # noqa: E402

DEFAULT = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'fixtures', 'runs')
DEFAULT_DEVICE = DEFAULT + '-device'
DEFAULT_SKEW = DEFAULT + '-device-skew'
WORKLOADS = ('bigsmall', 'phone', 'light', 'frame')


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
                if 'sim' in w:  # the closed-loop simulation (issue 29): fixtures since issue 30
                    need(w['sim'], f'{path} {wl}.sim', ('physics', 'delta_mj', 'own_mj'))
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
    f.update(sim_figures(pairs))
    f['shift'] = shift / len(pairs)
    f['freq'] = freq / len(pairs)
    f['busy_all'] = [mean([sum(p['busy_s'] for p in w['meter']['pd'].values()) for w in
                           [q[j] for q in pairs]]) for j in (0, 1)]
    return f


def sim_figures(pairs):
    """The closed-loop simulation's B - A per kernel's recordings and its own policy's
    energy against the meter (None where a fixture has no simulation); feecscope's CPU
    energy against the meter, per run, both kernels."""
    f = {}
    for k, j in (('A', 0), ('B', 1)):
        ws = [p[j] for p in pairs]
        have = all('sim' in w for w in ws)
        f['sim_' + k] = interval([w['sim']['delta_mj'] for w in ws]) if have else None
        f['simown_' + k] = mean([100 * (w['sim']['own_mj'] / w['meter']['energy_mj'] - 1)
                                 for w in ws]) if have else None
        f['simwork_' + k] = mean([100 * (w['sim']['own_mj'] / workload_mj(w) - 1) for w in ws]) \
            if have and all(workload_mj(w) for w in ws) else None
    ws = [w for p in pairs for w in p]
    f['denom'] = [100 * w['feecscope']['cpu_energy_mj'] / denominator_meter_mj(w) for w in ws]
    f['denom_wall'] = [100 * w['feecscope']['cpu_energy_wall_mj'] / w['meter']['energy_mj']
                       for w in ws if 'cpu_energy_wall_mj' in w['feecscope']]
    split = all(workload_mj(w) for w in ws)  # a case's runs all have the collector's share, or none counts
    f['denom_work'] = [100 * w['feecscope']['cpu_energy_mj'] / workload_mj(w) for w in ws] if split else []
    f['collector'] = [100 * w['meter']['collector_mj'] / w['meter']['energy_mj'] for w in ws] if split else []
    return f


def denominator_meter_mj(w):
    """The meter to hold feecscope's CPU energy against: over the same window where the
    fixture has it (recordings with the collector's busy time at each frequency)."""
    dw = w['meter'].get('denominator_window')
    return dw['energy_mj'] if dw else w['meter']['energy_mj']


def denominator_block(cases):
    """The CPU-energy denominator against the meter, run by run, where feecscope's busy time
    comes from the collector's own sched_switch spans at each frequency (bpf/busyfreq.bpf.c)."""
    out = ['| topology | workload | runs (A + B) | CPU energy % of meter, same window: lowest - highest | '
           'within 5 % | within 2 % | % of meter over the workload\'s markers |',
           '|---|---|---|---|---|---|---|']
    alls = []
    for key in order(cases):
        ws = [w for k in 'AB' for w in cases[key][k].values()]
        if not ws:
            continue
        if any('denominator_window' not in w['meter'] for w in ws):
            die(f'{key[0]} {key[1]}: a run without the denominator\'s window (no busyfreq records?)')
        same = [100 * w['feecscope']['cpu_energy_mj'] / denominator_meter_mj(w) for w in ws]
        marks = [100 * w['feecscope']['cpu_energy_mj'] / w['meter']['energy_mj'] for w in ws]
        alls += same
        out.append(f'| {key[0]} | {key[1]} | {len(ws)} | {min(same):.1f} - {max(same):.1f} | {within(same)} | '
                   f'{within(same, 2.0)} | {min(marks):.1f} - {max(marks):.1f} |')
    out.append(f'| all | all | {len(alls)} | {min(alls):.1f} - {max(alls):.1f} | {within(alls)} | '
               f'{within(alls, 2.0)} | |')
    return '\n'.join(out)


def workload_mj(w):
    """The meter's energy without the collector's own threads, which feecscope leaves out
    of what it records (None for fixtures made before the meter split them off)."""
    m = w['meter']
    return m['energy_mj'] - m['collector_mj'] if 'collector_mj' in m else None


def span(xs):
    return f'{min(xs):.0f} - {max(xs):.0f}' if xs else '–'


def yes_no(m, h, xs):
    """'yes; no': each x inside the measured interval; '–' without one (a single run)."""
    return '; '.join('–' if h is None else 'yes' if inside(m, h, x) else 'no' for x in xs)


def inside(m, h, x):
    return h is not None and m - h <= x <= m + h


def table(cases):
    out = ['| topology | workload | runs | measured B − A mJ | % of A (goal: ± ≤ 5) | predicted from A mJ | '
           'predicted from B mJ | inside (A; B) | decisions differ A; B | kernel PD changes A; B | '
           'big-PD busy % A; B | overutilized % A; B, mean (max) | sim B − A from A; B mJ | '
           'sim inside (A; B) | sim of own policy vs meter %, A on A; B on B | CPU energy % of meter |',
           '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|']
    for key in order(cases):
        f = case_figures(cases[key])
        if not f['runs']:
            continue
        m, h = f['measured']
        ins = yes_no(m, h, [f['pred_' + k][0] for k in 'AB'])
        out.append(f'| {key[0]} | {key[1]} | {f["runs"]} | {pm(m, h)} | {pm(100 * m / f["a_mj"], h and 100 * h / f["a_mj"])} | '
                   f'{pm(*f["pred_A"])} | {pm(*f["pred_B"])} | {ins} | '
                   f'{f["differ_A"]:.0f}; {f["differ_B"]:.0f} | {f["pdchg_A"]:.0f}; {f["pdchg_B"]:.0f} | '
                   f'{100 * f["big_A"]:.1f}; {100 * f["big_B"]:.1f} | '
                   f'{100 * f["over_A"]:.1f} ({100 * f["overmax_A"]:.1f}); '
                   f'{100 * f["over_B"]:.1f} ({100 * f["overmax_B"]:.1f}) | {sim_cells(f, m, h)} | '
                   f'{span(f["denom"])} |')
    return '\n'.join(out)


def sim_cells(f, m, h):
    if f['sim_A'] is None or f['sim_B'] is None:
        return '– | – | –'
    ins = yes_no(m, h, [f['sim_' + k][0] for k in 'AB'])
    return f'{f["sim_A"][0]:+.1f}; {f["sim_B"][0]:+.1f} | {ins} | {f["simown_A"]:+.1f}; {f["simown_B"]:+.1f}'


def loo_covers(xs, i):
    """Run i's interval covers the other runs' mean: |x_i - mean(others)| within
    t(n - 2) x sd(others) x sqrt(1 + 1/(n - 1)), the 95 % interval of one run's value
    (its spread estimated from the others). None below 3 runs."""
    rest = xs[:i] + xs[i + 1:]
    if len(rest) < 2:
        return None
    m, h = interval(rest)  # h = t x sd / sqrt(n - 1)
    return abs(xs[i] - m) <= h * math.sqrt(len(rest) + 1)


def covers_others(ws, get):
    """(runs whose interval holds the other runs' mean, runs counted); get(w) gives
    (value, [lo, hi] or None). None where a fixture has no such interval field at all."""
    vals = [get(w) for w in ws]
    if any(v is None for v in vals):
        return None
    ok = 0
    for i, (_, ci) in enumerate(vals):
        others = [x for n, (x, _) in enumerate(vals) if n != i]
        lo, hi = ci or (None, None)
        ok += bool(others) and lo is not None and lo <= mean(others) <= hi
    return ok, (len(ws) if len(ws) > 1 else 0)


def per_decision_ci(w):
    return w['feecscope']['delta_mj'], w['feecscope']['ci95_mj']


def sim_ci(w):
    s = w.get('sim')
    return (s['delta_mj'], s['ci95_mj']) if s and 'ci95_mj' in s else None


def coverage(cases):
    out = ['| topology | workload | runs | measured B − A: a run\'s interval covers the others\' mean | '
           'feecscope\'s interval covers the others\' mean, A\'s; B\'s recordings | '
           'the simulation\'s interval covers the others\' mean, A\'s; B\'s recordings | '
           'CPU energy % of meter, busy-weighted; wall-time residency |',
           '|---|---|---|---|---|---|---|']
    tot = {'loo': [0, 0], 'fs': [0, 0], 'sim': [0, 0]}
    sim_all = True
    for key in order(cases):
        pairs = paired(cases[key])
        if not pairs:
            continue
        d = [b['meter']['energy_mj'] - a['meter']['energy_mj'] for a, b in pairs]
        cov = [c for c in (loo_covers(d, i) for i in range(len(d))) if c is not None]
        tot['loo'][0] += sum(cov)
        tot['loo'][1] += len(cov)
        cells = {'fs': [], 'sim': []}
        for j in (0, 1):
            ws = [p[j] for p in pairs]
            for name, get in (('fs', per_decision_ci), ('sim', sim_ci)):
                c = covers_others(ws, get)
                if c is None:
                    sim_all = False
                    cells[name].append('–')
                    continue
                cells[name].append(f'{c[0]}/{c[1]}')
                tot[name][0] += c[0]
                tot[name][1] += c[1]
        f = sim_figures(pairs)
        out.append(f'| {key[0]} | {key[1]} | {len(pairs)} | {sum(cov)}/{len(cov)} | {"; ".join(cells["fs"])} | '
                   f'{"; ".join(cells["sim"])} | {span(f["denom"])}; {span(f["denom_wall"])} |')
    sim_tot = f'{tot["sim"][0]}/{tot["sim"][1]}' if sim_all else '–'
    out.append(f'| all | all | | {tot["loo"][0]}/{tot["loo"][1]} | {tot["fs"][0]}/{tot["fs"][1]} | {sim_tot} | |')
    return '\n'.join(out)


def within(xs, pct=5.0):
    return f'{sum(abs(x - 100) <= pct for x in xs)}/{len(xs)}' if xs else '–'


def collector_block(cases):
    """feecscope's CPU energy and the simulation against the meter with and without the
    collector's own threads (the guest's feecscope live), which feecscope does not record."""
    out = ['| topology | workload | runs | collector % of meter | measured B − A without the collector mJ '
           '(% of A) | CPU energy % of meter (within 5 %) | '
           'CPU energy % of meter without the collector (within 5 %) | '
           'sim of own policy vs meter without the collector %, A on A; B on B |',
           '|---|---|---|---|---|---|---|---|']
    alld, allw = [], []
    for key in order(cases):
        pairs = paired(cases[key])
        if not pairs:
            continue
        f = sim_figures(pairs)
        alld += f['denom']
        allw += f['denom_work']
        sim = '–' if f['simwork_A'] is None or f['simwork_B'] is None else \
            f'{f["simwork_A"]:+.1f}; {f["simwork_B"]:+.1f}'
        out.append(f'| {key[0]} | {key[1]} | {len(pairs)} | {span1(f["collector"])} | {measured_work(pairs)} | '
                   f'{span_within(f["denom"])} | {span_within(f["denom_work"])} | '
                   f'{sim} |')
    out.append(f'| all | all | | | | {within(alld)} | {within(allw)} | |')
    return '\n'.join(out)


def measured_work(pairs):
    """B - A of the meter without the collector, with its interval and as % of A's."""
    if not all(workload_mj(w) for p in pairs for w in p):
        return '–'
    m, h = interval([workload_mj(b) - workload_mj(a) for a, b in pairs])
    a = mean([workload_mj(a) for a, _ in pairs])
    return f'{pm(m, h)} ({pm(100 * m / a, h and 100 * h / a)} %)'


def span_within(xs):
    return f'{span(xs)} ({within(xs)})' if xs else '–'


def span1(xs):
    return f'{min(xs):.1f} - {max(xs):.1f}' if xs else '–'


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


BLOCKS = {'table': table, 'analysis': analysis, 'pd': per_pd, 'moved': moved, 'coverage': coverage,
          'collector': collector_block}


# A set's blocks beyond BLOCKS, by its prefix: the device-physics runs' collector kept
# busy time at each frequency, so they also hold the denominator's run-by-run check.
EXTRA_BLOCKS = {'device-': {'denominator': denominator_block}}
# A set with only some of BLOCKS: the device-physics runs under skew_tick=1 and with the
# collector's frequency records (docs/validation.md) have their table and coverage.
ONLY_BLOCKS = {'skew-': ('table', 'coverage')}


def sets_of(root):
    """[(block prefix, cases)]: the device-physics set, then the lab-physics one, then the
    device-physics runs with the collector's busy time at each frequency; or one given."""
    if root:
        return [('', load(root))]
    return [('device-', load(DEFAULT_DEVICE)), ('', load(DEFAULT)), ('skew-', load(DEFAULT_SKEW))]


def blocks_of(doc_path, sets):
    try:
        with open(doc_path) as f:
            text = f.read()
    except OSError as e:
        die(f'{doc_path}: {e}')
    found = {}
    for prefix, cases in sets:
        for name, fn in {**BLOCKS, **EXTRA_BLOCKS.get(prefix, {})}.items():
            if prefix in ONLY_BLOCKS and name not in ONLY_BLOCKS[prefix]:
                continue
            a, b = f'<!-- validation:{prefix}{name} -->\n', f'<!-- /validation:{prefix}{name} -->'
            i, j = text.find(a), text.find(b)
            if i < 0 or j < i:
                die(f'{doc_path}: no block "{a.strip()}" ... "{b}"')
            found[prefix + name] = (i + len(a), j, fn(cases) + '\n')
    return text, found


def check(doc_path, sets):
    text, found = blocks_of(doc_path, sets)
    bad = 0
    for name, (i, j, want) in found.items():
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


def write(doc_path, sets):
    text, found = blocks_of(doc_path, sets)
    for name, (i, j, want) in sorted(found.items(), key=lambda kv: -kv[1][0]):
        text = text[:i] + want + text[j:]
    with open(doc_path, 'w') as f:
        f.write(text)
    return 0


def plot(out_png, sets):
    rows = []
    for prefix, cases in sets:
        for key in order(cases):
            f = case_figures(cases[key])
            if f['runs']:
                tag = {'device-': 'DEV ', 'skew-': 'SKEW '}.get(prefix, 'LAB ' if len(sets) > 1 else '')
                sim = [f[k][0] if f[k] else 0.0 for k in ('sim_A', 'sim_B')]
                rows.append((f'{tag}{key[0]} {key[1]}'.upper(), f['measured'], f['pred_A'][0], f['pred_B'][0],
                             *sim))
    pngplot.bars(out_png, rows, ('MEASURED B-A (95%)', 'PER DECISION FROM A', 'PER DECISION FROM B',
                                 'SIMULATION FROM A', 'SIMULATION FROM B'), 'B - A, mJ')
    return 0


TITLES = {'device-': 'device physics (tests/ab/run.sh -r, tests/ab/fixtures/runs-device)',
          '': 'lab physics (rt-app under -icount, tests/ab/fixtures/runs)',
          'skew-': 'device physics under skew_tick=1 (tests/ab/fixtures/runs-device-skew)'}


def main(argv):
    if argv and argv[0] == 'denominator':
        root = argv[1] if len(argv) == 2 else DEFAULT_DEVICE
        print(denominator_block(load(root)))
        return 0
    if not argv or argv[0] not in list(BLOCKS) + ['check', 'write', 'plot']:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    cmd = argv[0]
    needs_path = cmd in ('check', 'write', 'plot')
    if len(argv) < 1 + needs_path or len(argv) > 2 + needs_path:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    sets = sets_of(argv[1 + needs_path] if len(argv) == 2 + needs_path else None)
    if cmd in BLOCKS:
        for n, (prefix, cases) in enumerate(sets):
            if len(sets) > 1:
                print(('\n' if n else '') + f'## {TITLES[prefix]}\n')
            print(BLOCKS[cmd](cases))
        return 0
    return {'check': check, 'write': write, 'plot': plot}[cmd](argv[1], sets)


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
