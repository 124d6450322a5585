#!/usr/bin/env bash
# The live view in a real terminal (root): Debian's tmux at 80x24, as an
# `adb shell` window is. Every frame fits (no row wider than 80, the verdict
# on the first row, the status bar on the last), the scrollback does not grow
# over 20 refreshes, the keys work (s sorts, p pauses, a resize to 120x40
# shows more), q ends with the summary, and the terminal comes back as it was
# (normal screen, cursor, stty modes) after q, SIGINT, SIGTERM and Ctrl-C.
# `feecscope live | tee` and `make live | tee` keep the summary on Ctrl-C.
. "$(dirname "$0")/../lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
OUTDIR=${FS_OUT:-$REPO/build}
T=(tmux -L "fsview$$" -f /dev/null)
cd "$TMP" || exit 1

rt-app "$HERE/rtapp_duty.json" >rtapp.log 2>&1 &
RT=$!
cleanup() { "${T[@]}" kill-server 2>/dev/null; kill $RT 2>/dev/null; wait $RT 2>/dev/null; rm -rf "$TMP"; }
trap cleanup EXIT

"${T[@]}" new-session -d -x 80 -y 24 -s v "env PS1='$ ' bash --norc --noprofile"
send() { "${T[@]}" send-keys -t v "$@"; }
fmt() { "${T[@]}" display -t v -p "$1"; }
cap() { "${T[@]}" capture-pane -t v -p -J; }
# wait_for SECONDS CMD...: poll CMD every 0.1 s
wait_for() { local n=$(($1 * 10)); shift; while ! "$@" 2>/dev/null; do n=$((n - 1)); [ $n -gt 0 ] || return 1; sleep 0.1; done; }
bottom_is() { cap | tail -n 1 | grep -Eq "$1"; }
send "cd '$TMP' && stty -g >stty.before" Enter
wait_for 10 test -s stty.before || fail "the shell in tmux did not start"

# start NAME ARGS...: live in the pane, its exit status and stty modes after it into files
start() {
	local n=$1; shift
	rm -f "$n.rc" "$n.stty"
	send "$FEECSCOPE live $* 2>$n.err; echo \$? >$n.rc; stty -g >$n.stty" Enter
	wait_for 60 sh -c "[ \"\$(${T[*]} display -t v -p '#{alternate_on}')\" = 1 ]" &&
		wait_for 30 bottom_is '^(q quit|!)'
}
# restored NAME HOW: live ended with exit 0, the terminal as it was, the summary on the screen
restored() {
	local n=$1 how=$2
	wait_for 60 test -s "$n.rc" || { fail "$how: live did not end"; return; }
	wait_for 5 test -s "$n.stty"
	[ "$(cat "$n.rc")" = 0 ] && pass "$how: live exits 0" || fail "$how: live exit" "$(cat "$n.rc"): $(tail -3 "$n.err")"
	[ "$(fmt '#{alternate_on} #{cursor_flag}')" = "0 1" ] && pass "$how: normal screen and cursor back" ||
		fail "$how: screen not restored" "alternate_on cursor_flag = $(fmt '#{alternate_on} #{cursor_flag}')"
	cmp -s stty.before "$n.stty" && pass "$how: terminal modes as before (stty -g)" ||
		fail "$how: stty modes differ" "$(cat stty.before) / $(cat "$n.stty")"
	"${T[@]}" capture-pane -t v -p -J -S - >"$n.screen"
	if grep -q '^processes by' "$n.screen" && grep -Eq '^(v[^ ]*: )?margin' "$n.screen"; then
		pass "$how: the summary is on the screen, verdict first"
	else
		fail "$how: no summary on the screen" "$(tail -5 "$n.screen")"
	fi
}

# --- 80x24: 20 refreshes --------------------------------------------------------------
if start q -i 0.2 --summary q.sum; then
	pass "the view starts on the alternate screen at 80x24"
else
	fail "the view did not start" "$(cap | tail -3) $(cat q.err 2>/dev/null | head -3)"
