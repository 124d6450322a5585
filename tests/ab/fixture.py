#!/usr/bin/env python3
"""The A/B runs' small fixtures: what docs/validation.md is computed from.

usage: fixture.py RESULTS_DIR OUT_DIR [--feecscope PATH] [--physics device|lab]
                  [--sim-rate-limit-us N] [--case TOPOLOGY/WORKLOAD=DIR ...]
(--case takes that case's runs from DIR, another results directory of run.sh,
instead of RESULTS_DIR: e.g. longer runs of one case, `run.sh -s 32`; runs are
paired by index as before, so DIR's run N joins RESULTS_DIR's run N)
(a recording without the rate limit in its header is replayed with the lab
kernels' 10000 us unless --sim-rate-limit-us says otherwise)
For every run of tests/ab/run.sh (RESULTS_DIR/<topology>/<A|B>/run<N>/run.json)
writes OUT_DIR/<topology>/<A|B>-run<N>.json: per workload
  meter      the meter's energy and window, and per PD its CPUs, capacity, busy
             time, energy and busy-weighted mean frequency (tests/ab/meter.py);
             `collector_mj` / `collector_busy_s`: the part of it that was
             feecscope live's own threads (recomputed from the trace where the
             run's meter JSON predates the split)
             `denominator_window`: the meter again over the window of feecscope's
             CPU-energy denominator, where that comes from the collector's
             busy time at each frequency (its first to last busyfreq record:
             live's start and stop, not the workload's markers)
  feecscope  `feecscope replay REC --policies v6.1,v6.1+margin --json`: the
             verdict (the margin's cost predicted from this trace, its interval),
             the CPU energy (busy-weighted, and from wall-time residency), the counts
  sim        the same replay's closed-loop simulation (issue 29) under --physics
             (device for tests/ab/run.sh -r, lab for rt-app under -icount; default
             device): its B - A (E(v6.1+margin) - E(v6.1)) with its 95 %
             interval (`ci95_mj`, null where it has none) and the energy of
             this kernel's own policy, to set against the meter
  kernel     the kernel's placements that changed PD, overutilized share,
             agreement with its own policy (run.json, tests/ab/collect.py)
  moved      the placements where v6.1 and v6.1+margin chose different PDs
             (replay --csv): the CPU time the task ran there, by (v6.1's PD,
             v6.1+margin's PD), and that time priced two ways with the PDs'
             metered busy power (docs/validation.md, "Why"): as the lab runs it
             (the same time on either CPU: `lab_mj`) and capacity-scaled as the
             EM assumes (`scaled_mj`)
Everything is a few hundred bytes a workload; the recordings, traces and CSVs
stay in RESULTS_DIR. Exit 1 naming the file when one is missing or malformed.
"""
import csv
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import meter as meter_py  # noqa: E402

POLICIES = 'v6.1,v6.1+margin'
OWN = {'A': 'v6.1', 'B': 'v6.1+margin'}
SIM_ARGS = []  # --sim-rate-limit-us N passed on to replay
# The lab's v6.1 kernels limit schedutil to one change per 10 ms: sugov_init() takes
# cpufreq_policy_transition_delay_us() (v6.1 drivers/cpufreq/cpufreq.c), the OPPs'
# transition latency x LATENCY_MULTIPLIER (1000) capped at 10000 us, and every lab device
# tree says clock-latency-ns 200000 (tests/qemu/make-eas-dt.py): 200 ms, capped. Recordings
# made before the collector kept rate_limit_us are replayed with it (docs/simulation.md,
# "Settings the recording does not tell").
LAB_RATE_LIMIT_US = '10000'


def rate_limit_args(rec):
    """--sim-rate-limit-us for a recording whose header lacks the cpufreq key, else none."""
    if SIM_ARGS:
        return SIM_ARGS
    try:
        with open(rec, 'rb') as f:
            head = f.read(8192)
    except OSError as e:
        die(f'{rec}: {e}')
    return [] if b'\ncpufreq=' in head else ['--sim-rate-limit-us', LAB_RATE_LIMIT_US]


def die(msg):
    sys.exit(f'fixture.py: {msg}')


def load_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        die(f'{path}: {e}')


