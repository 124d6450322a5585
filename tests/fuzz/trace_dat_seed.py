#!/usr/bin/env python3
"""Small trace.dat seeds for the trace_dat fuzz target (docs/fuzzing.md).

A trace-cmd file carries every event format of the machine (101 systems here)
before its data, and libtraceevent parses them all on every open: a seed that
size spends the fuzzer's time in the library. This rewrites a version 6 file
(trace-cmd.dat(5): sections in order, then the per-CPU flyrecord pages) keeping
only the systems named, no ftrace formats, kallsyms or printk formats, and the
per-CPU data pages moved up behind the smaller header, page aligned.

A file of `trace-cmd extract -B NAME` (the instance's data behind a buffer
option, the top buffer empty) keeps its instance: the option's file offset
is rewritten to where the instance's flyrecord section moves.

SYSTEM:EVENT keeps one event of a system; --pids=P,Q keeps only those pids'
saved command lines (a machine's are tens of KB).

Usage: trace_dat_seed.py IN.dat OUT.dat [--pids=P,...] [SYSTEM[:EVENT]...]   (default: sched task power)
"""
import struct
import sys


def main():
    src, dst = sys.argv[1], sys.argv[2]
    args = [a for a in sys.argv[3:] if not a.startswith('--pids=')]
    pids = [a[7:].split(',') for a in sys.argv[3:] if a.startswith('--pids=')]
    keep = set(args or ['sched', 'task', 'power'])
    b = open(src, 'rb').read()
    assert b[:10] == b'\x17\x08Dtracing' and b[10:12] == b'6\x00', 'not a version 6 trace.dat'
    p = 12
    page = struct.unpack_from('<I', b, p + 2)[0]
    out = bytearray(b[:p + 6])
    p += 6
    for name in (b'header_page\x00', b'header_event\x00'):
        assert b[p:p + len(name)] == name, name
        p += len(name)
        n = struct.unpack_from('<Q', b, p)[0]
        out += name + b[p:p + 8 + n]
        p += 8 + n
    nf = struct.unpack_from('<I', b, p)[0]
    p += 4
    for _ in range(nf):
        p += 8 + struct.unpack_from('<Q', b, p)[0]
    out += struct.pack('<I', 0)
    ns = struct.unpack_from('<I', b, p)[0]
    p += 4
    systems = []
    for _ in range(ns):
        e = b.index(b'\x00', p)
        name = b[p:e]
        p = e + 1
        cnt = struct.unpack_from('<I', b, p)[0]
        p += 4
        fmts = []
        for _ in range(cnt):
            n = struct.unpack_from('<Q', b, p)[0]
            fmts.append(b[p:p + 8 + n])
            p += 8 + n
        one = [f for f in fmts if name.decode() + ':' + fmt_name(f) in keep]
        if name.decode() in keep or one:
            systems.append((name, fmts if name.decode() in keep else one))
    out += struct.pack('<I', len(systems))
    for name, fmts in systems:
        out += name + b'\x00' + struct.pack('<I', len(fmts)) + b''.join(fmts)
    for _ in range(2):  # kallsyms, printk formats: dropped
        p += 4 + struct.unpack_from('<I', b, p)[0]
        out += struct.pack('<I', 0)
    n = struct.unpack_from('<Q', b, p)[0]
    lines = b[p + 8:p + 8 + n]
    if pids:  # "PID COMM" per line
        lines = b''.join(ln + b'\n' for ln in lines.split(b'\n') if ln.split(b' ')[0].decode() in pids[0])
    out += struct.pack('<Q', len(lines)) + lines  # saved command lines
    p += 8 + n
    cpus = struct.unpack_from('<I', b, p)[0]
    out += b[p:p + 4]
    p += 4
    buffers = []  # (where the option's offset sits in out, the instance's section in b)
    if b[p:p + 10] == b'options  \x00':
        out += b[p:p + 10]
        p += 10
        while True:
            oid = struct.unpack_from('<H', b, p)[0]
            if oid == 0:
                out += b[p:p + 2]
                p += 2
                break
            n = struct.unpack_from('<I', b, p + 2)[0]
            if oid == 3:  # BUFFER: u64 offset of the instance's flyrecord section, then its name
                buffers.append((len(out) + 6, struct.unpack_from('<Q', b, p + 6)[0]))
            out += b[p:p + 6 + n]
            p += 6 + n
    rest = flyrecord(b, p, cpus, page, out)
    for at, src in buffers:
        out[at:at + 8] = struct.pack('<Q', len(out))
        rest = max(rest, flyrecord(b, src, cpus, page, out))
    if not buffers:
        out += b[(rest + page - 1) // page * page:] if rest < len(b) else b''
    open(dst, 'wb').write(out)


def fmt_name(f):
    """An event format's name (its first line, "name: NAME")."""
    return f[8:].split(b'\n', 1)[0].split(b': ', 1)[-1].decode()


def flyrecord(b, p, cpus, page, out):
    """The flyrecord section at p (its per-CPU table, then the pages) onto out, the pages
    page aligned; returns the end of the last CPU's data in b."""
    assert b[p:p + 10] == b'flyrecord\x00', b[p:p + 10]
    out += b[p:p + 10]
    p += 10
    cpu = [struct.unpack_from('<QQ', b, p + 16 * i) for i in range(cpus)]
    at = len(out) + 16 * cpus
    at = (at + page - 1) // page * page
    data = bytearray()
    table = bytearray()
    for off, size in cpu:
        table += struct.pack('<QQ', at + len(data) if size else 0, size)
        data += b[off:off + size]
        data += bytes((-len(data)) % page)
    out += table
    out += bytes(at - len(out))
    out += data
    return max(off + size for off, size in cpu)


if __name__ == '__main__':
    main()
