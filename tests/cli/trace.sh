#!/usr/bin/env bash
# feecscope replay/report on kernel traces (docs/traces.md): found by content, the closed-loop
# answer and the trace's self-check in every output, and each bad input refused in one line.
. "$(dirname "$0")/../lib.sh"
F=$FS_FIXTURES/trace
EM=$F/hikey960-2cpu.em

# one_line NAME REGEX CMD...: CMD fails, prints nothing on stdout and exactly one message on stderr
# matching REGEX: one line, wrapped at 80 columns (continuation lines indented by 2, unwrapped here).
one_line() {
	local n=$1 re=$2; shift 2
	"$@" >"$TMP/1.out" 2>"$TMP/1.raw"; local rc=$?
	unwrap "$TMP/1.raw" >"$TMP/1.err"
	if [ $rc -eq 0 ] || [ $rc -ge 128 ]; then fail "$n" "exit $rc: $*"
	elif [ -s "$TMP/1.out" ]; then fail "$n" "stdout not empty: $(head -c 200 "$TMP/1.out")"
	elif [ "$(wc -l <"$TMP/1.err")" -ne 1 ]; then fail "$n" "$(wc -l <"$TMP/1.err") lines on stderr"; sed 's/^/    /' "$TMP/1.err" | head -n 5
	elif ! fits80 "$TMP/1.raw"; then fail "$n" "a line of stderr is wider than 80 columns: $(cat "$TMP/1.raw")"
	elif ! grep -Eq -- "$re" "$TMP/1.err"; then fail "$n" "stderr lacks /$re/: $(cat "$TMP/1.err")"
	else pass "$n"; fi
}
fits80() { awk 'length > 80 { bad++ } END { exit bad > 0 }' "$1"; }

# ---- tracefs text: the answer, the trace's lines, every output ----
"$FEECSCOPE" replay "$F/tracefs.txt" --em "$EM" --json "$TMP/t.json" --csv "$TMP/t.csv" \
	--perfetto "$TMP/t.pftrace" >"$TMP/t.sum" 2>"$TMP/t.err"
check "tracefs text replays (exit 0, nothing on stderr)" sh -c "test -s '$TMP/t.sum' && ! test -s '$TMP/t.err'"
check "the first line is the closed-loop verdict" grep -Eq '^margin costs [+-][0-9.]+ mJ over 0.0817 s simulated' "$TMP/t.sum"
check "every summary line fits 80 columns" fits80 "$TMP/t.sum"
unwrap "$TMP/t.sum" >"$TMP/t.one"
check "the summary says what the trace held" grep -q '^trace: ftrace text, 188 events: sched_switch 92, wake-ups 75' "$TMP/t.one"
check "... that PELT was reconstructed" grep -q 'reconstructed: PELT (every task starts at util 0: no sched_pelt_se or sched_util_est_se of its own in the trace)' "$TMP/t.one"
check "... that frequencies were assumed (no cpu_frequency)" \
	grep -q 'assumed: no cpu_frequency events: CPUs 0-1 ran [0-9.]* ms at their PD.s top frequency' "$TMP/t.one"
check "... the placements' agreement under the kernel's policy" \
	grep -Eq 'vs the trace: v[0-9.]+ simulated: on the traced CPU for [0-9.]+ % of [0-9]+ wake-ups' "$TMP/t.one"
