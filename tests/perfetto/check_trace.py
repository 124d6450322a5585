#!/usr/bin/env python3
"""Check a feecscope Perfetto trace, decoded by `protoc --decode`, against the
same replay's decision CSV and JSON report (docs/perfetto.md says what the
trace holds; this re-derives every track, instant and counter from the CSV).

usage: check_trace.py TRACE.txt DECISIONS.csv REPORT.json SUMMARY.txt

DECISIONS.csv is the wide layout (--csv-layout wide): its rows come in the
order placements close, the order the energy counters move in.

TRACE.txt is protoc's text format of perfetto.protos.Trace
(tests/perfetto/perfetto_trace.proto). Prints one line per problem and exits
1 if there is any; prints what it checked otherwise.
"""
import csv
import json
import re
import sys
from decimal import Decimal

BOOTTIME = 6
SEQ_CLEARED, SEQ_NEEDS_STATE = 1, 2
INSTANT, COUNTER, SLICE_BEGIN, SLICE_END = 'TYPE_INSTANT', 'TYPE_COUNTER', 'TYPE_SLICE_BEGIN', 'TYPE_SLICE_END'

problems = []


def bad(msg):
    problems.append(msg)


# ---- protoc text format -> nested dicts (every field a list) ----

def unescape(s):
    """A protoc text-format string (C escapes, octal bytes) as text."""
    out, i = bytearray(), 0
    while i < len(s):
        c = s[i]
        if c != '\\':
            out += c.encode('utf-8')
            i += 1
        elif s[i + 1] in '01234567':
            j = i + 1
            while j < len(s) and j < i + 4 and s[j] in '01234567':
                j += 1
            out.append(int(s[i + 1:j], 8))
            i = j
        else:
            out.append({'n': 10, 't': 9, 'r': 13}.get(s[i + 1], ord(s[i + 1])))
            i += 2
    return out.decode('utf-8')


def parse_text(text):
    """protoc's text format, one field per line: every field becomes a list of its values."""
    stack = [{}]
    for n, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if line == '}':
            stack.pop()
        elif line.endswith(' {'):
            child = {}
            stack[-1].setdefault(line[:-2], []).append(child)
            stack.append(child)
        elif ': ' in line:
            k, v = line.split(': ', 1)
            if v.startswith('"'):
                v = unescape(v[1:-1])
            elif v in ('true', 'false'):
                v = v == 'true'
            elif re.fullmatch(r'-?[0-9]+', v):
                v = int(v)
            elif re.fullmatch(r'[-+0-9.eE]+|-?inf|nan', v):
                v = float(v)
            stack[-1].setdefault(k, []).append(v)
        elif line:
            raise ValueError(f'protoc output line {n}: cannot parse {line!r}')
    return stack[0]


def one(msg, field, default=None):
    v = msg.get(field)
    return v[0] if v else default


# ---- the trace, walked in file order as trace processor tokenizes it ----

def annotations(n, anns, arg_names, strings):
    """Debug annotations as a dict; an array of dicts (dict_entries) as a list of dicts."""
    args = {}
    for a in anns:
        k = one(a, 'name') or arg_names.get(one(a, 'name_iid'))
        if k is None:
            bad(f'packet {n}: argument name iid {one(a, "name_iid")} used before it is interned')
        if 'string_value_iid' in a:
            v = strings.get(one(a, 'string_value_iid'))
            if v is None:
                bad(f'packet {n}: string iid {one(a, "string_value_iid")} used before it is interned')
        elif 'array_values' in a:
            v = [annotations(n, x.get('dict_entries', []), arg_names, strings) for x in a['array_values']]
        else:
            v = one(a, 'int_value', one(a, 'string_value', one(a, 'bool_value')))
        args[k] = v
    return args


