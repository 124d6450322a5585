#!/usr/bin/env python3
"""The runtime-modified EM scenario (tests/lab/em-update.sh): did the guest's kernel get
the table em_modify meant, did `feecscope live` record it when it took effect, and does
replay follow it?

usage: check-em-update.py OUT RECORDS.csv NEW.csv OLD.csv POLICY POWER_PCT [MIN_FEEC]
  OUT        the guest's files: em-debugfs.txt (before), em-debugfs-after.txt,
             em-modify.txt (the module's changed_ns, result, cpu), dmesg-after.txt,
             live.err (feecscope live -v: how it hears of changes, that it did)
  RECORDS    the recording as a records CSV (feecscope replay --convert-csv)
  NEW, OLD   decision CSVs: the recording replayed as is, and with its em records
             dropped (the boot-time EM throughout)
  POLICY     the policy the kernel follows (its <POLICY>_cpu and _reason columns)
  POWER_PCT  what em_modify multiplied each state's power by, in percent
  MIN_FEEC   feec wake-ups after the change needed to judge agreement (100)

The expected table is worked out here from the boot-time debugfs table alone: power
* POWER_PCT / 100, then the cost rule of 6.12 and mainline (kernel/power/energy_model.c
em_compute_costs(), non-artificial domain): cost = power * 10 / performance, and
walking down from the top state a cost not below the last efficient one is
inefficient. Each check prints 'ok' or 'FAIL' with its numbers; exit 1 if any fails.
"""
import csv
import sys

EARLY_EXITS = {'fork', 'affine', 'no-pd', 'overutilized', 'no-asym', 'sync', 'zero-util',
               'current-cpu'}
fails = 0


def report(ok, what, detail=''):
    global fails
    print(f'{"ok  " if ok else "FAIL"} {what}{": " + detail if detail and not ok else ""}')
    fails += not ok


def debugfs_em(path):
    """{pd: {freq: {field: value}}} from 'cpuN/ps:F/field: value' lines."""
    em = {}
    for line in open(path):
        key, _, val = line.rstrip('\n').partition(': ')
        parts = key.split('/')
        if len(parts) == 3 and parts[1].startswith('ps:'):
            em.setdefault(parts[0], {}).setdefault(int(parts[1][3:]), {})[parts[2]] = int(val)
    return em


def expected(states, pct):
    """The table em_modify should install, from the boot-time states of one domain."""
    new = {}
    last = None
    for f in sorted(states, reverse=True):
        s = dict(states[f])
        s['power'] = s['power'] * pct // 100
        s['cost'] = s['power'] * 10 // s['performance']
        s['inefficient'] = int(last is not None and s['cost'] >= last)
        if not s['inefficient']:
            last = s['cost']
        new[f] = s
    return new


def saved_em(text):
    """{pd: {freq: {field: value}}} from the `feecscope em --save` text of an em record."""
    em, pd = {}, None
    for line in text.split('\n'):
        w = line.split()
        if w and w[0] == 'pd':
            pd = w[1]
            em[pd] = {}
        elif w and w[0] == 'ps' and pd:
            s = {k: int(v) for k, v in (x.split('=') for x in w[1:])}
            em[pd][s['frequency']] = s
    return em


def table_diff(want, got, fields=('power', 'cost', 'inefficient', 'performance')):
    for f in sorted(want):
        for k in fields:
            if f not in got or got[f].get(k) != want[f][k]:
                return f'{f} kHz {k}: want {want[f][k]}, got {got.get(f, {}).get(k)}'
    return '' if set(want) == set(got) else f'states {sorted(got)}, want {sorted(want)}'


def decisions(path, pol):
    rows = list(csv.DictReader(l for l in open(path) if not l.startswith('#')))
    return [(int(r['ts_ns']), int(r['kernel_cpu']), int(r[f'{pol}_cpu']), r[f'{pol}_reason'],
             r['seq']) for r in rows]


