#!/usr/bin/env python3
"""A recording and a kernel trace of the same run must give the same workload.

usage: trace_agree.py [options] RECORDING TRACE
       trace_agree.py --drop-wakeups COMM:PCT <trace.txt >dropped.txt
       trace_agree.py --raise-freq COMM:PCT --em EM <trace.txt >raised.txt

The first form replays both with `feecscope replay --workload-csv --json` (the
trace with --em; both with the same policies and physics) and prints one line per
check, "ok WHAT" or "FAIL WHAT: WHY" (tests/lib.sh's report()):
  - the tasks whose comm matches --comm are in both workloads, --tasks of them;
  - per task (by pid): activations within --acts-pct (1 %), work within
    --work-pct (2 %), and at least --min-acts activations (a task the run hardly
    woke proves nothing). With --charges TEXT (a tracefs text of the run with
    sched_stat_runtime) the recorded work is taken less what the kernel charged
    the task beyond its time on a CPU (the wait of a wake-up whose rq clock update
    was skipped: docs/traces.md, "The lab's check"), under device physics as work
    at the capacity and traced frequency of the CPU it was charged on;
    With --total the tasks' work is checked summed (each task's is printed as
    "info"): under device physics a recording without frequency steps (freq
    records) has its frequencies estimated between wake-ups and measured per CPU
    and interval, not per task (docs/traces.md); with --charges the work a CPU ran
    before its first cpu_frequency (taken at the top OPP by the reader) widens the
    difference to the range the PD's OPPs allow. --each checks each task's work
    as well (a recording with the steps);
  - the closed-loop verdicts agree: their difference within its 95 % interval
    (half-widths combined), the trace replayed with the recording's HZ and rate limit.
The second form is the check's own test: it drops every (100/PCT)-th wake-up
(sched_waking and the sched_wakeup that follows it) of the first task named
COMM from a tracefs text, as a reader that lost them would, so the comparison
must then fail on that task's activations (tests/lab/trace.sh, tests/cli/lab_trace.sh).
The third is the per-task work check's (--each): PCT % of the first task named
COMM's stretches run at their CPU's top OPP in the trace (raise_freq()), so that
task's work must fail, whether or not the sum does.
"""
import argparse
import csv
import json
import os
import re
import subprocess
import sys
import tempfile

WAKE_RE = re.compile(r" (sched_waking|sched_wakeup): comm=(.*) pid=(\d+) ")


def drop_wakeups(spec, src, dst):
    """Copy src to dst without every step-th wake-up of COMM's first pid."""
    comm, pct = spec.rsplit(":", 1)
    step = max(1, round(100 / float(pct)))
    pid, n, skip_wakeup = None, 0, False
    for line in src:
        m = WAKE_RE.search(line)
        if m and m.group(2) == comm and pid is None:
            pid = m.group(3)
        if m and m.group(3) == pid:
            if m.group(1) == "sched_waking":
                n += 1
                skip_wakeup = n % step == 0
                if skip_wakeup:
                    continue
            elif skip_wakeup:
                skip_wakeup = False
                continue
        dst.write(line)
    if pid is None:
        sys.exit(f"trace_agree.py: --drop-wakeups: no sched_waking of comm {comm} in the trace")


SWITCH_RE = re.compile(r"\[(\d+)\][^:]*? \d+\.\d+: sched_switch: .*prev_pid=(\d+) .*next_comm=(.*) next_pid=(\d+) ")
FREQ_RE = re.compile(r"\[\d+\][^:]*? \d+\.\d+: cpu_frequency: state=(\d+) cpu_id=(\d+)")


