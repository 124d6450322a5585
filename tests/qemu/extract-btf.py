#!/usr/bin/env python3
"""Cut the kernel's own BTF blob (.BTF, what /sys/kernel/btf/vmlinux serves) out of an
uncompressed arm64 Image, so the host can build CO-RE programs and pass --btf for that
kernel without booting it.

usage: extract-btf.py IMAGE OUT.btf
The Image has no section headers, so the blob is found by its header: magic 0xeB9F,
version 1, hdr_len 24, type section right after the header, strings right after the
types, and a string section that starts with NUL (BTF's empty name). Of several
matches the largest is the kernel's (modules' blobs are not in the Image).
"""
import struct
import sys


def candidates(img):
    pos = img.find(b'\x9f\xeb\x01')
    while pos >= 0:
        if pos + 24 <= len(img):
            _magic, _ver, _flags, hdr_len, t_off, t_len, s_off, s_len = \
                struct.unpack_from('<HBBIIIII', img, pos)
            end = pos + hdr_len + s_off + s_len
            if (hdr_len == 24 and t_off == 0 and s_off == t_len and t_len > 0 and
                    s_len > 0 and end <= len(img) and img[pos + hdr_len + s_off] == 0):
                yield pos, end - pos
        pos = img.find(b'\x9f\xeb\x01', pos + 1)


def main(src, dst):
    img = open(src, 'rb').read()
    found = sorted(candidates(img), key=lambda c: -c[1])
    if not found:
        sys.exit(f'{src}: no BTF blob (header magic 0xeB9F, version 1) in the image; '
                 'is it uncompressed and built with CONFIG_DEBUG_INFO_BTF?')
    off, size = found[0]
    with open(dst, 'wb') as f:
        f.write(img[off:off + size])


if __name__ == '__main__':
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
