#!/usr/bin/env bash
# What live says when the environment stops it (root needed to be refused the
# right way): no privileges, no bpf() (ENOSYS), bpf() refused (EPERM) or
# denied by a security module (EACCES) each exit 3 with their own message and
# hint (Android's only on Android), before any Energy Model or BPF work; a verifier that rejects every
# program (BPF_PROG_LOAD failing with EINVAL) exits 1 asking for -vvv.
# bpf() fails through a seccomp filter (build/tests/deny_bpf).
. "$(dirname "$0")/../lib.sh"
DENY=${FS_OUT:-build}/tests/deny_bpf
[ -x "$DENY" ] || { fail "deny_bpf" "$DENY is not built (make unit)"; finish; exit; }

# case NAME EXIT REGEX CMD...: the exit status, the message, and nothing else before it
case_() {
	local n=$1 want=$2 re=$3; shift 3
	"$@" >"$TMP/o" 2>"$TMP/e"; local rc=$?
	if [ $rc -ne "$want" ]; then fail "$n: exit $want" "got $rc: $(head -c 300 "$TMP/e")"
	elif ! tr '\n' ' ' <"$TMP/e" | sed 's/  */ /g' | grep -Eq -- "$re"; then fail "$n: message /$re/" "$(head -c 400 "$TMP/e")"
	elif [ $want -eq 3 ] && grep -q "Energy Model" "$TMP/e"; then fail "$n: said before any EM work" "$(head -c 200 "$TMP/e")"
	else pass "$n: exit $want, $(head -n 1 "$TMP/e" | cut -c1-60)..."; fi
}
case_ "not root" 3 "needs root, or CAP_BPF and CAP_PERFMON .*setcap" \
	setpriv --reuid 65534 --regid 65534 --clear-groups "$FEECSCOPE" live -d 1
case_ "no bpf() (ENOSYS)" 3 "no bpf\(\) system call \(built without CONFIG_BPF_SYSCALL.*replay a recording" \
	"$DENY" ENOSYS "$FEECSCOPE" live -d 1
# Android's advice (adb root, userdebug, setenforce 0) on Android only
android() { [ -n "${ANDROID_ROOT:-}" ] || [ -e /system/build.prop ]; }
advice() { # NAME: the last case's message has Android's advice exactly on Android
	if android; then grep -q 'adb root' "$TMP/e" && pass "$1: Android's advice on Android" ||
		fail "$1: Android's advice on Android" "$(head -c 300 "$TMP/e")"
	else ! grep -qi 'adb root\|userdebug\|setenforce' "$TMP/e" && pass "$1: no Android advice off Android" ||
		fail "$1: no Android advice off Android" "$(head -c 300 "$TMP/e")"
	fi
}
case_ "bpf() refused (EPERM)" 3 "refused bpf\(\) \(EPERM\).*lockdown.*ulimit -l unlimited" \
	"$DENY" EPERM "$FEECSCOPE" live -d 1
advice "bpf() refused (EPERM)"
case_ "bpf() denied (EACCES)" 3 "security module denied bpf\(\) \(EACCES: SELinux" \
	"$DENY" EACCES "$FEECSCOPE" live -d 1
advice "bpf() denied (EACCES)"
case_ "the verifier rejects every program" 1 "verifier rejected the BPF programs \(Invalid argument\): run with -vvv.*feecscope version" \
	"$DENY" EINVAL load "$FEECSCOPE" live -d 1
finish