def raise_freq(spec, em, src, dst):
    """Copy src to dst with every (100/PCT)-th stretch of COMM's first pid on a CPU traced
    at the CPU's top OPP: a cpu_frequency to the PD's top after the switch into it, and
    one back to the CPU's last traced frequency after the switch out, as a reader that
    took the wrong frequency for that task alone would."""
    comm, pct = spec.rsplit(":", 1)
    step = max(1, round(100 / float(pct)))
    top = {c: r[1] for c, r in em_rates(em).items()}
    pid, last, n, raised = None, {}, 0, False
    for line in src:
        dst.write(line)
        f = FREQ_RE.search(line)
        if f:
            last[int(f.group(2))] = int(f.group(1))
            continue
        m = SWITCH_RE.search(line)
        if not m:
            continue
        cpu = int(m.group(1))
        if pid is None and m.group(3) == comm:
            pid = m.group(4)
        head = line[:line.index(": sched_switch:")]
        if m.group(2) == pid and raised and last.get(cpu):
            dst.write(f"{head}: cpu_frequency: state={last[cpu]} cpu_id={cpu}\n")
            raised = False
        if m.group(4) == pid and top.get(cpu):
            n += 1
            raised = n % step == 0
            if raised:
                dst.write(f"{head}: cpu_frequency: state={top[cpu]} cpu_id={cpu}\n")
    if pid is None:
        sys.exit(f"trace_agree.py: --raise-freq: no switch into comm {comm} in the trace")


EVENT_RE = re.compile(r"\[(\d+)\][^:]*? (\d+\.\d+): (sched_switch|sched_stat_runtime|cpu_frequency): (.*)")
FIELD_RE = re.compile(r"\b(prev_pid|next_pid|pid|runtime|state|cpu_id)=(\d+)")


def em_rates(path):
    """Per CPU of a saved EM (feecscope em --save): (capacity, the PD's top kHz, its lowest)."""
    cap, top, low, cpus = {}, {}, {}, []
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) == 3 and w[0] == "capacity":
                cap[int(w[1])] = int(w[2])
            elif w and w[0] == "pd":
                spec = next(x for x in w if x.startswith("cpus="))[5:]
                cpus = [c for part in spec.split(",") for c in
                        range(int(part.split("-")[0]), int(part.split("-")[-1]) + 1)]
            elif w and w[0] == "ps":
                khz = int(next(x for x in w if x.startswith("frequency="))[10:])
                for c in cpus:
                    top[c] = max(top.get(c, 0), khz)
                    low[c] = min(low.get(c, khz), khz)
    return {c: (cap[c], top.get(c, 0), low.get(c, 0)) for c in cap}


def kernel_charges(path, rates=None):
    """Per pid: the CPU time the kernel charged (sched_stat_runtime's runtime, what
    se.sum_exec_runtime and so a recording grows by) and the time it was on a CPU
    between its sched_switch events, in ns, from a tracefs text. With rates (em_rates())
    also the charged waits as device work: each stretch's charge beyond its time on the
    CPU, at the capacity of the CPU it ran on and its traced frequency (cpu_frequency)
    at the switch-in, and per pid how much of that work and of its traced work could be
    less: what was charged before the CPU's first cpu_frequency, which the reader takes at
    the top OPP (docs/traces.md), at the PD's lowest instead ("assumed", (trace, waits > 0,
    waits < 0))."""
    charged, oncpu, since, seen = {}, {}, {}, False
    run, khz, wait_w, assumed, first_f, on_cpu = {}, {}, {}, {}, {}, {}
    with open(path, errors="replace") as f:
        for line in f:
            m = EVENT_RE.search(line)
            if not m:
                continue
            cpu, ts, ev = int(m.group(1)), round(float(m.group(2)) * 1e9), m.group(3)
            v = dict(FIELD_RE.findall(m.group(4)))
            if ev == "cpu_frequency":
                khz[int(v["cpu_id"])] = int(v["state"])
                first_f.setdefault(int(v["cpu_id"]), ts)
                continue
            if ev == "sched_stat_runtime":
                seen = True
                pid = int(v["pid"])
                charged[pid] = charged.get(pid, 0) + int(v["runtime"])
                # the charge is traced on the CPU that updated the task's rq, which
                # may be another (a remote update_curr(): on_cpu[] says where it runs)
                if (on_cpu.get(pid, cpu), pid) in run:
                    run[(on_cpu.get(pid, cpu), pid)][0] += int(v["runtime"])
                continue
            prev, nxt = int(v["prev_pid"]), int(v["next_pid"])
            if (cpu, prev) in since:
                t = ts - since.pop((cpu, prev))
                oncpu[prev] = oncpu.get(prev, 0) + t
                ran, f = run.pop((cpu, prev))
                if rates and cpu in rates:
                    cap, top, low = rates[cpu]
                    wait_w[prev] = wait_w.get(prev, 0) + (ran - t) * cap * (f or top) / (1024 * top)
                    # before the CPU's first cpu_frequency: at most this much less
                    less = cap * (top - low) / (1024 * top)
                    x = assumed.setdefault(prev, [0, 0, 0])
                    x[0] += max(0, min(ts, first_f.get(cpu, ts)) - (ts - t)) * less
                    if not f:
                        x[1 if ran > t else 2] += abs(ran - t) * less
            on_cpu.pop(prev, None)
            since[(cpu, nxt)] = ts
            on_cpu[nxt] = cpu
            # the wait came just before the switch-in: the frequency then
            run[(cpu, nxt)] = [0, khz.get(cpu)]
    return (charged, oncpu, wait_w, assumed) if seen else (None, None, None, None)


