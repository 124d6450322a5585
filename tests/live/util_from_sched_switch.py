#!/usr/bin/env python3
# Independent check of the task utilization feecscope read from struct
# sched_entity: rebuild each workload task's PELT util_avg from the kernel's
# own sched_switch events (tracefs, same window) and hold the BPF values to it.
#
# PELT (kernel/sched/pelt.c): util_avg accrues only while the entity runs and
# decays by y per 1024 us period, y^32 = 1/2. Continuous form used here:
#   running for dt:  u = 1024 - (1024 - u) * y^(dt/1024us)
#   otherwise:       u = u * y^(dt/1024us)
# The kernel updates util_avg in whole periods, so its stored value lags the
# continuous one by up to one period (< 2.2 % of the distance to 1024/0).
#
# Checks, per task, on wake-ups at least WARM s into the window (PELT has then
# forgotten the unknown start, 30+ half-lives):
#   util_avg  the stored value was last updated between the task's last
#             switch-out and its waking, and only decays in between, so it
#             lies in [sim(waking), sim(switch-out)] up to the period lag and
#             clock differences (steal time): SLACK.
#   util_est  util_est_update() feeds the task's util_avg into the ewma at
#             dequeue (fast up, 1/4 steps down): its median lies within the
#             range of the simulated values it can have been fed, widened by
#             SLACK. Up to v6.11 that is the switch-out value (dequeue_entity()
#             updates PELT first). From v6.12 dequeue_task_fair() calls
#             util_est_update() before dequeue_entities(), so it reads util_avg
#             as of the task's last PELT update: a tick during the run, or the
#             switch-in (set_next_entity()); the range then starts at the
#             switch-in value. From v6.7 (50181c0cff31) the ewma does not go
#             down while the task waited on its rq (runnable_avg above util_avg
#             + 1 %): under contention it keeps an old high value for as long as
#             the contention lasts (fsa10 at 300 seen here, sharing 2 CPUs with
#             two other tasks), so there only the lower end is checked.
# Usage: util_from_sched_switch.py TMPDIR TID:COMM...   (reads TMPDIR/tracefs.txt,
# TMPDIR/live.err as written by collector.sh); prints "ok ..."/"bad ..." lines.
import bisect
import os
import re
import statistics
import sys

Y_PER_US = 0.5 ** (1.0 / (32 * 1024))
WARM_NS = 1_000_000_000
FORGET_NS = 128_000_000   # 4 PELT half-lives: what a run left weighs < 1/16
# v6.12+: util_est_update() before dequeue_entities() (see util_est above)
_rel = re.match(r'(\d+)\.(\d+)', os.uname().release)
_ver = (int(_rel.group(1)), int(_rel.group(2))) if _rel else (0, 0)
FED_BEFORE_DEQUEUE = _ver >= (6, 12)
KEPT_UP_UNDER_CONTENTION = _ver >= (6, 7)
SLACK_REL, SLACK_ABS = 0.10, 12


def ts_ns(sec, frac):
    return int(sec) * 10**9 + int(frac.ljust(9, '0'))


def busy_in(runs, lo, hi):
    return sum(max(0, min(t_out, hi) - max(t_in, lo)) for t_in, t_out, _ in runs)


