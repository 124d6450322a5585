#!/usr/bin/env python3
"""Write Perfetto trace fixtures for feecscope's trace reader
(user/source/perfetto_trace*.c), each with the events it must read back.

usage: gen_ftrace_traces.py OUTDIR [--events N] [--only NAME]

A small scheduler model makes the true events (every task's comm, tgid,
who runs where); they are written with the field numbers of the schema
subset tests/perfetto/ftrace_input.proto. NAME.pftrace is the trace and
NAME.expected what the reader must hand out, one line per event in time
order (a tie: the lower CPU first), tab-separated, then the process tree.
What a format does not carry is written as the reader must report it: a
compact sched switch gives no prev task, so the first on each CPU has prev
pid -1 and the others the CPU's last next task; an ftrace event names only
its emitter's pid, so its comm and tgid are what the process tree and the
events before it said (-1 and "" where nothing did).

Fixtures: ftrace (ordinary events, 4 CPUs, bundles of the CPUs interleaved
out of time order, a lost-events bundle), compact (compact sched for the
switches and wakings, the other events ordinary), compact.gz (gzip'd),
compressed (ftrace's packets in deflated compressed_packets), clocks
(ftrace on MONOTONIC_RAW and one CPU on the global clock, a suspend between
the two clock snapshots, events placed on BOOTTIME), clocks-mono (the
primary clock MONOTONIC, ftrace on BOOTTIME), generic (LISA's PELT events
as GenericFtraceEvent, written by hand, with an event of another name to
be skipped), rails (android.power's PowerRails beside a few sched events
at known times, for tests/cli/perfetto_rails.sh's hand-worked mJ),
rails-mono (the same on the primary clock MONOTONIC, samples timed by
timestamp_ms or by their packet's timestamp, the descriptors after the
first samples), rails-partial (no sample after the window), rail-undescribed (a sample of a rail
never described: left out, not an error), and bad ones: bad-wire, trunc-len,
trunc-varint, nosched, bad-generic, bad-rail-back, bad-rail-wire (see .expected:
"error" and the field).
After the events and the process tree, a .expected lists each power rail
("rail", session, index, name, subsystem, sampling rate, samples) and its
samples ("sample", index, time on the trace's clock, uWs).
Deterministic: the same command writes the same bytes.
"""
import gzip
import os
import random
import sys
import zlib

CLONE_THREAD = 0x10000
IDLE_EXIT = 4294967295
BOOTTIME, MONOTONIC, MONO_RAW = 6, 3, 5


# --- protobuf wire format ---------------------------------------------------
def varint(v):
    if v < 0:
        v += 1 << 64  # int32/int64: two's complement, 10 bytes
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def f_varint(num, v):
    return varint(num << 3) + varint(v)


def f_bytes(num, data):
    if isinstance(data, str):
        data = data.encode()
    return varint(num << 3 | 2) + varint(len(data)) + data


def packed(num, values):
    return f_bytes(num, b"".join(varint(v) for v in values))


def packet(body):
    return f_bytes(1, body)  # Trace.packet


# --- the model ----------------------------------------------------------------
class Task:
    def __init__(self, pid, comm, tgid, prio=120):
        self.pid, self.comm, self.tgid, self.prio = pid, comm, tgid, prio
        self.alive = True


