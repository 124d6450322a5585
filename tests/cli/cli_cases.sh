#!/usr/bin/env bash
# The command-line cases a new user trips over (issue 32, item 2), each with
# its documented exit code: help for every command both ways; errors about
# files in the same words across commands, one line; report says what it
# skips; em names no hidden alias; policies -r agrees with its own table.
. "$(dirname "$0")/../lib.sh"
F=$(realpath "$FS_FIXTURES")
cd "$TMP" || exit 1
"$FEECSCOPE" replay "$F/replay/pixel4.csv" --em pixel4 --convert-record in.fsr >/dev/null 2>&1
: >empty.fsr
mkdir emptydir

# case_ NAME EXIT REGEX CMD...: the exit code, stderr's first line REGEX, stderr at most
# LINES lines (default 2: the message and, for a usage error, the 'try' line)
case_() {
	local n=$1 want=$2 re=$3; shift 3
	"$@" >o 2>e; local rc=$?
	if [ $rc -ne "$want" ]; then fail "$n: exit $want" "got $rc: $(head -c 300 e)"
	elif ! head -n 1 e | grep -Eq -- "$re"; then fail "$n: /$re/" "$(head -c 300 e)"
	elif [ "$(wc -l <e)" -gt "${LINES_MAX:-2}" ]; then fail "$n: one line" "$(head -c 300 e)"
	else pass "$n: exit $want, $(head -n 1 e | cut -c1-60)"; fi
}

# --- help CMD and CMD --help, for every command ------------------------------
for c in live replay report em policies version help; do
	"$FEECSCOPE" help $c >h1 2>&1; r1=$?
	"$FEECSCOPE" $c --help >h2 2>&1; r2=$?
	name=$c; [ $c = help ] && name=""
	[ $r1 -eq 0 ] && [ $r2 -eq 0 ] && cmp -s h1 h2 && grep -q "^    feecscope${name:+ $name} - " h1 &&
		[ -z "$(awk 'length > 80' h1)" ] &&
		pass "help $c = $c --help: exit 0, its page within 80 columns" ||
		fail "help $c / $c --help" "exit $r1/$r2: $(head -c 200 h1) / $(head -c 200 h2)"
done
case_ "version with an argument" 2 "^feecscope version: unexpected argument 'x'$" "$FEECSCOPE" version x
grep -q "^try 'feecscope version --help'$" e && "$FEECSCOPE" version --help >/dev/null &&
	pass "  ... and the help it points to works" || fail "version's pointer to its help" "$(cat e)"
case_ "no command" 2 '^feecscope: a COMMAND is required \(live, replay, report, em, policies, version, help\)$' \
	"$FEECSCOPE"

# --- errors about files: the file, what is wrong, one line, exit 1 ------------
case_ "replay DIRECTORY" 1 '^feecscope replay: /tmp: is a directory$' "$FEECSCOPE" replay /tmp
case_ "replay MISSING" 1 '^feecscope replay: nope.fsr: cannot open: No such file or directory$' \
	"$FEECSCOPE" replay nope.fsr
case_ "replay EMPTY" 1 '^feecscope replay: empty.fsr: is empty$' "$FEECSCOPE" replay empty.fsr
case_ "report MISSING-DIR" 1 '^feecscope report: nosuchdir: cannot open: No such file or directory$' \
	"$FEECSCOPE" report nosuchdir
[ ! -s o ] && pass "  ... and prints no report" || fail "report nosuchdir printed" "$(head -c 200 o)"
case_ "report EMPTY" 1 '^feecscope report: empty.fsr: is empty$' "$FEECSCOPE" report in.fsr empty.fsr
[ ! -s o ] && pass "  ... and prints no report" || fail "report EMPTY printed" "$(head -c 200 o)"
case_ "report EMPTY-DIR" 1 '^feecscope report: no recordings found$' "$FEECSCOPE" report emptydir
case_ "em --em MISSING" 1 '^feecscope em: nope.em: cannot open: No such file or directory$' \
	"$FEECSCOPE" em --em nope.em
case_ "replay --em MISSING (the path said once)" 1 '^feecscope replay: --em nope.em: cannot open: No such file or directory$' \
	"$FEECSCOPE" replay in.fsr --em nope.em
# a scanned directory: an empty or foreign *.fsr is said and skipped, the rest reported, exit 1
mkdir runs
cp in.fsr runs/a.fsr
: >runs/b.fsr
echo "not a recording" >runs/c.fsr
echo "notes" >runs/notes.txt
"$FEECSCOPE" report runs >o 2>e
rc=$?
[ $rc -eq 1 ] && grep -q '^feecscope report: runs/b.fsr: skipped: is empty$' e &&
	grep -q '^feecscope report: runs/c.fsr: skipped: not a recording (bad magic)$' e && [ "$(wc -l <e)" -eq 2 ] &&
	grep -q '^margin verdict over 1 of 1 recordings' o &&
	pass "report DIR: each skipped .fsr said, the rest reported, exit 1" ||
	fail "report DIR with bad .fsr files" "exit $rc: $(head -c 300 e)"

# --- em: no hidden alias advised, a saved file says how it is used ---------------
"$FEECSCOPE" em --em "$F/em/v6.12" >em.txt 2>&1
grep -q -- 'pass --release 5.19 for a 5.19 tree' em.txt && ! grep -q -- '--kernel' em.txt &&
	pass "em: an unknown release advises --release, not the hidden --kernel" ||
	fail "em advice" "$(grep -n 'release' em.txt | head -3)"
"$FEECSCOPE" em --em pixel4 --save p.em
head -n 1 p.em | grep -q '^# feecscope Energy Model: give this file to --em (feecscope em, replay, live)$' &&
	! grep -q 'feecscope --em' p.em && pass "a saved EM says how to use it with a real command" ||
	fail "saved EM's first line" "$(head -n 1 p.em)"
case_ "em --em SAVED --release" 1 '^feecscope em: p.em: --release and --cpu-capacity-dir apply to debugfs trees' \
	"$FEECSCOPE" em --em p.em --release 5.19

# --- policies -r: the answer is the policy whose table row names the release ----
"$FEECSCOPE" policies -r 6.1.0 >o 2>e
grep -q '^v6.0	6.1.0 -> v6.0: nearest earlier policy (v6.0 follows it exactly, as does 6.1.0)' o &&
	"$FEECSCOPE" policies | grep -q '^v6.0 .*v6.0, 6.1.0' &&
	pass "policies -r 6.1.0: v6.0, as the table's v6.0 row says" || fail "policies -r 6.1.0" "$(cat o e)"
"$FEECSCOPE" policies -r 6.1.0-57-arm64 >o 2>e
grep -q "^v6.1	6.1.0-57 -> v6.1: a distribution's ABI name" o &&
	pass "policies -r 6.1.0-57-arm64 (Debian's ABI name, a 6.1.y): v6.1, and why" || fail "policies -r 6.1.0-57-arm64" "$(cat o e)"
"$FEECSCOPE" policies -r 6.1.63 | grep -q '^v6.1	' && pass "policies -r 6.1.63: v6.1" || fail "policies -r 6.1.63"
case_ "policies -r NOT-A-RELEASE" 2 "^feecscope policies: --release 'x': expected MAJOR.MINOR" \
	"$FEECSCOPE" policies -r x
finish
