#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Seeds for the btf fuzzer (tests/fuzz/fuzz_btf.c, docs/fuzzing.md).

btf_seeds.py VMLINUX_BTF OUTDIR  cuts a kernel's raw BTF (/sys/kernel/btf/vmlinux)
down to the types the scan looks for (user/source/btf_scan.c), each with the
kernel's own names, values and member lists, every reference it makes pointed at
one kept "int"; then writes a few hand-made blobs beside it. Native byte order.
"""
import struct
import sys

MAGIC = 0xEB9F
INT, PTR, ARRAY, STRUCT, UNION, ENUM, FWD, TYPEDEF, VOLATILE, CONST, RESTRICT, \
    FUNC, FUNC_PROTO, VAR, DATASEC, FLOAT, DECL_TAG, TYPE_TAG, ENUM64 = range(1, 20)


def extra(kind, vlen):
    """Bytes after the 12-byte btf_type: the layout in linux/btf.h."""
    return {INT: 4, ARRAY: 12, STRUCT: 12 * vlen, UNION: 12 * vlen, ENUM: 8 * vlen,
            FUNC_PROTO: 8 * vlen, VAR: 4, DATASEC: 12 * vlen, DECL_TAG: 4,
            ENUM64: 12 * vlen}.get(kind, 0)


def parse(blob):
    magic, ver, flags, hdr_len, toff, tlen, soff, slen = struct.unpack_from('<HBBIIIII', blob)
    assert magic == MAGIC, 'not little-endian raw BTF'
    types, strs = blob[hdr_len + toff:hdr_len + toff + tlen], blob[hdr_len + soff:hdr_len + soff + slen]
    out, off = [None], 0  # id 0 is void
    while off < len(types):
        name_off, info, size_type = struct.unpack_from('<III', types, off)
        kind, vlen = (info >> 24) & 0x1f, info & 0xffff
        n = 12 + extra(kind, vlen)
        out.append(dict(name=cstr(strs, name_off), kind=kind, info=info, st=size_type,
                        body=types[off + 12:off + n], strs=strs))
        off += n
    return out


def cstr(strs, off):
    return strs[off:strs.index(b'\0', off)].decode()


class Writer:
    """A BTF blob from (name, info, size_or_type, body) tuples; names interned."""

    def __init__(self):
        self.strs, self.index, self.types = bytearray(b'\0'), {'': 0}, bytearray()

    def name(self, s):
        if s not in self.index:
            self.index[s] = len(self.strs)
            self.strs += s.encode() + b'\0'
        return self.index[s]

    def add(self, name, kind, vlen, st, body=b'', kflag=0):
        self.types += struct.pack('<III', self.name(name), kind << 24 | kflag << 31 | vlen, st) + body

    def blob(self):
        return struct.pack('<HBBIIIII', MAGIC, 1, 0, 24, 0, len(self.types), len(self.types),
                           len(self.strs)) + bytes(self.types) + bytes(self.strs)


def cut(kernel):
    """The kernel's types the scan looks for, in their order, references to id 1 (int)."""
    def wanted(t):
        k, n = t['kind'], t['name']
        if k == TYPEDEF:
            return n in ('btf_trace_sched_waking', 'btf_trace_sched_overutilized_tp')
        if k == FUNC:
            return n == 'select_task_rq_fair'
        if k == VAR:
            return n == 'runqueues'
        if k == STRUCT:
            return n == 'task_struct'
        if k == ENUM:
            names = [cstr(t['strs'], struct.unpack_from('<I', t['body'], 8 * i)[0])
                     for i in range(t['info'] & 0xffff)]
            return 'BPF_FUNC_loop' in names or 'SD_ASYM_CPUCAPACITY' in names
        return False

    keep = [i for i, t in enumerate(kernel) if t and wanted(t)]
    protos = [kernel[i]['st'] for i in keep if kernel[i]['kind'] == FUNC]
    keep = sorted(set(keep + protos))
    newid = {old: n + 2 for n, old in enumerate(keep)}  # 1 is int
    w = Writer()
    w.add('int', INT, 0, 4, struct.pack('<I', 1 << 24 | 32))  # signed, 32 bits
    for old in keep:
        t = kernel[old]
        k, vlen, body = t['kind'], t['info'] & 0xffff, t['body']
        s = t['strs']
        if k == FUNC:
            w.add(t['name'], k, vlen, newid[t['st']])
        elif k in (TYPEDEF, VAR):
            w.add(t['name'], k, vlen, 1, body)
        elif k == FUNC_PROTO:
            params = b''.join(struct.pack('<II', w.name(cstr(s, struct.unpack_from('<I', body, 8 * i)[0])), 1)
                              for i in range(vlen))
            w.add('', k, vlen, 1, params)
        elif k == ENUM:
            ents = [struct.unpack_from('<Ii', body, 8 * i) for i in range(vlen)]
            ents = [(cstr(s, o), v) for o, v in ents]
            if any(n == 'BPF_FUNC_loop' for n, _ in ents):  # a few of ~200 helpers
                ents = [e for e in ents if e[0] in ('BPF_FUNC_unspec', 'BPF_FUNC_map_lookup_elem',
                                                    'BPF_FUNC_loop', '__BPF_FUNC_MAX_ID')]
            w.add(t['name'], k, len(ents), t['st'],
                  b''.join(struct.pack('<Ii', w.name(n), v) for n, v in ents), t['info'] >> 31)
        elif k == STRUCT:  # the first members, uclamp and the last, offsets as the kernel's
            mems = [struct.unpack_from('<III', body, 12 * i) for i in range(vlen)]
            pick = [m for i, m in enumerate(mems)
                    if i < 3 or i == vlen - 1 or cstr(s, m[0]) in ('uclamp', 'uclamp_req')]
            w.add(t['name'], k, len(pick), t['st'],
                  b''.join(struct.pack('<III', w.name(cstr(s, o)), 1, bits) for o, _, bits in pick),
                  t['info'] >> 31)
    return w.blob()