class Model:
    """Random but consistent scheduling on ncpu CPUs; events on BOOTTIME."""

    def __init__(self, rng, ncpu, steps, t0=5_000_000_000, suspend=None):
        self.rng, self.ncpu = rng, ncpu
        self.tasks = {}
        self.procs = []  # (pid, ppid, uid, cmdline) for the tree
        for pid, comm, tgid, ppid, uid, cmd in [
            (410, "surfaceflinger", 410, 1, 1000, "/system/bin/surfaceflinger"),
            (415, "RenderEngine", 410, 1, 1000, None),
            (520, "Web Content", 520, 1, 10123, "org.mozilla.firefox:tab"),
            (521, "JS Helper", 520, 1, 10123, None),
            (600, "kworker/u8:1", 600, 2, 0, ""),
            (777, "untreed", 777, 1, 0, None),  # not in the tree: known only from events
        ]:
            self.tasks[pid] = Task(pid, comm, tgid)
            if cmd is not None:
                self.procs.append((pid, ppid, uid, cmd))
        self.tasks[600].prio = 100
        self.initial = [snap_task(t) for t in self.tasks.values()]
        self.next_pid = 900
        self.cur = [0] * ncpu
        self.ev = []
        self.t = t0
        self.suspend_at = suspend  # (step, duration): no events then
        for step in range(steps):
            if suspend and step == suspend[0]:
                self.t += suspend[1]
                self.resume = self.t
            self.t += rng.randrange(1000, 40000)
            self.step(rng.randrange(ncpu))
            if step == steps // 3:  # the same instant on two CPUs: the lower CPU first
                self.t += 1000
                self.step(rng.randrange(ncpu), same_t=True)

    def emit(self, cpu, kind, cpid, **kw):
        kw = {k: snap_task(v) if isinstance(v, Task) else v for k, v in kw.items()}
        self.ev.append(dict(ts=self.t, cpu=cpu, kind=kind, cpid=cpid, **kw))

    def running(self):
        return set(self.cur)

    def sleeping(self):
        run = self.running()
        return [t for t in self.tasks.values() if t.alive and t.pid not in run]

    def step(self, c, same_t=False):
        rng = self.rng
        if same_t:
            c2 = (c + 1) % self.ncpu
            c, c2 = min(c, c2), max(c, c2)
            self.freq(c)
            self.freq(c2)
            return
        cur = self.cur[c]
        r = rng.randrange(100)
        if r < 35:
            self.switch(c, rng.choice([0, 0, 1, 1, 2, 0x100, 0x80]) if cur else 0)
        elif r < 60 and self.sleeping():
            t = rng.choice(self.sleeping())
            tc = rng.randrange(self.ncpu)
            self.emit(c, "sched_waking", cur, t=t, target=tc)
            self.t += rng.randrange(200, 2000)
            self.emit(c, "sched_wakeup", cur, t=t, target=tc)
        elif r < 70:
            self.freq(c)
        elif r < 78 and not cur:
            self.emit(c, "cpu_idle", 0, state=rng.choice([0, 1, IDLE_EXIT]), cpu_id=c)
        elif r < 83 and self.sleeping():
            t = rng.choice(self.sleeping())
            self.emit(c, "sched_migrate_task", cur, t=t, orig=rng.randrange(self.ncpu),
                      dest=rng.randrange(self.ncpu))
        elif r < 88 and cur:
            self.fork(c, self.tasks[cur])
        elif r < 91 and cur and cur not in (410, 520):
            self.exit(c, self.tasks[cur])
        elif r < 94 and cur:
            t = self.tasks[cur]
            new = rng.choice(["binder:%d_2" % t.pid, "Chrome_IOThread", "pool-3"])
            self.emit(c, "task_rename", cur, pid=cur if rng.randrange(2) else None,
                      old=t.comm, new=new)
            t.comm = new
        else:
            self.switch(c, 0)

    def freq(self, c):
        self.emit(c, "cpu_frequency", self.cur[c], state=self.rng.choice([300000, 1018000, 2016000]),
                  cpu_id=c)

    def switch(self, c, state):
        prev = self.tasks.get(self.cur[c])
        cands = [t.pid for t in self.sleeping()] + [0]
        nxt = self.rng.choice(cands)
        self.emit(c, "sched_switch", self.cur[c], prev=prev, state=state, next=self.tasks.get(nxt))
        self.cur[c] = nxt

    def fork(self, c, parent):
        pid = self.next_pid
        self.next_pid += 1
        thread = self.rng.randrange(2) == 1
        child = Task(pid, parent.comm, parent.tgid if thread else pid)
        flags = 0x3D0F00 if thread else 0x1200011
        self.emit(c, "task_newtask", parent.pid, t=child, flags=flags, oom=self.rng.choice([0, -1000]))
        self.emit(c, "sched_process_fork", parent.pid, parent=parent, child=child)
        self.tasks[pid] = child
        self.t += 1500
        self.emit(c, "sched_wakeup_new", parent.pid, t=child, target=self.rng.randrange(self.ncpu))

    def exit(self, c, t):
        self.emit(c, "sched_process_exit", t.pid, t=t)
        t.alive = False
        self.t += 3000
        self.switch(c, 0x10)
        self.t += 9000
        self.emit(c, "sched_process_free", self.cur[c], t=t)


# --- expected lines -------------------------------------------------------------
IDLE = Task(0, "swapper", 0, 120)


def task3(t):
    t = t or IDLE
    return [t.comm, t.pid, t.prio]


def payload(e):
    k = e["kind"]
    if k == "sched_switch":
        return task3(e["prev"]) + [e["state"]] + task3(e["next"])
    if k in ("sched_waking", "sched_wakeup", "sched_wakeup_new"):
        return task3(e["t"]) + [e["target"]]
    if k == "sched_migrate_task":
        return task3(e["t"]) + [e["orig"], e["dest"]]
    if k == "sched_process_fork":
        return [e["parent"].comm, e["parent"].pid, e["child"].comm, e["child"].pid]
    if k in ("sched_process_exit", "sched_process_free"):
        return task3(e["t"])
    if k == "task_newtask":
        return [e["t"].comm, e["t"].pid, e["flags"], e["oom"]]
    if k == "task_rename":
        return [e["pid"] if e["pid"] is not None else e["cpid"], e["old"], e["new"]]
    if k in ("cpu_frequency", "cpu_idle"):
        return [e["state"], e["cpu_id"]]
    if k == "lost":
        return [(1 << 64) - 1]
    raise ValueError(k)


