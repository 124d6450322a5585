#!/usr/bin/env bash
# Outputs written as root never reach a device through a link planted in a
# shared directory (issue 33), the cases out_links.sh leaves: a hard link is
# no symbolic link, so a device named directly takes an output only when it
# is a terminal or /dev/null, /dev/zero, /dev/full:
#  - a block device or another character device (here nodes made with
#    mknod, as a hard link to one would be) is refused before anything is
#    written: exit 2, one line naming the file and what it is, no temporary
#    file, the run's other outputs not created, nothing read from the device;
#  - a terminal named directly gets the bytes a regular file gets, a link to
#    one is refused;
#  - /dev/zero named directly is written (exit 0);
#  - a SIGTERM while the long CSV's sort spill file has its name (forced at
#    once by tests/tools/sigterm_at_spill.c) leaves neither that file nor the
#    output's temporary name.
# The nodes need root (mknod); without it those checks are skipped, said so.
# Every run is under a timeout, so a wrong implementation fails, never hangs.
. "$(dirname "$0")/../lib.sh"
out_inputs
PTYRUN=$_fs_top/tests/tools/ptyrun.py

fs() { timeout 20 "$FEECSCOPE" "$@"; }
no_tmp() { ! compgen -G '.*.tmp' >/dev/null; }
one_line() { [ "$(unwrap "$1" | wc -l)" -eq 1 ] && unwrap "$1" | grep -Eq "$2" && ! grep -q '.\{81\}' "$1"; }

# Every kind of output (the path follows the option).
CMDS=("replay in.fsr --csv" "replay in.fsr --json" "replay in.fsr --summary" "replay in.fsr --perfetto"
	"replay in.fsr --workload-csv" "replay in.csv --em pixel4 --convert-record" "report in.fsr --json"
	"em --em pixel4 --save" "live -d 1 --record")

# --- devices named directly that take no output ------------------------------
# rnd: /dev/urandom's numbers (drivers/char/mem.c: 1:9), which a write only
# stirs; blk: a block device of major 240 (Documentation/admin-guide/
# devices.txt: local/experimental), which no driver here answers.
if mknod rnd c 1 9 2>/dev/null && mknod blk b 240 0 2>/dev/null; then
	for cmd in "${CMDS[@]}"; do
		for node in rnd blk; do
			[ $node = rnd ] && what="a character device" || what="a block device"
			# shellcheck disable=SC2086 # the command's words
			fs $cmd $node >out 2>err
			rc=$?
			opt=$(echo "$cmd" | awk '{ print $NF }')
			one_line err "^feecscope [a-z]+: $opt $node: $what, not a terminal or /dev/null: nothing written$" &&
				[ $rc -eq 2 ] && [ ! -s out ] && no_tmp && [ -c rnd ] && [ -b blk ] &&
				pass "$cmd $node ($what named directly): exit 2, one line" ||
				fail "$cmd $node ($what)" "exit $rc: $(head -c 300 err)"
		done
	done
	# refused before anything is written: the outputs named before it are not created
	fs replay in.fsr --csv first.csv --perfetto rnd --json last.json >out 2>err
	rc=$?
	[ $rc -eq 2 ] && [ ! -e first.csv ] && [ ! -e last.json ] && no_tmp &&
		pass "a refused device: the run's other outputs are not created either" ||
		fail "other outputs beside a refused device" "exit $rc: $(ls -A | tr '\n' ' ')"
	for node in rnd blk; do
		[ $node = rnd ] && what="a character device" || what="a block device"
		ln -s $node $node.link
		fs replay in.fsr --perfetto $node.link >out 2>err
		rc=$?
		[ $rc -eq 2 ] && no_tmp &&
			one_line err "^feecscope replay: --perfetto $node.link: a symbolic link to $node \($what\): not followed" &&
			pass "a link to $what is refused as a link" || fail "link to $node" "exit $rc: $(head -c 300 err)"
	done
	# a device that swallows writes is one a user names on purpose
	mknod zero c 1 5
	check "a node of /dev/zero's numbers named directly is written" fs replay in.fsr --json zero
else
	echo "     (device nodes need root: mknod skipped)"
fi
check "/dev/zero named directly is written" fs replay in.fsr --csv /dev/zero --json /dev/zero

# --- a terminal named directly: gets the output ----------------------------------
# ptyrun.py puts a new terminal's name where PTY is and prints what it got.
TTY_CMDS=("replay in.fsr --csv" "replay in.fsr --json" "replay in.fsr --perfetto"
	"replay in.csv --em pixel4 --convert-record")
for cmd in "${TTY_CMDS[@]}"; do
	rm -f file.out
	# shellcheck disable=SC2086 # the command's words
	fs $cmd file.out >/dev/null 2>&1
	# shellcheck disable=SC2086
	timeout 30 python3 "$PTYRUN" "$FEECSCOPE" $cmd PTY >got.tty 2>err
	rc=$?
	[ $rc -eq 0 ] && [ -s file.out ] && cmp -s got.tty file.out && no_tmp &&
		pass "$cmd PTY (A TERMINAL NAMED DIRECTLY): gets the bytes a file gets" ||
		fail "$cmd PTY (a terminal)" "exit $rc, $(wc -c <got.tty) bytes vs $(wc -c <file.out): $(head -c 300 err)"
done
timeout 30 python3 "$PTYRUN" sh -c 'ln -s PTY tty.link && "$0" replay in.fsr --csv tty.link' "$FEECSCOPE" >got.tty 2>err
rc=$?
[ $rc -eq 2 ] && [ ! -s got.tty ] &&
	one_line err '^feecscope replay: --csv tty.link: a symbolic link to /dev/[a-z/0-9]+ \(a character device\): not followed' &&
	pass "a link to a terminal is refused, the terminal gets nothing" ||
	fail "link to a terminal" "exit $rc, $(wc -c <got.tty) bytes: $(head -c 300 err)"

# --- the long CSV's spill file on a signal --------------------------------------
# FS_BENCH_SORT_HOLD=1: every held row spills (decisions_long.c); the shim sends
# SIGTERM as the spill file is unlinked, its one moment with a name.
if ${CC:-cc} -shared -fPIC -O2 -o spill.so "$_fs_top/tests/tools/sigterm_at_spill.c" -ldl 2>cc.err &&
	file -L "$FEECSCOPE" | grep -q 'dynamically linked'; then
	mkdir spill
	# in a shell of its own, whose "Terminated" goes nowhere
	FS_BENCH_SORT_HOLD=1 LD_PRELOAD=$PWD/spill.so sh -c '"$@" >/dev/null 2>err; echo $? >rc' sh \
		timeout 20 "$FEECSCOPE" replay in.fsr --csv spill/out.csv 2>/dev/null
	rc=$(cat rc)
	[ $rc -eq 143 ] && [ -z "$(ls -A spill)" ] &&
		pass "SIGTERM while the sort spill file has a name: it and the output temp are removed" ||
		fail "SIGTERM at the sort spill" "exit $rc, left: $(ls -A spill | tr '\n' ' ')$(head -c 200 err)"
	FS_BENCH_SORT_HOLD=1 timeout 20 "$FEECSCOPE" replay in.fsr --csv spilled.csv >/dev/null 2>err
	"$FEECSCOPE" replay in.fsr --csv held.csv >/dev/null 2>>err
	[ -s held.csv ] && cmp -s spilled.csv held.csv && pass "a spilled long CSV = the one held in memory" ||
		fail "spilled long CSV" "differs from the one held in memory: $(head -c 200 err)"
else
	echo "     (no shared-object build here, or a static $FEECSCOPE: the spill signal check skipped)"
fi
finish
