#!/usr/bin/env python3
"""What a 6.1 kernel's Energy Model must be for the lab's device tree, worked out from
the DT facts alone (written by make-eas-dt.py), as an energy_model debugfs tree plus
cpus/cpuN/cpu_capacity. The lab compares the guest's real debugfs and feecscope's
reading of it against this; no feecscope code is involved here.

usage: dt-to-em.py FACTS.tsv OUTDIR

The arithmetic follows Linux 6.1 (checked against the linux-source-6.1 tree):
- power (drivers/opp/of.c _get_power): uW = dpc * mV^2 * (Hz / 10^6) / 10^6, where
  mV = uV / 1000 and Hz / 10^6 truncates to whole MHz (403.2 MHz counts as 403);
- cost (kernel/power/energy_model.c em_create_perf_table, v6.0 - v6.8):
  cost = fmax_khz * power / freq_khz; walking down from the top state, a state whose
  cost is >= the last efficient state's cost is INEFFICIENT;
- flags: EM_PERF_DOMAIN_MICROWATTS (0x1, the OPP power callback reports uW), plus
  SKIP_INEFFICIENCIES (0x2) when cpufreq accepted an inefficient frequency
  (em_cpufreq_update_efficiencies; cpufreq-dt's table is sorted, so: any flagged state);
- capacity (drivers/base/arch_topology.c topology_normalize_cpu_scale):
  raw = capacity-dmips-mhz * (cpuinfo_max_freq_khz / 1000), cap = (raw << 10) / max(raw).
"""
import os
import sys


def read_facts(path):
    pds = {}
    for n, line in enumerate(open(path), 1):
        if line.startswith('#') or line.startswith('pd\t') or not line.strip():
            continue
        f = line.rstrip('\n').split('\t')
        if len(f) != 6:
            sys.exit(f'{path}:{n}: expected 6 tab-separated fields, got {len(f)}')
        pd, cpus, dmips, dpc, khz, uv = f
        d = pds.setdefault(pd, {'cpus': [int(c) for c in cpus.split(',')],
                                'dmips': int(dmips), 'dpc': int(dpc), 'opps': []})
        d['opps'].append((int(khz), int(uv)))
    return list(pds.values())


def cpulist(cpus):
    """The kernel's %*pbl: ranges of consecutive CPUs."""
    out, i = [], 0
    while i < len(cpus):
        j = i
        while j + 1 < len(cpus) and cpus[j + 1] == cpus[j] + 1:
            j += 1
        out.append(str(cpus[i]) if i == j else f'{cpus[i]}-{cpus[j]}')
        i = j + 1
    return ','.join(out)


def perf_table(dpc, opps):
    states = []
    for khz, uv in sorted(opps):
        mv = uv // 1000
        mhz = (khz * 1000) // 1000000
        states.append({'freq': khz, 'power': dpc * mv * mv * mhz // 1000000})
    fmax = states[-1]['freq']
    prev_cost = None
    for s in reversed(states):
        s['cost'] = fmax * s['power'] // s['freq']
        s['inefficient'] = prev_cost is not None and s['cost'] >= prev_cost
        if not s['inefficient']:
            prev_cost = s['cost']
    return states


def write(path, value):
    with open(path, 'w') as f:
        f.write(f'{value}\n')


def main(facts, outdir):
    pds = read_facts(facts)
    raw = {}
    for pd in pds:
        fmax_khz = max(k for k, _ in pd['opps'])
        for cpu in pd['cpus']:
            raw[cpu] = pd['dmips'] * (fmax_khz // 1000)
    scale = max(raw.values())
    for cpu, r in raw.items():
        d = os.path.join(outdir, 'cpus', f'cpu{cpu}')
        os.makedirs(d, exist_ok=True)
        write(os.path.join(d, 'cpu_capacity'), (r << 10) // scale)
    for pd in pds:
        states = perf_table(pd['dpc'], pd['opps'])
        d = os.path.join(outdir, f'cpu{pd["cpus"][0]}')
        os.makedirs(d, exist_ok=True)
        write(os.path.join(d, 'cpus'), cpulist(pd['cpus']))
        flags = 0x1 | (0x2 if any(s['inefficient'] for s in states) else 0)
        write(os.path.join(d, 'flags'), hex(flags))
        for s in states:
            p = os.path.join(d, f'ps:{s["freq"]}')
            os.makedirs(p, exist_ok=True)
            write(os.path.join(p, 'frequency'), s['freq'])
            write(os.path.join(p, 'power'), s['power'])
            write(os.path.join(p, 'cost'), s['cost'])
            write(os.path.join(p, 'inefficient'), int(s['inefficient']))


if __name__ == '__main__':
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(*sys.argv[1:])
