#!/usr/bin/env python3
"""Agreement between the kernel's real placements and feecscope's policies, from a
per-decision CSV (feecscope live/replay --csv).

usage: check-fidelity.py DECISIONS.csv KERNEL_POLICY MARGIN_POLICY [MIN_AGREE]
  KERNEL_POLICY  the policy for the guest's kernel (v6.1 for Debian's 6.1.0-NN)
  MARGIN_POLICY  a margin policy (v5.4) to contrast with
  MIN_AGREE      required agreement on wake-ups where the kernel's feec ran (0.99)

Counted wake-ups ("the kernel's feec ran"): KERNEL_POLICY reached the energy
comparison (EAS on, root domain not overutilized, task utilization non-zero, more than
one allowed CPU) and the kernel's chosen CPU is known. Checks, each printed as
'ok'/'FAIL' with its numbers:
 1. KERNEL_POLICY chose the kernel's CPU in >= MIN_AGREE of them; every disagreement
    is listed with its row;
 2. where KERNEL_POLICY and MARGIN_POLICY chose differently, KERNEL_POLICY agrees with
    the kernel far more often (>= 90% of those and at least twice MARGIN_POLICY's rate),
    with at least 5 such wake-ups to judge from.
Columns are found by name: the kernel's CPU ('kernel_cpu' or 'chosen_cpu'), and per
policy '<policy>_cpu' and either '<policy>_eligible' or '<policy>_reason' (feec ran
unless the reason is one of the early exits in EARLY_EXITS); '.' or ':' may replace '_'.
Exit 0 if both hold, 1 if one fails, 2 if the CSV lacks a needed column.
"""
import csv
import sys


# fs_feec_reason_name()s of the exits before feec's energy comparison: the kernel's feec
# did not run (fork, one allowed CPU, v6.6+ WF_CURRENT_CPU, EAS off, overutilized, no asym
# domain, sync shortcut) or returned at once (task utilization 0).
EARLY_EXITS = {'fork', 'affine', 'no-pd', 'overutilized', 'no-asym', 'sync', 'zero-util',
               'current-cpu'}


def column(header, names):
    for n in names:
        if n in header:
            return n
    return None


def pcol(header, pol, what):
    return column(header, [f'{pol}{sep}{what}' for sep in ('_', '.', ':')])


def truthy(v):
    return v.strip().lower() in ('1', 'true', 'yes', 'y')


def main(path, kpol, mpol, min_agree=0.99):
    rows = [r for r in csv.reader(l for l in open(path) if not l.startswith('#'))]
    if not rows:
        print(f'{path}: empty CSV')
        return 2
    header, rows = rows[0], rows[1:]
    kcol = column(header, ['kernel_cpu', 'chosen_cpu'])
    need = {'kernel cpu': kcol, f'{kpol} cpu': pcol(header, kpol, 'cpu'),
            f'{kpol} eligible': pcol(header, kpol, 'eligible') or pcol(header, kpol, 'reason'),
            f'{mpol} cpu': pcol(header, mpol, 'cpu')}
    missing = [k for k, v in need.items() if v is None]
    if missing:
        print(f'{path}: no column for {", ".join(missing)} (header: {",".join(header)})')
        return 2
    ix = {k: header.index(v) for k, v in need.items()}
    counted = agree = 0
    differ = k_right = m_right = 0
    bad = []
    for n, r in enumerate(rows, 2):
        if len(r) != len(header):
            continue
        e = r[ix[f'{kpol} eligible']]
        if not (truthy(e) if need[f'{kpol} eligible'].endswith('eligible') else e not in EARLY_EXITS):
            continue
        kcpu = int(r[ix['kernel cpu']])
        if kcpu < 0:
            continue
        counted += 1
        pc, mc = int(r[ix[f'{kpol} cpu']]), int(r[ix[f'{mpol} cpu']])
        if pc == kcpu:
            agree += 1
        else:
            bad.append(f'  line {n}: kernel chose {kcpu}, {kpol} chose {pc}: ' +
                       ','.join(f'{h}={v}' for h, v in zip(header, r)))
        if pc != mc:
            differ += 1
            k_right += pc == kcpu
            m_right += mc == kcpu
    rc = 0
    rate = agree / counted if counted else 0.0
    ok = counted > 0 and rate >= min_agree
    print(f'{"ok  " if ok else "FAIL"} {kpol} agrees with the kernel on {agree}/{counted} '
          f'wake-ups where feec ran ({100 * rate:.2f}%, need {100 * min_agree:.0f}%)')
    for b in bad:
        print(b)
    rc |= not ok
    kr = k_right / differ if differ else 0.0
    mr = m_right / differ if differ else 0.0
    ok2 = differ >= 5 and kr >= 0.9 and kr >= 2 * mr
    print(f'{"ok  " if ok2 else "FAIL"} where {kpol} and {mpol} differ ({differ} wake-ups, '
          f'need >= 5): kernel agrees with {kpol} {k_right} times ({100 * kr:.1f}%), '
          f'with {mpol} {m_right} times ({100 * mr:.1f}%)')
    rc |= not ok2
    return 1 if rc else 0


if __name__ == '__main__':
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    a = sys.argv[1:]
    sys.exit(main(a[0], a[1], a[2], float(a[3]) if len(a) == 4 else 0.99))