check "... the self-check names the trace, not a recording" grep -Eq '^simulation (reproduces|differs from) the trace' "$TMP/t.one"
check "no per-decision blocks for a trace" sh -c "! grep -q '^PD transitions' '$TMP/t.sum'"
check "JSON: the simulation's trace object" python3 -c "
import json, sys; d = json.load(open('$TMP/t.json'))['simulation']
t = d['trace']; assert d['ran'] and t['format'] == 'ftrace text' and t['events'] == 188, t
assert t['pelt'] == 'reconstructed' and t['cpu_frequency'] == 0 and t['freq_assumed_cpus'] == 3, t
assert t['placed'] > 0 and 0 <= t['agree_pct'] <= 100 and t['opp'][0]['mean_mhz_traced'] is None, t
assert len(d['verdicts']) == 1"
check "decision CSV: a row per activation and policy, each policy's own simulation" python3 -c "
import csv, json
d = json.load(open('$TMP/t.json'))['simulation']; t = d['trace']
rows = list(csv.DictReader(open('$TMP/t.csv')))
pols = [p['name'] for p in d['policies']]
assert len(rows) == d['activations'] * len(pols), (len(rows), d['activations'])
seqs = [int(r['seq']) for r in rows[::len(pols)]]
assert seqs == list(range(1, len(seqs) + 1)), 'seq'
ts = [int(r['ts_ns']) for r in rows[::len(pols)]]
assert ts == sorted(ts), 'rows not in the trace wake-up order'
assert [r['policy'] for r in rows[:len(pols)]] == pols
# the kernel's policy's rows are its simulation's placements: the self-check's agreement, counted again
k = [r for r in rows if r['policy'] == d['self_check']['policy'] and int(r['kernel_cpu']) >= 0
     and int(r['acct_cpu']) >= 0 and 'fork' not in r['flags']]
assert len(k) == t['placed'], (len(k), t['placed'])
assert sum(r['acct_cpu'] == r['kernel_cpu'] for r in rows if r in k) == t['agree'], 'agree'
assert all(r['window_ns'] == '0' and float(r['denergy_nj']) == 0 for r in rows), 'a trace prices no decision'
comms = open('$FS_FIXTURES/trace/tracefs.txt').read()
assert all(r['comm'] in comms for r in rows), 'a comm not in the trace'
"
"$FEECSCOPE" replay "$F/tracefs.txt" --em "$EM" --csv "$TMP/tw.csv" --csv-layout wide >/dev/null 2>&1
check "decision CSV, wide layout: a row per activation" python3 -c "
import csv, json
rows = list(csv.DictReader(open('$TMP/tw.csv'))); d = json.load(open('$TMP/t.json'))['simulation']
assert len(rows) == d['activations'], len(rows)
lng = list(csv.DictReader(open('$TMP/t.csv')))
assert [r['v7.2+margin_acct_cpu'] for r in rows] == [r['acct_cpu'] for r in lng if r['policy'] == 'v7.2+margin']"
check "Perfetto trace written" test -s "$TMP/t.pftrace"

# ---- LISA's sched_pelt_se / sched_util_est_se: each task's traced PELT replaces util 0 ----
awk -f tests/tools/trace_add_pelt.awk "$F/tracefs.txt" >"$TMP/pelt.txt"
"$FEECSCOPE" replay "$TMP/pelt.txt" --em "$EM" --json "$TMP/pelt.json" --csv "$TMP/pelt.csv" >"$TMP/pelt.sum" 2>"$TMP/pelt.err"
check "PELT events: replays (exit 0, nothing on stderr)" sh -c "test -s '$TMP/pelt.sum' && ! test -s '$TMP/pelt.err'"
unwrap "$TMP/pelt.sum" >"$TMP/pelt.one"
check "PELT events: JSON and summary say traced, tasks' events counted, groups left" python3 -c "
import json, re
t = json.load(open('$TMP/pelt.json'))['simulation']['trace']
lines = open('$TMP/pelt.txt').read().splitlines()
own = [l for l in lines if re.search(r' sched_(pelt|util_est)_se: ', l) and ' pid=-1 ' not in l]
assert t['pelt'] == 'traced' and t['pelt_events'] == len(own), (t['pelt_events'], len(own))
assert 0 < t['pelt_tasks'] <= len(own) // 2, t['pelt_tasks']
s = open('$TMP/pelt.one').read()
assert re.search(r'traced: PELT: %d tasks start from their sched_pelt_se / sched_util_est_se \\(%d events\\)'
                 % (t['pelt_tasks'], t['pelt_events']), s), 'summary line'
