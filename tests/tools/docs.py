#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The command output README.md and docs/*.md show, made again by the code.

A generated block in a Markdown file is

    <!-- generated: KIND [ARG] -->
    ```
    ...
    ```
    <!-- end generated -->

KIND: view COLSxROWS [SECONDS] (the live view's screen for tests/fixtures/view/live.fsr
after SECONDS, default the last, drawn by build/tests/view_shot), summary (feecscope replay of that recording),
policies (feecscope policies), exit-codes (the EXIT STATUS lines every help page
prints), help COMMAND.

  docs.py --write OUT   rewrite the blocks (make docs)
  docs.py --check OUT   compare; one ok/FAIL line per block, then "N passed, N failed"
OUT is the build directory (build/feecscope, build/tests/view_shot).
"""
import difflib
import os
import re
import subprocess
import sys

FILES = ["README.md", "docs/live.md"]
FIXTURE = "tests/fixtures/view"
BLOCK = re.compile(r"(<!-- generated: ([^>]*?) -->\n```\n)(.*?)(```\n<!-- end generated -->)", re.S)


def run(cmd):
    if not os.path.exists(cmd[0]):
        raise RuntimeError(f"{cmd[0]}: not built (`make all unit` builds it)")
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {p.returncode}: {p.stderr.strip()[:300]}")
    return p.stdout


def produce(spec, out):
    fs = os.path.join(out, "feecscope")
    kind, *args = spec.split()
    if kind == "view":
        return run([os.path.join(out, "tests", "view_shot"), f"{FIXTURE}/live.fsr", args[0],
                    f"{FIXTURE}/live.status"] + args[1:])
    if kind == "summary":
        return run([fs, "replay", f"{FIXTURE}/live.fsr"])
    if kind == "policies":
        return run([fs, "policies"])
    if kind == "help":
        return run([fs, "help", args[0]])
    if kind == "exit-codes":
        text = run([fs, "help"])
        sect = text.split("\nEXIT STATUS\n", 1)[1].split("\n\n", 1)[0]
        return "".join(line[4:] + "\n" for line in sect.splitlines())
    raise ValueError(f"unknown block kind '{kind}'")


def width(spec):
    kind, *args = spec.split()
    return int(args[0].split("x")[0]) if kind == "view" else 80


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("--write", "--check"):
        sys.exit(__doc__)
    write, out = sys.argv[1] == "--write", sys.argv[2]
    passed = failed = 0
    for name in FILES:
        text = open(name).read()
        parts, pos = [], 0
        for m in BLOCK.finditer(text):
            spec, have = m.group(2).strip(), m.group(3)
            try:
                want = produce(spec, out)
            except Exception as e:  # a failed command is a failed check, not a traceback
                print(f"FAIL {name}: {spec}: {e}")
                failed += 1
                continue
            parts += [text[pos:m.start(3)], want]
            pos = m.end(3)
            long = [ln for ln in want.splitlines() if len(ln) > width(spec)]
            if write:
                continue
            if have == want and not long:
                print(f"ok   {name}: {spec} matches what the code prints ({len(want.splitlines())} lines)")
                passed += 1
            else:
                print(f"FAIL {name}: {spec}: " + (f"{len(long)} lines wider than {width(spec)}" if long else
                                                  "differs from what the code prints (make docs)"))
                for d in list(difflib.unified_diff(have.splitlines(), want.splitlines(), "doc", "code",
                                                   lineterm=""))[:30]:
                    print("    " + d)
                failed += 1
        if write:
            parts.append(text[pos:])
            new = "".join(parts)
            if new != text:
                open(name, "w").write(new)
                print(f"docs: {name} rewritten")
    if not write:
        print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
