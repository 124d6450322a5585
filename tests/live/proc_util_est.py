#!/usr/bin/env python3
"""A task's PELT state as the kernel itself prints it, against feecscope's records.

usage: proc_util_est.py sample SECONDS OUT TID...   sample /proc/TID/sched (see sample())
       proc_util_est.py check TMPDIR OUT TID:COMM... compare with TMPDIR/live.err

util_est changes only at dequeue (util_est_update()). A sample taken while
the task sleeps (state S before and after the read) therefore holds the value
its next wake-up's sched_waking snapshot must carry: feecscope's record of that
wake-up must show the same util_est (ewma, flag masked). util_avg and
last_update_time are compared too but not required: a sleeping task can still
be on its rq (v6.12+ delayed dequeue), where PELT keeps updating it; here they
matched on ~75-90 % of samples.
"""
import bisect
import re
import sys
import time


def sched_avg(tid):
    with open(f'/proc/{tid}/sched') as f:
        text = f.read()
    ue = re.search(r'se\.avg\.util_est(?:\.ewma)?\s*:\s*(\d+)', text)
    ua = re.search(r'se\.avg\.util_avg\s*:\s*(\d+)', text)
    lut = re.search(r'se\.avg\.last_update_time\s*:\s*(\d+)', text)
    if not (ue and ua and lut):
        return None
    return int(ue.group(1)) & 0x7fffffff, int(ua.group(1)), int(lut.group(1))


def state(tid):
    with open(f'/proc/{tid}/stat') as f:
        return f.read().rsplit(')', 1)[1].split()[0]


WANT_SAMPLES = 60   # per task; check() needs 20 that a recorded wake-up follows (fsa20: 18 of 30+ at load 13)


def sample(seconds, out, tids):
    """For SECONDS, then on (up to 4 times as long) until every task has
    WANT_SAMPLES: on a loaded machine this sampler and the tasks' sleeps
    both come less often."""
    start = time.monotonic()
    got = {tid: 0 for tid in tids}
    with open(out, 'w') as f:
        while True:
            now = time.monotonic()
            if now > start + 4 * seconds or (now > start + seconds and min(got.values()) >= WANT_SAMPLES):
                break
            for tid in tids:
                try:
                    if state(tid) != 'S':
                        continue
                    v = sched_avg(tid)
                    t = time.clock_gettime_ns(time.CLOCK_BOOTTIME)
                    if v is None or state(tid) != 'S':
                        continue
                except OSError:
                    continue
                f.write(f'{tid} {t} {v[0]} {v[1]} {v[2]}\n')
                got[tid] += 1
            time.sleep(0.013)


def check(tmp, out, tids):
    recs = {}
    for line in open(f'{tmp}/live.err'):
        m = re.match(r'wakeup ts=(\d+) decided=\d+ pid=(\d+) .* util_avg=(\d+) util_est=(\d+)/(\d+) '
                     r'lut=(\d+)', line)
        if m and m.group(2) in tids:
            recs.setdefault(m.group(2), []).append(
                (int(m.group(1)), (int(m.group(5)), int(m.group(3)), int(m.group(6)))))
    for v in recs.values():
        v.sort()
    per = {tid: [0, 0, None, 0] for tid in tids}  # util_est same, samples, first other, all three same
    for line in open(out):
        tid, t, *v = line.split()
        v = tuple(int(x) for x in v)
        lst = recs.get(tid, [])
        i = bisect.bisect_right(lst, (int(t), (1 << 62,)))
        if i >= len(lst) or lst[i][0] - int(t) > 20_000_000:
            continue  # no recorded wake-up soon after: nothing to compare
        p = per[tid]
        p[1] += 1
        p[3] += lst[i][1] == v
        if lst[i][1][0] == v[0]:
            p[0] += 1
        elif p[2] is None:
            p[2] = (f'/proc said (util_est, util_avg, last_update_time) {v} at {t}, '
                    f'the next wake-up ({lst[i][0]}) carries {lst[i][1]}')
    for tid, comm in sorted(tids.items(), key=lambda kv: kv[1]):
        same, n, first, all3 = per[tid]
        ok = n >= 20 and same >= 0.9 * n
        print(f"{'ok' if ok else 'bad'} {comm}: util_est of {same}/{n} /proc/{tid}/sched samples taken "
              f"asleep = the next recorded wake-up's (>= 90 %, >= 20; util_avg and last_update_time "
              f"too on {all3})" + (f'; first other: {first}' if first and not ok else ''))


if sys.argv[1] == 'sample':
    sample(float(sys.argv[2]), sys.argv[3], sys.argv[4:])
else:
    check(sys.argv[2], sys.argv[3], dict(t.split(':') for t in sys.argv[4:]))