assert 'reconstructed: PELT of the other tasks' in s"
check "PELT events: a task's first simulated wake-up sees at least its traced ewma" python3 -c "
import csv, re
ewma = {}
for l in open('$TMP/pelt.txt'):
    m = re.search(r' sched_util_est_se: .* pid=(\\d+) enqueued=\\d+ ewma=(\\d+)', l)
    if m: ewma.setdefault(m.group(1), int(m.group(2)))
seen, n = set(), 0
for r in csv.DictReader(open('$TMP/pelt.csv')):
    if r['is_reference'] != '1' or r['pid'] in seen: continue
    seen.add(r['pid'])
    if r['pid'] in ewma and 'fork' not in r['flags'] and int(r['prev_cpu']) >= 0:
        assert int(r['task_util']) >= ewma[r['pid']], (r['pid'], r['task_util'], ewma[r['pid']])
        n += 1
assert n >= 5, n"
check "PELT events: the answer differs from util 0's (the inputs are used)" \
	sh -c "! cmp -s '$TMP/pelt.csv' '$TMP/t.csv'"
{ grep '^#' "$F/tracefs.txt"
  echo "          <idle>-0       (-------) [001] d..1.  1650.175800: sched_pelt_se: cpu=1 path=(null) comm=sh pid=5 load=1 runnable=1"
  grep -v '^#' "$F/tracefs.txt"; } >"$TMP/pelt-bad.txt"
one_line "sched_pelt_se without util=: the line and the field" "pelt-bad.txt:[0-9]+: .*sched_pelt_se.*util.*missing" \
	"$FEECSCOPE" replay "$TMP/pelt-bad.txt" --em "$EM"

# ---- LISA's cfs_rq events: each CPU's rq PELT starts from its first root sched_pelt_cfs, and
# a wake-up's sched_pelt_se is the self-check's traced util (sched_tp's and the lisa module's names) ----
for v in 0 1; do
	awk -v lisa=$v -f tests/tools/trace_add_cfs.awk "$F/tracefs.txt" >"$TMP/cfs$v.txt"
	"$FEECSCOPE" replay "$TMP/cfs$v.txt" --em "$EM" --json "$TMP/cfs$v.json" --csv "$TMP/cfs$v.csv" \
		>"$TMP/cfs$v.sum" 2>"$TMP/cfs$v.err"
	check "cfs_rq events (lisa=$v): replays (exit 0, nothing on stderr), within 80 columns" \
		sh -c "test -s '$TMP/cfs$v.sum' && ! test -s '$TMP/cfs$v.err' && awk 'length > 80 { exit 1 }' '$TMP/cfs$v.sum'"
	unwrap "$TMP/cfs$v.sum" >"$TMP/cfs$v.one"
done
check "cfs_rq events: JSON and summary say the rq PELT was traced, groups left, wake-up PELT compared" python3 -c "
import json, re
d = json.load(open('$TMP/cfs0.json'))['simulation']
t = d['trace']
lines = open('$TMP/cfs0.txt').read().splitlines()
root = [l for l in lines if re.search(r' sched_(pelt|util_est)_cfs: cpu=\\d+ path=/ ', l)]
se = [l for l in lines if ' sched_pelt_se: ' in l]
assert t['cfs_events'] == len(root) == 4, (t['cfs_events'], len(root))
assert t['rq_pelt'] == 'traced' and t['rq_traced_cpus'] == 3, t
assert 0 < t['wake_utils'] <= len(se) and t['pelt'] == 'reconstructed', (t['wake_utils'], len(se))
assert 0 < t['util_compared'] <= t['wake_utils'], t
s = open('$TMP/cfs0.one').read()
assert 'traced: rq PELT: CPUs 0-1 start from their first sched_pelt_cfs (4 events of root cfs_rqs)' in s, 'rq line'
m = re.search(r'PELT at the wake-up: the simulated util_avg is ([0-9.]+) from the traced on average '
              r'\\(simulated - traced ([-+][0-9.]+); traced (\\d+) of 1024\\) over (\\d+) wake-ups', s)