def walk(trace):
    packets = trace.get('packet', [])
    seq = None
    state_valid = False
    clock = None
    names, arg_names, strings = {}, {}, {}
    tracks, events, attrs = {}, [], {}
    for n, p in enumerate(packets):
        s = one(p, 'trusted_packet_sequence_id')
        if seq is None:
            seq = s
        if s != seq:
            bad(f'packet {n}: sequence {s}, not {seq}: feecscope writes one sequence')
        flags = one(p, 'sequence_flags', 0)
        if flags & SEQ_CLEARED:
            state_valid = True
            names, arg_names, strings = {}, {}, {}
        d = one(p, 'trace_packet_defaults')
        if d:
            clock = one(d, 'timestamp_clock_id')
        if flags & SEQ_NEEDS_STATE and not state_valid:
            bad(f'packet {n}: needs incremental state before any packet cleared it')
        idata = one(p, 'interned_data')
        if idata:
            for e in idata.get('event_names', []):
                names[one(e, 'iid')] = one(e, 'name')
            for e in idata.get('debug_annotation_names', []):
                arg_names[one(e, 'iid')] = one(e, 'name')
            for e in idata.get('debug_annotation_string_values', []):
                strings[one(e, 'iid')] = one(e, 'str')
        ts = one(p, 'timestamp')
        td = one(p, 'track_descriptor')
        if td:
            tracks[one(td, 'uuid')] = td
        ta = one(p, 'trace_attributes')
        if ta:
            for a in ta.get('attribute', []):
                attrs[one(a, 'key')] = one(a, 'string_value', one(a, 'long_value'))
        te = one(p, 'track_event')
        if not te:
            continue
        if ts is None:
            bad(f'packet {n}: track event without a timestamp')
        if one(p, 'timestamp_clock_id', clock) != BOOTTIME:
            bad(f'packet {n}: timestamp clock is not BOOTTIME')
        uses_iid = 'name_iid' in te or 'name_iid' in str(te.get('debug_annotations', [])) or \
            'string_value_iid' in str(te.get('debug_annotations', []))
        if uses_iid and not flags & SEQ_NEEDS_STATE:
            bad(f'packet {n}: uses interned data without SEQ_NEEDS_INCREMENTAL_STATE')
        name = one(te, 'name')
        if 'name_iid' in te:
            name = names.get(one(te, 'name_iid'))
            if name is None:
                bad(f'packet {n}: event name iid {one(te, "name_iid")} used before it is interned')
        args = annotations(n, te.get('debug_annotations', []), arg_names, strings)
        uuid = one(te, 'track_uuid')
        if uuid not in tracks:
            bad(f'packet {n}: event on track {uuid} before its descriptor')
        events.append({'ts': ts, 'type': one(te, 'type'), 'track': uuid, 'name': name, 'args': args,
                       'value': one(te, 'double_counter_value')})
    if clock != BOOTTIME:
        bad(f'the sequence default clock is {clock}, not BOOTTIME ({BOOTTIME})')
    return tracks, events, attrs


def inputs_ok(p, r, a, nr_cpus):
    """A decision's inputs (popped from a): the CSV's figures equal, the rest consistent with them."""
    ua, ue, tu = a.pop('util_avg', None), a.pop('util_est', None), a.pop('task_util', None)
    if tu != int(r['task_util']) or ua is None or ue is None or tu not in (max(ua, ue), max(ua, ue | 1)):
        bad(f'{p}: wake-up {r["seq"]}: util_avg {ua} util_est {ue} task_util {tu}, CSV task_util {r["task_util"]}')
    for k in ('prev_delta', 'best_delta', 'threshold'):
        got, want = a.pop(k, None), r[f'{p}_{k}']
        if got != (int(want) if want else None):
            bad(f'{p}: wake-up {r["seq"]}: {k} {got}, CSV says {want or "none"}')
    cands = a.pop('candidates', [])
    if any(set(c) != {'cpu', 'energy', 'delta'} or not 0 <= c['cpu'] < nr_cpus for c in cands):
        bad(f'{p}: wake-up {r["seq"]}: candidates {cands} are not (cpu, energy, delta) of this EM\'s CPUs')
    deltas = {c['delta'] for c in cands}
    for k in ('prev_delta', 'best_delta'):
        if r[f'{p}_{k}'] and int(r[f'{p}_{k}']) not in deltas and r[f'{p}_reason'] != 'util-changed':
            bad(f'{p}: wake-up {r["seq"]}: {k} {r[f"{p}_{k}"]} is no candidate\'s delta {sorted(deltas)}')


