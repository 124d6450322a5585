#!/usr/bin/env bash
# Inputs are never overwritten (issue 14): every output is checked against
# every input and other output before anything is written (exit 2); outputs
# appear under their name complete or not at all; pipes read like files;
# a full disk is a clear error (exit 1) that leaves what was there intact.
. "$(dirname "$0")/../lib.sh"
F=$(realpath "$FS_FIXTURES/replay")
cd "$TMP" || exit 1
cp "$F/pixel4.csv" in.csv
sum0=$(md5sum <in.csv)
"$FEECSCOPE" replay in.csv --em pixel4 --convert-record in.fsr >/dev/null 2>&1
rsum0=$(md5sum <in.fsr)
"$FEECSCOPE" em --em pixel4 --save in.em
esum0=$(md5sum <in.em)
ln in.csv hard.csv; ln -s in.csv soft.csv; mkdir sub

# expect_usage NAME REGEX CMD...: CMD must exit 2 and print REGEX.
expect_usage() {
	local n=$1 re=$2; shift 2
	"$@" >out 2>&1; local rc=$?
	if [ $rc -ne 2 ]; then fail "$n" "exit $rc, want 2: $(head -c 200 out)"
	elif ! unwrap out | grep -Eq -e "$re"; then fail "$n" "message lacks /$re/: $(head -c 200 out)"
	else pass "$n"; fi
}
expect_usage "replay IN --csv IN" '^feecscope replay: --csv in.csv: the input FILE: not overwritten$' \
	"$FEECSCOPE" replay in.csv --em pixel4 --csv in.csv
expect_usage "replay --convert-csv onto the input (other spelling)" \
	'^feecscope replay: --convert-csv sub/../in.csv: the input FILE \(in.csv\): not overwritten$' \
	"$FEECSCOPE" replay in.csv --em pixel4 --convert-csv sub/../in.csv
expect_usage "replay --convert-record onto the input" '--convert-record in.fsr: the input FILE' \
	"$FEECSCOPE" replay in.fsr --convert-record in.fsr
expect_usage "replay --json onto a hard link of the input" '--json hard.csv: the input FILE \(in.csv\)' \
	"$FEECSCOPE" replay in.csv --em pixel4 --json hard.csv
expect_usage "replay --summary onto a symbolic link of the input" '--summary soft.csv: the input FILE' \
	"$FEECSCOPE" replay in.csv --em pixel4 --summary soft.csv
expect_usage "replay --csv onto the --em file" '--csv in.em: the input --em' \
	"$FEECSCOPE" replay in.csv --em in.em --csv in.em
expect_usage "replay two outputs on one new file" '^feecscope replay: --json new.out: the same file as --csv$' \
	"$FEECSCOPE" replay in.csv --em pixel4 --csv new.out --json new.out
expect_usage "replay --perfetto onto the input" '^feecscope replay: --perfetto ./in.fsr: the input FILE \(in.fsr\): not overwritten$' \
	"$FEECSCOPE" replay in.fsr --perfetto ./in.fsr
expect_usage "report --json onto a recording it reads" '^feecscope report: --json in.fsr: the input RECORDING: not overwritten$' \
	"$FEECSCOPE" report in.fsr --json in.fsr
expect_usage "em --save onto its --em file" '^feecscope em: --save ./in.em: the input --em \(in.em\): not overwritten$' \
	"$FEECSCOPE" em --em in.em --save ./in.em
expect_usage "replay --csv-layout long --csv onto the input" '^feecscope replay: --csv in.fsr: the input FILE' \
	"$FEECSCOPE" replay in.fsr --csv-layout long --csv in.fsr
expect_usage "report --csv onto a recording it reads" '^feecscope report: --csv ./in.fsr: the input RECORDING' \
	"$FEECSCOPE" report in.fsr --csv ./in.fsr
expect_usage "report --json and --csv on one file" '^feecscope report: --csv new.out: the same file as --json$' \
	"$FEECSCOPE" report in.fsr --json new.out --csv new.out