assert m, 'self-check line'
assert m.group(1) == '%.1f' % t['util_apart_mean'] and int(m.group(4)) == t['util_compared'], m.groups()
assert m.group(2) == '%+.1f' % t['util_bias'], m.groups()"
check "cfs_rq events: the lisa module's names read as sched_tp's (the same decisions)" cmp -s "$TMP/cfs0.csv" "$TMP/cfs1.csv"
check "cfs_rq events: the traced rq start changes the answer" sh -c "! cmp -s '$TMP/cfs0.csv' '$TMP/t.csv'"
grep -v ' sched_pelt_se: ' "$TMP/cfs0.txt" >"$TMP/cfs-only.txt"
"$FEECSCOPE" replay "$TMP/cfs-only.txt" --em "$EM" --json "$TMP/cfs-only.json" >/dev/null 2>&1
check "cfs_rq events without sched_pelt_se: no wake-up PELT figure" python3 -c "
import json
t = json.load(open('$TMP/cfs-only.json'))['simulation']['trace']
assert t['wake_utils'] == 0 and t['util_compared'] == 0 and t['util_apart_mean'] is None, t"
{ grep '^#' "$F/tracefs.txt"
  echo "          <idle>-0       (-------) [001] d..1.  1650.175800: sched_pelt_cfs: cpu=1 path=/ load=1 runnable=1"
  grep -v '^#' "$F/tracefs.txt"; } >"$TMP/cfs-bad.txt"
one_line "sched_pelt_cfs without util=: the line and the field" "cfs-bad.txt:[0-9]+: sched_pelt_cfs: util: missing" \
	"$FEECSCOPE" replay "$TMP/cfs-bad.txt" --em "$EM"

# ---- LISA's events in a trace.dat (uprobe events shaped as the lisa module's: tests/tools/make_lisa_dat.sh) ----
"$FEECSCOPE" replay "$F/lisa-uprobes.dat" --em "$EM" --json "$TMP/lisa.json" >"$TMP/lisa.sum" 2>"$TMP/lisa.err"
if grep -q 'trace.dat not supported in this build' "$TMP/lisa.err"; then
	pass "trace.dat LISA events: not in this build (without libtracecmd)"
else
	check "trace.dat LISA events: the rq PELT traced, groups left, the other system's util_est_cfs found" python3 -c "
t = __import__('json').load(open('$TMP/lisa.json'))['simulation']['trace']
assert t['format'] == 'trace.dat' and t['rq_pelt'] == 'traced' and t['cfs_events'] == 16, t
assert t['pelt_events'] == 16 and t['unknown_events'] == 0, t
s = ' '.join(open('$TMP/lisa.sum').read().split())
assert 'starts from its first sched_pelt_cfs (16 events of root cfs_rqs)' in s, s"
fi

# ---- replay --help names the trace formats, and fits 80 columns ----
"$FEECSCOPE" replay --help >"$TMP/help.txt" 2>&1
check "replay --help: exit 0, within 80 columns" fits80 "$TMP/help.txt"
unwrap "$TMP/help.txt" | tr '\n' ' ' | tr -s ' ' >"$TMP/help.one"
check "replay --help names trace.dat, ftrace text and Perfetto, and --em for a trace" \
	grep -q "trace-cmd's trace.dat (versions 6 and 7), ftrace text .*or a Perfetto trace.*A trace has no EM: give --em" "$TMP/help.one"
check "replay --help says what --pid/--comm do for a trace" grep -q "For a kernel trace --pid and --comm pick" "$TMP/help.one"

