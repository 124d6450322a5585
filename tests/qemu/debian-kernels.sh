#!/usr/bin/env bash
# Debian's arm64 kernels across its suites, for the lab matrix.
#
# usage: tests/qemu/debian-kernels.sh list     "series version parts", one per kernel
#        tests/qemu/debian-kernels.sh fetch VERSION PARTS DIR
#            a list line's kernel into DIR: Image, cpufreq-dt.ko, kernel-release
#        tests/qemu/debian-kernels.sh headers KDIR DIR
#            the headers of the kernel a fetch left in KDIR, to build modules for it:
#            linux-headers-RELEASE (arm64), its -common and the linux-kbuild its
#            Depends names (for this machine's architecture: the host tools) in DIR;
#            prints the tree to pass as make -C
#        tests/qemu/debian-kernels.sh modkernel
#            "series version parts" of the newest 6.9+ kernel (runtime-modifiable EM)
#            with modules, whose headers are in the archive and whose linux-kbuild
#            runs here (its libraries' Depends met by this machine's packages)
#
# The archive is the one this machine's apt already uses (every source whose Release
# says "Origin: Debian", read with apt-get indextargets): no host name is written here.
# A private apt configuration in build/qemu/apt lists that archive's arm64 indexes for
# every suite alias (oldoldstable .. experimental, -backports, -updates, -security), so
# nothing of the host's apt state changes. Its indexes are refreshed when a day old or
# older than this machine's own; downloads are kept in build/qemu/debs.
#
# `list`: the newest 5.10, 6.1 and 6.12, the newest 6.x, and every later series (each
# series' newest complete kernel). From 6.19 Debian splits a kernel into linux-binary-*
# (the image) and linux-modules-* (xz-compressed modules); older ones ship both in
# linux-image-*. The archive keeps modules only for a suite's newest upload, so older
# backport series (6.19, 7.0, 7.1 in December 2026) have an image without modules:
# those boot without cpufreq-dt, hence without an EM (parts end ",no-modules").
set -eu
cd "$(dirname "$0")/../.."
A=$PWD/build/qemu/apt
die() { echo "debian-kernels.sh: $*" >&2; exit 1; }

# "URI alias" of every suite alias of the Debian sources this machine's apt uses.
aliases() {
	APT_CONFIG= apt-get indextargets --format '$(REPO_URI) $(LABEL)' 'Origin: Debian' 2>/dev/null |
		sort -u | while read -r uri label; do
		case $label in
		*-Security) for s in oldoldstable oldstable stable testing; do echo "$uri $s-security"; done ;;
		*) for s in oldoldstable oldstable stable testing unstable experimental \
				oldoldstable-backports oldstable-backports stable-backports \
				oldstable-updates stable-updates; do echo "$uri $s"; done ;;
		esac
	done
}