# live checks its paths before it needs privileges or loads anything
expect_usage "live --csv X --record X" '^feecscope live: --csv X: the same file as --record$' \
	"$FEECSCOPE" live --csv X --record X -d 1
expect_usage "live --perfetto onto its --em file" '^feecscope live: --perfetto in.em: the input --em' \
	"$FEECSCOPE" live --em in.em --perfetto in.em -d 1
expect_usage "live --summary onto its --em file" '--summary in.em: the input --em' \
	"$FEECSCOPE" live --em in.em --summary in.em -d 1
[ "$(md5sum <in.csv)" = "$sum0" ] && [ "$(md5sum <in.fsr)" = "$rsum0" ] && [ "$(md5sum <in.em)" = "$esum0" ] &&
	pass "every input is as it was" || fail "inputs intact" "an input changed"
[ ! -e X ] && [ ! -e new.out ] && pass "no output created by a refused command" || fail "refused outputs" "$(ls)"

# --- outputs appear complete or not at all -----------------------------------
echo old >out.csv
"$FEECSCOPE" replay in.csv --em pixel4 --csv out.csv >sum.txt 2>err.txt
check "replay --csv replaces an existing file" grep -q '^seq,' out.csv
[ -z "$(ls -A | grep '\.tmp$')" ] && pass "no temporary file left" || fail "temporary files" "$(ls -A)"
# each output is a new file renamed over the old one: a hard link to the old keeps it
for cmd in "replay in.fsr --csv-layout wide --csv" "replay in.fsr --csv-layout long --csv" \
	"replay in.fsr --summary" "replay in.fsr --json" "replay in.fsr --perfetto" \
	"replay in.fsr --convert-csv" "replay in.csv --em pixel4 --convert-record" \
	"report in.fsr --json" "report in.fsr --csv" "em --em pixel4 --save"; do
	echo old >o.out; rm -f o.link; ln o.out o.link
	# shellcheck disable=SC2086 # the command's words
	"$FEECSCOPE" $cmd o.out >/dev/null 2>o.err
	rc=$?
	[ $rc -eq 0 ] && [ "$(cat o.link)" = old ] && [ -s o.out ] && [ "$(head -c 4 o.out)" != old ] &&
		[ -z "$(ls -A | grep '\.tmp$')" ] && pass "$cmd: renamed into place" ||
		fail "$cmd: renamed into place" "exit $rc: $(head -c 200 o.err)"
done
expect_fail "a write that fails is an error naming the file (exit 1)" \
	'^feecscope replay: /dev/full: write failed: No space left on device$' \
	"$FEECSCOPE" replay in.csv --em pixel4 --convert-csv /dev/full
"$FEECSCOPE" replay in.csv --em pixel4 --convert-csv /dev/full >/dev/null 2>&1
rc=$?
[ $rc -eq 1 ] && pass "  ... with exit code 1" || fail "write failure exit code" "$rc"
# a damaged recording converts up to its last complete chunk, exit 1, the file complete
head -c 5000 in.fsr >cut.fsr
"$FEECSCOPE" replay cut.fsr --convert-csv cut.csv >/dev/null 2>cut.err
rc=$?
[ $rc -eq 1 ] && grep -q 'cut.fsr: chunk 1 at byte' cut.err && pass "damaged input: exit 1 naming the chunk" ||
	fail "damaged input" "exit $rc: $(cat cut.err)"
check "  ... and what converted reads back" "$FEECSCOPE" replay cut.csv --em pixel4