def replay(fs, path, opts, tmp, name):
    """The workload rows by pid and the JSON of one replay; None and why on failure."""
    wcsv, js = os.path.join(tmp, name + ".csv"), os.path.join(tmp, name + ".json")
    cmd = [fs, "replay", path, "--workload-csv", wcsv, "-j", js] + opts
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        return None, None, f"{' '.join(cmd)}: exit {r.returncode}: {r.stderr.strip()[:300]}"
    with open(wcsv, newline="") as f:
        rows = {int(row["pid"]): row for row in csv.DictReader(f)}
    with open(js) as f:
        return rows, json.load(f), None


def pct(a, b):
    return 100.0 * (a - b) / b if b else float("inf") if a else 0.0


def compare_tasks(a, rec, tr):
    """Per task of the workload: activations and work; returns the lines."""
    out = []
    want = re.compile(a.comm)
    # a thread's name in one workload may be the one before its task_rename (a
    # recording keeps the comm of its first record): a pid named so in either is in
    pids = {p for rows in (rec, tr) for p, r in rows.items() if want.search(r["comm"])}
    r_t = {p: r for p, r in rec.items() if p in pids}
    t_t = {p: r for p, r in tr.items() if p in pids}
    n = len(r_t)
    line = f"{n} tasks named /{a.comm}/ in the recording's workload, {len(t_t)} in the trace's"
    if n == a.tasks and len(t_t) == a.tasks and set(r_t) == set(t_t):
        out.append("ok " + line)
    else:
        out.append(f"FAIL the workload's tasks: {line}, {a.tasks} wanted, pids "
                   f"{sorted(r_t)} and {sorted(t_t)}")
    # recorded (less the charged waits) and traced work of the tasks; how much lower and
    # higher their difference may be where the trace has no frequency yet
    sums = [0, 0, 0, 0]
    for pid in sorted(set(r_t) & set(t_t)):
        r, t = r_t[pid], t_t[pid]
        who = f"pid {pid} {t['comm']}"
        ra, ta = int(r["activations"]), int(t["activations"])
        rw, tw = int(r["work"]), int(t["work"])
        da, dw = pct(ta, ra), pct(tw, rw)
        if ra < a.min_acts:
            out.append(f"FAIL {who}: activations: {ra} recorded, fewer than {a.min_acts}")
        elif abs(da) <= a.acts_pct:
            out.append(f"ok {who}: activations {ra} recorded, {ta} traced ({da:+.2f} %)")
        else:
            out.append(f"FAIL {who}: activations: {ra} recorded, {ta} traced ({da:+.2f} %, bound {a.acts_pct} %)")
        # The kernel charges a task woken on an idle CPU from the wake-up on when the
        # rq clock's update was skipped (rq_clock_skip_update() in check_preempt_curr(),
        # kernel/sched/core.c, v6.1): the wait until it runs counts in its
        # sum_exec_runtime, so in the recording, and not in the trace's switches.
        wait = a.charged[0].get(pid, 0) - a.charged[1].get(pid, 0) if a.charged[0] else 0
        # Under device physics the wait is work: each stretch's at the capacity and
        # traced frequency of the CPU it was charged on (kernel_charges())
        wait_w = round(a.charged[2].get(pid, 0)) if a.charged[0] and a.physics != "lab" else wait
        dw = pct(tw, rw - wait_w)
        how = f"recorded {rw}" + (f" - {wait_w} charged waiting" if a.charged[0] else "")
        if a.charged[0] and a.physics != "lab":
            how += f" ({wait} ns)"
        sums[0] += rw - wait_w
        sums[1] += tw
        if a.charged[3]:  # work at an assumed frequency: [traced, less waits > 0, less waits < 0]
            x = a.charged[3].get(pid, [0, 0, 0])
            sums[2] += x[0] + x[1]
            sums[3] += x[2]
        if a.total and not a.each:  # each task's figure is shown, the sum is checked
            out.append(f"info {who}: work {how}, traced {tw} ({dw:+.2f} %)")
        elif abs(dw) <= a.work_pct and rw > 0:
            out.append(f"ok {who}: work {how}, traced {tw} ({dw:+.2f} %)")
        else:
            out.append(f"FAIL {who}: work: {how}, traced {tw} ({dw:+.2f} %, bound {a.work_pct} %)")
    if a.total:
        out.append(total_line(n, sums, a.work_pct))
    return out


