#!/usr/bin/env bash
# Installs every Debian package the arm64 cross build and the QEMU EAS lab need.
# Idempotent: installs only what is missing, runs `apt-get update` at most once.
# Usage: tests/qemu/install-deps.sh        (as root; CI calls it before make ARCH=arm64)
set -eu

# Host tools: the emulators, dtc, the cross compiler.
HOST_PKGS="python3 qemu-system-arm qemu-user-static device-tree-compiler cpio
	gcc-aarch64-linux-gnu libc6-dev-arm64-cross binutils-aarch64-linux-gnu file"
# arm64 libraries for a static feecscope (libbpf needs libelf, which needs zlib and
# zstd when linked statically). The guest's own packages (kernel, busybox-static, rt-app)
# are not installed: tests/qemu/fetch-guest.sh downloads them into build/.
ARM64_PKGS="libbpf-dev:arm64 libelf-dev:arm64 zlib1g-dev:arm64 libzstd-dev:arm64 libdeflate-dev:arm64"

if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps.sh: must run as root (apt-get install)" >&2
	exit 3
fi

updated=0
apt_update_once() {
	[ $updated -eq 1 ] && return
	apt-get update -qq >/dev/null
	updated=1
}

if ! dpkg --print-foreign-architectures | grep -qx arm64; then
	dpkg --add-architecture arm64
	apt_update_once
fi

missing=
for p in $HOST_PKGS $ARM64_PKGS; do
	# dpkg-query wants name:arch for foreign packages, plain name for native ones.
	st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
	[ "$st" = installed ] || missing="$missing $p"
done

if [ -n "$missing" ]; then
	apt_update_once
	echo "install-deps.sh: installing$missing"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
