#!/usr/bin/env bash
# Builds the two arm64 kernels of the A/B check from one Debian source package
# (linux-source-6.1) with Debian's cross compiler and tests/ab/kernel.config:
#   A  the source as shipped
#   B  the same tree with tests/ab/margin.patch (feec's energy margin put back)
# One object tree serves both: A is built, then the patch is applied and only
# kernel/sched/fair.o and the link are redone for B, then the patch is taken out.
#
# usage: tests/ab/build-kernels.sh [-f]
#   -f  rebuild even if the cache holds kernels of the same source, config and patch
# Env: FS_AB_CACHE (default /var/cache/feecscope-ab) holds the source, the object
#      tree and the results: $FS_AB_CACHE/kernel-{A,B}/ with Image, cpufreq-dt.ko,
#      kernel-release (what tests/qemu/run-lab.sh -K boots), config, build-seconds.
#      FS_AB_SRC_VER pins the linux-source-6.1 version (default: apt's candidate).
# Needs root for apt-get (it installs the build tools it lacks). Exit 0 when both
# images are there, 1 on a failed step, 3 without the tools and no root to install.
set -eu
cd "$(dirname "$0")/../.."
repo=$PWD
force=0
[ "${1:-}" = -f ] && force=1
[ "${1:-}" = -h ] && { sed -n '2,/^set -eu/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0; }
C=${FS_AB_CACHE:-/var/cache/feecscope-ab}
die() { echo "build-kernels.sh: $*" >&2; exit 1; }

need="gcc-aarch64-linux-gnu bison flex bc dwarves libelf-dev libssl-dev cpio xz-utils"
missing=
for p in $need; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
done
if [ -n "$missing" ]; then
	[ "$(id -u)" = 0 ] || { echo "build-kernels.sh: missing packages:$missing (run as root to install)" >&2; exit 3; }
	apt-get install -y -q $missing >/dev/null || die "apt-get install$missing failed"
fi

ver=${FS_AB_SRC_VER:-$(apt-cache policy linux-source-6.1 | sed -n 's/^ *Candidate: //p')}
[ -n "$ver" ] && [ "$ver" != "(none)" ] || die "no linux-source-6.1 in apt's lists (apt-get update?)"
stamp=$(cat "$repo/tests/ab/kernel.config" "$repo/tests/ab/margin.patch" | sha256sum | cut -c1-16)
stamp="$ver $stamp"
if [ $force -eq 0 ] && [ "$(cat "$C/kernel-A/stamp" 2>/dev/null)" = "$stamp" ] &&
	[ "$(cat "$C/kernel-B/stamp" 2>/dev/null)" = "$stamp" ]; then
	echo "build-kernels.sh: kernels of $stamp already in $C"
	exit 0
fi

mkdir -p "$C/src"
src="$C/src/linux-source-6.1"
if [ "$(cat "$C/src/version" 2>/dev/null)" != "$ver" ]; then
	rm -rf "$src" "$C/src/x" "$C/obj" "$C"/src/linux-source-6.1_*.deb
	(cd "$C/src" && apt-get download -q -o APT::Sandbox::User=root "linux-source-6.1=$ver" >/dev/null) ||
		die "apt-get download linux-source-6.1=$ver failed"
	dpkg-deb -x "$C"/src/linux-source-6.1_*_all.deb "$C/src/x"
	tar -C "$C/src" -xaf "$C/src/x/usr/src/linux-source-6.1.tar.xz"
	rm -rf "$C/src/x"
	echo "$ver" >"$C/src/version"
fi
P="$repo/tests/ab/margin.patch"
# A build cut short after the patch went in leaves the tree patched: undo it first.
if patch -d "$src" -p1 -R --dry-run -s -f <"$P" >/dev/null 2>&1; then
	patch -d "$src" -p1 -R -s <"$P"
fi
patch -d "$src" -p1 --dry-run -s <"$P" >/dev/null || die "tests/ab/margin.patch does not apply to linux-source-6.1 $ver"

# Same bytes for A and B but for the patch: fixed build stamp, user and host.
export ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- KBUILD_BUILD_TIMESTAMP="$ver" \
	KBUILD_BUILD_USER=feecscope KBUILD_BUILD_HOST=ab
O="$C/obj"
mkdir -p "$O"
t0=$(date +%s)
make -s -C "$src" O="$O" allnoconfig KCONFIG_ALLCONFIG="$repo/tests/ab/kernel.config" >"$C/config.log" 2>&1 ||
	die "make allnoconfig failed (see $C/config.log)"
# Every option the fragment asks for must have survived Kconfig's dependencies.
bad=
while IFS= read -r l; do
	case $l in CONFIG_*=*) grep -qx "$l" "$O/.config" || bad="$bad ${l%%=*}" ;; esac
done <"$repo/tests/ab/kernel.config"
[ -z "$bad" ] || die "kernel.config: not taken by Kconfig:$bad (see $O/.config)"

build() { # variant
	local v=$1 t=$(date +%s)
	make -C "$src" O="$O" -j2 Image modules >"$C/build-$v.log" 2>&1 || die "make for kernel $v failed (see $C/build-$v.log)"
	rm -rf "$C/kernel-$v" && mkdir -p "$C/kernel-$v"
	cp "$O/arch/arm64/boot/Image" "$O/drivers/cpufreq/cpufreq-dt.ko" "$O/.config" "$C/kernel-$v/"
	mv "$C/kernel-$v/.config" "$C/kernel-$v/config"
	make -s -C "$src" O="$O" kernelrelease >"$C/kernel-$v/kernel-release"
	echo "$(($(date +%s) - t))" >"$C/kernel-$v/build-seconds"
	echo "$stamp" >"$C/kernel-$v/stamp"
	echo "build-kernels.sh: kernel $v ($(cat "$C/kernel-$v/kernel-release")) built in $(cat "$C/kernel-$v/build-seconds") s"
}
build A
patch -d "$src" -p1 -s <"$P"
trap 'patch -d "$src" -p1 -R -s <"$P"' EXIT
build B
patch -d "$src" -p1 -R -s <"$P"
trap - EXIT
echo "build-kernels.sh: both kernels in $C (total $(($(date +%s) - t0)) s)"