fi
hist0=$(fmt '#{history_size}')
declare -A ups=()
bad_width=0 bad_top=0 bad_rows=0 widest=0 frames=0 hist_max=$hist0
for _ in $(seq 1 400); do
	cap >frame.txt
	frames=$((frames + 1))
	w=$(awk '{ if (length > m) m = length } END { print m + 0 }' frame.txt)
	[ "$w" -gt "$widest" ] && widest=$w
	[ "$w" -le 80 ] || bad_width=$((bad_width + 1))
	[ "$(wc -l <frame.txt)" -eq 24 ] || bad_rows=$((bad_rows + 1))
	head -n 1 frame.txt | grep -Eq '^(v[^ ]*: )?margin|^no margin verdict' || bad_top=$((bad_top + 1))
	h=$(fmt '#{history_size}')
	[ "$h" -gt "$hist_max" ] && hist_max=$h
	up=$(grep -o 'up [0-9.]* s' frame.txt | head -n 1)
	[ -n "$up" ] && ups[$up]=1
	[ ${#ups[@]} -ge 21 ] && break
	sleep 0.1
done
cp frame.txt frame-80x24.txt
[ ${#ups[@]} -ge 21 ] && pass "20 refreshes seen (${#ups[@]} distinct frames, $frames captures)" ||
	fail "refreshes" "only ${#ups[@]} distinct frames in $frames captures"
[ $bad_width -eq 0 ] && pass "no row wider than 80 in $frames captures (widest $widest)" ||
	fail "rows wider than 80" "$bad_width captures"
[ $bad_top -eq 0 ] && [ $bad_rows -eq 0 ] && pass "every frame fits 24 rows: the verdict on the first row" ||
	fail "frame height" "$bad_top captures without the verdict on top, $bad_rows not 24 rows: $(head -2 frame.txt)"
[ "$hist_max" -eq "$hist0" ] && pass "the scrollback did not grow (history $hist0 lines throughout)" ||
	fail "scrollback grew" "$hist0 -> $hist_max lines"
bottom_is '^q quit' && grep -q 'by |margin mJ|' <(cap | tail -n 1) && pass "the status bar shows the keys" ||
	fail "status bar" "$(cap | tail -n 1)"

# --- keys: s sorts, p pauses ----------------------------------------------------------------
send s
wait_for 5 bottom_is 'by wake-ups' && pass "s sorts the processes by wake-ups" || fail "s" "$(cap | tail -n 1)"
send p
if wait_for 5 bottom_is '^PAUSED'; then
	a=$(cap | grep -o 'up [0-9.]* s' | head -n 1); sleep 1; b=$(cap | grep -o 'up [0-9.]* s' | head -n 1)
	[ "$a" = "$b" ] && pass "p pauses the display ($a stays)" || fail "pause" "$a -> $b"
else
	fail "p" "$(cap | tail -n 1)"
fi
send p
wait_for 5 bottom_is '^q quit' && pass "p again resumes" || fail "resume" "$(cap | tail -n 1)"

# --- a taller, wider window shows more --------------------------------------------------------
"${T[@]}" resize-window -t v -x 120 -y 40
if wait_for 10 sh -c "${T[*]} capture-pane -t v -p -J | grep -q '^PD transitions'"; then
	cap >frame-120x40.txt
	w=$(awk '{ if (length > m) m = length } END { print m + 0 }' frame-120x40.txt)
	[ "$(wc -l <frame-120x40.txt)" -eq 40 ] && [ "$w" -le 120 ] &&
		head -n 1 frame-120x40.txt | grep -Eq '^(v[^ ]*: )?margin|^no margin verdict' &&
		pass "120x40: PD transitions and CPU load shown, 40 rows, widest $w" || fail "120x40 frame" "$w columns"
else
	fail "resize to 120x40" "$(cap | head -3)"
fi
"${T[@]}" resize-window -t v -x 80 -y 24
wait_for 10 sh -c "! ${T[*]} capture-pane -t v -p -J | grep -q '^PD transitions'" &&
	pass "back to 80x24 after SIGWINCH" || fail "resize back" "$(cap | head -3)"

send q
restored q "q"
tail -n 3 q.sum >q.tail
grep -qF -f q.tail q.screen && pass "q: the summary on the screen is the --summary file's" ||
	fail "q: summary on the screen" "$(cat q.tail)"

# --- signals and Ctrl-C -------------------------------------------------------------------------
for how in INT TERM; do
	if start "sig$how" -i 0.2 --summary "sig$how.sum"; then
		pid=$(pgrep -f -- "--summary sig$how.sum" | head -n 1)
		kill -"$how" "$pid"
		restored "sig$how" "SIG$how"
	else
		fail "SIG$how: the view did not start" "$(cat "sig$how.err" | head -3)"
	fi
done
if start ctrlc -i 0.2; then
	send C-c
	restored ctrlc "Ctrl-C"
else
	fail "Ctrl-C: the view did not start"
fi

# --- pipes: Ctrl-C reaches only live, tee still gets the summary --------------------------------
# pipe NAME COMMAND: run it in the pane, Ctrl-C once the banner is in the log
pipe() {
	local n=$1 cmd=$2
	rm -f "$n.rc" "$n.log"
	send "$cmd | tee $n.log; echo \"\${PIPESTATUS[*]}\" >$n.rc; stty -g >$n.stty" Enter
	if ! wait_for 120 grep -q '^t=' "$n.log"; then
		fail "$n: no interval line in the log" "$(cap | tail -3)"
		send C-c; return
	fi
	send C-c
	wait_for 60 test -s "$n.rc" || { fail "$n: did not end"; return; }
	[ "$(cat "$n.rc")" = "0 0" ] && pass "$n: Ctrl-C, every part of the pipe exits 0" || fail "$n: exits" "$(cat "$n.rc")"
	grep -q '^processes by' "$n.log" && grep -Eq '^(v[^ ]*: )?margin' "$n.log" &&
		pass "$n: the summary reached tee's log" || fail "$n: no summary in the log" "$(tail -3 "$n.log")"
	wait_for 5 test -s "$n.stty"
	cmp -s stty.before "$n.stty" && pass "$n: terminal modes as before" || fail "$n: stty modes"
}
pipe tee "$FEECSCOPE live -i 0.5"
pipe make "make --no-print-directory -C $REPO OUTPUT=$OUTDIR live LIVE_ARGS='-i 0.5'"

echo "figures: 80x24 widest row $widest, history $hist0 -> $hist_max lines over ${#ups[@]} frames"
finish
