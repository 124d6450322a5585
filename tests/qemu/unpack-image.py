#!/usr/bin/env python3
"""Turn a Debian arm64 vmlinuz into the plain Image QEMU boots and extract-btf.py reads.

usage: unpack-image.py VMLINUZ OUT
Handles a plain Image (the arm64 boot header's "ARM\\x64" magic at offset 56), a gzip
or zstd or xz stream, and an EFI zboot image ("zimg" at offset 4, payload offset and
size at 8 and 12, the compression's name at 24), whose payload is one of those streams.
Exit 1, naming the file, when none of these is found.
"""
import gzip
import lzma
import os
import struct
import subprocess
import sys

ARM64_MAGIC = b'ARM\x64'


def is_image(data):
    return len(data) > 64 and data[56:60] == ARM64_MAGIC


def decompress(data, name):
    if data[:2] == b'\x1f\x8b':
        return gzip.decompress(data)
    if data[:6] == b'\xfd7zXZ\x00':
        return lzma.decompress(data)
    if data[:4] == b'\x28\xb5\x2f\xfd':
        # zboot may append the decompressed size after the frame: zstd stops at the frame.
        r = subprocess.run(['zstd', '-dqc'], input=data, capture_output=True)
        if r.stdout:
            return r.stdout
        raise ValueError(f'{name}: zstd: {r.stderr.decode(errors="replace").strip()}')
    raise ValueError(f'{name}: not gzip, xz or zstd (starts {data[:4].hex()})')


def unpack(data, name):
    if is_image(data):
        return data
    if data[4:8] == b'zimg':
        off, size = struct.unpack_from('<II', data, 8)
        comp = data[24:56].split(b'\0')[0].decode(errors='replace')
        out = decompress(data[off:off + size], f'{name} (EFI zboot, {comp})')
    else:
        out = decompress(data, name)
    if not is_image(out):
        raise ValueError(f'{name}: unpacked, but no arm64 Image header inside')
    return out


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(sys.argv[1], 'rb') as f:
        data = f.read()
    try:
        img = unpack(data, sys.argv[1])
    except (ValueError, OSError, EOFError, lzma.LZMAError) as e:
        print(f'unpack-image.py: {e}', file=sys.stderr)
        return 1
    with open(sys.argv[2] + '.tmp', 'wb') as f:
        f.write(img)
    os.replace(sys.argv[2] + '.tmp', sys.argv[2])
    return 0


if __name__ == '__main__':
    sys.exit(main())
