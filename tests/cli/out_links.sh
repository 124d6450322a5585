#!/usr/bin/env bash
# Outputs written as root never follow a link planted in a shared directory
# (issue 33), for every output option of replay, report, em and live:
#  - a name that is a symbolic link to what is not a regular file (a FIFO,
#    /dev/null, a directory, through a chain of links) is refused: exit 2,
#    one line naming the link and its target, nothing written anywhere, no
#    temporary file left; so is a directory named directly;
#  - a link to a regular file, or a dangling one, is replaced by a regular
#    file, and the link's target is untouched (or not created);
#  - a FIFO or /dev/null named directly gets the output, byte for byte what
#    a regular file gets; '-', /dev/stdout and >(command) write to that
#    descriptor;
#  - no temporary name is left when a later output cannot be opened, nor when
#    a signal ends the process (SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGALRM,
#    SIGUSR1, SIGXFSZ); an ignored signal stays ignored.
# FIFOs are read by a background reader with a timeout and every command that
# may block on one runs under a timeout, so a wrong implementation fails here
# rather than hangs. The links are made in this suite's own directory, so
# fs.protected_symlinks decides nothing. live is run only where it refuses
# before loading anything (tests/live/ writes its files for real).
. "$(dirname "$0")/../lib.sh"
out_inputs
mkfifo fifo
ln -s fifo link.out
ln -s link.out chain.link
ln -s /dev/null null.link
mkdir adir sub
ln -s adir dir.link
ln -s ../fifo sub/up.link

# fs CMD...: feecscope under a timeout (a wrong open of a FIFO blocks)
fs() { timeout 20 "$FEECSCOPE" "$@"; }
# no_tmp: no temporary output name is left in this directory or sub/
no_tmp() { ! compgen -G '.*.tmp' >/dev/null && ! compgen -G 'sub/.*.tmp' >/dev/null; }
# fifo_reader FILE: read the FIFO into FILE in the background, for at most 10 s
fifo_reader() { timeout 10 cat fifo >"$1" & reader=$!; }
# fifo_end: end the reader (a writer that writes nothing gives it its EOF), then wait for it
fifo_end() { timeout 2 bash -c ': >fifo' 2>/dev/null; wait $reader 2>/dev/null; }
# one_line FILE RE: FILE holds one message (wrapped at 80 columns) and it matches RE
one_line() { [ "$(unwrap "$1" | wc -l)" -eq 1 ] && unwrap "$1" | grep -Eq "$2" && ! grep -q '.\{81\}' "$1"; }

# Every output option (the path follows the option).
CMDS=("replay in.fsr --csv" "replay in.fsr --csv-layout wide --csv" "replay in.fsr --json"
	"replay in.fsr --summary" "replay in.fsr --perfetto" "replay in.fsr --workload-csv"
	"replay in.fsr --convert-csv"
	"replay in.csv --em pixel4 --convert-record" "report in.fsr --json" "report in.fsr --csv"
	"em --em pixel4 --save")
LIVE=("live -d 1 --record" "live -d 1 --csv" "live -d 1 --json" "live -d 1 --summary" "live -d 1 --perfetto"
	"live -d 1 --workload-csv")

# --- a link to a FIFO: refused, the FIFO receives nothing ----------------------
ln -s fifo gz.link.gz # a .gz name goes through the same opener
for cmd in "${CMDS[@]}" "${LIVE[@]}" "replay in.fsr --json GZ"; do
	name=link.out
	[ "${cmd% GZ}" != "$cmd" ] && { cmd=${cmd% GZ}; name=gz.link.gz; }
	fifo_reader got.fifo
	# shellcheck disable=SC2086 # the command's words
	fs $cmd $name >out 2>err
	rc=$?
	fifo_end
	opt=$(echo "$cmd" | awk '{ print $NF }')
	one_line err "^feecscope [a-z]+: $opt $name: a symbolic link to fifo \(a FIFO\): not followed, nothing written$" &&
		[ $rc -eq 2 ] && [ ! -s got.fifo ] && [ ! -s out ] && no_tmp && [ -p fifo ] && [ -L $name ] &&
		pass "$cmd $name (LINK TO A FIFO): exit 2, one line naming link and target, FIFO gets nothing" ||
		fail "$cmd $name (LINK TO A FIFO)" "exit $rc, $(wc -c <got.fifo) bytes in the FIFO: $(head -c 300 err)"