# ---- by content, not by name ----
cp "$F/tracefs.txt" "$TMP/looks.fsr"
cp "$F/tracefs.txt" "$TMP/looks.csv"
"$FEECSCOPE" replay "$TMP/looks.fsr" --em "$EM" >"$TMP/l1.sum"
"$FEECSCOPE" replay "$TMP/looks.csv" --em "$EM" >"$TMP/l2.sum"
"$FEECSCOPE" replay "$F/tracefs.txt" --em "$EM" >"$TMP/l0.sum"
expect_same "a trace named *.fsr reads as a trace" "$TMP/l0.sum" "$TMP/l1.sum"
expect_same "a trace named *.csv reads as a trace" "$TMP/l0.sum" "$TMP/l2.sum"
"$FEECSCOPE" replay - --em "$EM" <"$F/tracefs.txt" >"$TMP/l3.sum"
expect_same "a trace on stdin reads as a trace" "$TMP/l0.sum" "$TMP/l3.sum"

# ---- trace-cmd: report text (both print formats) and trace.dat give the same answer ----
strip() { grep -v '^trace: \|^  sched_migrate_task\|^  1, cpu_frequency' "$1"; }
"$FEECSCOPE" replay "$F/report-N-t.txt" --em "$EM" >"$TMP/r.sum"
check "trace-cmd report -N -t replays" grep -q '^margin costs' "$TMP/r.sum"
if "$FEECSCOPE" replay "$F/trace-v7.dat" --em "$EM" >"$TMP/d7.sum" 2>"$TMP/d7.err"; then
	strip "$TMP/r.sum" >"$TMP/r.s"; strip "$TMP/d7.sum" >"$TMP/d7.s"
	expect_same "trace.dat v7: the same summary as its report text" "$TMP/r.s" "$TMP/d7.s"
	check "trace.dat v7: the format is said" grep -q '^trace: trace.dat, ' "$TMP/d7.sum"
	gzip -dc "$F/trace-v6.dat.gz" >"$TMP/v6.dat"
	"$FEECSCOPE" replay "$TMP/v6.dat" --em "$EM" >"$TMP/d6.sum"
	expect_same "trace.dat v6: the same summary as v7" "$TMP/d7.sum" "$TMP/d6.sum"
	head -c 5000 "$F/trace-v7.dat" >"$TMP/cut.dat"
	one_line "truncated trace.dat: one line" "cut.dat: libtracecmd cannot open it" \
		"$FEECSCOPE" replay "$TMP/cut.dat" --em "$EM"
else
	check "trace.dat: a build without libtracecmd says so" grep -q 'trace.dat not supported in this build' "$TMP/d7.err"
fi
"$FEECSCOPE" replay "$F/report.txt" --em "$EM" >"$TMP/p.sum"
check "trace-cmd report (sched plugin formats) replays" grep -q '^margin costs' "$TMP/p.sum"

# ---- cpu_frequency present: OPP residency against the trace ----
awk -f tests/tools/trace_add_freq.awk "$F/tracefs-tgid.txt" >"$TMP/freq.txt"
"$FEECSCOPE" replay "$TMP/freq.txt" --em "$EM" --json "$TMP/f.json" >"$TMP/f.sum"
unwrap "$TMP/f.sum" >"$TMP/f.one"
check "cpu_frequency: OPP residency per PD against the trace" \
	sh -c "grep -Eq 'OPP residency pd0: [0-9.]+ % of busy time at other OPPs than traced; mean [0-9]+ MHz simulated, [0-9]+ traced' '$TMP/f.one' && grep -q 'OPP residency pd1: ' '$TMP/f.one'"
check "cpu_frequency: only the stretch before a CPU's first event is assumed" \
	grep -q 'assumed: no cpu_frequency yet: CPU 1 ran' "$TMP/f.one"
check "cpu_frequency: JSON residency" python3 -c "
import json; o = json.load(open('$TMP/f.json'))['simulation']['trace']['opp']
assert all(0 <= p['residency_apart_pct'] <= 100 and p['mean_mhz_traced'] > 500 for p in o), o"
check "tgid column: no tgid assumed but for one task" grep -q "assumed: 1 task's tgid = pid" "$TMP/f.one"
check "every line fits 80 columns (OPP lines)" fits80 "$TMP/f.sum"

