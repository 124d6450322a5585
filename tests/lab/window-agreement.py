#!/usr/bin/env python3
"""Each policy's agreement with the kernel, over all feec wake-ups and over those whose
snapshot-to-placement window is short.

usage: window-agreement.py [--window-us W] [--bins POLICY] DECISIONS.csv RECORDS.csv

DECISIONS.csv is `feecscope replay --csv` (layout 2: a row per wake-up and policy),
RECORDS.csv the same recording's `feecscope replay --convert-csv`. A wake-up is judged
where the policy's feec reached its energy comparison (the summary's "eligible") and the
kernel's placement is known; its window is the record's decided_ns (the event that told
the placement) minus its ts_ns (the snapshot). The two files are joined on (ts_ns, pid).
Disagreement grows with the window (docs/agreement.md): in it other CPUs' rqs and the
root domain change under a decision the snapshot no longer describes, and a busy host
stretches it. Wake-ups with a window up to W us (default 100) are the ones a snapshot
still describes.

Prints one line per policy, in the decision CSV's order:
  POLICY JUDGED AGREE SHORT_JUDGED SHORT_AGREE
(counts; the caller makes the percentages). With --bins, then POLICY's agreement per
window bin (us), as "bin LO HI JUDGED DISAGREE".
Exit 0; 1 when a decision row has no record (the join failed); 2 on bad usage.
"""
import argparse
import csv
import sys

# fs_feec_reason_name()s of results with eligible set (the engine's conclude(),
# fits rule and util-changed): feec compared energies
ELIGIBLE = {"util-changed", "no-candidate", "prev-unfit", "prev-best", "margin-kept",
            "moved", "fits-rule"}
BINS = [0, 25, 50, 100, 200, 400, 800, 1600]


def rows(path):
    with open(path, newline="") as f:
        yield from csv.DictReader(line for line in f if not line.startswith("#"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--window-us", type=float, default=100.0)
    ap.add_argument("--bins", metavar="POLICY")
    ap.add_argument("decisions")
    ap.add_argument("records")
    a = ap.parse_args()

    decided = {}
    for r in rows(a.records):
        if r["type"] in ("wakeup", "1"):
            decided[(r["ts_ns"], r["pid"])] = int(r["decided_ns"] or 0)

    order, st = [], {}
    hist = {}
    for r in rows(a.decisions):
        pol = r["policy"]
        if pol not in st:
            order.append(pol)
            st[pol] = [0, 0, 0, 0]
        if r["reason"] not in ELIGIBLE or int(r["kernel_cpu"]) < 0:
            continue
        d = decided.get((r["ts_ns"], r["pid"]))
        if d is None:
            print("window-agreement.py: %s: wake-up ts_ns %s pid %s has no record in %s"
                  % (a.decisions, r["ts_ns"], r["pid"], a.records), file=sys.stderr)
            return 1
        win = (d - int(r["ts_ns"])) / 1000.0 if d else float("inf")
        ok = r["cpu"] == r["kernel_cpu"]
        s = st[pol]
        s[0] += 1
        s[1] += ok
        if win <= a.window_us:
            s[2] += 1
            s[3] += ok
        if pol == a.bins:
            b = max(i for i, lo in enumerate(BINS) if win >= lo)
            h = hist.setdefault(b, [0, 0])
            h[0] += 1
            h[1] += not ok
    for pol in order:
        print(pol, *st[pol])
    if a.bins:
        for b in sorted(hist):
            hi = BINS[b + 1] if b + 1 < len(BINS) else "inf"
            print("bin", BINS[b], hi, *hist[b])
    return 0


if __name__ == "__main__":
    sys.exit(main())