done

# --- other links to what is not a regular file ---------------------------------
fifo_reader got.fifo
fs replay in.fsr --csv chain.link >out 2>err
rc=$?
fifo_end
[ $rc -eq 2 ] && one_line err '^feecscope replay: --csv chain.link: a symbolic link to link.out \(a FIFO\): not followed' &&
	[ ! -s got.fifo ] && no_tmp && pass "a chain of links to a FIFO is refused, the FIFO gets nothing" ||
	fail "chain of links" "exit $rc, $(wc -c <got.fifo) bytes: $(head -c 300 err)"
fifo_reader got.fifo
fs replay in.fsr --json sub/up.link >out 2>err
rc=$?
fifo_end
[ $rc -eq 2 ] && one_line err '^feecscope replay: --json sub/up.link: a symbolic link to \.\./fifo \(a FIFO\): not followed' &&
	[ ! -s got.fifo ] && no_tmp && pass "a link in another directory to a FIFO is refused" ||
	fail "link in sub/" "exit $rc, $(wc -c <got.fifo) bytes: $(head -c 300 err)"
for cmd in "replay in.fsr --csv" "replay in.fsr --json" "replay in.fsr --perfetto" \
	"replay in.csv --em pixel4 --convert-record" "em --em pixel4 --save" "report in.fsr --json" \
	"live -d 1 --record"; do
	# shellcheck disable=SC2086 # the command's words
	fs $cmd null.link >out 2>err
	rc=$?
	opt=$(echo "$cmd" | awk '{ print $NF }')
	[ $rc -eq 2 ] && one_line err "^feecscope [a-z]+: $opt null.link: a symbolic link to /dev/null \(a character device\): not followed" &&
		[ -L null.link ] && [ -c /dev/null ] && no_tmp && pass "$cmd: a link to /dev/null is refused (exit 2)" ||
		fail "$cmd: link to /dev/null" "exit $rc: $(head -c 300 err)"
done
fs replay in.fsr --json dir.link >out 2>err
rc=$?
[ $rc -eq 2 ] && one_line err '^feecscope replay: --json dir.link: a symbolic link to adir \(a directory\): not followed' &&
	[ -z "$(ls -A adir)" ] && pass "a link to a directory is refused (exit 2), nothing written in it" ||
	fail "link to a directory" "exit $rc: $(head -c 300 err)"
# A directory named directly is the same usage error as a link to one: exit 2, one line
# naming it, refused before anything is written (it was exit 1, from the failed open).
for cmd in "${CMDS[@]}" "${LIVE[@]}"; do
	opt=$(echo "$cmd" | awk '{ print $NF }')
	for name in adir dir.link; do
		# shellcheck disable=SC2086 # the command's words
		fs $cmd $name >out 2>err
		rc=$?
		want="^feecscope [a-z]+: $opt $name: a directory, not a file: nothing written$"
		[ $name = dir.link ] && want="^feecscope [a-z]+: $opt $name: a symbolic link to adir \(a directory\): not followed"
		[ $rc -eq 2 ] && one_line err "$want" && [ -z "$(ls -A adir)" ] && [ ! -s out ] && no_tmp ||
			{ fail "$cmd $name (A DIRECTORY)" "exit $rc: $(head -c 300 err)"; continue 2; }
	done
	pass "$cmd: a directory, named or through a link, is refused alike (exit 2, one line)"