apt_setup() {
	mkdir -p "$A/lists/partial" "$A/cache/archives/partial" "$A/preferences.d" "$A/release"
	aliases >"$A/aliases.new"
	[ -s "$A/aliases.new" ] || die "no source with Origin: Debian in this machine's apt lists (run apt-get update)"
	cat >"$A/apt.conf" <<-EOF
	Dir::State "$A";
	Dir::State::Lists "$A/lists";
	Dir::State::status "/dev/null";
	Dir::Cache "$A/cache";
	Dir::Etc::SourceList "$A/sources.list";
	Dir::Etc::SourceParts "/nonexistent";
	Dir::Etc::Preferences "$A/preferences";
	Dir::Etc::PreferencesParts "$A/preferences.d";
	APT::Architecture "arm64";
	APT::Architectures { "arm64"; };
	APT::Sandbox::User "root";
	Acquire::Languages "none";
	EOF
	export APT_CONFIG=$A/apt.conf
	# Refresh when the sources changed, the indexes are a day old, or this machine's own
	# apt lists are newer than ours (the archive moved since).
	local host_lists
	host_lists=$(APT_CONFIG= apt-config shell L Dir::State::lists/d | sed -n "s/^L='\(.*\)'$/\1/p")
	cmp -s "$A/aliases.new" "$A/aliases" && [ -e "$A/updated" ] &&
		[ -n "$(find "$A/updated" -mmin -1440 2>/dev/null)" ] &&
		[ -z "$(find "${host_lists:-/var/lib/apt/lists}" -maxdepth 1 -name '*InRelease' -newer "$A/updated" 2>/dev/null | head -n 1)" ] &&
		return 0
	# The archive's alias paths (dists/oldstable-security) can serve an older Release
	# than the codename's (seen: a month older), so each alias is resolved to the
	# codename its Release names and the indexes are read by codename.
	local uri alias code
	: >"$A/sources.list"
	while read -r uri alias; do
		rm -f "$A/release/r"
		/usr/lib/apt/apt-helper download-file "${uri%/}/dists/$alias/Release" "$A/release/r" >/dev/null 2>&1 ||
			continue # that alias does not exist (any more)
		code=$(sed -n 's/^Codename: //p' "$A/release/r" | head -n 1)
		# experimental's codename (rc-buggy) is no directory: keep the alias there
		[ -n "$code" ] && /usr/lib/apt/apt-helper download-file "${uri%/}/dists/$code/Release" \
			"$A/release/c" >/dev/null 2>&1 || code=$alias
		echo "deb [arch=arm64] $uri $code main"
	done <"$A/aliases.new" | sort -u >"$A/sources.list"
	[ -s "$A/sources.list" ] || die "no suite of the archive answered (see $A/aliases.new)"
	apt-get update -q >"$A/update.log" 2>&1 || die "apt-get update failed (see $A/update.log)"
	mv "$A/aliases.new" "$A/aliases"
	touch "$A/updated"
}

# "package version" of every arm64 kernel package (standard flavour) the indexes list.
kernel_pkgs() {
	apt-cache dumpavail | awk '
		/^Package: / { p = $2 }
		/^Version: / && p ~ /^linux-(image|binary|modules)-[0-9][^ ]*[0-9]-arm64$/ { print p, $2 }' | sort -u
}

# One line per kernel: "series version parts". parts is the package holding vmlinuz
# and modules (linux-image-*), or linux-binary-*,linux-modules-* at the same version,
# or linux-binary-* alone ("no-modules": the archive keeps only the newest backport's
# modules, so older backports have an image but no cpufreq-dt.ko, hence no EM).
kernels() {
	kernel_pkgs | awk '
		{ split($1, n, "-"); kind = n[2]; abi = $1; sub(/^linux-[a-z]+-/, "", abi)
		  have[kind, abi, $2] = 1; if (kind == "image") img[abi, $2] = 1 }
		END {
			for (k in img) {
				split(k, a, SUBSEP); abi = a[1]; v = a[2]
				if (have["binary", abi, v])
					parts = have["modules", abi, v] ? "linux-binary-" abi ",linux-modules-" abi \
									 : "linux-binary-" abi ",no-modules"
				else
					parts = "linux-image-" abi
				split(v, d, /[.~-]/)
				print d[1] "." d[2], v, parts
			}
		}' | sort -k1,1V -k2,2V
}

# The matrix: the newest complete 5.10, 6.1, 6.12 and 6.x, any newer 6.x, every 7.x
# (each series' newest complete kernel, else its newest image without modules).
list() {
	kernels | awk '
		{ full = $3 !~ /no-modules/; s = $1
		  if (full || !(s in best_full)) best[s] = $0
		  if (full) best_full[s] = 1
		  split(s, v, "."); if (full && v[1] == 6) newest6 = s }
		END { for (s in best) print s, best[s] }' | sort -V | awk -v n6="$(kernels | awk '
		$3 !~ /no-modules/ { split($1, v, "."); if (v[1] == 6) s = $1 } END { print s }')" '
		{ split($1, v, "."); newer = (v[1] == 6 && $1 != n6 && (n6 == "" || cmp($1, n6) > 0)) }
		function cmp(a, b,  x, y) { split(a, x, "."); split(b, y, "."); return (x[1] - y[1]) * 1000 + x[2] - y[2] }
		$1 == "5.10" || $1 == "6.1" || $1 == "6.12" || $1 == n6 || newer || v[1] >= 7 { print $2, $3, $4 }'
}

