#!/usr/bin/env python3
"""A device's own Perfetto trace merged with feecscope's (docs/perfetto.md,
Merged with a device trace): do feecscope's thread and process tracks name
the pids and tids the device trace names, so that a trace processor binds
them to the device's threads?

usage: merge_check.py device DECISIONS.csv DEV.pftrace
       merge_check.py check DEV.txt OURS.txt

device: a device-style trace of the wake-ups in DECISIONS.csv (the decision
CSV, layout 2), as traced_probes writes one: a process tree (each process
and its threads, with their tgid) and ftrace bundles of sched_waking and
sched_switch events on its own packet sequence (1, as the Perfetto service
numbers them), plus a process feecscope never saw. The fields are those of
tests/perfetto/ftrace_input.proto, written by gen_ftrace_traces.py's encoder.

check: DEV.txt and OURS.txt are the same merged trace (cat DEV.pftrace
OURS.pftrace) decoded by protoc twice: with ftrace_input.proto (the device's
packets) and with perfetto_trace.proto (feecscope's). Packet n of one is
packet n of the other. Prints one line per problem and exits 1 if any.
"""
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_ftrace_traces import f_bytes, f_varint, packet  # noqa: E402
from check_trace import one, parse_text  # noqa: E402

DEVICE_SEQ = 1
OURS_SEQ = 0xFEEC5
STRANGER = (4242, 4243, 'surfaceflinger', 'RenderEngine')  # a process feecscope never saw


def device(csv_path, out_path):
    tasks, wakeups = {}, []  # tid -> (tgid, comm); (ts, tid, cpu)
    for r in csv.DictReader(open(csv_path)):
        if r['is_reference'] != '1':
            continue
        tid, tgid = int(r['pid']), int(r['tgid'])
        tasks.setdefault(tid, (tgid, r['comm']))
        wakeups.append((int(r['ts_ns']), tid, max(int(r['kernel_cpu']), 0)))
    tgid, tid, pname, tname = STRANGER
    tasks[tgid] = (tgid, pname)
    tasks[tid] = (tgid, tname)
    procs = {g: tasks.get(g, (g, f'proc-{g}'))[1] for g, _ in tasks.values()}
    tree = b''.join(f_bytes(1, f_varint(1, pid) + f_varint(2, 1) + f_bytes(3, name)) for pid, name in sorted(procs.items()))
    tree += b''.join(f_bytes(2, f_varint(1, t) + f_bytes(2, c) + f_varint(3, g)) for t, (g, c) in sorted(tasks.items()))
    first = min(w[0] for w in wakeups)
    out = packet(f_varint(8, first - 1000) + f_bytes(2, tree) + f_varint(10, DEVICE_SEQ))
    wakeups.append((first + 500, tid, 0))  # the stranger runs too
    by_cpu = {}
    for ts, t, cpu in sorted(wakeups):
        g, comm = tasks[t]
        waking = f_bytes(20, f_bytes(1, comm) + f_varint(2, t) + f_varint(3, 120) + f_varint(4, 1) + f_varint(5, cpu))
        switch_in = f_bytes(4, f_bytes(1, 'swapper') + f_varint(2, 0) + f_varint(3, 120) + f_varint(4, 0) +
                            f_bytes(5, comm) + f_varint(6, t) + f_varint(7, 120))
        switch_out = f_bytes(4, f_bytes(1, comm) + f_varint(2, t) + f_varint(3, 120) + f_varint(4, 1) +
                             f_bytes(5, 'swapper') + f_varint(6, 0) + f_varint(7, 120))
        ev = by_cpu.setdefault(cpu, [])
        ev.append(f_bytes(2, f_varint(1, ts) + f_varint(2, 0) + waking))
        ev.append(f_bytes(2, f_varint(1, ts + 2000) + f_varint(2, 0) + switch_in))
        ev.append(f_bytes(2, f_varint(1, ts + 40000) + f_varint(2, t) + switch_out))
    for cpu, ev in sorted(by_cpu.items()):
        out += packet(f_varint(8, first) + f_bytes(1, f_varint(1, cpu) + b''.join(ev)) + f_varint(10, DEVICE_SEQ))
    open(out_path, 'wb').write(out)