def em_pds(path):
    """PD name -> (cpus, frequencies) from the guest's debugfs dump."""
    pds = {}
    try:
        with open(path) as f:
            for n, line in enumerate(f, 1):
                key, _, val = line.strip().partition(': ')
                parts = key.split('/')
                if len(parts) == 2 and parts[1] == 'cpus':
                    cpus = []
                    for part in val.split(','):
                        a, _, b = part.partition('-')
                        cpus += range(int(a), int(b or a) + 1)
                    pds.setdefault(parts[0], [[], []])[0] = cpus
                elif len(parts) == 3 and parts[2] == 'frequency':
                    pds.setdefault(parts[0], [[], []])[1].append(int(val))
    except (OSError, ValueError) as e:
        die(f'{path}: {e}')
    return pds


def capacities(path):
    caps = {}
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) == 3 and w[0] == 'capacity':
                caps[int(w[1][3:])] = int(w[2])
    return caps


def meter_by_pd(meter, pds, caps):
    out = {}
    for name, (cpus, freqs) in sorted(pds.items()):
        busy = energy = fsum = 0.0
        for c in cpus:
            m = meter['cpus'].get(str(c))
            if m is None:
                die(f'meter output has no cpu{c}')
            busy += m['busy_s']
            energy += m['energy_uj'] / 1000
            fsum += sum(int(k) * v for k, v in m['busy_at_khz'].items())
        out[name] = {'cpus': cpus, 'capacity': caps[cpus[0]], 'fmax_khz': max(freqs),
                     'busy_s': round(busy, 6), 'energy_mj': round(energy, 6),
                     'mean_khz': round(fsum / busy) if busy else 0}
    return out


def moved(csv_path, kernel, pd_of, pd):
    """Placements where the two policies chose different PDs: CPU time and its price."""
    own, twin = OWN[kernel], OWN['B' if kernel == 'A' else 'A']
    by = {}
    lab = scaled = 0.0  # mJ (s x mW), E(v6.1+margin) - E(v6.1)
    other_cpu = 0       # placements where the kernel ran the task on neither policy's CPU
    price = {n: (p['energy_mj'] / p['busy_s'] if p['busy_s'] else 0.0) for n, p in pd.items()}  # mW
    speed = {n: p['capacity'] * p['mean_khz'] / p['fmax_khz'] for n, p in pd.items()}
    with open(csv_path) as f:
        for row in csv.DictReader(f):
            if not row['runtime_ns']:
                continue
            a, b = int(row['v6.1_acct_cpu']), int(row['v6.1+margin_acct_cpu'])
            pa, pb = pd_of[a], pd_of[b]
            if pa == pb:
                continue
            run = int(row['kernel_cpu'])
            cpus = {'v6.1': a, 'v6.1+margin': b}
            if run != cpus[own]:
                other_cpu += 1
                continue
            r = int(row['runtime_ns']) / 1e9
            key = f'{pa}>{pb}'
            by[key] = by.get(key, 0.0) + r
            here, there = pd_of[cpus[own]], pd_of[cpus[twin]]
            sign = 1 if own == 'v6.1+margin' else -1
            lab += sign * r * (price[here] - price[there])
            if speed[there]:
                scaled += sign * r * (price[here] - price[there] * speed[here] / speed[there])
    return {'cpu_s': {k: round(v, 6) for k, v in sorted(by.items())},
            'lab_mj': round(lab, 3), 'scaled_mj': round(scaled, 3),
            'not_on_own_cpu': other_cpu}


def sim_part(d, kernel, physics, where):
    """The simulation object of a replay's JSON, or None where it did not run."""
    s = d.get('simulation')
    if not s or not s.get('ran'):
        return None
    own = [p['energy_mj'] for p in s['policies'] if p['name'] == OWN[kernel]]
    dv = [v['delta_mj'] for v in s['verdicts'] if v['policy'] == 'v6.1+margin' and v['twin'] == 'v6.1']
    if len(own) != 1 or len(dv) != 1:
        die(f'{where}: simulation: no energy for {OWN[kernel]} or no v6.1+margin - v6.1 verdict')
    if s.get('physics') != physics:
        die(f'{where}: simulation physics "{s.get("physics")}", asked for "{physics}"')
    ci = [v.get('ci95_mj') for v in s['verdicts'] if v['policy'] == 'v6.1+margin' and v['twin'] == 'v6.1'][0]
    return {'physics': physics, 'delta_mj': dv[0], 'own_mj': own[0], 'ci95_mj': ci,
            'rate_limit_ns': s.get('rate_limit_ns')}