# PARTS (a list line's third field) at VERSION into DIR: Image (uncompressed),
# cpufreq-dt.ko (absent for no-modules), kernel-release, package.
fetch() {
	local ver=$1 parts=$2 dir=$3 debs=build/qemu/debs p pkgs
	mkdir -p "$debs" "$dir"
	[ -s "$dir/Image" ] && [ "$(cat "$dir/package" 2>/dev/null)" = "$parts $ver" ] && return
	pkgs=$(echo "$parts" | tr , ' ' | sed 's/ no-modules//')
	for p in $pkgs; do
		ls "$debs/${p}_"*_arm64.deb >/dev/null 2>&1 ||
			(cd "$debs" && apt-get download -q "$p:arm64=$ver" >/dev/null) || die "apt-get download $p=$ver failed"
	done
	local x=$dir/x
	rm -rf "$x" "$dir/cpufreq-dt.ko" && mkdir -p "$x"
	for p in $pkgs; do
		dpkg-deb --fsys-tarfile "$debs/${p}_"*_arm64.deb |
			tar -x -C "$x" --wildcards './boot/vmlinuz-*' './usr/lib/modules/*/vmlinuz' \
				'*/cpufreq-dt.ko*' 2>/dev/null || true
	done
	# /boot/vmlinuz-RELEASE up to 6.18; /usr/lib/modules/RELEASE/vmlinuz from 6.19
	local vmlinuz ko release
	vmlinuz=$(ls "$x"/boot/vmlinuz-* "$x"/usr/lib/modules/*/vmlinuz 2>/dev/null | head -n 1)
	case $vmlinuz in
	*/boot/vmlinuz-*) release=${vmlinuz##*/vmlinuz-} ;;
	*/vmlinuz) release=${vmlinuz%/vmlinuz}; release=${release##*/} ;;
	*) die "$parts: no vmlinuz in the package" ;;
	esac
	python3 tests/qemu/unpack-image.py "$vmlinuz" "$dir/Image" || die "$parts: cannot unpack $vmlinuz"
	ko=$(find "$x" -name 'cpufreq-dt.ko*' | head -n 1)
	case $ko in
	'') case $parts in *no-modules) ;; *) die "$parts: no cpufreq-dt.ko" ;; esac ;;
	*.xz) xz -dc "$ko" >"$dir/cpufreq-dt.ko" ;;
	*.zst) zstd -dqc "$ko" >"$dir/cpufreq-dt.ko" ;;
	*.gz) gzip -dc "$ko" >"$dir/cpufreq-dt.ko" ;;
	*) cp "$ko" "$dir/cpufreq-dt.ko" ;;
	esac
	echo "$release" >"$dir/kernel-release"
	echo "$parts $ver" >"$dir/package"
	rm -rf "$x"
}

# A kbuild built for a newer suite than this machine (trixie's modpost needs glibc 2.38,
# bookworm has 2.36): each of its programs that needs a newer glibc than this machine's
# runs under that suite's own libc6 (for this architecture, unpacked into DIR/libc) via
# its dynamic loader. Only the C library: the programs that need more are not wrapped.
wrap_newer_glibc() {
	local dir=$1 scripts=$2 suite=$3 host have b need H L ld
	host=$(dpkg --print-architecture)
	have=$(ldd --version 2>/dev/null | sed -n '1s/.* //p')
	for b in $(find "$scripts" -type f -perm -u+x ! -name '*.bin'); do
		need=$(objdump -T "$b" 2>/dev/null | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -V | tail -n 1)
		[ -n "$need" ] && ! printf '%s\n%s\n' "$need" "$have" | sort -VC || continue
		L=$dir/libc/usr/lib/$(gcc -print-multiarch)
		if [ ! -d "$L" ]; then
			H=$A-$host
			mkdir -p "$H/lists/partial" "$H/cache/archives/partial" "$H/preferences.d"
			sed -e "s#$A#$H#g" -e "s/\"arm64\"/\"$host\"/g" "$A/apt.conf" >"$H/apt.conf"
			grep " $suite main\$" "$A/sources.list" | sed "s/arch=arm64/arch=$host/" >"$H/sources.list"
			[ -s "$H/sources.list" ] || die "no $suite in $A/sources.list for its libc6"
			APT_CONFIG=$H/apt.conf apt-get update -q >"$H/update.log" 2>&1 || die "apt-get update failed (see $H/update.log)"
			(cd build/qemu/debs && APT_CONFIG=$H/apt.conf apt-get download -q "libc6:$host" >/dev/null) ||
				die "apt-get download libc6:$host ($suite) failed"
			dpkg-deb -x "$(ls -t build/qemu/debs/libc6_*_"$host".deb | head -n 1)" "$dir/libc"
		fi
		ld=$(ls "$L"/ld-linux*.so.* 2>/dev/null | head -n 1)
		[ -n "$ld" ] || die "$suite's libc6 has no dynamic loader under $L"
		mv "$b" "$b.bin"
		printf '#!/bin/sh\n# %s needs glibc %s: run under %s'"'"'s\nexec %s --library-path %s %s "$@"\n' \
			"${b##*/}" "$need" "$suite" "$(realpath "$ld")" "$(realpath "$L")" "$(realpath "$b.bin")" >"$b"
		chmod +x "$b"
	done
}