def snap_task(t):
    """A task's state at an event: later renames must not change what it said."""
    return Task(t.pid, t.comm, t.tgid, t.prio) if t else None


def expected(model, tree, compact, tsmap=lambda ts: ts):
    """The reader's view of model.ev: compact sched's gaps and the learned comms and tgids."""
    known = {}  # pid -> [comm, tgid]
    for pid, comm, tgid in tree:
        known[pid] = [comm, tgid]
    cur = {}
    lines = []
    order = sorted(range(len(model.ev)), key=lambda i: (model.ev[i]["ts"], model.ev[i]["cpu"], i))

    def learn(pid, comm):
        if pid > 0 and comm:
            known.setdefault(pid, ["", -1])[0] = comm

    for i in order:
        e = dict(model.ev[i])
        c = e["cpu"]
        if compact and e["kind"] == "sched_switch":
            e["prev"] = cur.get(c, Task(-1, "", -1, 0))
            e["cpid"] = e["prev"].pid
        if compact and e["kind"] == "sched_waking":
            e["cpid"] = cur.get(c, Task(-1, "", -1, 0)).pid
        k = e["kind"]
        if k == "sched_switch":
            if e["prev"]:
                learn(e["prev"].pid, e["prev"].comm)
            if e["next"]:
                learn(e["next"].pid, e["next"].comm)
            cur[c] = e["next"] or IDLE
        elif k.startswith("sched_wak"):
            learn(e["t"].pid, e["t"].comm)
        elif k == "sched_process_fork":
            learn(e["child"].pid, e["child"].comm)
        elif k == "task_rename":
            learn(e["pid"] if e["pid"] is not None else e["cpid"], e["new"])
        elif k == "task_newtask":
            learn(e["t"].pid, e["t"].comm)
            par = known.get(e["cpid"], ["", -1])[1] if e["flags"] & CLONE_THREAD else e["t"].pid
            if par > 0:
                known.setdefault(e["t"].pid, ["", -1])[1] = par
        cpid = e["cpid"]
        ccomm, ctgid = ("<idle>", -1) if cpid == 0 else ("", -1) if cpid < 0 else tuple(known.get(cpid, ["", -1]))
        lines.append([tsmap(e["ts"]), c, k if k != "lost" else "lost events", cpid, ctgid, ccomm] + payload(e))
    return lines


def write_expected(path, lines, tree_tasks):
    with open(path, "w") as f:
        for ln in lines:
            f.write("\t".join(str(x) for x in ln) + "\n")
        for t in sorted(tree_tasks):
            f.write("task\t" + "\t".join(str(x) for x in t) + "\n")


# --- encoding ----------------------------------------------------------------------
def tree_packet(model):
    procs = b""
    for pid, ppid, uid, cmd in model.procs:
        body = f_varint(1, pid) + f_varint(2, ppid) + f_varint(5, uid)
        if cmd:
            body += f_bytes(3, cmd) + f_bytes(3, "--flag")
        procs += f_bytes(1, body)
    for t in model.initial:
        if t.pid != 777:
            procs += f_bytes(2, f_varint(1, t.pid) + f_bytes(2, t.comm) + f_varint(3, t.tgid))
    return packet(f_bytes(2, procs))


def tree_truth(model):
    """(pid, tgid, ppid, uid, comm) per tree task, as the reader gives them."""
    procs = {p[0]: p for p in model.procs}
    out = []
    for t in model.initial:
        if t.pid != 777:
            p = procs.get(t.tgid)
            out.append((t.pid, t.tgid, p[1] if p else -1, p[2] if p else -1, t.comm))
    return out


def tree_known(model):
    return [(t.pid, t.comm, t.tgid) for t in model.initial if t.pid != 777]


def ev_task(num_comm, num_pid, num_prio, t):
    t = t or IDLE
    return f_bytes(num_comm, t.comm) + f_varint(num_pid, t.pid) + (f_varint(num_prio, t.prio) if num_prio else b"")


