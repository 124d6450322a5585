#!/usr/bin/env python3
"""same_wakeups.py A.csv B.csv TGID...: did two live sessions that ran at once see the
same wake-ups?

A and B are records CSVs (`feecscope replay REC --convert-csv`) of two sessions. Each
session leaves out its own threads, so the tasks of every TGID given (both sessions'
processes) are left out of both. The two start and stop at different moments, so only
wake-ups inside both spans, 0.2 s in from their edges, count. Each program stamps the
event with its own clock read, so the same wake-up can carry stamps apart by a
preemption of the waking CPU between the two programs: within MARGIN_NS of the window's
edges a pid's count may differ by what lies there. Anything else is a wake-up one session
saw and the other did not: printed, and exit 1.
"""
import collections
import csv
import sys

EDGE_NS = 200_000_000
MARGIN_NS = 2_000_000


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

    def count(rows, lo_, hi_):
        return collections.Counter(p for t, p, g, _ in rows if g not in own and lo_ <= t < hi_)

    inner_a, inner_b = count(a, lo, hi), count(b, lo, hi)
    edge_a = count(a, lo - MARGIN_NS, lo + MARGIN_NS) + count(a, hi - MARGIN_NS, hi + MARGIN_NS)
    edge_b = count(b, lo - MARGIN_NS, lo + MARGIN_NS) + count(b, hi - MARGIN_NS, hi + MARGIN_NS)
    bad = []
    for pid in sorted(set(inner_a) | set(inner_b)):
        d = abs(inner_a[pid] - inner_b[pid])
        if d > edge_a[pid] + edge_b[pid]:
            comm = next((c for _, p, _, c in a + b if p == pid), "?")
            bad.append(f"pid {pid} ({comm}): {inner_a[pid]} against {inner_b[pid]}")
    total_a, total_b = sum(inner_a.values()), sum(inner_b.values())
    print(f"{(hi - lo) / 1e9:.2f} s of overlap: {total_a} and {total_b} wake-ups of "
          f"{len(set(inner_a) | set(inner_b))} tasks; {len(bad)} tasks differ")
    for line in bad[:10]:
        print("  " + line)
    return 1 if bad or total_a == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
