#!/usr/bin/env bash
# Where feecscope finds debugfs (root; each case in a private mount namespace,
# so this machine's mounts are never touched): unmounted, it is mounted on
# /sys/kernel/debug and `em` says so; mounted only at an unusual place, that
# place is used and nothing is mounted; when it cannot be mounted (no
# /sys/kernel/debug to mount on, or not root) the exit is 3 and the error says
# what was tried and which EM files or profiles fit.
. "$(dirname "$0")/../lib.sh"
export FEECSCOPE
command -v unshare >/dev/null || { fail "unshare" "util-linux's unshare is not installed"; finish; exit; }

# in_ns SCRIPT ARG0 ARGS...: bash -c SCRIPT ARG0 ARGS... in a new mount
# namespace, with every debugfs and tracefs mount of it unmounted first
# (deepest first).
in_ns() {
	local script=$1; shift
	unshare -m --propagation private bash -c '
		for m in $(awk "\$3 == \"debugfs\" || \$3 == \"tracefs\" { print \$2 }" /proc/self/mounts | sort -r); do
			umount "$m" || exit 99
		done
		'"$script" "$@"
}

# 1. Nothing mounted: root mounts debugfs on its usual place and says it did.
in_ns '"$FEECSCOPE" em >"$0.out" 2>"$0.err"; echo $? >"$0.rc"; grep " debugfs " /proc/self/mounts >"$0.after"' \
	"$TMP/unmounted"
rc=$(cat "$TMP/unmounted.rc" 2>/dev/null)
if [ "$rc" != 0 ] && [ "$rc" != 1 ]; then fail "unmounted: em exit 0 or 1" "got '$rc': $(head -c 300 "$TMP/unmounted.err")"
elif ! grep -q "mounted debugfs on /sys/kernel/debug (it was not mounted" "$TMP/unmounted.err"; then
	fail "unmounted: em says it mounted debugfs" "$(head -c 300 "$TMP/unmounted.err")"
elif ! grep -q "^[^ ]* /sys/kernel/debug debugfs " "$TMP/unmounted.after"; then
	fail "unmounted: debugfs is mounted on /sys/kernel/debug after" "$(cat "$TMP/unmounted.after")"
else pass "unmounted: debugfs mounted on /sys/kernel/debug, and said (em exit $rc)"; fi

# 2. debugfs only at an unusual place (as Android does): used there, nothing mounted.
ODD="$TMP/odd place/debug"
mkdir -p "$ODD"
in_ns 'mount -t debugfs none "$1" || exit 98; "$FEECSCOPE" em >"$0.out" 2>"$0.err"; echo $? >"$0.rc"
	grep -c " debugfs " /proc/self/mounts >"$0.count"' "$TMP/odd" "$ODD"
rc=$(cat "$TMP/odd.rc" 2>/dev/null)
if [ "$rc" != 0 ] && [ "$rc" != 1 ]; then fail "unusual place: em exit 0 or 1" "got '$rc': $(head -c 300 "$TMP/odd.err")"
elif ! cat "$TMP/odd.out" "$TMP/odd.err" | tr '\n' ' ' | sed 's/  */ /g' | grep -qF "$ODD/energy_model"; then
	fail "unusual place: em reads $ODD/energy_model" "$(head -c 300 "$TMP/odd.err")"
elif grep -q "mounted debugfs" "$TMP/odd.err" || [ "$(cat "$TMP/odd.count")" != 1 ]; then
	fail "unusual place: nothing else mounted" "$(cat "$TMP/odd.count") debugfs mounts; $(head -c 200 "$TMP/odd.err")"
else pass "unusual place: em used $ODD (exit $rc), mounted nothing"; fi

# 3. Root, but nowhere to mount it: a tmpfs hides /sys/kernel/debug.
in_ns 'mount -t tmpfs none /sys/kernel || exit 98; "$FEECSCOPE" em >"$0.out" 2>"$0.err"; echo $? >"$0.rc"' "$TMP/nodir"
rc=$(cat "$TMP/nodir.rc" 2>/dev/null)
msg=$(tr '\n' ' ' <"$TMP/nodir.err" | sed 's/  */ /g')
if [ "$rc" != 3 ]; then fail "cannot mount: exit 3" "got '$rc': ${msg:0:300}"
elif ! echo "$msg" | grep -Eq "debugfs: /proc/self/mounts lists no debugfs mount, and no directory /sys/kernel/debug to mount it on.*netlink.*(fits this device|fit this device|--em)"; then
	fail "cannot mount: says what was tried and what fits" "${msg:0:400}"
else pass "cannot mount (no /sys/kernel/debug): exit 3, says what was tried and what fits"; fi

# 4. Not root: not mounted, and says root would mount it.
if command -v setpriv >/dev/null; then
	in_ns 'setpriv --reuid 65534 --regid 65534 --clear-groups "$FEECSCOPE" em >"$0.out" 2>"$0.err"; echo $? >"$0.rc"
		grep -c " debugfs " /proc/self/mounts >"$0.count"' "$TMP/user"
	rc=$(cat "$TMP/user.rc" 2>/dev/null)
	msg=$(tr '\n' ' ' <"$TMP/user.err" | sed 's/  */ /g')
	if [ "$rc" != 3 ]; then fail "not root: exit 3" "got '$rc': ${msg:0:300}"
	elif ! echo "$msg" | grep -q "mounting it on /sys/kernel/debug needs root"; then fail "not root: says root is needed" "${msg:0:300}"
	elif [ "$(cat "$TMP/user.count")" != 0 ]; then fail "not root: nothing mounted" "$(cat "$TMP/user.count") debugfs mounts"
	else pass "not root: exit 3, says mounting needs root"; fi
fi
finish