def collector(out, name, meter):
    """The collector's share of the meter: from the run's meter JSON, else from its trace."""
    c = meter.get('collector')
    if c is None:
        try:
            c = meter_py.meter(os.path.join(out, f'{name}.trace.gz'),
                               meter_py.read_em(os.path.join(out, 'em-debugfs.txt')),
                               meter_py.read_freq0(os.path.join(out, f'{name}.freq0')))['collector']
        except meter_py.BadInput as e:
            die(str(e))
    return {'collector_mj': round(c['energy_uj'] / 1000, 6), 'collector_busy_s': round(c['busy_s'], 6)}


def busyfreq_window(feecscope, rec, tmp):
    """(first, last) time in seconds of the recording's busyfreq records, the window of its
    CPU-energy denominator where that comes from them (docs/accounting.md), or None."""
    path = os.path.join(tmp, 'r.csv')
    p = subprocess.run([feecscope, 'replay', rec, '--convert-csv', path], capture_output=True, text=True)
    if p.returncode:
        die(f'{rec}: replay --convert-csv exit {p.returncode}: {p.stderr.strip()}')
    with open(path) as f:
        ts = [int(r['ts_ns']) for r in csv.DictReader(line for line in f if not line.startswith('#'))
              if r['type'] == 'busyfreq']
    return (min(ts) / 1e9, max(ts) / 1e9) if len(ts) > 1 and max(ts) > min(ts) else None


def same_window(out, name, window):
    """The meter over the denominator's window (the trace began before it and ended after)."""
    try:
        m = meter_py.meter(os.path.join(out, f'{name}.trace.gz'), meter_py.read_em(os.path.join(out, 'em-debugfs.txt')),
                           meter_py.read_freq0(os.path.join(out, f'{name}.freq0')), window=window)
    except meter_py.BadInput as e:
        die(str(e))
    return {'energy_mj': round(m['energy_uj'] / 1000, 6), 'window_s': round(m['window_s'], 6),
            'collector_mj': round(m['collector']['energy_uj'] / 1000, 6)}


def workload(rundir, name, kernel, runjson, feecscope, pds, caps, physics):
    out = os.path.join(rundir, 'out')
    pd_of = {c: n for n, (cpus, _) in pds.items() for c in cpus}
    meter = load_json(os.path.join(out, f'{name}.meter.json'))
    pd = meter_by_pd(meter, pds, caps)
    with tempfile.TemporaryDirectory() as tmp:
        csvp = os.path.join(tmp, 'd.csv')
        p = subprocess.run([feecscope, 'replay', os.path.join(out, f'{name}.rec'), '--policies', POLICIES,
                            '--sim-physics', physics, '--json', '-', '--csv', csvp, '--csv-layout', 'wide']
                           + rate_limit_args(os.path.join(out, f'{name}.rec')),
                           capture_output=True, text=True)
        if p.returncode:
            die(f'{out}/{name}.rec: replay exit {p.returncode}: {p.stderr.strip()}')
        d = json.loads(p.stdout)
        mv = moved(csvp, kernel, pd_of, pd)
        bfw = busyfreq_window(feecscope, os.path.join(out, f'{name}.rec'), tmp) \
            if d.get('cpu_energy_busy_source') == 'sched_switch' else None
    # the per-decision figure: schema 2's verdict leads with the closed loop (sim_columns reads that)
    v = d['verdicts'][0]
    v = dict(v, **v['per_decision']) if 'per_decision' in v else v
    c = d['counts']
    w = runjson['workloads'][name]
    res = {
        'meter': dict({'energy_mj': round(meter['energy_uj'] / 1000, 6), 'window_s': round(meter['window_s'], 6),
                       'pd': pd}, **collector(out, name, meter)),
        'feecscope': {'delta_mj': v['delta_mj'], 'ci95_mj': v['ci95_mj'], 'measurable': v['measurable'],
                      'decisions': v['decisions'], 'differ': v['differ'], 'cpu_energy_mj': d['cpu_energy_mj'],
                      'duration_s': d['duration_s'], 'wakeups': c['wakeups'],
                      'overutilized': c['overutilized'], 'feec_eligible': c['feec_eligible']},
        'kernel': {'placements_known': w['placements_known'], 'pd_changes': w['pd_changes'],
                   'overutilized_share': round(w['overutilized_share'], 6),
                   'agree': w['agree']['agree'], 'counted': w['agree']['counted']},
        'moved': mv,
    }
    if 'cpu_energy_wall_residency_mj' in d:
        res['feecscope']['cpu_energy_wall_mj'] = d['cpu_energy_wall_residency_mj']
    if bfw:
        res['meter']['denominator_window'] = same_window(out, name, bfw)
    sim = sim_part(d, kernel, physics, f'{out}/{name}.rec')
    if sim:
        res['sim'] = sim
    return res