done
# refused before anything is written: an output named before the refused one is not created
fifo_reader got.fifo
fs replay in.fsr --csv first.csv --json link.out --perfetto last.pftrace >out 2>err
rc=$?
fifo_end
[ $rc -eq 2 ] && [ ! -e first.csv ] && [ ! -e last.pftrace ] && [ ! -s got.fifo ] && no_tmp &&
	pass "the other outputs of a refused run are not written either" ||
	fail "other outputs after a refusal" "exit $rc: $(ls -A | tr '\n' ' ')"

# --- a FIFO, /dev/null, stdout named directly: written in place ----------------
for cmd in "${CMDS[@]}"; do
	rm -f file.out
	# shellcheck disable=SC2086 # the command's words
	fs $cmd file.out >/dev/null 2>&1
	fifo_reader got.fifo
	# shellcheck disable=SC2086
	fs $cmd fifo >/dev/null 2>err
	rc=$?
	wait $reader
	[ $rc -eq 0 ] && [ -s file.out ] && cmp -s got.fifo file.out && [ -p fifo ] && no_tmp &&
		pass "$cmd fifo (A FIFO NAMED DIRECTLY): gets the bytes a file gets" ||
		fail "$cmd fifo (direct FIFO)" "exit $rc, $(wc -c <got.fifo) bytes vs $(wc -c <file.out): $(head -c 300 err)"
	# shellcheck disable=SC2086
	fs $cmd /dev/null >/dev/null 2>err
	rc=$?
	[ $rc -eq 0 ] && [ -c /dev/null ] && pass "$cmd /dev/null: written, still a character device" ||
		fail "$cmd /dev/null" "exit $rc: $(head -c 300 err)"
	# shellcheck disable=SC2086
	fs $cmd - >dash.out 2>err
	rc=$?
	[ $rc -eq 0 ] && cmp -s dash.out file.out && [ ! -e ./- ] && pass "$cmd -: stdout gets the bytes a file gets" ||
		fail "$cmd -" "exit $rc: $(head -c 300 err)"
done
fs replay in.fsr --csv file.csv >/dev/null 2>&1
fifo_reader got.fifo
fs replay in.fsr --csv fifo --json /dev/null --summary /dev/null --perfetto /dev/null >/dev/null 2>err
rc=$?
wait $reader
[ $rc -eq 0 ] && cmp -s got.fifo file.csv && pass "a FIFO and /dev/null in one run" ||
	fail "FIFO with /dev/null" "exit $rc: $(head -c 300 err)"
fs replay in.fsr --json /dev/stdout >std.json 2>err
rc=$?
[ $rc -eq 0 ] && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' std.json && [ -L /dev/stdout ] &&
	pass "--json /dev/stdout writes to stdout (a regular file here), /dev/stdout stays a link" ||
	fail "--json /dev/stdout" "exit $rc: $(head -c 300 err)"
fs replay in.fsr --csv >(cat >subst.csv) >/dev/null 2>err
rc=$?
for _ in $(seq 50); do cmp -s subst.csv file.csv && break; sleep 0.1; done # cat ends on its own time
[ $rc -eq 0 ] && cmp -s subst.csv file.csv && pass "--csv >(command): the pipe gets the CSV" ||
	fail "--csv >(command)" "exit $rc: $(head -c 300 err)"

# --- a link to a regular file, or to nothing: replaced, the target untouched ---
echo "the target" >target.txt
for cmd in "${CMDS[@]}"; do
	rm -f reg.link dangling.link nowhere.txt
	ln -s target.txt reg.link
	ln -s nowhere.txt dangling.link
	# shellcheck disable=SC2086 # the command's words
	fs $cmd reg.link >/dev/null 2>err
	rc=$?
	[ $rc -eq 0 ] && [ -f reg.link ] && [ ! -L reg.link ] && [ -s reg.link ] &&
		[ "$(cat target.txt)" = "the target" ] && no_tmp &&
		pass "$cmd reg.link (LINK TO A FILE): replaced by a regular file, its target untouched" ||
		fail "$cmd reg.link (LINK TO A FILE)" "exit $rc: $(head -c 300 err)"
	# shellcheck disable=SC2086
	fs $cmd dangling.link >/dev/null 2>err
	rc=$?
	[ $rc -eq 0 ] && [ -f dangling.link ] && [ ! -L dangling.link ] && [ -s dangling.link ] &&
		[ ! -e nowhere.txt ] && no_tmp &&
		pass "$cmd dangling.link: replaced by a regular file, nothing created where it pointed" ||
		fail "$cmd dangling.link" "exit $rc: $(head -c 300 err)"