def ftrace_event(e, ts):
    k = e["kind"]
    if k == "sched_switch":
        body = ev_task(1, 2, 3, e["prev"]) + f_varint(4, e["state"]) + ev_task(5, 6, 7, e["next"])
        num = 4
    elif k in ("sched_waking", "sched_wakeup", "sched_wakeup_new"):
        body = ev_task(1, 2, 3, e["t"]) + f_varint(4, 1) + f_varint(5, e["target"])
        num = {"sched_waking": 20, "sched_wakeup": 17, "sched_wakeup_new": 114}[k]
    elif k == "sched_migrate_task":
        body = ev_task(1, 2, 3, e["t"]) + f_varint(4, e["orig"]) + f_varint(5, e["dest"])
        num = 491
    elif k == "sched_process_fork":
        body = ev_task(1, 2, 0, e["parent"]) + ev_task(3, 4, 0, e["child"])
        num = 239
    elif k == "sched_process_exit":
        body = ev_task(1, 2, 0, e["t"]) + f_varint(3, e["t"].tgid) + f_varint(4, e["t"].prio)
        num = 238
    elif k == "sched_process_free":
        body = ev_task(1, 2, 3, e["t"])
        num = 240
    elif k == "task_newtask":
        body = f_varint(1, e["t"].pid) + f_bytes(2, e["t"].comm) + f_varint(3, e["flags"]) + f_varint(4, e["oom"])
        num = 235
    elif k == "task_rename":
        body = (f_varint(1, e["pid"]) if e["pid"] is not None else b"") + f_bytes(2, e["old"]) + f_bytes(3, e["new"])
        num = 236
    else:
        body = f_varint(1, e["state"]) + f_varint(2, e["cpu_id"])
        num = 11 if k == "cpu_frequency" else 13
    # an unknown field before and after the payload: skipped
    return f_bytes(2, f_varint(1, ts) + f_varint(2, e["cpid"]) + f_varint(5, 1) + f_bytes(num, body)
                   + f_varint(1999, 7))


def compact_sched(evs, enc_ts):
    intern = []

    def idx(comm):
        if comm not in intern:
            intern.append(comm)
        return intern.index(comm)

    sw = [e for e in evs if e["kind"] == "sched_switch"]
    wk = [e for e in evs if e["kind"] == "sched_waking"]

    def deltas(es):
        out, last = [], 0
        for e in es:
            ts = enc_ts(e)
            out.append(ts - last)
            last = ts
        return out

    nxt = [e["next"] or IDLE for e in sw]
    body = packed(1, deltas(sw)) + packed(2, [e["state"] for e in sw]) + packed(3, [t.pid for t in nxt])
    body += packed(4, [t.prio for t in nxt]) + packed(6, [idx(t.comm) for t in nxt])
    body += packed(7, deltas(wk)) + packed(8, [e["t"].pid for e in wk]) + packed(9, [e["target"] for e in wk])
    body += packed(10, [e["t"].prio for e in wk]) + packed(11, [idx(e["t"].comm) for e in wk])
    body += packed(12, [1] * len(wk))
    return b"".join(f_bytes(5, s) for s in intern) + body


def bundles(model, rng, compact=False, enc_ts=lambda e: e["ts"], extra=lambda cpu: b"", lost=None):
    """Each CPU's events in bundles of 1..24; the CPUs' bundles interleaved at random (in order per CPU)."""
    per = {c: [] for c in range(model.ncpu)}
    for e in model.ev:
        per[e["cpu"]].append(e)
    queues = {}
    for c, evs in per.items():
        qs, i = [], 0
        while i < len(evs):
            n = rng.randrange(1, 25)
            qs.append(evs[i:i + n])
            i += n
        queues[c] = qs
    out = []
    while any(queues.values()):
        c = rng.choice([c for c in queues if queues[c]])
        evs = queues[c].pop(0)
        body = f_varint(1, c)
        if compact:
            body += b"".join(ftrace_event(e, enc_ts(e)) for e in evs if e["kind"] not in ("sched_switch", "sched_waking"))
            body += f_bytes(4, compact_sched(evs, enc_ts))
        else:
            body += b"".join(ftrace_event(e, enc_ts(e)) for e in evs)
        if lost is not None and c == 1 and len(queues[c]) == 2:  # a CPU 1 bundle: events were lost before it
            body += f_varint(3, 1)
            lost.append(evs[0])
        body += extra(c)
        out.append(packet(f_bytes(1, body) + f_varint(10, 1)))
    return out


def clock_packet(clocks, primary=None):
    body = b"".join(f_bytes(1, f_varint(1, cid) + f_varint(2, ts)) for cid, ts in clocks)
    if primary:
        body += f_varint(2, primary)
    return packet(f_bytes(6, body))


def add_lost(model, marks):
    """The reader's lost-events mark: its bundle's CPU, its first event's time, just before it."""
    for e in marks:
        i = next(k for k, x in enumerate(model.ev) if x is e)
        model.ev.insert(i, dict(ts=e["ts"], cpu=e["cpu"], kind="lost", cpid=-1))


# --- the fixtures ------------------------------------------------------------------
def trace_of(pkts):
    return b"".join(pkts)


