#!/usr/bin/env python3
"""Turn the device tree QEMU generates for `-M virt` into a big.LITTLE SoC that Linux
builds an Energy Model for and runs EAS on, and write the DT facts it used.

usage: make-eas-dt.py TOPOLOGY VIRT.dts OUT.dts FACTS.tsv
  TOPOLOGY  2+2    HiKey960's clusters (A53 / A73 OPPs and coefficients), 4 CPUs
            1+1    one CPU of each of those clusters, 2 CPUs
            4+3+1  SM8150's three clusters (Pixel 4 SoC), 8 CPUs
  VIRT.dts  from: qemu-system-aarch64 -M virt,dumpdtb=virt.dtb -cpu cortex-a53 -smp N
                  dtc -I dtb -O dts virt.dtb -o VIRT.dts
The facts (per cluster: CPUs, capacity-dmips-mhz, dynamic-power-coefficient, OPPs) are
the device's own, copied from the em-data tables; the power/cost/capacity the kernel
derives from them is computed independently by dt-to-em.py. Each cluster gets a fixed
clock at its top OPP: cpufreq-dt then finds the current frequency in the OPP table.
"""
import re
import sys

# (name, cpus, capacity-dmips-mhz, dynamic-power-coefficient, [(kHz, uV)])
TOPOLOGIES = {
    # HiSilicon Hi3660 (arch/arm64/boot/dts/hisilicon/hi3660.dtsi), 2 CPUs per cluster.
    '2+2': [
        ('little', [0, 1], 592, 110,
         [(533000, 700000), (999000, 800000), (1402000, 900000),
          (1709000, 1000000), (1844000, 1100000)]),
        ('big', [2, 3], 1024, 550,
         [(903000, 700000), (1421000, 800000), (1805000, 900000),
          (2112000, 1000000), (2362000, 1100000)]),
    ],
    # One CPU of each Hi3660 cluster: the 2-CPU point of tests/bench/lab_cost.sh.
    '1+1': [
        ('little', [0], 592, 110,
         [(533000, 700000), (999000, 800000), (1402000, 900000),
          (1709000, 1000000), (1844000, 1100000)]),
        ('big', [1], 1024, 550,
         [(903000, 700000), (1421000, 800000), (1805000, 900000),
          (2112000, 1000000), (2362000, 1100000)]),
    ],
    # Qualcomm SM8150 (arch/arm64/boot/dts/qcom/sm8150.dtsi frequencies and
    # coefficients, one chip's LUT voltages). Equal voltages at the low OPPs make
    # the kernel flag inefficient states, which the 2+2 tree never exercises.
    '4+3+1': [
        ('silver', [0, 1, 2, 3], 488, 232,
         [(300000, 600000), (403200, 600000), (499200, 600000), (576000, 600000),
          (672000, 600000), (768000, 620000), (844800, 632000), (940800, 648000),
          (1036800, 668000), (1113600, 680000), (1209600, 700000), (1305600, 720000),
          (1382400, 736000), (1478400, 756000), (1555200, 756000), (1632000, 776000),
          (1708800, 800000), (1785600, 816000)]),
        ('gold', [4, 5, 6], 1024, 369,
         [(710400, 756000), (825600, 756000), (940800, 756000), (1056000, 756000),
          (1171200, 756000), (1286400, 756000), (1401600, 756000), (1497600, 776000),
          (1612800, 804000), (1708800, 824000), (1804800, 844000), (1920000, 860000),
          (2016000, 888000), (2131200, 920000), (2227200, 944000), (2323200, 972000),
          (2419200, 1000000)]),
        ('prime', [7], 1024, 421,
         [(825600, 756000), (940800, 756000), (1056000, 756000), (1171200, 756000),
          (1286400, 756000), (1401600, 756000), (1497600, 756000), (1612800, 756000),
          (1708800, 756000), (1804800, 772000), (1920000, 792000), (2016000, 808000),
          (2131200, 828000), (2227200, 840000), (2323200, 860000), (2419200, 884000),
          (2534400, 912000), (2649600, 936000), (2745600, 960000), (2841600, 984000)]),
    ],
}

def block_end(s, start):
    """Index just past the '};' closing the node whose '{' is the first after start."""
    depth, i = 0, s.index('{', start)
    while i < len(s):
        if s[i] == '{':
            depth += 1
        elif s[i] == '}':
            depth -= 1
            if depth == 0:
                return s.index(';', i) + 1
        i += 1
    raise ValueError('unbalanced braces')