done

# --- no temporary name left when a later output fails ---------------------------
fs replay in.fsr --csv made.csv --json nodir/x.json >/dev/null 2>err
rc=$?
[ $rc -ne 0 ] && [ ! -e made.csv ] && no_tmp && grep -q 'nodir/x.json: cannot create' err &&
	pass "an output that cannot be created: the one opened before it leaves no temporary file" ||
	fail "later output fails" "exit $rc: $(ls -A | tr '\n' ' ') $(head -c 200 err)"

# --- ... nor when a signal ends the process ---------------------------------------
# --csv's temporary file is created, then the --json FIFO's open blocks (no reader):
# the signal comes while the temporary file exists.
# blocked_run SIG [ignore]: start that run (SIGINT back to its default action, as an
# interactive shell leaves it; "ignore": SIG ignored, as nohup does; an alarm, kept
# across exec, ends it in 20 s if nothing else does), wait for its temporary file,
# send SIG; pid in $run
blocked_run() {
	rm -f sig.csv .sig.csv.*.tmp # one a wrong implementation left would be taken for this run's
	python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
# the signal under test at its default action unless ignored on purpose: a run
# under nohup (SIGHUP ignored) must not decide this test
signal.signal(getattr(signal, "SIG" + sys.argv[2]), signal.SIG_IGN if sys.argv[1] == "ignore" else signal.SIG_DFL)
signal.alarm(20)
os.execv(sys.argv[3], sys.argv[3:])' "${2:-keep}" "$1" \
		"$FEECSCOPE" replay in.fsr --csv sig.csv --json fifo >/dev/null 2>sig.err &
	run=$!
	for _ in $(seq 100); do compgen -G '.sig.csv.*.tmp' >/dev/null && break; sleep 0.1; done
	compgen -G '.sig.csv.*.tmp' >/dev/null || fail "SIG$1 run" "no temporary file seen in 10 s: nothing to remove"
	kill -"$1" $run
}
ulimit -c 0 # SIGQUIT and SIGXFSZ dump a core by default: none here
# Ctrl-C, kill, a closed terminal, Ctrl-\, an alarm left by a parent, a
# user's signal, ulimit -f: each ends the process by default
for sig in TERM INT HUP QUIT ALRM USR1 XFSZ; do
	blocked_run $sig
	wait $run 2>/dev/null
	rc=$?
	want=$((128 + $(kill -l $sig)))
	[ $rc -eq $want ] && [ ! -e sig.csv ] && no_tmp &&
		pass "SIG$sig while a temporary file exists: it is removed, the process ends by SIG$sig" ||
		fail "SIG$sig" "exit $rc (want $want): $(ls -A | tr '\n' ' ') $(head -c 200 sig.err)"
done
blocked_run HUP ignore
fifo_reader got.fifo
wait $run 2>/dev/null
rc=$?
wait $reader
[ $rc -eq 0 ] && [ -s sig.csv ] && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' got.fifo && no_tmp &&
	pass "an ignored SIGHUP stays ignored: the run completes its files" ||
	fail "ignored SIGHUP" "exit $rc: $(head -c 200 sig.err)"

"$FEECSCOPE" replay in.csv --em pixel4 --convert-record rec.fsr.gz >/dev/null 2>err
check "--convert-record to a .gz name writes a recording (not gzip) that replays" \
	"$FEECSCOPE" replay rec.fsr.gz
finish
