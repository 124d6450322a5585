#!/usr/bin/env python3
"""The A/B check's energy meter: CPU energy from the kernel's own trace events.

Each CPU is busy while a task other than its idle task runs (sched/sched_switch)
and runs at the frequency power/cpu_frequency last set for it; its energy is the
sum over OPPs of busy time at that OPP times that OPP's power in the kernel's
Energy Model. Idle costs nothing, as in the EM. power/cpu_idle is only a
cross-check (the time the CPU spent in the idle loop).

The collector (feecscope live, which the guest runs beside the workload: threads
of comm "feecscope", --collector-comm to change) is part of that energy; its
share is also given on its own ("collector"), since feecscope leaves its own
threads out of what it records and prices (docs/validation.md, "The collector
in the meter").

Shares nothing with feecscope: the EM is read here from the guest's debugfs
dump ("cpu0/ps:533000/power: 28728" lines, the PD named by its first CPU, the
"cpus" file giving its span); power is in microwatts (EM flag 0x1), so
microwatts x seconds = microjoules.

usage: meter.py TRACE EM_DEBUGFS_TXT FREQ0 [--json OUT] [--collector-comm COMM]
                [--window T0 T1]
  TRACE   tracefs text (.gz allowed) holding sched_switch, cpu_frequency, cpu_idle
          and the run's "fsab begin" / "fsab end" trace_marker lines: only the
          time between them counts (without markers: first to last event)
  FREQ0   "cpuN KHZ" lines: each CPU's frequency before tracing began
  --json  also write every figure as JSON to OUT
  --window  count T0 - T1 (seconds, the trace's clock) instead of the markers'
          window, e.g. the span of feecscope's own busy-time records
Exit: 0, 1 on bad input (the message names the file, the line and what is
wrong), 2 on a bad command line.
"""
import gzip
import json
import re
import signal
import sys

EVENT = re.compile(r'\[(\d+)\]\s+\S+\s+(\d+\.\d+):\s+(\w+):\s?(.*)$')
SWITCH = re.compile(r'prev_pid=(-?\d+) .*==> next_comm=(.*) next_pid=(-?\d+)')
PREV_COMM = re.compile(r'^prev_comm=(.*) prev_pid=')
COLLECTOR = 'feecscope'  # the comm of feecscope live's threads
FREQ = re.compile(r'state=(\d+) cpu_id=(\d+)$')
IDLE_EXIT = 4294967295  # PWR_EVENT_EXIT as the event prints it


class BadInput(Exception):
    pass


def read_em(path):
    """{cpu: {khz: power_uw}} from the debugfs dump."""
    span, power = {}, {}
    try:
        lines = open(path).read().splitlines()
    except OSError as e:
        raise BadInput(f'{path}: {e.strerror}')
    for n, line in enumerate(lines, 1):
        key, sep, val = line.partition(': ')
        parts = key.split('/')
        if not sep or not parts[0].startswith('cpu'):
            raise BadInput(f'{path}:{n}: not a "cpuN/...: value" line: {line!r}')
        pd = parts[0]
        if parts[1:] == ['cpus']:
            span[pd] = cpu_list(val, path, n)
        elif len(parts) == 3 and parts[1].startswith('ps:') and parts[2] == 'power':
            if not val.isdigit():
                raise BadInput(f'{path}:{n}: power {val!r} is not a number of microwatts')
            power.setdefault(pd, {})[int(parts[1][3:])] = int(val)
    if not span:
        raise BadInput(f'{path}: no "cpuN/cpus" line: not an energy_model dump')
    em = {}
    for pd, cpus in span.items():
        if not power.get(pd):
            raise BadInput(f'{path}: {pd} has no ps:*/power lines')
        for c in cpus:
            em[c] = power[pd]
    return em


def cpu_list(text, path, n):
    cpus = []
    for part in text.split(','):
        a, _, b = part.partition('-')
        if not a.isdigit() or (b and not b.isdigit()):
            raise BadInput(f'{path}:{n}: cpus {text!r} is not a CPU list')
        cpus.extend(range(int(a), int(b or a) + 1))
    return cpus


def read_freq0(path):
    f0 = {}
    try:
        lines = open(path).read().splitlines()
    except OSError as e:
        raise BadInput(f'{path}: {e.strerror}')
    for n, line in enumerate(lines, 1):
        w = line.split()
        if len(w) != 2 or not w[0].startswith('cpu') or not w[0][3:].isdigit() or not w[1].isdigit():
            raise BadInput(f'{path}:{n}: expected "cpuN KHZ", got {line!r}')
        f0[int(w[0][3:])] = int(w[1])
    return f0


