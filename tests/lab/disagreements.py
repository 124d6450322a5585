#!/usr/bin/env python3
"""Where a policy and the kernel disagreed, and what happened in the kernel meanwhile.

usage: disagreements.py [-f FEECSCOPE] [-P POLICY] RECORDING

Replays RECORDING (a recording or a records CSV) under POLICY (default: the one
`feecscope replay` picks for its kernel) and lists every feec wake-up whose placement
differs from the kernel's, with the window between the collector's snapshot
(select_task_rq_fair's entry where flagged at_select, else sched_waking) and the
placement the kernel reported (decided_ns), and what the
recording shows inside that window:
  OU     the root domain became overutilized: the kernel may have skipped feec
         (select_task_rq_fair tests it at its own entry, v6.10+)
  PLACE  another wake-up was placed on some CPU: its util_est joined that rq
  BAL    a load-balance migration moved a task
A disagreement with none of these still had an unrecorded change (a task going to
sleep, a PELT update at a tick or an idle balance) or a near-tie; docs/agreement.md
classifies them. Then every feec wake-up (agreeing or not) is binned by its window:
the disagreement rate per bin shows how much of it the window explains.
Exit 0; 1 if feecscope fails; 2 on bad usage.
"""
import argparse
import bisect
import csv
import os
import subprocess
import sys
import tempfile

# fs_feec_reason_name()s where the kernel's feec did not reach its energy comparison
EARLY = {"fork", "affine", "no-pd", "overutilized", "no-asym", "sync", "zero-util", "current-cpu"}
BINS = [0, 50, 100, 200, 400, 800]


def run(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit("disagreements.py: %s: %s" % (" ".join(cmd), r.stderr.strip()[:300]))
    return r.stdout


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-f", "--feecscope", default=os.environ.get("FEECSCOPE", "build/feecscope"))
    ap.add_argument("-P", "--policy")
    ap.add_argument("recording")
    a = ap.parse_args()
    if not os.path.exists(a.recording):
        ap.error("%s: no such file" % a.recording)
    with tempfile.TemporaryDirectory() as tmp:
        dec, rec = os.path.join(tmp, "d.csv"), os.path.join(tmp, "r.csv")
        pol = ["--policies", a.policy] if a.policy else []
        run([a.feecscope, "replay", a.recording, "--csv", dec] + pol)
        run([a.feecscope, "replay", a.recording, "--convert-csv", rec])
        decisions = [r for r in rows(dec) if r["is_reference"] == "1"]
        records = rows(rec)

    wake, ou, mig = [], [], []
    for r in records:
        if r["type"] == "wakeup":
            wake.append((int(r["ts_ns"]), int(r["decided_ns"] or 0), int(r["chosen_cpu"])))
        elif r["type"] == "overutil":
            ou.append((int(r["ts_ns"]), int(r["overutilized"])))
        elif r["type"] == "migrate" and r["reason"] in ("balance", "1"):
            mig.append(int(r["ts_ns"]))
    ou.sort()
    mig.sort()
    ou_ts = [t for t, _ in ou]
    placed = sorted((d, i, c) for i, (_, d, c) in enumerate(wake) if d)
    placed_ts = [p[0] for p in placed]

    def events(i):
        ts, d, _ = wake[i]
        lo, hi = bisect.bisect_right(ou_ts, ts), bisect.bisect_right(ou_ts, d)
        ev = []
        if any(v == 1 for _, v in ou[lo:hi]):
            ev.append("OU")
        lo, hi = bisect.bisect_right(placed_ts, ts), bisect.bisect_left(placed_ts, d)
        others = sorted({c for _, j, c in placed[lo:hi] if j != i})
        if others:
            ev.append("PLACE" + ",".join(map(str, others)))
        if bisect.bisect_right(mig, d) > bisect.bisect_right(mig, ts):
            ev.append("BAL")
        return ev

    pol_name = decisions[0]["policy"] if decisions else (a.policy or "?")
    n = dis = 0
    hist = [[0, 0] for _ in BINS]
    classes = {"OU": 0, "PLACE": 0, "BAL": 0, "none": 0}
    print("%-7s %-15s %4s %6s %6s %-12s %7s  %s" %
          ("seq", "comm", "prev", pol_name[:6], "kernel", "reason", "win us", "in the window"))
    for r in decisions:
        i = int(r["seq"]) - 1
        if r["reason"] in EARLY or int(r["kernel_cpu"]) < 0 or not 0 <= i < len(wake):
            continue
        ts, d, _ = wake[i]
        if not d:
            continue
        n += 1
        win = (d - ts) / 1000.0
        b = bisect.bisect_right(BINS, win) - 1
        hist[b][0] += 1
        if r["cpu"] == r["kernel_cpu"]:
            continue
        dis += 1
        hist[b][1] += 1
        ev = events(i)
        for k in ("OU", "PLACE", "BAL"):
            classes[k] += any(e.startswith(k) for e in ev)
        classes["none"] += not ev
        print("%-7s %-15s %4s %6s %6s %-12s %7.0f  %s" % (r["seq"], r["comm"][:15], r["prev_cpu"],
              r["cpu"], r["kernel_cpu"], r["reason"], win, " ".join(ev) or "-"))
    if not n:
        print("no feec wake-up with a known placement")
        return 0
    print("\n%s: %d of %d feec wake-ups disagree (agreement %.2f %%)" %
          (pol_name, dis, n, 100.0 * (n - dis) / n))
    print("disagreements with, in the window: overutilized set %d, another placement %d,"
          % (classes["OU"], classes["PLACE"]))
    print("  a balance migration %d, none of these %d" % (classes["BAL"], classes["none"]))
    print("\nwindow (us)   feec wake-ups  disagree   rate")
    for k, lo in enumerate(BINS):
        hi = "%d" % BINS[k + 1] if k + 1 < len(BINS) else "inf"
        w, x = hist[k]
        if w:
            print("%5d - %-5s %14d %9d %6.2f %%" % (lo, hi, w, x, 100.0 * x / w))
    return 0


if __name__ == "__main__":
    sys.exit(main())
