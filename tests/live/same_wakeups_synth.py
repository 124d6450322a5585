#!/usr/bin/env python3
"""same_wakeups_synth.py DIR: two records CSVs per case, for checking same_wakeups.py
itself (tests/live/faults.sh): CASE.a.csv and CASE.b.csv, 50 tasks of 100 wake-ups
each over 3 s, both sessions stamping every one (b 2 us after a), then taken from b:
  same       nothing
  scattered  every 200th wake-up (0.5 %: lone ones, the on_rq race) - must pass
  too_many   every 50th (2 %, lone) - must fail
  run        8 wake-ups in a row of one task (0.16 %: a run) - must fail
"""
import os
import sys


def write(path, stamps):
    with open(path, "w") as f:
        f.write("# synthetic\ntype,ts_ns,pid,tgid,comm\n")
        for t, pid in sorted(stamps):
            f.write(f"wakeup,{t},{pid},{pid},t{pid}\n")


def main():
    out = sys.argv[1]
    base = [(1_000_000_000 + k * 30_000_000 + pid * 1_000, pid)
            for pid in range(100, 150) for k in range(100)]
    a = list(base)
    b = [(t + 2_000, p) for t, p in base]
    drop = {
        "same": set(),
        "scattered": {i for i in range(len(b)) if i % 200 == 77},
        "too_many": {i for i in range(len(b)) if i % 50 == 7},
        "run": set(range(140, 148)),
    }
    for case, gone in drop.items():
        write(os.path.join(out, f"{case}.a.csv"), a)
        write(os.path.join(out, f"{case}.b.csv"), [s for i, s in enumerate(b) if i not in gone])


if __name__ == "__main__":
    main()
