#!/usr/bin/env bash
# Fetches the lab guest's Debian arm64 packages into the build tree (nothing is cached
# outside the clone): the 6.1 kernel image with cpufreq-dt.ko, busybox-static, and
# rt-app with libjson-c.
# Usage: tests/qemu/fetch-guest.sh [OUT]     (OUT defaults to build/qemu)
# Env: FS_LAB_KERNEL_PKG=linux-image-6.1.0-NN-arm64 pins the kernel (default: what
# the linux-image-arm64 metapackage depends on today).
# Prints nothing on success except what it downloads; a second run reuses the files.
set -eu
cd "$(dirname "$0")/../.."
OUT=${1:-build/qemu}
mkdir -p "$OUT/debs" "$OUT/root"

die() { echo "fetch-guest.sh: $*" >&2; exit 1; }

pkg=${FS_LAB_KERNEL_PKG:-}
if [ -z "$pkg" ]; then
	pkg=$(apt-cache depends linux-image-arm64:arm64 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-image-6\.1\.[0-9.-]*-arm64\)\(:arm64\)\?$/\1/p' | head -n 1)
	[ -n "$pkg" ] || die "cannot resolve linux-image-arm64:arm64 (run tests/qemu/install-deps.sh: it adds the arm64 architecture)"
fi

fetch() { # package -> its .deb in $OUT/debs
	local p=$1
	ls "$OUT/debs/${p}_"*_arm64.deb >/dev/null 2>&1 && return
	(cd "$OUT/debs" && apt-get download -q -o APT::Sandbox::User=root "$p:arm64" >/dev/null) || die "apt-get download $p:arm64 failed"
}

fetch "$pkg"
fetch busybox-static
fetch rt-app
fetch libjson-c5

kdir="$OUT/root/kernel"
if [ ! -e "$kdir/.done-$pkg" ]; then
	rm -rf "$kdir" && mkdir -p "$kdir"
	dpkg-deb -x "$OUT/debs/${pkg}_"*_arm64.deb "$kdir"
	touch "$kdir/.done-$pkg"
fi
udir="$OUT/root/user"
if [ ! -e "$udir/.done" ]; then
	rm -rf "$udir" && mkdir -p "$udir"
	for d in "$OUT"/debs/busybox-static_*_arm64.deb "$OUT"/debs/rt-app_*_arm64.deb "$OUT"/debs/libjson-c5_*_arm64.deb; do
		dpkg-deb -x "$d" "$udir"
	done
	touch "$udir/.done"
fi

vmlinuz=$(ls "$kdir"/boot/vmlinuz-* 2>/dev/null | head -n 1)
[ -n "$vmlinuz" ] || die "$pkg: no boot/vmlinuz-* in the package"
release=${vmlinuz##*/vmlinuz-}
cpufreq_dt=$(find "$kdir/lib/modules/$release" -name 'cpufreq-dt.ko*' | head -n 1)
[ -n "$cpufreq_dt" ] || die "$pkg: no cpufreq-dt.ko under lib/modules/$release"

# The image is a gzip'd arm64 Image; the lab boots the uncompressed one and reads its BTF.
if [ ! -s "$OUT/Image" ] || [ "$vmlinuz" -nt "$OUT/Image" ]; then
	gzip -dc <"$vmlinuz" >"$OUT/Image.$$" 2>/dev/null || cp "$vmlinuz" "$OUT/Image.$$"
	mv -f "$OUT/Image.$$" "$OUT/Image"
fi
# Written aside and renamed: two lab guests may start at once (tests/lab/physics.sh),
# and the other's run-lab.sh must never read a file this one is writing.
case $cpufreq_dt in
*.xz) xz -dc "$cpufreq_dt" >"$OUT/cpufreq-dt.ko.$$" ;;
*.zst) zstd -dqc "$cpufreq_dt" >"$OUT/cpufreq-dt.ko.$$" ;;
*) cp "$cpufreq_dt" "$OUT/cpufreq-dt.ko.$$" ;;
esac
mv -f "$OUT/cpufreq-dt.ko.$$" "$OUT/cpufreq-dt.ko"
echo "$release" >"$OUT/kernel-release.$$" && mv -f "$OUT/kernel-release.$$" "$OUT/kernel-release"
