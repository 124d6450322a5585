#!/usr/bin/env bash
# The first run as a new user sees it (root): `feecscope live -d 3` in tmux at
# 80x24, as an `adb shell` window is. At most 3 lines of warnings come before
# the view; where the kernel has no EM, the news that a built-in model is used
# comes first; Android's advice (userdebug) only on Android; a refused fentry
# while root is not called a permission problem; when live ends, the verdict
# is on the 24 rows of the screen and the collector's counters are not (they
# come with -v, checked without a terminal).
. "$(dirname "$0")/../lib.sh"
T=(tmux -L "fsfirst$$" -f /dev/null)
cd "$TMP" || exit 1
cleanup() { "${T[@]}" kill-server 2>/dev/null; rm -rf "$TMP"; }
trap cleanup EXIT

"${T[@]}" new-session -d -x 80 -y 24 -s f "env PS1='$ ' bash --norc --noprofile"
wait_for() { local n=$(($1 * 10)); shift; while ! "$@" 2>/dev/null; do n=$((n - 1)); [ $n -gt 0 ] || return 1; sleep 0.1; done; }
"${T[@]}" send-keys -t f "clear; echo START; $FEECSCOPE live -d 3; echo \$? >first.rc" Enter
if ! wait_for 120 test -s first.rc; then
	fail "live -d 3 ends" "$("${T[@]}" capture-pane -t f -p | tail -n 3)"
	finish; exit
fi
wait_for 5 sh -c "${T[*]} capture-pane -t f -p | grep -q '^\\$ \$'"
"${T[@]}" capture-pane -t f -p -J >screen.txt          # the 24 rows shown now
"${T[@]}" capture-pane -t f -p -J -S - >all.txt        # and the scrollback
[ "$(cat first.rc)" = 0 ] && pass "live -d 3 exits 0" || fail "live -d 3 exit" "$(cat first.rc)"

verdict='^(margin|no margin verdict|v[0-9][^ ]*: margin)'
grep -Eq "$verdict" screen.txt && pass "the verdict is on the 80x24 screen when live ends: $(grep -E "$verdict" screen.txt | tail -n 1 | cut -c1-50)..." ||
	fail "the verdict on the screen at the end" "$(head -n 3 screen.txt)"
grep -q '^collector: \|^pairing: \|^programs: ' screen.txt all.txt &&
	fail "no collector counters without -v" "$(grep -m1 '^collector: ' all.txt)" ||
	pass "no collector counters without -v"

# what came before the view: between START and the summary's first line (the view's own
# screen is the alternate one, not in the scrollback)
awk -v re="$verdict" 'f && $0 ~ re { exit } f { print } /^START$/ { f = 1 }' all.txt | grep -v '^ *$' >before.txt
n=$(grep -c '^feecscope live:' before.txt)
lines=$(wc -l <before.txt)
[ "$lines" -le 3 ] && pass "$lines lines of warnings before the view ($n messages)" ||
	fail "at most 3 lines of warnings before the view" "$lines: $(head -c 400 before.txt)"
if grep -q 'Energy Model' before.txt; then
	head -n 1 before.txt | grep -q 'built-in' && pass "the built-in model is the first news" ||
		fail "the built-in model first" "$(head -n 1 before.txt)"
fi
if [ -n "${ANDROID_ROOT:-}" ] || [ -e /system/build.prop ]; then
	pass "Android: userdebug advice allowed"
else
	! grep -qi 'userdebug\|adb root' all.txt && pass "no Android advice off Android" ||
		fail "Android advice off Android" "$(grep -i -m1 'userdebug\|adb root' all.txt)"
fi
if grep -q 'fentry' before.txt; then
	tr '\n' ' ' <before.txt | grep -Eqi 'no permission|Operation not permitted' &&
		fail "a refused fentry while root is not a permission problem" "$(tr '\n' ' ' <before.txt)" ||
		pass "the refused fentry's cause: $(tr '\n' ' ' <before.txt | sed 's/.*select_task_rq_fair: //' | tr -s ' ' | cut -c1-60)..."
fi

# -v brings the counters back (without a terminal: after the summary, and each interval)
"$FEECSCOPE" live -d 1 -v </dev/null >v.out 2>v.err
grep -q '^collector: snapshots [0-9]' v.err && grep -q '^programs: [0-9]* of [0-9]* loaded' v.err &&
	pass "-v: the collector's counters" || fail "-v: the collector's counters" "$(tail -n 3 v.err)"
# With a packages list the view lists apps (docs/apps.md): a workload run as an app's uid
# (setpriv) shows under its package with its process beneath, the list sorted by wake-ups
# ('s'); the summary says which list named the apps.
uid=10177
echo "com.example.busy $uid 0 /data/user/0/com.example.busy default none" >pk.list
setpriv --reuid $uid --regid $uid --clear-groups /usr/bin/python3 -c 'import time
while True: time.sleep(0.004)' &
busy=$!
cap() { "${T[@]}" capture-pane -t f -p; }
"${T[@]}" send-keys -t f "clear; $FEECSCOPE live -d 60 --packages pk.list --summary apps.sum; echo \$? >apps.rc" Enter
wait_for 30 sh -c "${T[*]} capture-pane -t f -p | grep -q '^q quit'"
"${T[@]}" send-keys -t f s
if wait_for 30 sh -c "${T[*]} capture-pane -t f -p | grep -A1 '^  com.example.busy  ' | grep -q '^ *$busy python3 '"; then
	pass "the view lists the app, its process ($busy) under it"
else
	fail "the view lists the app with its process" "$(cap | tail -n 12 | tr -s ' ')"
fi
cap >view.txt
awk 'length > 80 { exit 1 }' view.txt && [ "$(wc -l <view.txt)" -le 24 ] && grep -Eq "$verdict" <(head -n 1 view.txt) &&
	pass "... on 80x24, the verdict first" || fail "the grouped view fits 80x24, verdict first" "$(head -n 2 view.txt)"
"${T[@]}" send-keys -t f q
wait_for 30 test -s apps.rc
kill "$busy" 2>/dev/null
[ "$(cat apps.rc 2>/dev/null)" = 0 ] && grep -q "^apps named from --packages pk.list (1 packages)" apps.sum &&
	pass "the summary names the list the apps came from" ||
	fail "the summary names the list" "rc $(cat apps.rc 2>/dev/null): $(grep -m1 '^apps' apps.sum)"
finish
