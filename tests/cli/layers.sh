#!/usr/bin/env bash
# Every #include "..." of user/ and bpf/ against the layer table of
# docs/architecture.md: a file includes only from its own layer and the layers
# below it, never from a higher one or a sibling. The table is read from the
# doc, so the doc and this check cannot drift apart; then the check is shown
# to fail on a copy of the tree given includes that break the rules.
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
finish