def close(a, b, tol):
    return abs(a - b) <= tol * max(1.0, abs(b))


def main():
    trace_txt, csv_path, json_path, summary_path = sys.argv[1:5]
    tracks, events, attrs = walk(parse_text(open(trace_txt, encoding='utf-8').read()))
    rep = json.load(open(json_path))
    pols = [p['name'] for p in rep['policies']]
    ref = pols[0]
    nr_cpus = rep['em']['nr_cpus']
    rows = list(csv.DictReader(open(csv_path, newline='')))
    by_seq = sorted(rows, key=lambda r: int(r['seq']))

    # tracks: one per CPU, the counters, one per verdict under the feecscope track; a
    # process track (real pid) per process and a thread track (real pid, tid) per thread
    procs = {u: one(t, 'process') for u, t in tracks.items() if 'process' in t}
    threads = {u: one(t, 'thread') for u, t in tracks.items() if 'thread' in t}
    for u, th in threads.items():
        pr = procs.get(one(tracks[u], 'parent_uuid'))
        if pr is None or one(pr, 'pid') != one(th, 'pid'):
            bad(f'thread track {u} (tid {one(th, "tid")}) is not under its process\'s track')
    tasks = set(procs) | set(threads)
    by_name = {one(t, 'name'): u for u, t in tracks.items() if u not in tasks}
    roots = [u for u, t in tracks.items() if 'parent_uuid' not in t and u not in tasks]
    if len(roots) != 1:
        bad(f'{len(roots)} root tracks, expected 1')
    want = [f'kernel CPU {k}' for k in range(nr_cpus)]
    want += [f'CPU power est. ({ref})'] + [f'{x} {p} vs {ref}' for p in pols[1:] for x in ('dP', 'dE')]
    want += [f'margin verdict: {v["policy"]} vs {v["twin"]}' for v in rep['verdicts']]
    for w in want:
        if w not in by_name:
            bad(f'no track "{w}"')
    if len(tracks) != len(want) + 1 + len(tasks):
        bad(f'{len(tracks)} tracks, expected {len(want) + 1} and one per process and thread')
    for u, t in tracks.items():
        if u not in roots and u not in tasks and one(t, 'parent_uuid') not in roots:
            bad(f'track "{one(t, "name")}" is not under the feecscope track')
    units = {one(t, 'name'): one(one(t, 'counter', {}), 'unit_name') for t in tracks.values()}
    for p in pols[1:]:
        if units.get(f'dP {p} vs {ref}') != 'mW' or units.get(f'dE {p} vs {ref}') != 'mJ':
            bad(f'{p}: counter units are not mW / mJ')

    def on(name, typ):
        u = by_name.get(name)
        return [e for e in events if e['track'] == u and e['type'] == typ]

    # the observation: live's first record is not always its earliest wake-up
    t0 = min([rep['first_ts_ns']] + [int(r['ts_ns']) for r in rows])
    t1 = rep['last_ts_ns']
    for e in events:
        if not t0 <= e['ts'] <= t1:
            bad(f'event at {e["ts"]} outside the observation {t0}..{t1}')

    # kernel placements: one instant per wake-up with a known kernel CPU, named "comm pid"
    got = sorted((e['ts'], e['track'], e['name']) for k in range(nr_cpus) for e in on(f'kernel CPU {k}', INSTANT))
    exp = sorted((int(r['ts_ns']), by_name.get(f'kernel CPU {r["kernel_cpu"]}'), f'{r["comm"]} {r["pid"]}')
                 for r in rows if int(r['kernel_cpu']) >= 0)
    if got != exp:
        bad(f'kernel instants: {len(got)} in the trace, {len(exp)} from the CSV, or they differ')
    n_kernel = len(got)

    # a thread track for each thread with a kernel instant, its process's named by its leader
    want_thr = {(int(r['tgid']), int(r['pid'])) for r in rows if int(r['kernel_cpu']) >= 0}
    got_thr = {(one(t, 'pid'), one(t, 'tid')) for t in threads.values()}
    if got_thr != want_thr:
        bad(f'thread tracks for {len(got_thr)} (pid, tid), the CSV has {len(want_thr)}: '
            f'{sorted(got_thr ^ want_thr)[:4]}')
    leaders = {int(r['pid']): r['comm'] for r in rows if int(r['kernel_cpu']) >= 0 and r['pid'] == r['tgid']}
    for u, pr in procs.items():
        if one(pr, 'process_name') != leaders.get(one(pr, 'pid')):
            bad(f'process track {one(pr, "pid")} named {one(pr, "process_name")!r}, '
                f'its leader is {leaders.get(one(pr, "pid"))!r}')
    n_multi = sum(1 for pid, tid in got_thr if pid != tid)

    # each policy's placements that differ from the kernel's, on the thread's track, with their inputs
    n_pol = 0
    task_events = [e for e in events if e['track'] in tasks]
    for e in task_events:
        th = threads.get(e['track'])
        if th is None or e['type'] != INSTANT or one(th, 'tid') != e['args'].get('pid') or \
                one(th, 'pid') != e['args'].get('tgid'):
            bad(f'event {e["name"]} at {e["ts"]}: not an instant on the track of thread '
                f'{e["args"].get("tgid")}/{e["args"].get("pid")}')
    for p in pols:
        mine = [e for e in task_events if e['name'] == f'{p} != kernel']
        got = {e['args'].get('seq'): e for e in mine}
        exp = [r for r in rows if int(r['kernel_cpu']) >= 0 and r[f'{p}_acct_cpu'] != r['kernel_cpu']]
        if len(got) != len(exp) or len(mine) != len(exp):
            bad(f'{p}: {len(got)} instants, {len(exp)} placements differ from the kernel in the CSV')
        for r in exp:
            e = got.get(int(r['seq']))
            if not e:
                bad(f'{p}: wake-up {r["seq"]} differs from the kernel but has no instant')
                continue
            a = dict(e['args'])
            inputs_ok(p, r, a, nr_cpus)
            want_args = {'seq': int(r['seq']), 'pid': int(r['pid']), 'tgid': int(r['tgid']), 'comm': r['comm'],
                         'prev_cpu': int(r['prev_cpu']), 'kernel_cpu': int(r['kernel_cpu']),
                         'policy_cpu': int(r[f'{p}_acct_cpu']), 'reason': r[f'{p}_reason'],
                         'dpower_uw': int(r[f'{p}_dpower_uw'])}
            if r['uid']:
                want_args['uid'] = int(r['uid'])
            if r[f'{p}_cpu'] != r[f'{p}_acct_cpu']:
                want_args['feec_cpu'] = int(r[f'{p}_cpu'])
            if a != want_args or e['ts'] != int(r['ts_ns']):
                bad(f'{p}: wake-up {r["seq"]}: instant {e["ts"]} {e["name"]} {a}, CSV says {want_args}')
        n_pol += len(exp)

    # counters written when they change, in wake-up order: the CSV's rows re-derive them
    def changes(col, start):
        out, last = [], start
        for r in by_seq:
            v = int(r[col])
            if v != last:
                out.append((int(r['ts_ns']), v / 1e3))
                last = v
        return out

    def series(name):
        return [(e['ts'], e['value']) for e in on(name, COUNTER)]

    def same_series(what, got, exp, tol):
        if len(got) != len(exp) or any(g[0] != x[0] or not close(g[1], x[1], tol) for g, x in zip(got, exp)):
            bad(f'{what}: {len(got)} values in the trace, {len(exp)} from the CSV, or they differ')

    same_series('CPU power', series(f'CPU power est. ({ref})'), changes(f'{ref}_power_uw', None), 1e-12)
    n_counters = 0
    for i, p in enumerate(pols[1:], 1):
        dp = series(f'dP {p} vs {ref}')
        same_series(f'dP {p}', dp[1:], changes(f'{p}_dpower_uw', 0), 1e-12)
        if by_seq and dp[:1] != [(int(by_seq[0]['ts_ns']), 0.0)]:
            bad(f'dP {p}: does not start at 0 at the first wake-up')
        # cumulative ΔE: CSV rows are written as placements close, the order the counter moves in
        cum, exp = Decimal(0), []
        for r in rows:
            de = Decimal(r[f'{p}_denergy_nj'])
            if de:
                cum += de
                exp.append((int(r['ts_ns']) + int(r['dt_ns']), float(cum / 10**6)))
        de = series(f'dE {p} vs {ref}')
        same_series(f'dE {p}', de[1:], exp, 1e-9)
        final = de[-1][1] if de else None
        if final is None or not close(final, rep['policies'][i]['energy_vs_reference_mj'], 1e-6):
            bad(f'dE {p}: ends at {final} mJ, the JSON says {rep["policies"][i]["energy_vs_reference_mj"]}')
        n_counters += len(dp) + len(de)

    # the verdicts: a slice over the observation, and the run's attributes
    first_line = open(summary_path).readline().rstrip('\n')
    for v, V in enumerate(rep['verdicts']):
        name = f'margin verdict: {V["policy"]} vs {V["twin"]}'
        b, e = on(name, SLICE_BEGIN), on(name, SLICE_END)
        if len(b) != 1 or len(e) != 1 or b[0]['ts'] != t0 or e[0]['ts'] != t1:
            bad(f'{name}: not one slice from {t0} to {t1}')
            continue
        a = b[0]['args']
        # no interval from too few time blocks: null in the JSON, no ci95 arguments in the trace
        ci = [Decimal(str(x)) for x in V['ci95_mj']] if V['ci95_mj'] is not None else None
        got = [Decimal(a['ci95_lo_mj']), Decimal(a['ci95_hi_mj'])] if 'ci95_lo_mj' in a and 'ci95_hi_mj' in a \
            else None if 'ci95_lo_mj' not in a and 'ci95_hi_mj' not in a else 'half'
        if Decimal(a.get('delta_mj', 'NaN')) != Decimal(str(V['delta_mj'])) or \
                got != ci or a.get('measurable') != V['measurable'] or \
                a.get('differ') != V['differ'] or a.get('decisions') != V['decisions']:
            bad(f'{name}: arguments {a} differ from the JSON {V}')
        if attrs.get(f'feecscope.verdict{v}.delta_mj') != a.get('delta_mj'):
            bad(f'verdict {v}: trace attribute delta differs from the slice')
    if rep['verdicts'] and attrs.get('feecscope.verdict0') != first_line:
        bad(f'trace attribute feecscope.verdict0 "{attrs.get("feecscope.verdict0")}" is not the summary\'s '
            f'first line "{first_line}"')
    if attrs.get('feecscope.wakeups') != rep['counts']['wakeups']:
        bad('trace attribute feecscope.wakeups differs from the JSON')
    for i, p in enumerate(rep['policies']):
        if not attrs.get(f'feecscope.policy{i}', '').startswith(p['name']) or \
                Decimal(attrs.get(f'feecscope.policy{i}.energy_vs_reference_mj', 'NaN')) != \
                Decimal(str(p['energy_vs_reference_mj'])).quantize(Decimal('0.000001')):
            bad(f'trace attributes of policy {i} differ from the JSON')

    if problems:
        for p in problems[:40]:
            print(p)
        print(f'{len(problems)} problems')
        return 1
    print(f'ok: {len(tracks)} tracks ({len(procs)} processes, {len(threads)} threads, {n_multi} not a '
          f'leader), {n_kernel} kernel instants, {n_pol} policy instants, '
          f'{n_counters} policy counter values, {len(rep["verdicts"])} verdicts, {len(attrs)} attributes')
    return 0


if __name__ == '__main__':
    sys.exit(main())