def hand_made():
    """Blobs the kernel's does not cover: each kind once, a prototype after its function, none."""
    seeds = {}
    w = Writer()
    seeds['empty'] = w.blob()

    # every kind the scan steps over, one each, then what it looks for
    w = Writer()
    w.add('int', INT, 0, 4, struct.pack('<I', 1 << 24 | 32))                  # 1
    w.add('', PTR, 0, 1)                                                       # 2
    w.add('', ARRAY, 0, 0, struct.pack('<III', 1, 1, 4))                       # 3
    w.add('u', UNION, 2, 4, struct.pack('<IIIIII', w.name('a'), 1, 0, w.name('b'), 1, 0))  # 4
    w.add('fw', FWD, 0, 0)                                                     # 5
    w.add('', VOLATILE, 0, 1)                                                  # 6
    w.add('', CONST, 0, 1)                                                     # 7
    w.add('', RESTRICT, 0, 2)                                                  # 8
    w.add('double', FLOAT, 0, 8)                                               # 9
    w.add('tag', TYPE_TAG, 0, 2)                                               # 10
    w.add('e64', ENUM64, 1, 8, struct.pack('<III', w.name('SD_ASYM_CPUCAPACITY_FULL'), 64, 0), 1)  # 11
    w.add('.data..percpu', DATASEC, 1, 8, struct.pack('<III', 13, 0, 4))       # 12
    w.add('runqueues', VAR, 0, 1, struct.pack('<I', 1))                        # 13
    w.add('dt', DECL_TAG, 0, 13, struct.pack('<i', -1))                        # 14
    w.add('select_task_rq_fair', FUNC, 0, 16)                                  # 15: prototype after it
    w.add('', FUNC_PROTO, 3, 1, struct.pack('<IIIIII', w.name('p'), 2, w.name('prev_cpu'), 1,
                                            w.name('wake_flags'), 1))          # 16
    w.add('sd_flags', ENUM, 2, 4, struct.pack('<IiIi', w.name('SD_ASYM_CPUCAPACITY'), 64,
                                              w.name('SD_ASYM_CPUCAPACITY_FULL'), 128))  # 17
    w.add('btf_trace_sched_waking', TYPEDEF, 0, 2)                             # 18
    w.add('task_struct', STRUCT, 1, 8, struct.pack('<III', w.name('uclamp'), 1, 0))  # 19
    seeds['every-kind'] = w.blob()

    # an older kernel's answers: the prototype first, no tracepoint typedefs, no uclamp
    w = Writer()
    w.add('int', INT, 0, 4, struct.pack('<I', 1 << 24 | 32))
    w.add('', FUNC_PROTO, 3, 1, struct.pack('<IIIIII', 0, 1, 0, 1, 0, 1))
    w.add('select_task_rq_fair', FUNC, 0, 2)
    w.add('task_struct', STRUCT, 1, 4, struct.pack('<III', w.name('state'), 1, 0))
    w.add('', ENUM, 1, 4, struct.pack('<Ii', w.name('BPF_FUNC_map_lookup_elem'), 1))
    seeds['proto-first-no-uclamp'] = w.blob()
    return seeds


def main():
    src, out = sys.argv[1], sys.argv[2]
    with open(src, 'rb') as f:
        kernel = parse(f.read())
    with open(f'{out}/kernel-cut', 'wb') as f:
        f.write(cut(kernel))
    for name, blob in hand_made().items():
        with open(f'{out}/{name}', 'wb') as f:
            f.write(blob)


if __name__ == '__main__':
    main()
