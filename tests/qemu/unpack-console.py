#!/usr/bin/env python3
"""Recover the files the lab guest sent over its console (guest-init.sh writes
'@@FILE name size md5', base64 lines, '@@END'), checking size and md5 of each.

usage: unpack-console.py CONSOLE.log OUTDIR
Exits non-zero, naming the file, if a block is cut short or its checksum differs, or if
the guest never reached '@@LAB-DONE' (a crash or timeout before the end): then the line
names the last '@@STEP name uptime' mark and the last kernel line after it.
"""
import base64
import hashlib
import os
import sys


def main(log, outdir):
    os.makedirs(outdir, exist_ok=True)
    cur, chunks, done, bad = None, [], False, []
    last_step, last_kernel = None, None
    for line in open(log, 'rb').read().decode('ascii', 'replace').splitlines():
        line = line.strip('\r')
        if line.startswith('@@FILE '):
            _, name, size, md5 = line.split()
            cur, chunks = (name, int(size), md5), []
        elif line == '@@END' and cur:
            name, size, md5 = cur
            data = base64.b64decode(''.join(chunks))
            if len(data) != size or hashlib.md5(data).hexdigest() != md5:
                bad.append(f'{name}: got {len(data)} bytes md5 {hashlib.md5(data).hexdigest()}, '
                           f'guest sent {size} bytes md5 {md5}')
            with open(os.path.join(outdir, os.path.basename(name)), 'wb') as f:
                f.write(data)
            cur = None
        elif line == '@@LAB-DONE':
            done = True
        elif cur:
            chunks.append(line)
        elif line.startswith('@@STEP '):
            last_step, last_kernel = line[len('@@STEP '):], None
        elif line.startswith('['):
            last_kernel = line
    for b in bad:
        print(f'{log}: {b}', file=sys.stderr)
    if not done:
        where = f'; last step: {last_step} s' if last_step else '; no step began'
        if last_kernel:
            where += f'; last kernel line after it: {last_kernel[:120]}'
        print(f'{log}: the guest did not finish (no @@LAB-DONE line){where}', file=sys.stderr)
    return 1 if bad or not done else 0


if __name__ == '__main__':
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
