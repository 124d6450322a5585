#!/usr/bin/env bash
# Every #include "..." of user/ and bpf/ against the layer table of
# docs/architecture.md: a file includes only from its own layer and the layers
# below it, never from a higher one or a sibling. The table is read from the
# doc, so the doc and this check cannot drift apart; then the check is shown
# to fail on a copy of the tree given includes that break the rules.
# Then the functions' lengths: none in user/ and bpf/ is over 80 lines unless
# the comment above it says why, in words that name "80 lines" (issue 28);
# shown to fail on the copy given a long function.
. "$(dirname "$0")/../lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DOC=$ROOT/docs/architecture.md

# check_tree ROOT DOC: "ok ..." per layer, "FAIL ..." per broken rule (report() reads them).
# The table: the rows of "## Layers" whose first cell is a number; a row's
# patterns are its third cell's `quoted` words (a slash: tree paths, a folder
# when it ends in one, else a header the build generates).
check_tree() {
	python3 - "$1" "$2" <<'EOF'
import fnmatch, os, re, sys

root, doc = sys.argv[1], sys.argv[2]
os.chdir(root)
rows, in_sec = [], False
for line in open(doc):
    if line.startswith("## "):
        in_sec = line.startswith("## Layers")
    cells = line.split("|")
    if in_sec and len(cells) > 4 and cells[1].strip().isdigit():
        rows.append((int(cells[1]), cells[2].strip(" `"), re.findall(r"`([^`]+)`", cells[3])))
if len(rows) < 2:
    sys.exit(print(f"FAIL {doc}: no layer table under '## Layers'"))

def where(path):  # (level, name) of the row a tree path belongs to
    for lvl, name, pats in rows:
        for p in pats:
            if "/" in p and (path.startswith(p) if p.endswith("/") else fnmatch.fnmatchcase(path, p)):
                return lvl, name

def generated(inc):  # ... of a header the build generates
    for lvl, name, pats in rows:
        if inc in pats:
            return lvl, name

def resolve(f, inc):  # as the compiler searches: the includer's folder, -Ivmlinux/ARCH, -Iuser, -Ibpf
    bpf = f.startswith("bpf/")
    arches = sorted(d for d in os.listdir("vmlinux") if os.path.isdir(os.path.join("vmlinux", d)))
    dirs = [os.path.dirname(f)] + (["vmlinux/" + d for d in arches] if bpf else [])
    dirs += ["user"] + (["bpf"] if bpf else [])
    for d in dirs:
        c = os.path.normpath(os.path.join(d, inc))
        if os.path.isfile(c):
            return c

files = sorted(os.path.join(d, n) for top in ("user", "bpf") for d, _, ns in os.walk(top)
               for n in ns if n.endswith((".c", ".h")))
seen, broken = {}, set()
for f in files:
    me = where(f)
    if not me:
        print(f"FAIL {f}: in no layer of docs/architecture.md")
        continue
    seen[me[1]] = seen.get(me[1], 0) + 1
    for ln, line in enumerate(open(f, errors="replace"), 1):
        m = re.match(r'\s*#\s*include\s*"([^"]+)"', line)
        if not m:
            continue
        inc = m.group(1)
        t = resolve(f, inc)
        them = where(t) if t else generated(inc)
        if not them:
            what = f"{t}, which is in no layer" if t else f'"{inc}", which is neither in the tree nor a generated header'
            print(f"FAIL {f}:{ln}: includes {what} of docs/architecture.md")
        elif them[1] != me[1] and them[0] >= me[0]:
            print(f"FAIL {f}:{ln}: includes {t or inc} (layer {them[1]}, {them[0]}) from layer {me[1]} ({me[0]})")
            broken.add(me[1])
for lvl, name, pats in rows:
    for p in pats:  # a pattern no file matches: the doc names what is gone
        if "/" in p and not (os.path.isdir(p) if p.endswith("/") else any(fnmatch.fnmatchcase(f, p) for f in files)):
            print(f"FAIL docs/architecture.md: layer {name} names {p}, which matches no file")
    if name in seen and name not in broken:
        print(f"ok   {name}: {seen[name]} files include nothing from above them")
EOF
}

