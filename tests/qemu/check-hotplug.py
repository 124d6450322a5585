#!/usr/bin/env python3
"""Check a CPU's busy time at each frequency across CPU hotplug (tests/qemu/hotplug.sh).

check-hotplug.py RECORDS.csv MARKS CPU SPIN_S
  RECORDS.csv: the guest's hotplug.rec as `feecscope replay --convert-csv` writes it.
  MARKS: "name seconds" lines (/proc/uptime, CLOCK_BOOTTIME as the records' ts_ns):
  first-offline, online-begin, online-end, spin-end, offline-begin, offline-end.
The CPU's busy time (growth of its busyfreq records: every frequency and the unknown
slot) must be ~0 (at most 1 ms) between the records read while it was offline at the
start, hold the pinned spinner (at least 75 % of the spin's wall time, at most the
span) between the last record before it came online and the first after it went
offline again, and be ~0 again between the records read once it was offline again.
Prints one line per check, "ok ..." or "FAIL ..."; exit 1 on a failure."""
import csv, sys

path, marks_path, cpu, spin = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
marks = {}
for line in open(marks_path):
    name, sec = line.split()
    marks[name] = int(float(sec) * 1e9)
need = ["first-offline", "online-begin", "online-end", "spin-end", "offline-begin", "offline-end"]
missing = [m for m in need if m not in marks]
if missing:
    sys.exit(f"FAIL {marks_path}: no mark {', '.join(missing)} (the guest's script stopped early)")
rows = list(csv.reader(l for l in open(path) if not l.startswith("#")))
col = {n: i for i, n in enumerate(rows[0])}


def busy(r):
    res = r[col["residency"]]
    known = sum(int(p.split(":")[1]) for p in res.split()) if res else 0
    return known + int(r[col["busy_unknown_ns"]] or 0)


bf = [(int(r[col["ts_ns"]]), busy(r)) for r in rows[1:]
      if r[0] == "busyfreq" and int(r[col["busy_cpu"]]) == cpu]
TICK = 10_000_000  # /proc/uptime's resolution
before = [b for b in bf if b[0] < marks["online-begin"] - TICK]
after = [b for b in bf if b[0] > marks["offline-end"] + TICK]
fails = 0


def report(ok, text):
    global fails
    print(("ok   " if ok else "FAIL ") + text)
    fails += not ok


ms = lambda ns: f"{ns / 1e6:.1f} ms"
if len(before) < 2 or len(after) < 2:
    sys.exit(f"FAIL CPU {cpu}: {len(before)} busyfreq records while offline at the start and "
             f"{len(after)} once offline again: want 2 or more of each (live started late?)")
grow = before[-1][1] - before[0][1]
report(grow <= 1_000_000, f"CPU {cpu} offline at live's start: busy {ms(grow)} over "
       f"{ms(before[-1][0] - before[0][0])} of records (want <= 1 ms)")
grow = after[0][1] - before[-1][1]
span = after[0][0] - before[-1][0]
report(0.75 * spin * 1e9 <= grow <= span + 1_000_000,
       f"CPU {cpu} online: busy {ms(grow)} over {ms(span)}, a {spin:g} s spinner pinned there "
       f"(want >= {ms(0.75 * spin * 1e9)}, <= the span)")
grow = after[-1][1] - after[0][1]
report(grow <= 1_000_000, f"CPU {cpu} offline again: busy {ms(grow)} over "
       f"{ms(after[-1][0] - after[0][0])} of records (want <= 1 ms)")
sys.exit(1 if fails else 0)