# The headers of KDIR's kernel (RELEASE, VERSION from its kernel-release and package)
# into DIR. The archive keeps headers only for a suite's newest upload, like modules.
# linux-kbuild holds host programs (fixdep, modpost), so it comes for this machine's
# architecture, from the suite madison names, through a second private configuration.
headers() {
	local kd=$1 dir=$2 release ver hdr deps common kbuild debs=build/qemu/debs host
	release=$(cat "$kd/kernel-release" 2>/dev/null) || die "$kd/kernel-release: missing (run fetch first)"
	ver=$(cut -d' ' -f2 "$kd/package" 2>/dev/null)
	[ -n "$ver" ] || die "$kd/package: missing (run fetch first)"
	hdr=linux-headers-$release
	deps=$(apt-cache show "$hdr:arm64=$ver" 2>/dev/null | sed -n 's/^Depends: //p' | head -n 1)
	[ -n "$deps" ] || die "$hdr $ver: not in the archive (it keeps only a suite's newest headers)"
	common=$(echo "$deps" | tr ',' '\n' | sed -n 's/^ *\(linux-headers-[^ ]*-common\) .*/\1/p')
	kbuild=$(echo "$deps" | tr ',' '\n' | sed -n 's/^ *\(linux-kbuild-[^ ,]*\).*/\1/p')
	[ -n "$common" ] && [ -n "$kbuild" ] || die "$hdr: Depends names no -common or linux-kbuild: $deps"
	mkdir -p "$debs" "$dir"
	(cd "$debs" && for p in "$hdr:arm64" "$common"; do
		ls "${p%:arm64}_${ver}_"*.deb >/dev/null 2>&1 || apt-get download -q "$p=$ver" >/dev/null || exit 1
	done) || die "apt-get download $hdr $common $ver failed"
	host=$(dpkg --print-architecture)
	if ! ls "$debs/${kbuild}_${ver}_$host.deb" >/dev/null 2>&1; then
		local H=$A-$host
		mkdir -p "$H/lists/partial" "$H/cache/archives/partial" "$H/preferences.d"
		sed -e "s#$A#$H#g" -e "s/\"arm64\"/\"$host\"/g" "$A/apt.conf" >"$H/apt.conf"
		apt-cache madison "$kbuild" | awk -F' [|] ' -v v="$ver" '$2 == v { split($3, u, " ");
			sub(/\/.*/, "", u[2]); print "deb [arch='"$host"'] " u[1] " " u[2] " main" }' |
			sort -u >"$H/sources.list"
		[ -s "$H/sources.list" ] || die "$kbuild $ver: no suite of the archive has it"
		APT_CONFIG=$H/apt.conf apt-get update -q >"$H/update.log" 2>&1 || die "apt-get update failed (see $H/update.log)"
		(cd "$debs" && APT_CONFIG=$H/apt.conf apt-get download -q "$kbuild:$host=$ver" >/dev/null) ||
			die "apt-get download $kbuild:$host=$ver failed"
	fi
	for p in "${hdr}_${ver}_arm64" "${common}_${ver}_all" "${kbuild}_${ver}_$host"; do
		dpkg-deb -x "$debs/$p.deb" "$dir" || die "$debs/$p.deb: cannot unpack"
	done
	wrap_newer_glibc "$dir" "$dir/usr/lib/$kbuild/scripts" "$(awk -F' [|] ' -v v="$ver" '$2 == v { split($3, u, " ");
		sub(/\/.*/, "", u[2]); sub(/-.*/, "", u[2]); print u[2]; exit }' <(apt-cache madison "$kbuild"))"
	# The arm64 tree's Makefile names the trees by their installed paths (include of
	# -common; from 7.x also KBUILD_OUTPUT): here they are under DIR.
	sed -i "s#\([ =]\)/usr/src/#\1$(cd "$dir" && pwd)/usr/src/#g" "$dir/usr/src/$hdr/Makefile"
	echo "$dir/usr/src/$hdr"
}

