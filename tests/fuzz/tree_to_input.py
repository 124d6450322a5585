#!/usr/bin/env python3
# Print a directory tree in fuzz_em_tree.c's input framing (d/f/l lines), for
# seeds: tree_to_input.py DIR [RELEASE] > tests/fuzz/em_tree/seed/NAME
import os
import sys


def esc(b):
    return b.replace(b'\\', b'\\\\').replace(b'\n', b'\\n').replace(b'\0', b'\\0')


def main():
    root = sys.argv[1].rstrip('/')
    out = sys.stdout.buffer
    if len(sys.argv) > 2:
        out.write(b'r ' + sys.argv[2].encode() + b'\n')
    for d, dirs, files in sorted(os.walk(root)):
        rel = os.path.relpath(d, root)
        dirs.sort()
        if rel != '.':
            out.write(b'd ' + rel.encode() + b'\n')
        for f in sorted(files):
            p = os.path.join(d, f)
            r = os.path.normpath(os.path.join(rel, f)).encode()
            if os.path.islink(p):
                out.write(b'l ' + r + b' ' + os.readlink(p).encode() + b'\n')
            else:
                out.write(b'f ' + r + b' ' + esc(open(p, 'rb').read()) + b'\n')


main()