# ---- report: traces found by content in a directory, with --em ----
mkdir -p "$TMP/runs"
cp "$F/tracefs.txt" "$TMP/runs/a"
cp "$TMP/freq.txt" "$TMP/runs/b.trace"
"$FEECSCOPE" report "$TMP/runs" --em "$EM" --csv "$TMP/rep.csv" >/dev/null 2>"$TMP/rep.err"
check "report: both traces of a directory replayed" \
	sh -c "test \$(grep -c '/runs/' '$TMP/rep.csv') -eq 2 && ! test -s '$TMP/rep.err'"
expect_fail "report: a trace without --em is named" "runs/a: a trace \(ftrace text\) carries no EM: give report --em" \
	"$FEECSCOPE" report "$TMP/runs/a"

# ---- bad input: one line each, non-zero exit ----
one_line "no --em: what is missing is named" \
	"tracefs.txt: a trace \(ftrace text\) has no EM: give --em \(a profile, a saved EM or a debugfs tree\)$" \
	"$FEECSCOPE" replay "$F/tracefs.txt"
head -c 10001 "$F/tracefs.txt" >"$TMP/cut.txt"
one_line "truncated text: the line and field, and that it may be cut" \
	"cut.txt:[0-9]+: .*: missing \(the file ends in this line: cut short\?\)$" \
	"$FEECSCOPE" replay "$TMP/cut.txt" --em "$EM"
{ printf 'X\x00\x01\x02'; head -c 2000 "$F/trace-v7.dat" | tail -c +5; } >"$TMP/magic.bin"
one_line "wrong magic" "magic.bin: bad magic: not a feecscope recording, trace.dat or Perfetto trace" \
	"$FEECSCOPE" replay "$TMP/magic.bin" --em "$EM"
{ head -n 20 "$F/tracefs.txt"; echo '          cat-1 [000] d..2.  1650.200000: sched_switch: who knows'; } >"$TMP/fmt.txt"
one_line "unknown event format: line, event and field" "fmt.txt:21: sched_switch: next_comm: missing$" \
	"$FEECSCOPE" replay "$TMP/fmt.txt" --em "$EM"
grep -v 'sched_' "$F/tracefs.txt" >"$TMP/nosched.txt"
one_line "no sched events" "nosched.txt: no sched events \(sched_switch, sched_waking, sched_wakeup\)" \
	"$FEECSCOPE" replay "$TMP/nosched.txt" --em "$EM"
grep -v 'sched_switch' "$F/tracefs.txt" >"$TMP/noswitch.txt"
one_line "no sched_switch: refused" "noswitch.txt: no sched_switch events: the tasks' CPU time cannot be told" \
	"$FEECSCOPE" replay "$TMP/noswitch.txt" --em "$EM"
one_line "a CPU the EM lacks: the event and its time" "tracefs.txt: [a-z_]+ at [0-9]+ ns: CPU 1 is not a CPU of the EM \(1 CPUs\)$" \
	"$FEECSCOPE" replay "$F/tracefs.txt" --em "$F/one-cpu.em"
gzip -c "$F/tracefs.txt" >"$TMP/t.txt.gz"
one_line "gzip'd text: gunzip it first" "t.txt.gz: gzip'd, and not a trace read gzip'd: gunzip it first$" \
	"$FEECSCOPE" replay "$TMP/t.txt.gz" --em "$EM"
one_line "--no-sim refused for a trace" "--no-sim: a trace's answer is the simulation's$" \
	"$FEECSCOPE" replay "$F/tracefs.txt" --em "$EM" --no-sim
one_line "--convert-csv refused for a trace" "a trace \(ftrace text\) has no records to convert" \
	"$FEECSCOPE" replay "$F/tracefs.txt" --em "$EM" --convert-csv "$TMP/no.csv"

# ---- --pid / --comm: the decision rows and the processes listed; the verdict stays every task's ----
"$FEECSCOPE" replay "$F/tracefs.txt" --em "$EM" --comm kworker/1:1 --csv "$TMP/fc.csv" --json "$TMP/fc.json" \
	>"$TMP/fc.sum" 2>"$TMP/fc.err"