def total_line(n, sums, bound):
    """The tasks' work summed: the traced within bound % of the recorded. Where the trace
    has no frequency for a CPU yet (before its first cpu_frequency) the reader takes the
    PD's top OPP, so that work and the waits charged there could be less, down to the
    lowest OPP (kernel_charges()): the difference may be that much lower (or higher, for
    negative waits), and the check takes the part of that range nearest 0."""
    rec, tr, lo, hi = sums
    dw = pct(tr, rec)
    what = f"work of the {n} tasks together: recorded {round(rec)}, traced {tr} ({dw:+.2f} %"
    if lo or hi:
        dlo, dhi = pct(tr - lo, rec), pct(tr + hi, rec)
        what += f"; {dlo:+.2f} .. {dhi:+.2f} % with the work before each CPU's first cpu_frequency"
        dw = 0.0 if dlo <= 0 <= dhi else dlo if dlo > 0 else dhi
    ok = abs(dw) <= bound and rec > 0
    return f"ok {what})" if ok else f"FAIL {what}, bound {bound} %)"


def verdict(js):
    v = js["simulation"]["verdicts"][0]
    return v["policy"], v["twin"], v["delta_mj"], v["ci95_mj"]


def compare_verdicts(rj, tj):
    rp, rt, rd, (rlo, rhi) = verdict(rj)
    tp, tt, td, (tlo, thi) = verdict(tj)
    what = (f"verdict E({rp}) - E({rt}): recording {rd:+.3f} mJ [{rlo:+.3f}, {rhi:+.3f}], "
            f"trace {td:+.3f} mJ [{tlo:+.3f}, {thi:+.3f}]")
    if (rp, rt) != (tp, tt):
        return [f"FAIL verdicts of the same policies: {what} (trace: {tp} - {tt})"]
    # Two estimates of one quantity agree when the 95 % interval of their
    # difference, half-width sqrt(hr^2 + ht^2), holds 0 (the sources are
    # independent readings of the run). "Each inside the other's interval"
    # failed a CI boot whose recorded work still held the charged waits.
    hr, ht = (rhi - rlo) / 2, (thi - tlo) / 2
    bound = (hr * hr + ht * ht) ** 0.5
    if abs(rd - td) <= bound:
        return [f"ok {what}, apart {abs(rd - td):.3f} mJ within {bound:.3f}"]
    return [f"FAIL verdicts agree within their intervals: {what}, apart {abs(rd - td):.3f} mJ, "
            f"more than {bound:.3f}"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("recording", nargs="?")
    ap.add_argument("trace", nargs="?")
    ap.add_argument("--feecscope", default="build/feecscope")
    ap.add_argument("--em", help="the EM the trace is read with (the recording has its own)")
    ap.add_argument("--comm", default=".", help="regex: the workload's tasks")
    ap.add_argument("--tasks", type=int, default=0, help="how many tasks --comm must find")
    ap.add_argument("--policies", default="v6.1,v6.1+margin")
    ap.add_argument("--physics", default="lab")
    ap.add_argument("--acts-pct", type=float, default=1.0)
    ap.add_argument("--work-pct", type=float, default=2.0)
    ap.add_argument("--min-acts", type=int, default=50)
    ap.add_argument("--total", action="store_true", help="check the tasks' work summed, not each task's "
                    "(each task's is printed as info)")
    ap.add_argument("--each", action="store_true", help="with --total, each task's work is checked too "
                    "(a recording with the frequency steps: docs/traces.md)")
    ap.add_argument("--drop-wakeups", metavar="COMM:PCT")
    ap.add_argument("--raise-freq", metavar="COMM:PCT")
    ap.add_argument("--charges", metavar="TEXT", help="a tracefs text of the run with sched_stat_runtime: "
                    "the recorded work is compared less the waits the kernel charged")
    a = ap.parse_args()
    if a.drop_wakeups:
        sys.stdin.reconfigure(errors="surrogateescape")
        sys.stdout.reconfigure(errors="surrogateescape")
        drop_wakeups(a.drop_wakeups, sys.stdin, sys.stdout)
        return 0
    if a.raise_freq:
        if not a.em:
            ap.error("--raise-freq needs --em")
        sys.stdin.reconfigure(errors="surrogateescape")
        sys.stdout.reconfigure(errors="surrogateescape")
        raise_freq(a.raise_freq, a.em, sys.stdin, sys.stdout)
        return 0
    if not a.recording or not a.trace or not a.em:
        ap.error("RECORDING, TRACE and --em are required")
    a.charged = (None, None, None, None)
    if a.charges:
        a.charged = kernel_charges(a.charges, em_rates(a.em) if a.physics != "lab" else None)
        if a.charged[0] is None:
            print(f"FAIL [{os.path.basename(a.charges)}] has sched_stat_runtime events (the kernel's charges)")
            return 1
    opts = ["--policies", a.policies, "--sim-physics", a.physics]
    with tempfile.TemporaryDirectory() as tmp:
        rec, rj, why = replay(a.feecscope, a.recording, opts, tmp, "rec")
        if why:
            print(f"FAIL the recording replays: {why}")
            return 1
        # the trace has no header: it is simulated with the recording's settings
        sim = rj["simulation"]
        same = ["--sim-hz", str(sim["hz"])] if sim.get("hz") else []
        if sim.get("rate_limit_ns") is not None:
            same += ["--sim-rate-limit-us", str(sim["rate_limit_ns"] // 1000)]
        tr, tj, why = replay(a.feecscope, a.trace, opts + ["--em", a.em] + same, tmp, "trace")
        if why:
            print(f"FAIL the trace replays: {why}")
            return 1
    name = os.path.basename(a.trace)
    lines = compare_tasks(a, rec, tr) + compare_verdicts(rj, tj)
    for l in lines:
        st, what = l.split(" ", 1)
        print(f"{st} [{name}] {what}")
    return 0 if not any(l.startswith("FAIL ") for l in lines) else 1


if __name__ == "__main__":
    sys.exit(main())
