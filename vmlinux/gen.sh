#!/usr/bin/env bash
# Regenerates vmlinux/<arch>/vmlinux.h from a kernel's BTF: the running
# kernel's (/sys/kernel/btf/vmlinux) or a file given as $1 (a vmlinux with
# .BTF, or raw BTF such as `pahole --btf_encode_detached` output).
# Usage: vmlinux/gen.sh [BTF_FILE [x86|arm64]]
set -eu
cd "$(dirname "$0")"
src=${1:-/sys/kernel/btf/vmlinux}
arch=${2:-$(uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/')}
case $arch in x86|arm64) ;; *) echo "gen.sh: arch '$arch': use x86 or arm64" >&2; exit 2 ;; esac
[ -r "$src" ] || { echo "gen.sh: $src: no BTF to read (kernel without CONFIG_DEBUG_INFO_BTF?)" >&2; exit 1; }
mkdir -p "$arch"
bpftool btf dump file "$src" format c >"$arch/vmlinux.h.tmp"
mv "$arch/vmlinux.h.tmp" "$arch/vmlinux.h"
echo "vmlinux/$arch/vmlinux.h from $src ($(wc -l <"$arch/vmlinux.h") lines)"