def run_dirs(root):
    """((topology, kernel, run index), directory) of every collected run under root."""
    for topo in sorted(os.listdir(root)):
        for kernel in ('A', 'B'):
            kdir = os.path.join(root, topo, kernel)
            if not os.path.isdir(kdir):
                continue
            for run in sorted(os.listdir(kdir)):
                rundir = os.path.join(kdir, run)
                if run.startswith('run') and run[3:].isdigit() and \
                        os.path.exists(os.path.join(rundir, 'run.json')):
                    yield (topo, kernel, int(run[3:])), rundir


def main(argv):
    feecscope = os.environ.get('FEECSCOPE', 'build/feecscope')
    if '--feecscope' in argv:
        i = argv.index('--feecscope')
        feecscope = argv[i + 1]
        del argv[i:i + 2]
    if '--sim-rate-limit-us' in argv:
        i = argv.index('--sim-rate-limit-us')
        SIM_ARGS.extend(argv[i:i + 2])
        del argv[i:i + 2]
    cases = {}
    while '--case' in argv:
        i = argv.index('--case')
        spec = argv[i + 1] if i + 1 < len(argv) else ''
        del argv[i:i + 2]
        case, _, where = spec.partition('=')
        topo, _, wl = case.partition('/')
        if not (topo and wl and where and os.path.isdir(where)):
            print(f'fixture.py: --case "{spec}": expected TOPOLOGY/WORKLOAD=DIR with DIR a directory',
                  file=sys.stderr)
            return 2
        cases[(topo, wl)] = where
    physics = 'device'
    if '--physics' in argv:
        i = argv.index('--physics')
        physics = argv[i + 1] if i + 1 < len(argv) else ''
        del argv[i:i + 2]
        if physics not in ('device', 'lab'):
            print(f'fixture.py: --physics "{physics}": expected device or lab', file=sys.stderr)
            return 2
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    root, dest = argv
    runs = {}
    for src, keep in [(root, lambda topo, wl: (topo, wl) not in cases)] + \
            [(d, lambda topo, wl, c=c: (topo, wl) == c) for c, d in cases.items()]:
        for (topo, kernel, run), rundir in run_dirs(src):
            rj = load_json(os.path.join(rundir, 'run.json'))
            wls = [wl for wl in sorted(rj['workloads']) if keep(topo, wl)]
            if not wls:
                continue
            pds = em_pds(os.path.join(rundir, 'out', 'em-debugfs.txt'))
            caps = capacities(os.path.join(rundir, 'out', 'guest-facts.txt'))
            res = runs.setdefault((topo, kernel, run), {'topology': topo, 'kernel': kernel, 'run': run,
                                                        'release': rj['release'], 'workloads': {}})
            res['workloads'].update({wl: workload(rundir, wl, kernel, rj, feecscope, pds, caps, physics)
                                     for wl in wls})
    for (topo, kernel, run), res in sorted(runs.items()):
        os.makedirs(os.path.join(dest, topo), exist_ok=True)
        with open(os.path.join(dest, topo, f'{kernel}-run{run}.json'), 'w') as f:
            json.dump(res, f, indent=None, sort_keys=True, separators=(',', ':'))
            f.write('\n')
    for topo in {t for t, _, _ in runs}:  # a run that no longer has a workload here goes
        for name in os.listdir(os.path.join(dest, topo)):
            k, _, r = name[:-len('.json')].partition('-run')
            if name.endswith('.json') and r.isdigit() and (topo, k, int(r)) not in runs:
                os.remove(os.path.join(dest, topo, name))
    n = len(runs)
    print(f'fixture.py: {n} runs written to {dest}')
    return 0 if n else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