def check_runtime(tmp, tids, runs, unsure):
    """What each task really got: its sched_switch run time against the
    kernel's own sum_exec_runtime (schedstat_sample.py at both ends of the
    window), not against what rt-app was asked (a loaded host gives less).
    A read lands somewhere between its two boot-clock stamps, so the trace's
    busy time over the inner span is a lower bound and over the outer span an
    upper bound, plus a run cut by either end of the trace (missing from it).
    A run without a switch-in started somewhere between its wake-up and its
    switch-out: it counts in the upper bound only.
    sum_exec_runtime of a running task lags by up to a tick at each read, and
    excludes steal time (added to the upper bound)."""
    try:
        samples = [line.split() for line in open(f'{tmp}/schedstat.txt')]
    except OSError:
        print('bad no schedstat.txt: the window\'s runtime samples are missing')
        return
    if len(samples) != 2:
        print(f'bad schedstat.txt: {len(samples)} samples, want 2')
        return
    (a0, a1, sa), (b0, b1, sb) = ([int(x) for x in s[:3]] for s in samples)
    va, vb = (dict(x.split(':') for x in s[3:]) for s in samples)
    tick, slack = 10_000_000, 2_000_000   # 1/HZ at HZ=100 (the coarsest), clock jitter
    for pid, comm in sorted(tids.items(), key=lambda kv: kv[1]):
        if va.get(pid, 'gone') == 'gone' or vb.get(pid, 'gone') == 'gone':
            print(f'bad {comm}: gone before the window closed')
            continue
        got = int(vb[pid]) - int(va[pid])
        sure = [r for r in runs[pid] if (r[0], r[1]) not in set(unsure[pid])]
        lo = busy_in(sure, a1, b0) - 2 * tick - slack
        longest = max((t_out - t_in for t_in, t_out, _ in runs[pid]), default=0)
        hi = busy_in(runs[pid], a0, b1) + 2 * (tick + longest) + slack + (sb - sa)
        share = 100.0 * got / (b0 - a1)
        asked = f', rt-app asked {int(comm[3:])} %' if re.fullmatch(r'fsa\d+', comm) else ''
        print(f"{'ok' if lo <= got <= hi else 'bad'} {comm} got {share:.1f} % of a CPU{asked}: "
              f'sum_exec_runtime {got / 1e6:.1f} ms within sched_switch\'s '
              f'[{lo / 1e6:.1f}, {hi / 1e6:.1f}] ms')


