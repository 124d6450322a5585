#!/usr/bin/env python3
"""same_wakeups.py A.csv B.csv TGID...: did two live sessions that ran at once see the
same wake-ups?

A and B are records CSVs (`feecscope replay REC --convert-csv`) of two sessions. Each
session leaves out its own threads, so the tasks of every TGID given (both sessions'
processes) are left out of both. Only wake-ups inside both spans, 0.2 s in from their
edges, count. The two sessions' programs run one after the other on the same tracepoint
call, each stamping it with its own clock read, and a task cannot wake again before that
call returns; so, per task, the two sessions' stamps must alternate (the first-attached
session's, then the other's) - however long the waking CPU was preempted between the two
programs. A pair cut by the window's edge is dropped. A stamp without its partner is a
wake-up one session saw and the other did not. A few are allowed: each
program reads p->on_rq itself, and a task still leaving its old CPU (which clears on_rq
under that CPU's rq lock, not under the waker's p->pi_lock) can be runnable to one
session (no decision: no wake-up record) and asleep to the other. That race takes one
wake-up at a time, and more of them the busier the host (the first CI run with this
check, beside a busy QEMU guest, counted 29,634 and 29,648; one under stress-ng, 26 of
about 5,000): a lone unpaired stamp, its task's wake-ups before and after it paired, is
allowed up to ALLOWED_SCATTERED. What a session really loses (a dropped ring, a detached
program, a filter) takes a task's wake-ups in runs: unpaired stamps next to each other
in a task's sequence are held to ALLOWED. Beyond either: the tasks are printed, and exit 1.
"""
import collections
import csv
import sys

EDGE_NS = 200_000_000
ALLOWED = 0.001
ALLOWED_SCATTERED = 0.01


def wakeups(path):
    with open(path, newline="") as f:
        rows = csv.DictReader(line for line in f if not line.startswith("#"))
        return [(int(r["ts_ns"]), int(r["pid"]), int(r["tgid"]), r["comm"])
                for r in rows if r["type"] in ("wakeup", "1")]


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: same_wakeups.py A.csv B.csv TGID...")
    a, b = wakeups(sys.argv[1]), wakeups(sys.argv[2])
    own = {int(t) for t in sys.argv[3:]}
    if not a or not b:
        print(f"no wake-ups: {len(a)} and {len(b)}")
        return 1
    lo = max(a[0][0], b[0][0]) + EDGE_NS
    hi = min(a[-1][0], b[-1][0]) - EDGE_NS
    if hi - lo < EDGE_NS:
        print(f"the sessions overlap for {(hi - lo + 2 * EDGE_NS) / 1e9:.2f} s only")
        return 1

    def stamps(rows):
        per = collections.defaultdict(list)
        for t, p, g, _ in rows:
            if g not in own and lo <= t < hi:
                per[p].append(t)
        return per

    sa, sb = stamps(a), stamps(b)

    def unpaired(first, second):
        """Runs of first's and second's stamps left without a partner (first's stamp
        leads a pair): the length of each run of consecutive unpaired stamps in the
        task's merged sequence."""
        seq = sorted([(t, 0) for t in first] + [(t, 1) for t in second])
        if seq and seq[0][1] == 1:      # its partner fell before the window
            seq.pop(0)
        if seq and seq[-1][1] == 0:     # its partner falls after it
            seq.pop()
        lone = [True] * len(seq)
        for i in range(len(seq) - 1):
            if lone[i] and seq[i][1] == 0 and seq[i + 1][1] == 1:
                lone[i] = lone[i + 1] = False
        runs, n = [], 0
        for x in lone + [False]:
            if x:
                n += 1
            elif n:
                runs.append(n)
                n = 0
        return runs

    bad, scattered, clustered, pairs = [], 0, 0, 0
    comms = {p: c for _, p, _, c in a + b}
    for pid in sorted(set(sa) | set(sb)):
        runs = min(unpaired(sa[pid], sb[pid]), unpaired(sb[pid], sa[pid]), key=sum)
        pairs += min(len(sa[pid]), len(sb[pid]))
        if runs:
            scattered += sum(r for r in runs if r == 1)
            clustered += sum(r for r in runs if r > 1)
            bad.append(f"pid {pid} ({comms.get(pid, '?')}): {len(sa[pid])} against {len(sb[pid])}, "
                       f"{sum(runs)} unpaired, longest run {max(runs)}")
    total_a = sum(len(v) for v in sa.values())
    total_b = sum(len(v) for v in sb.values())
    most = max(total_a, total_b)
    limit = max(2, int(ALLOWED * most))
    limit_scattered = max(2, int(ALLOWED_SCATTERED * most))
    print(f"{(hi - lo) / 1e9:.2f} s of overlap: {total_a} and {total_b} wake-ups of "
          f"{len(set(sa) | set(sb))} tasks; seen by one session only: {scattered} alone "
          f"(at most {limit_scattered}), {clustered} in runs (at most {limit})")
    for line in bad[:10]:
        print("  " + line)
    return 1 if clustered > limit or scattered > limit_scattered or pairs == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