def main(out, records, new_csv, old_csv, pol, pct, min_feec=100):
    pct = int(pct)
    mod = dict(l.split() for l in open(f'{out}/em-modify.txt') if len(l.split()) == 2)
    changed, cpu = int(mod.get('changed_ns', 0)), mod.get('cpu', '?')
    report(mod.get('result') == '0' and changed > 0, f'em_modify updated cpu{cpu}\'s domain',
           f'result {mod.get("result")}, changed_ns {changed}')
    before, after = debugfs_em(f'{out}/em-debugfs.txt'), debugfs_em(f'{out}/em-debugfs-after.txt')
    pd = f'cpu{cpu}'  # a CPU domain's directory is named after its first CPU (cpu 0 here)
    if pd not in before:
        report(False, 'the boot-time EM has the changed domain', f'no {pd} in em-debugfs.txt')
        return
    want = expected(before[pd], pct)
    report(not table_diff(want, after.get(pd, {})),
           f'guest debugfs {pd} after the change = boot table with power x {pct} %, costs recomputed',
           table_diff(want, after.get(pd, {})))
    others = {p: before[p] for p in before if p != pd}
    report(all(not table_diff(others[p], after.get(p, {})) for p in others),
           'other domains unchanged', ' '.join(table_diff(others[p], after.get(p, {})) for p in others))
    said = {}
    for line in open(f'{out}/dmesg-after.txt'):
        w = line.split('em_modify: new ', 1)
        if len(w) == 2:
            x = w[1].split()  # cpuN ps F power P cost C inefficient I
            said[int(x[2])] = {'power': int(x[4]), 'cost': int(x[6]), 'inefficient': int(x[8])}
    report(not table_diff(want, said, ('power', 'cost', 'inefficient')),
           'the module printed the same table', table_diff(want, said, ('power', 'cost', 'inefficient')))

    err = open(f'{out}/live.err', errors='replace').read()
    how = next((l.split('EM changes: ', 1)[1] for l in err.split('\n') if 'live: EM changes: ' in l), '?')
    print(f'     live noticed EM changes by: {how}')
    report('Energy Model changed' in err, 'live -v said the EM changed', 'no such line in live.err')

    rows = list(csv.DictReader(l for l in open(records) if not l.startswith('#')))
    ems = [i for i, r in enumerate(rows) if r['type'] in ('em', '9')]
    report(len(ems) == 1, 'the recording holds one em record', f'{len(ems)}')
    if not ems:
        return
    # wake-ups fed before the em record: seq (wake-up number in feed order) up to this
    fed_before = sum(r['type'] in ('wakeup', '1') for r in rows[:ems[0]])
    ems = [rows[ems[0]]]
    ts = int(ems[0]['ts_ns'])
    rec = saved_em(ems[0]['em_text'].replace('\\n', '\n').replace('\\\\', '\\'))
    late = (ts - changed) / 1e9
    report(0 <= late <= 2.0, f'em record at the change + {late:.3f} s (live re-reads on notification or each interval)',
           f'em record ts {ts}, module {changed}')
    report(not table_diff(want, rec.get(pd, {})), f'the em record holds the new {pd} table',
           table_diff(want, rec.get(pd, {})))

    new, old = decisions(new_csv, pol), decisions(old_csv, pol)
    if len(new) != len(old) or any(a[4] != b[4] for a, b in zip(new, old)):
        report(False, 'both replays decided the same wake-ups', f'{len(new)} and {len(old)} rows')
        return
    # Replay switches tables at the em record's place in the stream (seq), not at its ts.
    pre = [(a, b) for a, b in zip(new, old) if int(a[4]) <= fed_before]
    post = [(a, b) for a, b in zip(new, old) if int(a[4]) > fed_before]
    early = sum(a[0] < changed for a, _ in post)
    print(f'     {early} wake-ups from before the kernel\'s change came after the em record '
          f'(decided with the new table)')
    same_pre = sum(a[2] == b[2] and a[3] == b[3] for a, b in pre)
    report(same_pre == len(pre), f'wake-ups fed before the em record: both replays agree ({same_pre} of {len(pre)})')
    diff = [(a, b) for a, b in post if a[2] != b[2]]
    with_new = sum(a[1] == a[2] for a, b in diff)
    with_old = sum(a[1] == b[2] for a, b in diff)
    report(len(diff) > 0, f'after it the new EM changes {len(diff)} of {len(post)} decisions; '
           f'the kernel sides with the new EM in {with_new}, the old in {with_old}')
    if diff:
        report(with_new >= 0.9 * len(diff) and with_new > 2 * with_old,
               'the kernel followed the new table where the two differ', f'{with_new} new, {with_old} old')
    for name, rows in (('before', [a for a, _ in pre]), ('after', [a for a, _ in post])):
        judged = [r for r in rows if r[3] not in EARLY_EXITS and r[2] >= 0 and r[1] >= 0]
        agree = sum(r[1] == r[2] for r in judged)
        pct_ok = 100.0 * agree / len(judged) if judged else 0.0
        oldpct = ''
        if name == 'after':
            oj = [b for _, b in post if b[3] not in EARLY_EXITS and b[2] >= 0 and b[1] >= 0]
            oldpct = f'; the boot-time EM alone {100.0 * sum(b[1] == b[2] for b in oj) / max(len(oj), 1):.1f} %'
        print(f'     {name} the change: {pol} agrees {agree} of {len(judged)} feec wake-ups '
              f'({pct_ok:.1f} %){oldpct}')
        if name == 'after':
            report(len(judged) >= min_feec and pct_ok >= 99.5,
                   f'{pol} with the new EM agrees >= 99.5 % of >= {min_feec} feec wake-ups after the change',
                   f'{agree} of {len(judged)} ({pct_ok:.1f} %)')


if __name__ == '__main__':
    if len(sys.argv) not in (7, 8):
        sys.exit(__doc__)
    main(*sys.argv[1:7], *(int(a) for a in sys.argv[7:]))
    sys.exit(1 if fails else 0)