def open_text(path):
    try:
        if path.endswith('.gz'):
            return gzip.open(path, 'rt', errors='replace')
        return open(path, errors='replace')
    except OSError as e:
        raise BadInput(f'{path}: {e.strerror}')


class Cpu:
    def __init__(self, khz, begin):
        self.khz = khz          # current frequency (None: not known yet)
        self.busy = None        # None until the first sched_switch says what ran
        self.since = begin      # start of the current stretch
        self.at = {}            # khz -> busy seconds
        self.own = False        # the task running now is the collector's
        self.own_at = {}        # khz -> the collector's busy seconds
        self.unknown = {}       # khz -> seconds before the first sched_switch
        self.idle_enter = None
        self.idle_s = 0.0
        self.switches = 0


def close(c, t, where):
    """End the stretch that began at c.since; busy time goes to the current OPP."""
    dt = t - c.since
    c.since = t
    if c.busy is None:
        c.unknown[c.khz] = c.unknown.get(c.khz, 0.0) + dt
    elif c.busy and dt > 0:
        if c.khz is None:
            raise BadInput(f'{where}: busy before any cpu_frequency event and no start '
                           'frequency for it in FREQ0')
        c.at[c.khz] = c.at.get(c.khz, 0.0) + dt
        if c.own:
            c.own_at[c.khz] = c.own_at.get(c.khz, 0.0) + dt


def read_events(trace):
    """(begin, end, counts, [(ts, event, cpu column, fields, line number)])."""
    begin = end = first = last = None
    counts = {'sched_switch': 0, 'cpu_frequency': 0, 'cpu_idle': 0}
    rows = []
    with open_text(trace) as fh:
        for n, line in enumerate(fh, 1):
            if line.startswith('#') or not line.strip():
                continue
            m = EVENT.search(line)
            if not m:
                if 'LOST' in line:
                    raise BadInput(f'{trace}:{n}: the ring buffer lost events: {line.strip()!r}')
                raise BadInput(f'{trace}:{n}: not a trace event line: {line.strip()[:60]!r}')
            ts, ev, rest = float(m.group(2)), m.group(3), m.group(4).strip()
            first = ts if first is None else first
            last = ts
            if ev == 'tracing_mark_write' and rest in ('fsab begin', 'fsab end'):
                if rest == 'fsab begin':
                    begin = ts
                else:
                    end = ts
            elif ev in counts:
                counts[ev] += 1
                rows.append((ts, ev, int(m.group(1)), rest, n))
    if (begin is None) != (end is None):
        raise BadInput(f'{trace}: only one of the "fsab begin" / "fsab end" markers')
    if begin is None:
        begin, end = first, last
    if begin is None or end <= begin:
        raise BadInput(f'{trace}: no events, or an empty window')
    return begin, end, counts, rows


