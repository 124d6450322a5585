#!/usr/bin/env python3
"""One A/B run's figures, from the files a guest of tests/ab/run.sh sent back.

usage: collect.py RUN_DIR KERNEL TOPOLOGY RUN WORKLOAD... [--feecscope PATH]
  RUN_DIR   run-lab.sh's results directory (RUN_DIR/out/ holds the guest's files)
  KERNEL    A (as shipped: its policy is v6.1) or B (margin restored: v6.1+margin)
Per workload: the meter (meter.py) on NAME.trace.gz with the guest's own EM dump,
the ring buffers' overruns, `feecscope replay NAME.rec --csv --json` on the host, the
agreement of the kernel's placements with both policies (tests/qemu/
check-fidelity.py, 99.5% required of the kernel's own policy), the overutilized
share of wake-ups, and rt-app's and feecscope's exit codes. Writes RUN_DIR/run.json
and prints one line per workload; exit 1 when a file is missing or malformed.
"""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
POLICY = {'A': ('v6.1', 'v6.1+margin'), 'B': ('v6.1+margin', 'v6.1')}
MIN_AGREE = 0.995


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def read(path):
    with open(path) as fh:
        return fh.read()


def pd_of_cpu(em_txt):
    """cpu -> PD name ("cpu0"), from the guest's debugfs dump."""
    pds = {}
    for line in read(em_txt).splitlines():
        key, _, val = line.partition(': ')
        if key.endswith('/cpus'):
            for part in val.split(','):
                a, _, b = part.partition('-')
                for c in range(int(a), int(b or a) + 1):
                    pds[c] = key.split('/')[0]
    return pds


def placements(csv_path, pds):
    """Kernel placements known: total, and how many changed PD (prev_cpu's -> chosen)."""
    known = cross = 0
    with open(csv_path) as fh:
        header = fh.readline().rstrip('\n').split(',')
        ip, ik = header.index('prev_cpu'), header.index('kernel_cpu')
        for line in fh:
            f = line.split(',')
            if len(f) != len(header) or int(f[ik]) < 0:
                continue
            known += 1
            cross += pds.get(int(f[ip])) != pds.get(int(f[ik]))
    return known, cross


def workload(out, name, kernel, feecscope, pds):
    p = lambda ext: os.path.join(out, f'{name}.{ext}')
    w = {'problems': []}
    for f in ('trace.gz', 'freq0', 'rec', 'tstats', 'rtapp.rc', 'live.rc'):
        if not os.path.exists(p(f)):
            raise SystemExit(f'collect.py: {p(f)}: missing (did the guest run {name}?)')
    if read(p('rtapp.rc')).strip() != '0':
        w['problems'].append('rt-app exit ' + read(p('rtapp.rc')).strip())
    if read(p('live.rc')).strip() != '0':
        w['problems'].append('feecscope live exit ' + read(p('live.rc')).strip())
    over = [int(x) for x in re.findall(r'overrun: (\d+)', read(p('tstats')))]
    if not over or any(over):
        w['problems'].append(f'ring-buffer overruns {over}')
    m = run([sys.executable, os.path.join(HERE, 'meter.py'), p('trace.gz'),
             os.path.join(out, 'em-debugfs.txt'), p('freq0'), '--json', p('meter.json')])
    if m.returncode:
        raise SystemExit(f'collect.py: meter on {p("trace.gz")}: {m.stderr.strip()}')
    meter = json.load(open(p('meter.json')))
    w['energy_mj'] = meter['energy_uj'] / 1000
    w['window_s'] = meter['window_s']
    busy = {}
    for cpu, c in meter['cpus'].items():
        busy[pds[int(cpu)]] = busy.get(pds[int(cpu)], 0.0) + c['busy_s']
    w['busy_s_per_pd'] = busy

    r = run([feecscope, 'replay', p('rec'), '--policies', 'v6.1,v6.1+margin', '--csv', p('csv'), '--csv-layout', 'wide',
             '--json', p('json')])
    if r.returncode:
        raise SystemExit(f'collect.py: feecscope replay {p("rec")}: {r.stderr.strip()}')
    with open(p('summary.txt'), 'w') as fh:
        fh.write(r.stdout)
    s = r.stdout
    wk = re.search(r'wake-ups:? (\d+) \(forks', s)
    ou = re.search(r'wake-ups: overutilized (\d+);', s)
    if not wk or not ou:
        raise SystemExit(f'collect.py: {p("summary.txt")}: no wake-up / overutilized counts')
    w['wakeups'] = int(wk.group(1))
    w['overutilized_share'] = int(ou.group(1)) / max(1, int(wk.group(1)))
    w['placements_known'], w['pd_changes'] = placements(p('csv'), pds)

    own, other = POLICY[kernel]
    f = run([sys.executable, os.path.join(HERE, '..', 'qemu', 'check-fidelity.py'), p('csv'),
             own, other, str(MIN_AGREE)])
    a = re.search(r'agrees with the kernel on (\d+)/(\d+)', f.stdout)
    d = re.search(r'differ \((\d+) wake-ups.*?agrees with \S+ (\d+) times.*?with \S+ (\d+) times',
                  f.stdout)
    if not a or not d:
        raise SystemExit(f'collect.py: check-fidelity on {p("csv")} printed no figures:\n{f.stdout}')
    w['agree'] = {'policy': own, 'agree': int(a.group(1)), 'counted': int(a.group(2)),
                  'differ': int(d.group(1)), 'kernel_sides_with_own': int(d.group(2)),
                  'kernel_sides_with_twin': int(d.group(3)), 'ok': f.returncode == 0}
    with open(p('fidelity.txt'), 'w') as fh:
        fh.write(f.stdout)
    return w


def main(argv):
    feecscope = os.environ.get('FEECSCOPE', 'build/feecscope')
    if '--feecscope' in argv:
        i = argv.index('--feecscope')
        feecscope = argv[i + 1]
        del argv[i:i + 2]
    if len(argv) < 5 or argv[1] not in POLICY:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    d, kernel, topo, runno, names = argv[0], argv[1], argv[2], int(argv[3]), argv[4:]
    out = os.path.join(d, 'out')
    em = os.path.join(out, 'em-debugfs.txt')
    if not os.path.exists(em):
        raise SystemExit(f'collect.py: {em}: missing (the guest did not finish; see {d}/console.log)')
    pds = pd_of_cpu(em)
    res = {'kernel': kernel, 'topology': topo, 'run': runno,
           'release': read(os.path.join(out, 'guest-facts.txt')).split('\n')[0].split()[-1],
           'workloads': {}}
    for n in names:
        w = workload(out, n, kernel, feecscope, pds)
        res['workloads'][n] = w
        a = w['agree']
        print(f'{topo} {kernel} run {runno} {n}: {w["energy_mj"]:.3f} mJ in {w["window_s"]:.2f} s, '
              f'{a["policy"]} agrees {a["agree"]}/{a["counted"]}, overutilized '
              f'{100 * w["overutilized_share"]:.1f}%' + (f', {w["problems"]}' if w['problems'] else ''))
    with open(os.path.join(d, 'run.json'), 'w') as fh:
        json.dump(res, fh, indent=1, sort_keys=True)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