# check_lengths ROOT: "ok ..." per function over 80 lines whose comment says
# why, "FAIL ..." per one without. Kernel style, as the tree is written: a
# body opens with a "{" line and closes at the next line starting "}"; the
# function starts at the nearest line above the "{" that starts in column 0.
# Its length counts from there to the "}" (as ctags reports a function).
check_lengths() {
	python3 - "$1" <<'EOF'
import os, re, sys

LIMIT = 80
os.chdir(sys.argv[1])
files = sorted(os.path.join(d, n) for top in ("user", "bpf") for d, _, ns in os.walk(top)
               for n in ns if n.endswith((".c", ".h")))

def says_why(lines, s):  # the comment above line s (past SEC() lines) names the length
    i = s - 1
    while i >= 0 and lines[i].startswith("SEC("):
        i -= 1
    if i < 0 or not lines[i].rstrip().endswith("*/"):
        return False
    j = i
    while j > 0 and "/*" not in lines[j]:
        j -= 1
    return re.search(r"\b80 lines\b", " ".join(l.strip(" */\t") for l in lines[j:i + 1]), re.I)

def name_of(sig):  # the function's name: BPF_PROG(name, ...) gives name
    names = [n for n in re.findall(r"(\w+)\s*\(", sig) if n not in ("__attribute__", "SEC")]
    if names and names[0] in ("BPF_PROG", "BPF_KPROBE", "BPF_KRETPROBE"):
        return re.search(names[0] + r"\s*\(\s*(\w+)", sig).group(1)
    return names[0] if names else sig.strip()

nr_long = 0
for f in files:
    lines = open(f, errors="replace").read().split("\n")
    for i, line in enumerate(lines):
        if line.rstrip() != "{":
            continue
        s = i - 1
        while s > 0 and (not lines[s] or lines[s][0] in " \t"):
            s -= 1
        e = next((k for k in range(i + 1, len(lines)) if lines[k].startswith("}")), len(lines) - 1)
        n = e - s + 1
        if n <= LIMIT:
            continue
        nr_long += 1
        name = name_of(" ".join(lines[s:i]))
        if says_why(lines, s):
            print(f"ok   {f}:{s + 1}: {name} is {n} lines, and its comment says why")
        else:
            print(f"FAIL {f}:{s + 1}: {name} is {n} lines, over {LIMIT}, and no comment above it says why")
print(f"ok   {len(files)} files read for functions over {LIMIT} lines ({nr_long} found)")
EOF
}

check_tree "$ROOT" "$DOC" >"$TMP/tree"
report "$TMP/tree"

# The check fails where it should: a copy of the tree given an upward include
# (engine -> pipeline), a sibling's (source -> output) and one the table lacks.
mkdir -p "$TMP/copy/docs"
cp -r "$ROOT/user" "$ROOT/bpf" "$TMP/copy/" && ln -s "$ROOT/vmlinux" "$TMP/copy/vmlinux"
cp "$DOC" "$TMP/copy/docs/"
printf '#include "../pipeline.h"\n' >>"$TMP/copy/user/engine/pelt.c"
printf '#include "../output/out_file.h"\n' >>"$TMP/copy/user/source/spool.c"
mkdir "$TMP/copy/user/nowhere" && printf '#include "../record.h"\n' >"$TMP/copy/user/nowhere/x.c"
check_tree "$TMP/copy" "$TMP/copy/docs/architecture.md" >"$TMP/copy.out"
expect_line() {
	if grep -q "^FAIL $2" "$TMP/copy.out"; then pass "$1"; else fail "$1" "no 'FAIL $2' line"; sed 's/^/    /' "$TMP/copy.out" | grep -v '^    ok' | head -n 5; fi
}
expect_line "an engine file including pipeline.h fails" "user/engine/pelt.c:[0-9]*: includes user/pipeline.h (layer pipeline"
expect_line "a source file including an output's header fails" "user/source/spool.c:[0-9]*: includes user/output/out_file.h (layer output"
expect_line "a file in no layer fails" "user/nowhere/x.c: in no layer"
n=$(grep -c '^FAIL' "$TMP/copy.out")
[ "$n" -eq 3 ] && pass "nothing else fails in the copy" || fail "nothing else fails in the copy" "$n FAIL lines, 3 expected"

check_lengths "$ROOT" >"$TMP/lengths"
report "$TMP/lengths"

# The length check fails where it should: in the copy, a function of 81 lines
# with no reason, one of 81 whose comment gives it, and one of 80.
long_fn() { # long_fn NAME LINES: a function NAME of LINES lines in all
	printf 'int %s(void)\n{\n\tint x = 0;\n\n' "$1"
	for ((k = 0; k < $2 - 6; k++)); do printf '\tx++;\n'; done
	printf '\treturn x;\n}\n'
}
{ echo; long_fn long_no_reason 81; printf '\n/* Over 80 lines on purpose: a test of the check. */\n'
  long_fn long_with_reason 81; echo; long_fn just_80 80; } >>"$TMP/copy/user/engine/pelt.c"
check_lengths "$TMP/copy" >"$TMP/copy.out"
expect_line "a function of 81 lines with no reason fails" "user/engine/pelt.c:[0-9]*: long_no_reason is 81 lines, over 80"
n=$(grep -c '^FAIL user/engine/pelt.c' "$TMP/copy.out")
[ "$n" -eq 1 ] && pass "one with its reason, and one of 80 lines, pass" ||
	fail "one with its reason, and one of 80 lines, pass" "$n FAIL lines for pelt.c, 1 expected"
finish