def meter(trace, em, freq0, collector=COLLECTOR, window=None):
    """The figures over the markers' window, or over window = (begin, end) in the
    trace's seconds (the trace must have begun before it)."""
    begin, end, counts, rows = read_events(trace)
    if window:
        if not rows or window[0] < rows[0][0] or window[1] <= window[0]:
            raise BadInput(f'{trace}: window {window[0]:.6f} - {window[1]:.6f} s begins before the trace '
                           f'or is empty')
        begin, end = window
    cpus = {c: Cpu(freq0.get(c), begin) for c in em}

    def cpu_of(num, n):
        if num not in cpus:
            raise BadInput(f'{trace}:{n}: CPU {num} is in no PD of the EM')
        return cpus[num]

    for ts, ev, col, rest, n in rows:
        t = min(max(ts, begin), end)
        where = f'{trace}:{n}'
        if ev == 'sched_switch':
            m = SWITCH.search(rest)
            if not m:
                raise BadInput(f'{where}: sched_switch without prev_pid / next_pid')
            c = cpu_of(col, n)
            if c.busy is None:  # prev ran since the window began
                close(c, t, where)
                pc = PREV_COMM.search(rest)
                if m.group(1) != '0':
                    for k, sec in c.unknown.items():
                        if k is None and sec > 0:
                            raise BadInput(f'{where}: cpu{col} busy before any cpu_frequency '
                                           'event and no start frequency for it in FREQ0')
                        if sec > 0:
                            c.at[k] = c.at.get(k, 0.0) + sec
                            if pc and pc.group(1) == collector:
                                c.own_at[k] = c.own_at.get(k, 0.0) + sec
                c.unknown = {}
            close(c, t, f'{where} (cpu{col})')
            c.busy = m.group(3) != '0'
            c.own = c.busy and m.group(2) == collector
            c.switches += 1
        else:
            m = FREQ.search(rest)
            if not m:
                raise BadInput(f'{where}: {ev} without state= cpu_id=')
            c, val = cpu_of(int(m.group(2)), n), int(m.group(1))
            if ev == 'cpu_frequency':
                if val not in em[int(m.group(2))]:
                    raise BadInput(f'{where}: cpu{m.group(2)} at {val} kHz, a frequency '
                                   'its EM does not list')
                close(c, t, f'{where} (cpu{m.group(2)})')
                c.khz = val
            elif val != IDLE_EXIT:
                c.idle_enter = t
            elif c.idle_enter is not None:
                c.idle_s += t - c.idle_enter
                c.idle_enter = None
    out = {'window_s': end - begin, 'events': counts, 'cpus': {}, 'energy_uj': 0.0,
           'collector': {'comm': collector, 'busy_s': 0.0, 'energy_uj': 0.0}}
    for num in sorted(cpus):
        c = cpus[num]
        unknown = c.busy is None  # no sched_switch in the window: counted idle
        if unknown:
            c.busy = False
        close(c, end, f'{trace} (cpu{num} at the end)')
        if c.idle_enter is not None:
            c.idle_s += end - c.idle_enter
        e = sum(s * em[num][k] for k, s in c.at.items())
        out['collector']['busy_s'] += sum(c.own_at.values())
        out['collector']['energy_uj'] += sum(s * em[num][k] for k, s in c.own_at.items())
        out['cpus'][num] = {
            'busy_s': sum(c.at.values()), 'idle_loop_s': c.idle_s, 'switches': c.switches,
            'no_switch_seen': unknown,
            'busy_at_khz': {str(k): s for k, s in sorted(c.at.items())}, 'energy_uj': e,
        }
        out['energy_uj'] += e
    return out


def main(argv):
    args, js, collector, window = [], None, COLLECTOR, None
    i = 0
    while i < len(argv):
        if argv[i] == '--window' and i + 2 < len(argv):
            try:
                window = (float(argv[i + 1]), float(argv[i + 2]))
            except ValueError:
                print(f'meter.py: --window {argv[i + 1]} {argv[i + 2]}: expected two numbers of seconds',
                      file=sys.stderr)
                return 2
            i += 3
            continue
        if argv[i] in ('--json', '--collector-comm') and i + 1 < len(argv):
            if argv[i] == '--json':
                js = argv[i + 1]
            else:
                collector = argv[i + 1]
            i += 2
            continue
        if argv[i] in ('-h', '--help'):
            print(__doc__.strip())
            return 0
        args.append(argv[i])
        i += 1
    if len(args) != 3:
        print('usage: meter.py TRACE EM_DEBUGFS_TXT FREQ0 [--json OUT] [--collector-comm COMM] '
              '[--window T0 T1]', file=sys.stderr)
        return 2
    try:
        em = read_em(args[1])
        f0 = read_freq0(args[2])
        r = meter(args[0], em, f0, collector, window)
    except BadInput as e:
        print(f'meter.py: {e}', file=sys.stderr)
        return 1
    print(f'window {r["window_s"]:.6f} s   CPU energy {r["energy_uj"] / 1000:.3f} mJ')
    o = r['collector']
    print(f'of which the collector ({o["comm"]}) {o["energy_uj"] / 1000:.3f} mJ, busy {o["busy_s"]:.3f} s')
    for cpu, c in r['cpus'].items():
        opps = ' '.join(f'{int(k) // 1000}MHz:{s:.3f}s' for k, s in c['busy_at_khz'].items())
        print(f'cpu{cpu} busy {c["busy_s"]:.3f} s  idle-loop {c["idle_loop_s"]:.3f} s  '
              f'{c["energy_uj"] / 1000:.3f} mJ  {opps}')
    if js:
        with open(js, 'w') as fh:
            json.dump(r, fh, indent=1, sort_keys=True)
    return 0


if __name__ == '__main__':
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `meter.py ... | head` ends quietly
    sys.exit(main(sys.argv[1:]))