def fx_ftrace(n, seed, compact=False):
    rng = random.Random(seed)
    m = Model(rng, 4, n)
    marks = []
    pkts = [clock_packet([(BOOTTIME, m.ev[0]["ts"] - 10), (MONOTONIC, m.ev[0]["ts"] - 10 - 10**9)]),
            tree_packet(m)] + bundles(m, rng, compact=compact, lost=marks)
    add_lost(m, marks)
    return pkts, expected(m, tree_known(m), compact), tree_truth(m)


def fx_clocks(n, seed, mono_primary=False):
    """Truth on BOOTTIME; a suspend of D; ftrace on MONO_RAW (CPU 2: global) or the primary MONOTONIC."""
    rng = random.Random(seed)
    off0, D, G = 2_000_000_000, 3_000_000_000, 7_000_000
    m = Model(rng, 4, n, suspend=(n // 2, D))
    s1, s2 = m.ev[0]["ts"] - 10, m.resume + 1
    mono = lambda t: t - off0 - (D if t >= m.resume else 0)
    if mono_primary:
        pkts = [clock_packet([(BOOTTIME, s1), (MONOTONIC, mono(s1))], primary=MONOTONIC), tree_packet(m)]
        pkts += bundles(m, rng)
        pkts.insert(len(pkts) // 2, clock_packet([(BOOTTIME, s2), (MONOTONIC, mono(s2))], primary=MONOTONIC))
        return pkts, expected(m, tree_known(m), False, mono), tree_truth(m)

    def enc(e):
        return e["ts"] - G if e["cpu"] == 2 else mono(e["ts"])

    def extra(cpu):
        x = s2 + 5_000_000  # a bundle's read time: after its events on BOOTTIME
        return f_varint(5, 2) + f_varint(6, x - G) + f_varint(7, x) if cpu == 2 else f_varint(5, 4)
    pkts = [clock_packet([(BOOTTIME, s1), (MONO_RAW, mono(s1)), (MONOTONIC, mono(s1) + 77)]), tree_packet(m)]
    pkts += bundles(m, rng, enc_ts=enc, extra=extra)
    pkts.insert(len(pkts) // 2, clock_packet([(BOOTTIME, s2), (MONO_RAW, mono(s2)), (MONOTONIC, mono(s2) + 77)]))
    return pkts, expected(m, tree_known(m), False), tree_truth(m)


# --- generic events (FtraceEvent.generic = 327: GenericFtraceEvent, generic.proto) ---
def g_field(name, v):
    """A GenericFtraceEvent.Field: str_value = 3, int_value = 4 (signed kernel types), uint_value = 5."""
    if isinstance(v, str):
        val = f_bytes(3, v)
    elif isinstance(v, tuple) or v < 0:
        val = f_varint(4, v[0] if isinstance(v, tuple) else v)
    else:
        val = f_varint(5, v)
    return f_bytes(2, f_bytes(1, name) + val)


def g_event(ts, pid, name, fields, name_last=False):
    body = b"".join(g_field(n, v) for n, v in fields)
    body = body + f_bytes(1, name) if name_last else f_bytes(1, name) + body
    return f_bytes(2, f_varint(1, ts) + f_varint(2, pid) + f_bytes(327, body))


def fx_generic():
    """LISA's events, as traced_probes writes an event it has no proto for; int fields (cpu, pid) as
    int_value, unsigned ones as uint_value, char arrays as str_value (sched_tp's TP_STRUCT__entry)."""
    t0 = 7_000_000_000
    sw = f_bytes(1, "sh") + f_varint(2, 5) + f_varint(3, 120) + f_varint(4, 1) + f_bytes(5, "cat") \
        + f_varint(6, 12) + f_varint(7, 120)
    evs = [
        g_event(t0 + 100, 0, "sched_pelt_cfs", [("cpu", (0,)), ("path", "/"), ("load", 310), ("runnable", 320),
                                                ("util", 300), ("update_time", 6_999_000_000)]),
        g_event(t0 + 100, 0, "lisa__sched_pelt_cfs", [("cpu", (0,)), ("path", "/autogroup-4"), ("load", 9),
                                                      ("util", 8), ("update_time", 1), ("runnable", 9)]),
        g_event(t0 + 200, 5, "sched_util_est_cfs", [("cpu", (0,)), ("path", "(null)"), ("enqueued", 150),
                                                    ("ewma", 140), ("util", 300)], name_last=True),
        g_event(t0 + 300, 5, "sched_pelt_se", [("cpu", (0,)), ("path", "(null)"), ("comm", "cat"), ("pid", (12,)),
                                               ("load", 1), ("runnable", 1), ("util", 212), ("update_time", 1)]),
        g_event(t0 + 300, 5, "lisa__sched_util_est_se", [("cpu", (0,)), ("path", "(null)"), ("comm", "cat"),
                                                         ("pid", (12,)), ("enqueued", 200), ("ewma", 190),
                                                         ("util", 212)]),
        g_event(t0 + 350, 5, "sched_pelt_se", [("cpu", (0,)), ("path", "/"), ("comm", "(null)"), ("pid", -1),
                                               ("load", 1), ("util", 77)]),
        g_event(t0 + 400, 5, "sched_overutilized", [("overutilized", (1,)), ("span", "0x3")]),
        f_bytes(2, f_varint(1, t0 + 500) + f_varint(2, 5) + f_bytes(4, sw)),
    ]
    pkts = [clock_packet([(BOOTTIME, t0)]), packet(f_bytes(1, f_varint(1, 0) + b"".join(evs)))]
    common = lambda ts, pid, name: [ts, 0, name, pid, -1, "<idle>" if pid == 0 else ""]
    lines = [
        common(t0 + 100, 0, "sched_pelt_cfs") + [0, 1, 300, 0, 0],
        common(t0 + 100, 0, "sched_pelt_cfs") + [0, 0, 8, 0, 0],
        common(t0 + 200, 5, "sched_util_est_cfs") + [0, 1, 300, 150, 140],
        common(t0 + 300, 5, "sched_pelt_se") + ["cat", 12, 0, 212, 0, 0],
        common(t0 + 300, 5, "sched_util_est_se") + ["cat", 12, 0, 212, 200, 190],
        common(t0 + 350, 5, "sched_pelt_se") + ["(null)", -1, 0, 77, 0, 0],
        common(t0 + 500, 5, "sched_switch")[:5] + ["sh", "sh", 5, 120, 1, "cat", 12, 120],  # sh: learned here
    ]
    return pkts, lines, []


# --- power rails (TracePacket.power_rails = 40: PowerRails, power/power_rails.proto) ---
RAILS = [  # index, rail_name, subsys_name, sampling_rate, counter (uWs) at 10.0, 10.1, 10.2, 10.3 s
    (0, "S4M_VDD_CPUCL0", "CPU(LITTLE)", 1000, [1_000_000, 1_010_000, 1_030_000, 1_040_000]),
    (1, "S2M_VDD_CPUCL2", "CPU(BIG)", 1000, [2_000_000, 2_050_000, 2_060_000, 2_160_000]),
    (2, "S4M_VDD_CPUCL0_M", "CPU(LITTLE)", 1000, [500, 600, 700, 800]),
    (3, "S10M_VDD_TPU", "TPU", 500, [7_000, 7_000, 9_000, 9_000]),
]
RAIL_T0 = 10_000_000_000  # BOOTTIME of the first sample; one every 100 ms
SESSION = 77


def rail_desc():
    return b"".join(f_bytes(1, f_varint(1, i) + f_bytes(2, n) + f_bytes(3, sub) + f_varint(4, hz))
                    for i, n, sub, hz, _ in RAILS)


def rail_packet(body, ts=None, clock=None):
    pkt = f_bytes(40, body + f_varint(3, SESSION))
    if ts is not None:
        pkt = f_varint(8, ts) + pkt
    if clock is not None:
        pkt += f_varint(58, clock)
    return packet(pkt)


def rail_samples(k, with_ms=True):
    return b"".join(f_bytes(2, f_varint(1, i) + (f_varint(2, RAIL_T0 // 10**6 + 100 * k) if with_ms else b"")
                            + f_varint(3, c[k])) for i, _, _, _, c in RAILS)


def rail_events():
    """Two tasks' activations at known times: 100 ms on CPU 0 at 533 MHz, 40 ms on CPU 4 (no cpu_frequency)."""
    w, b = Task(100, "worker", 100), Task(101, "bigtask", 101)
    ms = lambda x: RAIL_T0 + x * 1_000_000
    ev = [dict(ts=ms(50), cpu=0, kind="cpu_frequency", cpid=0, state=533000, cpu_id=0),
          dict(ts=ms(60), cpu=0, kind="sched_waking", cpid=0, t=w, target=0),
          dict(ts=ms(61), cpu=0, kind="sched_wakeup", cpid=0, t=w, target=0),
          dict(ts=ms(70), cpu=0, kind="sched_switch", cpid=0, prev=None, state=0, next=w),
          dict(ts=ms(170), cpu=0, kind="sched_switch", cpid=100, prev=w, state=1, next=None),
          dict(ts=ms(200), cpu=4, kind="sched_waking", cpid=0, t=b, target=4),
          dict(ts=ms(201), cpu=4, kind="sched_wakeup", cpid=0, t=b, target=4),
          dict(ts=ms(210), cpu=4, kind="sched_switch", cpid=0, prev=None, state=0, next=b),
          dict(ts=ms(250), cpu=4, kind="sched_switch", cpid=101, prev=b, state=1, next=None)]

    class Events:
        pass
    m = Events()
    m.ev = ev
    return m


def rail_lines(nsamples, tsmap):
    out = []
    for i, n, sub, hz, c in RAILS:
        out.append(["rail", SESSION, i, n, sub, hz, nsamples])
    for i, _, _, _, c in RAILS:
        out += [["sample", i, tsmap(RAIL_T0 + k * 100_000_000), c[k]] for k in range(nsamples)]
    return out


def fx_rails(variant=""):
    """android.power's rails (every 100 ms from 10.0 s) around a 200 ms window of sched events (10.05 .. 10.25 s)."""
    m = rail_events()
    mono = (lambda t: t - 1_000_000_000) if variant == "mono" else (lambda t: t)
    bundle = lambda cpu: packet(f_bytes(1, f_varint(1, cpu) + b"".join(
        ftrace_event(e, e["ts"]) for e in m.ev if e["cpu"] == cpu)))
    n = 3 if variant == "partial" else 4
    if variant == "mono":  # each sample's time: timestamp_ms, its packet's BOOTTIME, its packet's MONOTONIC
        samples = [rail_packet(rail_samples(0)),
                   rail_packet(rail_samples(1, False), ts=RAIL_T0 + 100_000_000),
                   rail_packet(rail_samples(2, False), ts=mono(RAIL_T0 + 200_000_000), clock=MONOTONIC),
                   rail_packet(rail_samples(3), ts=RAIL_T0 + 300_000_000 + 5)]
        pkts = [clock_packet([(BOOTTIME, RAIL_T0), (MONOTONIC, mono(RAIL_T0))], primary=MONOTONIC), samples[0],
                rail_packet(rail_desc(), ts=RAIL_T0), bundle(0), samples[1], bundle(4), samples[2], samples[3]]
    else:
        pkts = [clock_packet([(BOOTTIME, RAIL_T0)]), rail_packet(rail_desc() + rail_samples(0), ts=RAIL_T0),
                bundle(0), rail_packet(rail_samples(1)), bundle(4)]
        pkts += [rail_packet(rail_samples(k), ts=RAIL_T0 + k * 100_000_000) for k in range(2, n)]
    return pkts, expected(m, [], False, mono) + rail_lines(n, mono), []


def fx_rail_undescribed():
    """A rail sampled but never described (a wrapped ring buffer): left out and counted, not an error."""
    ok_clock = clock_packet([(BOOTTIME, 1000)])
    good = packet(f_bytes(1, f_varint(1, 1) + f_bytes(2, f_varint(1, 5000) + f_varint(2, 5) + f_bytes(
        4, f_bytes(1, "sh") + f_varint(2, 5) + f_varint(6, 12)))))
    desc0 = f_bytes(1, f_varint(1, 0) + f_bytes(2, "VDD_CPU0") + f_bytes(3, "CPU"))
    sample = lambda idx, ms, uws: f_bytes(2, f_varint(1, idx) + f_varint(2, ms) + f_varint(3, uws))
    data = ok_clock + good + packet(f_bytes(40, desc0 + sample(0, 1, 1000))) + packet(f_bytes(40, sample(5, 2, 1000)))
    want = ["5000\t1\tsched_switch\t5\t-1\tsh\tsh\t5\t0\t0\t\t12\t0",
            "rail\t0\t0\tVDD_CPU0\tCPU\t0\t1", "sample\t0\t1000000\t1000"]
    return data, "\n".join(want) + "\n"


def bad_fixtures():
    """name -> (bytes, the error after "<file>: ")."""
    ok_clock = clock_packet([(BOOTTIME, 1000)])
    sw = f_bytes(1, "sh") + f_varint(2, 5) + f_varint(3, 120) + f_bytes(5, "cat") + f_bytes(6, "12")
    bad = packet(f_bytes(1, f_varint(1, 0) + f_bytes(2, f_varint(1, 5000) + f_varint(2, 5) + f_bytes(4, sw))))
    good = packet(f_bytes(1, f_varint(1, 1) + f_bytes(2, f_varint(1, 5000) + f_varint(2, 5) + f_bytes(
        4, f_bytes(1, "sh") + f_varint(2, 5) + f_varint(6, 12)))))
    freq = packet(f_bytes(1, f_varint(1, 0) + f_bytes(2, f_varint(1, 9000) + f_bytes(11, f_varint(1, 300000)))))
    cs = f_bytes(4, f_bytes(5, "sh") + packed(1, [100, 5]) + packed(2, [0, 1]) + packed(3, [7])
                 + packed(4, [120, 120]) + packed(6, [0, 0]))
    compact = packet(f_bytes(1, f_varint(1, 3) + cs))
    o1 = len(ok_clock)
    gen = packet(f_bytes(1, f_varint(1, 0) + g_event(6000, 5, "sched_pelt_cfs", [("cpu", (0,)), ("path", "/"),
                                                                                  ("util", "300")])))
    desc0 = f_bytes(1, f_varint(1, 0) + f_bytes(2, "VDD_CPU0") + f_bytes(3, "CPU"))
    sample = lambda idx, ms, uws: f_bytes(2, f_varint(1, idx) + f_varint(2, ms) + f_varint(3, uws))
    r_desc = packet(f_bytes(40, desc0 + sample(0, 1, 1000)))
    r_idx = packet(f_bytes(40, sample(5, 2, 1000)))
    r_back = packet(f_bytes(40, sample(0, 2, 900)))
    r_wire = packet(f_bytes(40, f_bytes(2, f_varint(1, 0) + f_varint(2, 2) + f_bytes(3, "12"))))
    o2 = o1 + len(good) + len(r_desc)
    return {
        "bad-rail-back": (ok_clock + good + r_desc + r_back, "packet 3 (offset %d): power_rails.energy_data: "
                          "energy: 900 uWs, below rail 0's previous 1000 uWs: the counter went backwards" % o2),
        "bad-rail-wire": (ok_clock + good + r_desc + r_wire, "packet 3 (offset %d): power_rails.energy_data: "
                          "energy (field 3): length-delimited, expected varint" % o2),
        "bad-generic": (ok_clock + good + gen, "packet 2 (offset %d): ftrace_events.event.generic.sched_pelt_cfs: "
                        "util: a string, expected a number" % (o1 + len(good))),
        "bad-wire": (ok_clock + bad, "packet 1 (offset %d): ftrace_events.event.sched_switch: next_pid (field 6): "
                     "length-delimited, expected varint" % o1),
        "bad-compact": (ok_clock + good + compact, "packet 2 (offset %d): ftrace_events.compact_sched."
                        "switch_next_pid: 1 values for 2 timestamps" % (o1 + len(good))),
        "trunc-len": (ok_clock + good + freq[:-3], "packet 2 (offset %d): trace: field 1: length past the "
                      "end of its message" % (o1 + len(good))),
        "trunc-varint": (ok_clock + good + b"\x0a\x80", "packet 2 (offset %d): trace: field 1: truncated varint"
                         % (o1 + len(good))),
        "nosched": (ok_clock + freq, "no sched events (sched_switch, sched_waking, sched_wakeup) in its 2 "
                    "packets: record with the linux.ftrace data source (docs/traces.md)"),
    }


def main(argv):
    out = argv[1] if len(argv) > 1 else "."
    n = int(argv[argv.index("--events") + 1]) if "--events" in argv else 400
    only = argv[argv.index("--only") + 1] if "--only" in argv else None
    os.makedirs(out, exist_ok=True)
    fixtures = {
        "ftrace": lambda: fx_ftrace(n, 31),
        "compact": lambda: fx_ftrace(n, 32, compact=True),
        "clocks": lambda: fx_clocks(n, 33),
        "clocks-mono": lambda: fx_clocks(n, 34, mono_primary=True),
        "generic": fx_generic,
        "rails": fx_rails,
        "rails-mono": lambda: fx_rails("mono"),
        "rails-partial": lambda: fx_rails("partial"),
    }
    for name, make in fixtures.items():
        if only and only != name:
            continue
        pkts, lines, tree = make()
        data = trace_of(pkts)
        with open(os.path.join(out, name + ".pftrace"), "wb") as f:
            f.write(data)
        write_expected(os.path.join(out, name + ".expected"), lines, tree)
        if name == "ftrace":  # the same packets deflated in three compressed_packets
            k = len(pkts) // 3
            comp = [packet(f_bytes(50, zlib.compress(trace_of(pkts[i:i + k])))) for i in range(0, len(pkts), k)]
            with open(os.path.join(out, "compressed.pftrace"), "wb") as f:
                f.write(trace_of(comp))
        if name == "compact":
            with open(os.path.join(out, "compact.pftrace.gz"), "wb") as f:
                f.write(gzip.compress(data, mtime=0))
    if only:
        return 0
    data, want = fx_rail_undescribed()
    with open(os.path.join(out, "rail-undescribed.pftrace"), "wb") as f:
        f.write(data)
    with open(os.path.join(out, "rail-undescribed.expected"), "w") as f:
        f.write(want)
    for name, (data, err) in bad_fixtures().items():
        with open(os.path.join(out, name + ".pftrace"), "wb") as f:
            f.write(data)
        with open(os.path.join(out, name + ".expected"), "w") as f:
            f.write("error\t" + err + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
