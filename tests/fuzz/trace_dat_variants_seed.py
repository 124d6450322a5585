#!/usr/bin/env python3
"""A seed of the trace_dat_records fuzz target for its set 2, the hand-made
variant formats (tests/fuzz/trace_dat_sets.c): one record of each event,
its payload laid out as that set's format says, in the target's record
format (tests/fuzz/fuzz_trace_dat_records.c). The fixtures' records do not
fit these layouts (build/fuzz/trace_dat_records_seed makes the others).
The last two records fail (a format without target_cpu, one without prio).

Usage: tests/fuzz/trace_dat_variants_seed.py OUT
"""
import struct
import sys


def common(pid):
    return struct.pack('<HBBi', 0, 0, 0, pid)  # common_type is set by the record's event byte


def loc(off, s, rel_to=None):
    """A __data_loc (offset from the record) or __rel_loc (from the field's end) word for s at off."""
    return struct.pack('<I', len(s) << 16 | (off - rel_to if rel_to is not None else off))


def comm(s, n=16):
    return s.encode().ljust(n, b'\0')[:n]


RECS = [  # (index of the event in the set, payload)
    (0, common(10) + loc(36, b'prev\0', 12) + struct.pack('<hBx', 10, 120) + struct.pack('<I', 1)
     + loc(41, b'next\0', 24) + struct.pack('<qi', 11, 120) + b'prev\0next\0'),
    (2, common(10) + comm('wakee', 8) + struct.pack('<iiQ', 11, 120, 1)),
    (3, common(10) + loc(24, b'child\0') + struct.pack('<iih', 12, 120, 0) + b'\0\0' + b'child\0'),
    (4, common(10) + loc(24, b'child\0') + struct.pack('<IiBB', 12, 120, 0, 1) + b'\0\0' + b'child\0'),
    (5, common(10) + comm('parent', 20) + struct.pack('<i', 10) + loc(48, b'kid\0', 36) + b'\0' * 4
     + struct.pack('<q', 13) + b'kid\0'),
    (7, common(10) + comm('gone') + struct.pack('<ii', 14, 120)),
    (8, common(10) + struct.pack('<i', 15) + comm('new') + b'\0' * 4 + struct.pack('<Qi', 0x10000, 0)),
    (9, common(15) + comm('new') + comm('renamed') + struct.pack('<h', 0)),
    (10, common(0) + struct.pack('<QH', 1800000, 1)),
    (11, common(0) + struct.pack('<ib', 1, 0)),
    (12, common(10) + struct.pack('<i', 0) + comm('/', 64) + comm('wakee') + struct.pack('<iQQ', 11, 512, 300)),
    (13, common(10) + struct.pack('<i', 0) + loc(28, b'/\0', 16) + struct.pack('<QI', 512, 400) + b'/\0'),
    (14, common(10) + struct.pack('<i', 1) + loc(40, b'wakee\0') + struct.pack('<iIh', 11, 300, 280) + b'\0' * 6
     + struct.pack('<Q', 290) + b'wakee\0'),
    (15, common(10) + struct.pack('<i', 1) + loc(28, b'/\0') + struct.pack('<III', 500, 480, 490) + b'/\0'),
    (16, common(10) + struct.pack('<i', 11) + b'\0' * 4 + struct.pack('<Q', 1000)),
    (1, common(10) + comm('waker') + struct.pack('<ii', 11, 120)),
    (6, common(10) + comm('gone') + struct.pack('<i', 14)),
]

out = bytearray([2])
for i, (k, p) in enumerate(RECS):
    cpu = i % 2
    out += bytes([cpu | 8 | 1 << 6, k]) + struct.pack('<H', 1000) + bytes([len(p)]) + p
open(sys.argv[1], 'wb').write(out)
