#!/usr/bin/env bash
# Outputs written as root never follow a link planted in a shared directory
# (issue 33): a name that is a symbolic link to what is not a regular file is
# refused (exit 2, one line naming the link and its target, nothing written,
# no temporary file left); a link to a regular file is replaced, its target
# untouched; a FIFO or /dev/null named directly is written in place, and the
# names of the process's own descriptors (-, /dev/stdout, /dev/fd/N) write
# to that descriptor. The links are made in this suite's own directory, so
# fs.protected_symlinks does not decide anything here.
. "$(dirname "$0")/../lib.sh"
F=$(realpath "$FS_FIXTURES/replay")
FEECSCOPE=$(realpath "$FEECSCOPE")
cd "$TMP" || exit 1
cp "$F/pixel4.csv" in.csv
"$FEECSCOPE" replay in.csv --em pixel4 --convert-record in.fsr >/dev/null 2>&1
mkfifo fifo
ln -s fifo link.out
ln -s /dev/null null.link
mkdir adir
ln -s adir dir.link

# no_tmp: no temporary output name is left in this directory
no_tmp() { [ -z "$(ls -A | grep '\.tmp$')" ]; }

# fifo_reader FILE: read the FIFO into FILE in the background, for at most 10 s
fifo_reader() { timeout 10 cat fifo >"$1" & reader=$!; }
# fifo_end: end the reader (a writer that writes nothing gives it its EOF), then wait for it
fifo_end() { timeout 2 bash -c ': >fifo' 2>/dev/null; wait $reader 2>/dev/null; }

# --- a link to a FIFO, a device or a directory: refused, nothing written -----
for cmd in "replay in.fsr --csv" "replay in.fsr --csv-layout wide --csv" "replay in.fsr --json" \
	"replay in.fsr --summary" "replay in.fsr --perfetto" "replay in.fsr --convert-csv" \
	"replay in.csv --em pixel4 --convert-record" "report in.fsr --json" "report in.fsr --csv" \
	"em --em pixel4 --save" "live -d 1 --record" "live -d 1 --csv" "live -d 1 --perfetto"; do
	fifo_reader got.fifo
	# shellcheck disable=SC2086 # the command's words
	"$FEECSCOPE" $cmd link.out >out 2>err
	rc=$?
	fifo_end
	opt=$(echo "$cmd" | awk '{ print $NF }')
	[ $rc -eq 2 ] && [ "$(wc -l <err)" -le 2 ] &&
		grep -Eq "^feecscope [a-z]+: $opt link.out: a symbolic link to fifo \(a FIFO\): not followed, nothing written$" err &&
		[ ! -s got.fifo ] && [ ! -s out ] && no_tmp && [ -p fifo ] && [ -L link.out ] &&
		pass "$cmd LINK-TO-FIFO: exit 2 naming the link and its target, the FIFO gets nothing" ||
		fail "$cmd LINK-TO-FIFO" "exit $rc, $(wc -c <got.fifo) bytes in the FIFO: $(head -c 300 err)"
done
"$FEECSCOPE" replay in.fsr --csv null.link >out 2>err
rc=$?
[ $rc -eq 2 ] && grep -q '^feecscope replay: --csv null.link: a symbolic link to /dev/null (a character device): not followed' err &&
	pass "a link to /dev/null is refused too (exit 2)" || fail "link to /dev/null" "exit $rc: $(head -c 300 err)"
"$FEECSCOPE" replay in.fsr --json dir.link >out 2>err
rc=$?
[ $rc -eq 2 ] && grep -q '^feecscope replay: --json dir.link: a symbolic link to adir (a directory): not followed' err &&
	[ -z "$(ls -A adir)" ] && pass "a link to a directory is refused (exit 2)" || fail "link to a directory" "exit $rc: $(head -c 300 err)"
# refused before anything is written: an output named before the bad one is not created either
"$FEECSCOPE" replay in.fsr --csv first.csv --json link.out >out 2>err
rc=$?
[ $rc -eq 2 ] && [ ! -e first.csv ] && no_tmp && pass "an output before the refused one is not written" ||
	fail "other outputs after a refusal" "exit $rc: $(ls -A | tr '\n' ' ')"

# --- a FIFO, /dev/null, stdout named directly: written in place ----------------
"$FEECSCOPE" replay in.fsr --csv file.csv >/dev/null 2>&1
fifo_reader got.fifo
"$FEECSCOPE" replay in.fsr --csv fifo >/dev/null 2>err
rc=$?
wait $reader
[ $rc -eq 0 ] && cmp -s got.fifo file.csv && pass "a FIFO named directly gets the output" ||
	fail "direct FIFO" "exit $rc, $(wc -c <got.fifo) bytes: $(head -c 300 err)"
check "/dev/null takes every output" "$FEECSCOPE" replay in.fsr --csv /dev/null --json /dev/null \
	--summary /dev/null --perfetto /dev/null
check "em --save /dev/null" "$FEECSCOPE" em --em pixel4 --save /dev/null
[ -c /dev/null ] && pass "/dev/null is still a character device" || fail "/dev/null" "$(ls -l /dev/null)"
"$FEECSCOPE" replay in.fsr --json /dev/stdout >std.json 2>err
rc=$?
[ $rc -eq 0 ] && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' std.json && [ -L /dev/stdout ] &&
	pass "--json /dev/stdout writes to stdout (a regular file here), /dev/stdout stays a link" ||
	fail "--json /dev/stdout" "exit $rc: $(head -c 300 err)"
"$FEECSCOPE" replay in.fsr --csv >(cat >subst.csv) >/dev/null 2>err
rc=$?
sleep 0.5
[ $rc -eq 0 ] && cmp -s subst.csv file.csv && pass "--csv >(command): the pipe gets the CSV" ||
	fail "--csv >(command)" "exit $rc: $(head -c 300 err)"

# --- a link to a regular file: replaced by a regular file, its target untouched
echo "the target" >target.txt
for cmd in "replay in.fsr --csv" "replay in.fsr --json" "replay in.fsr --perfetto" \
	"replay in.csv --em pixel4 --convert-record" "report in.fsr --csv" "em --em pixel4 --save"; do
	rm -f reg.link; ln -s target.txt reg.link
	# shellcheck disable=SC2086 # the command's words
	"$FEECSCOPE" $cmd reg.link >/dev/null 2>err
	rc=$?
	[ $rc -eq 0 ] && [ -f reg.link ] && [ ! -L reg.link ] && [ -s reg.link ] &&
		[ "$(cat target.txt)" = "the target" ] && no_tmp &&
		pass "$cmd LINK-TO-FILE: the link replaced by a regular file, its target untouched" ||
		fail "$cmd LINK-TO-FILE" "exit $rc: $(head -c 300 err)"
done
rm -f dangling.link; ln -s nowhere.txt dangling.link
"$FEECSCOPE" replay in.fsr --csv dangling.link >/dev/null 2>err
rc=$?
[ $rc -eq 0 ] && [ -f dangling.link ] && [ ! -L dangling.link ] && [ ! -e nowhere.txt ] &&
	pass "a dangling link is replaced; nothing is created where it pointed" ||
	fail "dangling link" "exit $rc: $(head -c 300 err)"
"$FEECSCOPE" replay in.csv --em pixel4 --convert-record rec.fsr.gz >/dev/null 2>err
check "--convert-record to a .gz name writes a recording (not gzip) that replays" \
	"$FEECSCOPE" replay rec.fsr.gz
finish