# --- pipes read like files -------------------------------------------------------
"$FEECSCOPE" replay in.csv --em pixel4 >file.sum 2>/dev/null
cat in.csv | "$FEECSCOPE" replay - --em pixel4 >pipe.sum 2>pipe.err
expect_same "records CSV from a pipe (-) replays like the file" file.sum pipe.sum
"$FEECSCOPE" replay in.fsr --convert-csv full.csv
"$FEECSCOPE" replay full.csv >file2.sum 2>/dev/null
cat full.csv | "$FEECSCOPE" replay /dev/stdin >pipe2.sum 2>/dev/null
expect_same "records CSV with '# em:' lines from /dev/stdin" file2.sum pipe2.sum
"$FEECSCOPE" replay in.fsr >file3.sum 2>/dev/null
"$FEECSCOPE" replay <(cat in.fsr) >pipe3.sum 2>/dev/null
expect_same "recording from a process substitution" file3.sum pipe3.sum
check "a saved EM from a pipe" bash -c "cat in.em | '$FEECSCOPE' em --em /dev/stdin --check"
expect_fail "errors name the pipe as given" '^feecscope replay: -:9: column 2 \(ts_ns\)' \
	bash -c "(head -8 in.csv; echo wakeup,zz) | '$FEECSCOPE' replay - --em pixel4"

# --- a full disk (root: a 64 KiB tmpfs) ------------------------------------------
if [ "$(id -u)" -eq 0 ] && mkdir full && mount -t tmpfs -o size=64k tmpfs full 2>/dev/null; then
	echo "an older file" >full/out.csv
	dd if=/dev/zero of=full/filler bs=4k 2>/dev/null # until the disk is full
	"$FEECSCOPE" replay in.fsr --convert-csv full/out.csv >/dev/null 2>full.err
	rc=$?
	[ $rc -eq 1 ] && grep -q '^feecscope replay: full/out.csv: write failed: No space left on device$' full.err &&
		pass "full disk: --convert-csv exits 1 naming the file" || fail "full disk --convert-csv" "exit $rc: $(cat full.err)"
	[ "$(cat full/out.csv)" = "an older file" ] && pass "  ... the older file is intact" ||
		fail "full disk: older file" "$(head -c 100 full/out.csv)"
	[ "$(ls -A full | sort | tr '\n' ' ')" = "filler out.csv " ] && pass "  ... no temporary file left" ||
		fail "full disk: leftovers" "$(ls -A full)"
	"$FEECSCOPE" replay in.fsr --csv full/dec.csv >/dev/null 2>full2.err
	rc=$?
	[ $rc -eq 1 ] && grep -q 'full/dec.csv: write' full2.err && [ ! -e full/dec.csv ] &&
		pass "full disk: replay --csv exits 1, no partial file" || fail "full disk --csv" "exit $rc: $(cat full2.err)"
	"$FEECSCOPE" replay in.csv --em pixel4 --convert-record full/r.fsr >/dev/null 2>full3.err
	rc=$?
	[ $rc -eq 1 ] && [ ! -e full/r.fsr ] && pass "full disk: --convert-record exits 1, no partial file" ||
		fail "full disk --convert-record" "exit $rc: $(cat full3.err)"
	# every other output the same way: exit 1 naming it, the older file intact, nothing left
	umount full && mount -t tmpfs -o size=64k tmpfs full
	echo "an older file" >full/old.out
	dd if=/dev/zero of=full/filler bs=4k 2>/dev/null
	for cmd in "replay in.fsr --csv-layout wide --csv" "replay in.fsr --csv-layout long --csv" \
		"replay in.fsr --summary" "replay in.fsr --json" "replay in.fsr --perfetto" \
		"report in.fsr --json" "report in.fsr --csv" "em --em pixel4 --save"; do
		# shellcheck disable=SC2086 # the command's words
		"$FEECSCOPE" $cmd full/old.out >/dev/null 2>full4.err
		rc=$?
		[ $rc -eq 1 ] && grep -q '^feecscope [a-z]*: full/old.out: write.*No space left on device$' full4.err &&
			[ "$(cat full/old.out)" = "an older file" ] && [ "$(ls -A full | sort | tr '\n' ' ')" = "filler old.out " ] &&
			pass "full disk: $cmd: exit 1 naming the file, older file intact" ||
			fail "full disk: $cmd" "exit $rc: $(cat full4.err) / $(ls -A full | tr '\n' ' ')"
	done
	umount full
else
	echo "     (full-disk checks need root: skipped)"
fi
finish