check "--comm on a trace: exit 0, nothing on stderr" sh -c "test -s '$TMP/fc.sum' && ! test -s '$TMP/fc.err'"
check "... the verdict line is the unfiltered run's" sh -c "test \"\$(head -n 1 '$TMP/fc.sum')\" = \"\$(head -n 1 '$TMP/t.sum')\""
check "... the decision rows are the kept task's, the rest of the unfiltered rows" python3 -c "
import csv
a = list(csv.DictReader(open('$TMP/t.csv'))); f = list(csv.DictReader(open('$TMP/fc.csv')))
keep = [r for r in a if r['comm'] == 'kworker/1:1']
assert f and len(f) < len(a), (len(f), len(a))
strip = lambda r: {k: v for k, v in r.items() if k not in ('seq', 't_ns')}
assert [strip(r) for r in f] == [strip(r) for r in keep], 'rows differ'
assert [int(r['seq']) for r in f[::2]] == list(range(1, len(f) // 2 + 1)), 'seq counts the kept rows'"
unwrap "$TMP/fc.sum" >"$TMP/fc.one"
check "... the summary says what was filtered, and the kept processes' share" python3 -c "
import csv, re
a = list(csv.DictReader(open('$TMP/t.csv')))
n = sum(r['comm'] != 'kworker/1:1' for r in a) // 2
t = open('$TMP/fc.one').read()
m = re.search(r'filtered \(--comm kworker/1:1\): (\d+) activations left out of the decision rows; 1 processes kept, '
              r'their share of the margin.s cost ([+-][0-9.]+) mJ; the verdict is every task.s', t)
assert m and int(m.group(1)) == n, (m and m.group(1), n)
last = open('$TMP/fc.sum').read().split('processes by |margin cost| in the simulation')[1].splitlines()[2:]
assert len(last) == 1 and last[0].split()[1] == 'kworker/1:1' and last[0].split()[-1] == m.group(2), last"
check "... every summary line fits 80 columns" fits80 "$TMP/fc.sum"
"$FEECSCOPE" replay "$F/tracefs.txt" --em "$EM" --pid 999999 >"$TMP/fp.sum" 2>"$TMP/fp.err"
check "--pid matching nothing on a trace: said, as for a recording" grep -q "999999" "$TMP/fp.err"
# Files on which libtraceevent/libtracecmd crash (the fuzzer's finds): one line and exit 1, not a crash.
if "$FEECSCOPE" replay --help | grep -q "reads no trace.dat"; then
	echo "    (this build reads no trace.dat: the library-crash cases are not run)"
else
	for f in "$FS_FIXTURES"/../fuzz/trace_dat/library-crashes/libtraceevent-*; do
		expect_fail "trace.dat on which the library crashes ($(basename "$f")): one line" \
			"$(basename "$f"): trace.dat: libtraceevent/libtracecmd crashed opening it \(.*\): the file is malformed" \
			"$FEECSCOPE" replay "$f" --em "$EM"
	done
	# From a pipe the trace is spooled and read by a name of feecscope's own (/proc/self/fd/N):
	# the reading child, a program started anew, must read that file, not its own fd N.
	"$FEECSCOPE" replay - --em "$EM" <"$F/trace-v7.dat" >"$TMP/d7p.sum" 2>&1
	expect_same "trace.dat from a pipe: the same summary as by its name" "$TMP/d7.sum" "$TMP/d7p.sum"
	f=$FS_FIXTURES/../fuzz/trace_dat/library-crashes/libtraceevent-segv-0x8
	expect_fail "trace.dat from a pipe on which the library crashes: one line naming -" \
		"^feecscope replay: -: trace.dat: libtraceevent/libtracecmd crashed opening it" \
		sh -c '"$1" replay - --em "$2" <"$3"' sh "$FEECSCOPE" "$EM" "$f"
fi
finish