def cpu_phandles(cpus_block):
    """reg -> phandle of QEMU's cpu@N nodes (other nodes may point at them)."""
    found = {}
    for m in re.finditer(r'cpu@([0-9a-f]+)\s*\{', cpus_block):
        body = cpus_block[m.end():block_end(cpus_block, m.start())]
        ph = re.search(r'phandle\s*=\s*<(0x[0-9a-f]+|\d+)>', body)
        if ph:
            found[int(m.group(1), 16)] = int(ph.group(1), 0)
    return found


def opp_node(idx, name, opps):
    lines = [f'\topp_table_{name} {{', '\t\tcompatible = "operating-points-v2";',
             '\t\topp-shared;', f'\t\tphandle = <{0x9100 + idx:#x}>;']
    for khz, uv in opps:
        lines += [f'\t\topp-{khz * 1000} {{', f'\t\t\topp-hz = /bits/ 64 <{khz * 1000}>;',
                  f'\t\t\topp-microvolt = <{uv}>;', '\t\t\tclock-latency-ns = <200000>;',
                  '\t\t};']
    return lines + ['\t};']


def clock_node(idx, name, opps):
    return [f'\tclk_{name} {{', '\t\tcompatible = "fixed-clock";', '\t\t#clock-cells = <0>;',
            f'\t\tclock-frequency = <{opps[-1][0] * 1000}>;',
            f'\t\tphandle = <{0x9200 + idx:#x}>;', '\t};']


def cpus_node(cl, phandles):
    lines = ['\tcpus {', '\t\t#size-cells = <0x00>;', '\t\t#address-cells = <0x01>;',
             '\t\tcpu-map {']
    for idx, (_name, cpus, _d, _p, _o) in enumerate(cl):
        lines.append(f'\t\t\tcluster{idx} {{')
        for core, cpu in enumerate(cpus):
            lines.append(f'\t\t\t\tcore{core} {{ cpu = <{phandles[cpu]:#x}>; }};')
        lines.append('\t\t\t};')
    lines.append('\t\t};')
    for idx, (_name, cpus, dmips, dpc, _o) in enumerate(cl):
        for cpu in cpus:
            lines += [f'\t\tcpu@{cpu:x} {{', f'\t\t\tphandle = <{phandles[cpu]:#x}>;',
                      f'\t\t\treg = <{cpu:#x}>;', '\t\t\tenable-method = "psci";',
                      '\t\t\tcompatible = "arm,cortex-a53";', '\t\t\tdevice_type = "cpu";',
                      f'\t\t\tcapacity-dmips-mhz = <{dmips}>;',
                      f'\t\t\tdynamic-power-coefficient = <{dpc}>;',
                      f'\t\t\toperating-points-v2 = <{0x9100 + idx:#x}>;',
                      f'\t\t\tclocks = <{0x9200 + idx:#x}>;', '\t\t};']
    return lines + ['\t};']


def facts_tsv(topology, cl):
    rows = ['# DT facts of the lab guest (make-eas-dt.py %s): per cluster the CPUs, '
            'capacity-dmips-mhz, dynamic-power-coefficient and OPPs.' % topology,
            'pd\tcpus\tdmips\tdpc\tfreq_khz\tvoltage_uv']
    for idx, (_name, cpus, dmips, dpc, opps) in enumerate(cl):
        cpulist = ','.join(str(c) for c in cpus)
        rows += [f'pd{idx}\t{cpulist}\t{dmips}\t{dpc}\t{khz}\t{uv}' for khz, uv in opps]
    return '\n'.join(rows) + '\n'


def main(topology, src, dst, facts):
    if topology not in TOPOLOGIES:
        sys.exit(f'make-eas-dt.py: unknown topology {topology!r} (use {", ".join(TOPOLOGIES)})')
    cl = TOPOLOGIES[topology]
    s = open(src).read()
    m = re.search(r'^\tcpus \{', s, re.M)
    if not m:
        sys.exit(f'{src}: no top-level "cpus" node')
    end = block_end(s, m.start())
    phandles = cpu_phandles(s[m.start():end])
    ncpu = sum(len(c[1]) for c in cl)
    missing = [c for c in range(ncpu) if c not in phandles]
    if missing:
        sys.exit(f'{src}: cpus: no cpu@N node with a phandle for CPU {missing} '
                 f'(dump the DT with -smp {ncpu})')
    new = []
    for idx, (name, _cpus, _d, _p, opps) in enumerate(cl):
        new += opp_node(idx, name, opps) + [''] + clock_node(idx, name, opps) + ['']
    new += cpus_node(cl, phandles)
    s = s[:m.start()] + '\n'.join(new) + s[end:]
    open(dst, 'w').write(s)
    open(facts, 'w').write(facts_tsv(topology, cl))


if __name__ == '__main__':
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    main(*sys.argv[1:])
