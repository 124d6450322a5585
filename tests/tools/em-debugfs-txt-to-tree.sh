#!/usr/bin/env bash
# Rebuilds an energy_model debugfs tree from a "PATH: VALUE" listing (what
# `grep . -r /sys/kernel/debug/energy_model` prints, as in the QEMU lab's
# em-debugfs-6.1.txt): tests/tools/em-debugfs-txt-to-tree.sh LISTING OUTDIR
set -eu
[ $# -eq 2 ] || { echo "usage: $0 LISTING OUTDIR" >&2; exit 2; }
listing=$1 out=$2 prefix=/sys/kernel/debug/energy_model/
mkdir -p "$out"
while IFS= read -r line; do
	case $line in "$prefix"*) ;; *) continue ;; esac
	rel=${line#"$prefix"}
	path=${rel%%: *} value=${rel#*: }
	case $path in */*) ;; *) echo "$listing: '$line': not a file below a PD directory" >&2; exit 1 ;; esac
	case $path in *..*) echo "$listing: '$line': '..' in a path" >&2; exit 1 ;; esac
	mkdir -p "$out/$(dirname "$path")"
	printf '%s\n' "$value" > "$out/$path"
done < "$listing"