def main():
    tmp, tids = sys.argv[1], dict(t.split(':') for t in sys.argv[2:])
    runs = {pid: [] for pid in tids}   # (t_in, t_out, slept)
    start, woke = {}, {}
    from_wakeup = 0
    unsure = {pid: [] for pid in tids}   # runs whose start tracefs did not show
    t0 = None
    wu = re.compile(r'\s(\d+)\.(\d+): sched_wakeup: comm=.* pid=(\d+) prio=')
    sw = re.compile(r'\s(\d+)\.(\d+): sched_switch: prev_comm=.* prev_pid=(\d+) prev_prio=\d+ '
                    r'prev_state=(\S+) ==> next_comm=.* next_pid=(\d+) next_prio=\d+')
    for line in open(f'{tmp}/tracefs.txt'):
        m = wu.search(line)
        if m:
            if m.group(3) in tids:
                woke[m.group(3)] = ts_ns(m.group(1), m.group(2))
            continue
        m = sw.search(line)
        if not m:
            continue
        t = ts_ns(m.group(1), m.group(2))
        t0 = t if t0 is None else t0
        prev, state, nxt = m.group(3), m.group(4), m.group(5)
        if prev in tids:
            # This kernel's tracefs was seen to miss idle->task switches on one
            # CPU (the task's switch-out and wake-up were there): start such a
            # run at its wake-up, an upper bound on its length; counted below.
            t_in = start.pop(prev, None)
            if t_in is None and prev in woke:
                t_in = woke[prev]
                from_wakeup += 1
                unsure[prev].append((t_in, t))
            if t_in is not None:
                runs[prev].append((t_in, t, not state.startswith('R')))
            woke.pop(prev, None)
        if nxt in tids:
            start[nxt] = t
            woke.pop(nxt, None)
    if t0 is None:
        print('bad no sched_switch events of the workload in tracefs')
        return
    wk = {pid: [] for pid in tids}     # (ts, util_avg, util_est)
    for line in open(f'{tmp}/live.err'):
        m = re.match(r'wakeup ts=(\d+) decided=\d+ pid=(\d+) comm=\S+ .* util_avg=(\d+) util_est=(\d+)/(\d+)', line)
        if m and m.group(2) in tids:
            wk[m.group(2)].append((int(m.group(1)), int(m.group(3)), int(m.group(5))))
    if from_wakeup:
        print(f'note {from_wakeup} runs started at sched_wakeup: tracefs had no switch-in for them')
    check_runtime(tmp, tids, runs, unsure)
    for pid, comm in sorted(tids.items(), key=lambda kv: kv[1]):
        r = runs[pid]
        if len(r) < 50:
            print(f'bad {comm}: only {len(r)} runs in sched_switch')
            continue
        # Simulate from the first switch-in; record u at each sleep (switch-out).
        u, t, outs = 0.0, r[0][0], []   # outs: (t_out, u_out, u_in of that last segment)
        busy = 0
        for t_in, t_out, slept in r:
            u *= Y_PER_US ** ((t_in - t) / 1000)
            u_in = u
            u = 1024 - (1024 - u) * Y_PER_US ** ((t_out - t_in) / 1000)
            busy += t_out - t_in
            t = t_out
            if slept:
                outs.append((t_out, u, u_in))
        span = r[-1][1] - r[0][0]
        times = [o[0] for o in outs]

        def sim_at(ts):
            i = bisect.bisect_right(times, ts) - 1
            if i < 0:
                return None
            return outs[i][1], outs[i][1] * Y_PER_US ** ((ts - outs[i][0]) / 1000), outs[i][0]
        inside = bad = 0
        worst = ''
        ue_vals, out_vals = [], [o[1] for o in outs if o[0] >= r[0][0] + WARM_NS]
        in_vals = [o[2] for o in outs if o[0] >= r[0][0] + WARM_NS]
        skipped = 0
        for ts, ua, ue in wk[pid]:
            if ts < r[0][0] + WARM_NS or ts > r[-1][1]:
                continue
            # after a run of unknown start the simulation is unsure until PELT forgets it
            if any(0 <= ts - t_out < FORGET_NS for _, t_out in unsure[pid]):
                skipped += 1
                continue
            s = sim_at(ts)
            if not s:
                continue
            hi, lo, _ = s
            ue_vals.append(ue)
            if lo * (1 - SLACK_REL) - SLACK_ABS <= ua <= hi * (1 + SLACK_REL) + SLACK_ABS:
                inside += 1
            else:
                bad += 1
                if not worst:
                    worst = f'; first outside: util_avg {ua} vs [{lo:.0f}, {hi:.0f}] at {ts}'
        n = inside + bad
        duty = 100.0 * busy / span if span else 0
        if n < 50:
            print(f'bad {comm}: only {n} wake-ups of feecscope inside the sched_switch window')
            continue
        share = inside / n
        print(f"{'ok' if share >= 0.95 else 'bad'} {comm} (duty {duty:.1f} % measured by sched_switch): "
              f'util_avg within the sched_switch PELT bracket on {inside}/{n} wake-ups (>= 95 %){worst}'
              + (f'; {skipped} not checked (after a run whose start tracefs missed)' if skipped else ''))
        med = statistics.median(ue_vals)
        lo, hi = min(in_vals if FED_BEFORE_DEQUEUE else out_vals), max(out_vals)
        lo_b, hi_b = lo * (1 - SLACK_REL) - SLACK_ABS, hi * (1 + SLACK_REL) + SLACK_ABS
        ok = lo_b <= med and (med <= hi_b or KEPT_UP_UNDER_CONTENTION)
        fed = 'switch-in..switch-out' if FED_BEFORE_DEQUEUE else 'at dequeue'
        print(f"{'ok' if ok else 'bad'} {comm}: util_est median {med} over {len(ue_vals)} wake-ups in "
              f'[{lo_b:.0f}, {hi_b:.0f}] (sched_switch PELT {fed} {lo:.0f}..{hi:.0f}, '
              f'median at dequeue {statistics.median(out_vals):.0f})'
              + (' (above it: kept up while the task waited, v6.7+)' if med > hi_b else ''))


main()
