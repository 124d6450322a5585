#!/usr/bin/env bash
# Installs the Debian packages feecscope needs, only those missing
# (idempotent; needs root when anything is missing).
#   install-deps.sh live   what `make live` needs: the build (clang, bpftool, libbpf)
#   install-deps.sh        everything `make check` needs: also the test tools and
#                          the arm64 cross toolchain and QEMU of the EAS lab
# Used by `make deps`, `make live`, `make check` and .ci/run.
set -eu
cd "$(dirname "$0")/.."
mode=${1:-all}
case $mode in live|all) ;; *) echo "install-deps: unknown mode '$mode' (live or nothing)" >&2; exit 2;; esac

pkgs=(make gcc libc6-dev clang llvm bpftool libbpf-dev libelf-dev zlib1g-dev libzstd-dev libdeflate-dev libisal-dev pkg-config
      libtracecmd-dev libtraceevent-dev libtracefs-dev)
[ "$mode" = live ] || pkgs+=(libclang-rt-dev rt-app stress-ng linux-perf procps psmisc tmux python3 file
                           protobuf-compiler python3-pandas trace-cmd)

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "install-deps: missing Debian packages: ${missing[*]} (run as root, or: sudo apt-get install ${missing[*]})" >&2
		exit 1
	fi
	echo "install-deps: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The arm64 cross build and the QEMU EAS lab bring their own list.
if [ "$mode" = all ] && [ "${FS_SKIP_LAB:-0}" != 1 ] && [ -x tests/qemu/install-deps.sh ]; then
	tests/qemu/install-deps.sh
fi