def check(dev_txt, ours_txt):
    dev = parse_text(open(dev_txt).read()).get('packet', [])
    ours = parse_text(open(ours_txt).read()).get('packet', [])
    bad = []
    if len(dev) != len(ours):
        return [f'the two decodings have {len(dev)} and {len(ours)} packets']
    threads, procs, switched_in = {}, set(), {}  # the device's: tid -> tgid; pids; tid -> [ts]
    tracks, instants, seqs = {}, [], {}
    for d, o in zip(dev, ours):
        seq = one(d, 'trusted_packet_sequence_id')
        tree, bundle = one(d, 'process_tree'), one(d, 'ftrace_events')
        td, te = one(o, 'track_descriptor'), one(o, 'track_event')
        who = 'device' if tree or bundle else 'feecscope' if td or te or one(o, 'trace_attributes') else None
        if who:
            seqs.setdefault(who, set()).add(seq)
        if tree:
            for p in tree.get('processes', []):
                procs.add(one(p, 'pid'))
                threads.setdefault(one(p, 'pid'), one(p, 'pid'))  # its main thread
            for t in tree.get('threads', []):
                threads[one(t, 'tid')] = one(t, 'tgid')
        for e in (bundle or {}).get('event', []):
            s = one(e, 'sched_switch')
            if s:
                switched_in.setdefault(one(s, 'next_pid'), []).append(one(e, 'timestamp'))
        if td:
            tracks[one(td, 'uuid')] = td
        if te and one(te, 'type') == 'TYPE_INSTANT':
            instants.append((one(o, 'timestamp'), one(te, 'track_uuid')))
    if seqs.get('device') != {DEVICE_SEQ} or seqs.get('feecscope') != {OURS_SEQ}:
        bad.append(f'packet sequences: device {seqs.get("device")}, feecscope {seqs.get("feecscope")}')
    ours_tids = set()
    for uuid, td in tracks.items():
        th, pr = one(td, 'thread'), one(td, 'process')
        if pr and one(pr, 'pid') not in procs:
            bad.append(f'process track {uuid:#x}: pid {one(pr, "pid")} is no process of the device trace')
        if not th:
            continue
        pid, tid = one(th, 'pid'), one(th, 'tid')
        ours_tids.add(tid)
        if threads.get(tid) != pid:
            bad.append(f'thread track {uuid:#x}: pid {pid} tid {tid}, the device trace has tid {tid} in '
                       f'{threads.get(tid)}')
        parent = tracks.get(one(td, 'parent_uuid'))
        if not parent or one(one(parent, 'process') or {}, 'pid') != pid:
            bad.append(f'thread track {uuid:#x} (tid {tid}) is not under its process {pid}\'s track')
    ran = {t for t in switched_in if t} - {STRANGER[1]}
    if ours_tids != ran:
        bad.append(f'threads with a track {sorted(ours_tids)}, threads the device saw woken {sorted(ran)}')
    on_threads = 0
    for ts, uuid in instants:
        th = one(tracks.get(uuid, {}), 'thread')
        if not th:
            continue
        on_threads += 1
        tid = one(th, 'tid')
        if not any(s >= ts for s in switched_in.get(tid, [])):
            bad.append(f'instant at {ts} on tid {tid}: no sched slice of that thread follows it')
    if not on_threads:
        bad.append('no decision instant on a thread track: nothing was checked')
    print('\n'.join(bad) or f'{len(ours_tids)} threads and {sum(1 for t in tracks.values() if one(t, "process"))} '
          f'processes bound to the device\'s pid/tid; {on_threads} decision instants each before the '
          f'device\'s sched slice of its thread')
    return bad


if __name__ == '__main__':
    if len(sys.argv) == 4 and sys.argv[1] == 'device':
        device(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 4 and sys.argv[1] == 'check':
        sys.exit(1 if check(sys.argv[2], sys.argv[3]) else 0)
    else:
        sys.exit(__doc__)