# "package version Depends" of every arm64 headers and kbuild package, from one read
# of the indexes (apt-cache show per package reads them all each time: minutes).
build_deps() {
	apt-cache dumpavail | awk '
		/^Package: / { p = $2; v = ""; next }
		/^Version: / { v = $2; next }
		/^Depends: / && p ~ /^linux-(headers-[^ ]*-arm64|kbuild-[^ ]*)$/ { sub(/^Depends: /, ""); print p, v, $0 }' |
		sort -u
}

# Are the library Depends (in DEPS, a Depends value) installed here at versions that
# satisfy them? The same suite builds linux-kbuild for every architecture against the
# same libraries, so the arm64 package's Depends tell whether the host's would run.
host_runs() {
	local host name op ver have
	host=$(dpkg --print-architecture)
	echo "$1" | tr ',' '\n' | sed -n 's/^ *\(lib[^ ]*\|zlib1g\) (\([<>=]*\) \([^)]*\)).*/\1 \2 \3/p' >"$A/deps"
	[ -s "$A/deps" ] || return 1
	while read -r name op ver; do
		have=$(dpkg-query -W -f '${Version}' "$name:$host" 2>/dev/null) || return 1
		case $op in '>=') op=ge ;; '<<') op=lt ;; '>>') op=gt ;; '<=') op=le ;; *) op=eq ;; esac
		dpkg --compare-versions "$have" "$op" "$ver" || return 1
	done <"$A/deps"
}

modkernel() {
	local series ver parts rel kb deps
	build_deps >"$A/build-deps"
	kernels | grep -v no-modules | sort -k1,1Vr -k2,2Vr | while read -r series ver parts; do
		printf '%s\n6.9\n' "$series" | sort -VC && continue   # before 6.9: no runtime EM
		rel=${parts%%,*}; rel=${rel#linux-image-}; rel=${rel#linux-binary-}
		kb=$(awk -v p="linux-headers-$rel" -v v="$ver" '$1 == p && $2 == v' "$A/build-deps" |
			tr ',' '\n' | sed -n 's/^ *\(linux-kbuild-[^ ,]*\).*/\1/p')
		[ -n "$kb" ] || continue
		deps=$(awk -v p="$kb" -v v="$ver" '$1 == p && $2 == v { $1 = $2 = ""; print }' "$A/build-deps")
		host_runs "$deps" && { echo "$series $ver $parts"; break; }
	done
}

case ${1:-} in
modkernel) apt_setup; r=$(modkernel); [ -n "$r" ] || die "no 6.9+ kernel with headers whose linux-kbuild runs here"; echo "$r" ;;
list) apt_setup; list ;;
fetch) [ $# -eq 4 ] || die "usage: fetch VERSION PARTS DIR"; apt_setup; fetch "$2" "$3" "$4" ;;
headers) [ $# -eq 3 ] || die "usage: headers KDIR DIR"; apt_setup; headers "$2" "$3" ;;
*) sed -n '2,/^set -eu/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 2 ;;
esac
