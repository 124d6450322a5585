#!/usr/bin/env bash
# Every option of every command, table-driven: the exit status (0 ok, 1 runtime
# or data error, 2 usage, 3 environment), what is printed, and for every usage
# error the same two lines: "feecscope CMD: what is wrong", then
# "try 'feecscope CMD --help'", nothing on stdout. Then what holds across the
# commands: every option in a help page has a case here, a short letter means
# the same option everywhere, help pages fit 80 columns and share one layout,
# `help CMD` is `CMD --help`, and --version, -V and `version` agree with the
# build (the BPF object's sha256). `live` cases that load BPF need root.
. "$(dirname "$0")/../lib.sh"
F=$FS_FIXTURES/replay
"$FEECSCOPE" replay "$F/pixel4.csv" --em pixel4 --convert-record "$TMP/p4.fsr" >/dev/null 2>&1
ROOT=0; [ "$(id -u)" -eq 0 ] && ROOT=1
MORE_CPUS=hikey960 # a profile with more CPUs than this machine, for live's EM size check
[ "$(nproc)" -ge 8 ] && MORE_CPUS=
# a workload for the live filter cases, afresh for each (it runs 8 s; live's start-up takes seconds here)
JSON=$(cd "$(dirname "$0")/../live" && pwd)/rtapp_duty.json
WORK=
work() {
	[ -n "$WORK" ] && { kill "$WORK" 2>/dev/null; wait "$WORK" 2>/dev/null; }
	(cd "$TMP" && exec rt-app "$JSON" >rtapp.log 2>&1) &
	WORK=$!
	sleep 0.5
}
trap '[ -n "$WORK" ] && kill $WORK 2>/dev/null; wait 2>/dev/null; rm -rf "$TMP"' EXIT

# One case a line: CMD [ARGS] | EXIT | REGEX the output (stdout and stderr) must match.
# @REC a pixel4 recording, @CSV its records CSV (needs -e pixel4), @T a scratch
# directory, @WORK the pid of a running rt-app. Lines starting with "root" load
# BPF and run only as root.
CASES=$(cat <<'EOF'
-                                         | 2 | ^feecscope: a COMMAND is required
--help                                    | 0 | ^NAME
-h                                        | 0 | ^COMMANDS
help                                      | 0 | feecscope help \[COMMAND\]
--version                                 | 0 | ^feecscope [0-9]
-V                                        | 0 | ^bpf object:
version                                   | 0 | ^git:
version extra                             | 2 | unexpected argument 'extra'
repaly                                    | 2 | unknown command 'repaly' \(did you mean 'replay'\?\)
-x                                        | 2 | unknown option '-x'
--verison                                 | 2 | did you mean '--version'
help bogus                                | 2 | unknown command 'bogus'
help live replay                          | 2 | one COMMAND only
policies                                  | 0 | ^v6\.12 
policies -r 6.1.0-13-arm64                | 0 | ^v6\.1[[:space:]]
policies --release 5.4                    | 0 | ^v5\.4[[:space:]]
policies -r garbage                       | 2 | --release 'garbage': expected MAJOR\.MINOR
policies -r                               | 2 | option '-r' needs a value \(RELEASE\)
policies --relase 6.1                     | 2 | did you mean '--release'
policies extra                            | 2 | unexpected argument 'extra'
policies -h                               | 0 | ^SYNOPSIS
policies --help                           | 0 | ^EXIT STATUS
em -e hikey960                            | 0 | pd0: cpus 0-3, capacity 462
em --em nexus5                            | 1 | no such built-in profile
em -e ../em/v6.1-lab -r 6.1.0             | 0 | kernel: *6\.1\.0
em -e ../em/v6.1-lab --release 6.1.0      | 0 | kernel: *6\.1\.0
em -e ../em/v6.1-lab --kernel 6.1.0       | 0 | kernel: *6\.1\.0
em -e hikey960 -r garbage                 | 2 | --release 'garbage'
em -q -e ../em/v5.4 --cpu-capacity-dir ../em/v6.12/cpus | 0 | ^$
em -e hikey960 -s @T/h.em                 | 0 | ^$
em -e hikey960 --save -                   | 0 | ^feecscope-em 1$
em -e hikey960 -q                         | 0 | ^$
em -e hikey960 --check                    | 0 | ^$
em -e hikey960 -q -s @T/x.em              | 2 | --check and --save exclude each other
em -l                                     | 0 | ^pixel4
em --list                                 | 0 | ^rb5
em --bogus                                | 2 | unknown option '--bogus'
em -e                                     | 2 | option '-e' needs a value \(SPEC\)
em extra                                  | 2 | unexpected argument 'extra'
em -h                                     | 0 | ^PULLED TREES
em --help                                 | 0 | ^OPTIONS
replay                                    | 2 | FILE is required
replay @REC @REC                          | 2 | one FILE only
replay @REC                               | 0 | ^margin
replay @CSV -e pixel4                     | 0 | ^margin
replay @CSV --em nope                     | 1 | --em nope: 
replay @REC -P v5.4,v5.4-nomargin         | 0 | ^v5\.4-nomargin +8
replay @REC --policies v5.4,bogus         | 2 | --policies: unknown policy 'bogus'
replay @REC -P v6.12+margn                | 2 | did you mean 'v6\.12\+margin'
replay @REC -P v5.4,,v6.0                 | 2 | an empty item
replay @REC -k v6.0                       | 0 | twin v6\.0\+margin
replay @REC --kernel-policy v9            | 2 | --kernel-policy: unknown policy 'v9'
replay @REC -P v5.4 -k v6.0               | 2 | --policies and --kernel-policy exclude each other
replay @REC -p 202                        | 0 | filtered out: 10 wake-ups \(--pid 202\)
replay @REC -p 202,101                    | 0 | filtered out: 5 wake-ups \(--pid 202,101\)
replay @REC -p 202 --pid 101              | 0 | filtered out: 5 wake-ups \(--pid 202,101\)
replay @REC --pid 0                       | 2 | --pid '0': expected a positive pid
replay @REC -p 202,x                      | 2 | --pid 'x': expected a positive pid
replay @REC -c small                      | 0 | wake-ups 5 \(forks 0\)
replay @REC --comm small,render -p 404    | 0 | \(--pid 404 --comm small,render\)
replay @REC -c 1234567890123456           | 2 | longer than a task's comm
replay @REC -c nosuch                     | 1 | --comm nosuch matched no wake-up
replay @REC -c small -p 999               | 0 | warning: --pid 999 matched no wake-up
replay @REC --csv @T/d.csv                | 0 | ^margin
replay @REC -j @T/r.json                  | 0 | ^margin
replay @REC --json -                      | 0 | "schema": 2
replay @REC --summary @T/s.txt            | 0 | ^margin
replay @REC --csv @T/w.csv --csv-layout wide | 0 | ^margin
replay @REC --csv @T/l.csv.gz --csv-layout long | 0 | ^margin
replay @REC --csv-layout tall             | 2 | --csv-layout 'tall': expected long or wide
replay @REC --perfetto @T/t.pftrace       | 0 | ^margin
replay @REC --perfetto                    | 2 | option '--perfetto' needs a value \(FILE\)
replay @REC --workload-csv @T/w.csv       | 0 | ^margin
replay @REC --workload-csv                | 2 | option '--workload-csv' needs a value \(FILE\)
replay @REC --no-sim --workload-csv @T/w.csv | 2 | --workload-csv: the workload is the simulation's
replay @REC --threads                     | 0 | ^margin
replay @REC --sim-physics lab             | 0 | lab physics
replay @REC --sim-physics device          | 0 | device physics
replay @REC --sim-physics ice             | 2 | --sim-physics 'ice': expected device or lab
replay @REC --no-sim                      | 0 | not simulated: not asked for
replay @REC --sim-hz 100                  | 0 | HZ 100 \(given\)
replay @REC --sim-hz 9                    | 2 | --sim-hz '9': expected a whole number 10..10000
replay @REC --sim-rate-limit-us 10000     | 0 | rate limit 10000 us \(given\)
replay @REC --sim-rate-limit-us -1        | 2 | --sim-rate-limit-us '-1': expected a whole number
replay ../em/../view/live.fsr             | 0 | ^simulation differs from the recording
replay ../em/../view/live.fsr --em pixel4 | 0 | ^simulation, EAS emulated \(not a test of the kernel\)
replay @CSV -e pixel4 --convert-record @T/c.fsr | 0 | ^$
replay @REC --convert-csv @T/c.csv        | 0 | ^$
replay @REC --convert-csv @T/a --convert-record @T/b | 2 | exclude each other
replay @REC --bogus                       | 2 | unknown option '--bogus'
replay @REC --thread                      | 0 | ^margin
replay @REC --p 1                         | 2 | option '--p' is ambiguous \(--policies, --pid, --perfetto, --packages\)
replay @REC --packages @T/nosuch.list     | 1 | --packages .*nosuch\.list: cannot open
replay -h                                 | 0 | ^DESCRIPTION
replay --help                             | 0 | --convert-record OUT
live -d 0                                 | 2 | --duration '0': expected seconds > 0
live --duration x                         | 2 | --duration 'x'
live -i 0.01                              | 2 | --interval '0\.01': expected seconds >= 0\.05
live --ringbuf-size 3000                  | 2 | --ringbuf-size '3000': expected a power of two
live -P bogus                             | 2 | unknown policy 'bogus'
live -k bogus                             | 2 | --kernel-policy: unknown policy 'bogus'
live -p x                                 | 2 | --pid 'x'
live -c 1234567890123456                  | 2 | longer than a task's comm
live --durtion 5                          | 2 | unknown option '--durtion' \(did you mean '--duration'\?\)
live --packages                           | 2 | option '--packages' needs a value \(FILE\)
live --threads=yes                        | 2 | option '--threads' takes no value
live -d                                   | 2 | option '-d' needs a value \(SEC\)
live extra                                | 2 | unexpected argument 'extra'
live -P v5.4 -k v6.0                      | 2 | exclude each other
live --csv-layout tall                    | 2 | --csv-layout 'tall': expected long or wide
live --sim-physics x                      | 2 | --sim-physics 'x': expected device or lab
live --sim-hz 0                           | 2 | --sim-hz '0': expected a whole number 10..10000
live --sim-rate-limit-us x                | 2 | --sim-rate-limit-us 'x': expected a whole number
live --no-sim=yes                         | 2 | option '--no-sim' takes no value
live --perfetto                           | 2 | option '--perfetto' needs a value \(FILE\)
live --workload-csv                       | 2 | option '--workload-csv' needs a value \(FILE\)
live -h                                   | 0 | ^EXAMPLES
live --help                               | 0 | --ringbuf-size N
live --policies                           | 0 | ^POLICY
root live -d 1 -i 0.2                     | 0 | ^t=
root live -d 1 -w @T/l.fsr --csv @T/l.csv -j @T/l.json --summary @T/l.sum --threads | 0 | ^margin
root live --duration 1 --interval 0.5 --record @T/m.fsr | 0 | ^t=0\.5s
root live -d 1 --ringbuf-size 256K        | 0 | ^margin
root live -d 1 --raw-tp                   | 0 | collector raw_tp
root live -d 1 --btf /sys/kernel/btf/vmlinux | 0 | BTF from --btf
root live -d 1 -v                         | 0 | ^collector: sched_waking
root live -d 1 -P v6.1,v5.4               | 0 | policies \[0\] v6\.1 \[1\] v5\.4
root live -d 1 --policies v6.1            | 0 | policies \[0\] v6\.1$
root live -d 1 -k v6.0                    | 0 | \[0\] v6\.0 \[1\] v6\.0\+margin
root live -d 1 --kernel-policy v5.4       | 0 | twin v5\.4-nomargin
root live -d 1 -e hikey960-2              | 1 | --em hikey960-2: 
root live -d 1 --em @MORE                 | 1 | covers 8 CPUs; this machine has
root live -d 2 -p @WORK                   | 0 | \(--pid [0-9]+\)
root live -d 2 --pid @WORK,1              | 0 | \(--pid [0-9]+,1\)
root live -d 2 -c fsa10                   | 0 | \(--comm fsa10\)
root live -d 1 --comm nosuchtask_zz       | 1 | --comm nosuchtask_zz matched no wake-up
root live -d 1 -j -                       | 0 | "schema": 2
root live -d 1 --csv @T/lw.csv --csv-layout wide --perfetto @T/l.pftrace.gz | 0 | ^margin
report @REC @T/c.fsr                      | 0 | ^margin verdict over 2 of 2 recordings
report --mix --jobs 1 -j @T/rep.json --csv @T/rep.csv @T | 0 | ^margin verdict over
report @REC @T/l.fsr                      | 2 | recorded on 8 and 2 CPUs; --mix combines them
report --json - @REC                      | 0 | "recordings"
report --jobs 0 @REC                      | 2 | --jobs '0': expected a count from 1 to 1024
report                                    | 2 | give recordings or directories
report @T/nosuch.fsr                      | 1 | nosuch\.fsr
report --jbos 2 @REC                      | 2 | did you mean '--jobs'
report --packages @T/nosuch.list @REC     | 1 | --packages .*nosuch\.list: cannot open
report -h                                 | 0 | ^SYNOPSIS
report --help                             | 0 | --jobs N
report --em tests/fixtures/trace/hikey960-2cpu.em tests/fixtures/trace/tracefs.txt | 0 | ^margin verdict over 1 of 1
EOF
)

usage_form() { # CMD: the two lines of a usage error, stdout empty
	local cmd=$1 pre="feecscope${1:+ $1}"
	[ ! -s "$TMP/o" ] && [ "$(wc -l <"$TMP/e")" -eq 2 ] && head -n 1 "$TMP/e" | grep -q "^$pre: " &&
		[ "$(tail -n 1 "$TMP/e")" = "try '$pre --help'" ]
}
n=0
while IFS= read -r line; do
	[ -n "$line" ] || continue
	args=$(echo "$line" | cut -d'|' -f1 | sed 's/ *$//') want=$(echo "$line" | cut -d'|' -f2 | tr -d ' ')
	re=$(echo "$line" | cut -d'|' -f3- | sed 's/^ //')
	case $args in root\ *) [ $ROOT = 1 ] || continue; args=${args#root }; esac
	[ "$args" = - ] && args=""
	case $args in *@MORE*) [ -n "$MORE_CPUS" ] || continue; esac
	case $args in *@WORK*|*fsa10*) work;; esac
	args=${args//@REC/$TMP/p4.fsr}; args=${args//@CSV/$F/pixel4.csv}; args=${args//@T/$TMP}
	args=${args//@WORK/$WORK}; args=${args//@MORE/$MORE_CPUS}; args=${args//..\/em/$FS_FIXTURES/em}
	n=$((n + 1))
	# shellcheck disable=SC2086
	"$FEECSCOPE" $args >"$TMP/o" 2>"$TMP/e"
	rc=$?
	cmd=${args%% *}; case $cmd in -*|help|repaly|"") cmd="";; esac
	[ "$args" = "help live replay" ] || [ "$args" = "help bogus" ] && cmd=""
	if [ "$rc" != "$want" ]; then
		fail "feecscope $args: exit $want" "got $rc: $(head -c 300 "$TMP/e")"
	elif [ "$re" = '^$' ] && [ -s "$TMP/e" ]; then
		fail "feecscope $args: quiet" "$(head -c 200 "$TMP/e")"
	elif [ "$re" != '^$' ] && ! cat "$TMP/o" "$TMP/e" | grep -Eq -- "$re"; then
		fail "feecscope $args: output /$re/" "$(cat "$TMP/o" "$TMP/e" | head -c 300)"
	elif [ "$want" = 2 ] && ! usage_form "$cmd"; then
		fail "feecscope $args: usage error form" "$(cat "$TMP/o" "$TMP/e" | head -c 300)"
	else
		pass "feecscope $args: exit $want${re:+, /$re/}"
	fi
done <<<"$CASES"
[ $ROOT = 1 ] || echo "note: not root, the cases that load BPF were not run"

# Files the output options wrote.
check "replay --csv, -j, --summary, -w: the files are there" \
	test -s "$TMP/d.csv" -a -s "$TMP/r.json" -a -s "$TMP/s.txt" -a -s "$TMP/c.fsr" -a -s "$TMP/c.csv" -a -s "$TMP/h.em"
"$FEECSCOPE" replay "$TMP/p4.fsr" --json - >"$TMP/j.out" 2>&1
check "replay --json -: the JSON alone on stdout" python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$TMP/j.out"
if [ $ROOT = 1 ]; then
	check "live -w --csv -j --summary: the files are there" \
		test -s "$TMP/l.fsr" -a -s "$TMP/l.csv" -a -s "$TMP/l.json" -a -s "$TMP/l.sum"
fi

# Every option each help page lists has a case above; a short letter means one option.
declare -A letter=()
for cmd in live replay report em policies; do
	"$FEECSCOPE" help "$cmd" >"$TMP/h.$cmd"
	"$FEECSCOPE" "$cmd" --help >"$TMP/h2.$cmd"
	expect_same "help $cmd is $cmd --help" "$TMP/h.$cmd" "$TMP/h2.$cmd"
	awk 'length > 80 { bad++ } END { exit bad > 0 }' "$TMP/h.$cmd" && pass "$cmd --help fits 80 columns" ||
		fail "$cmd --help width" "$(awk 'length > 80' "$TMP/h.$cmd" | head -2)"
	[ "$(grep -E '^[A-Z][A-Z ]+$' "$TMP/h.$cmd" | grep -Ev '^PULLED TREES$' | tr '\n' ' ')" = \
		"NAME SYNOPSIS DESCRIPTION OPTIONS EXIT STATUS EXAMPLES " ] &&
		pass "$cmd --help: NAME SYNOPSIS DESCRIPTION OPTIONS EXIT STATUS EXAMPLES" ||
		fail "$cmd --help sections" "$(grep -E '^[A-Z][A-Z ]+$' "$TMP/h.$cmd" | tr '\n' ' ')"
	missing=""
	while read -r short long; do
		# the option must appear in a case of this command
		echo "$CASES" | grep -E "^(root )?$cmd .*(--$long|-${short:-NONE})( |$|=)" >/dev/null || missing="$missing --$long"
		if [ -n "$short" ]; then
			if [ -n "${letter[$short]:-}" ] && [ "${letter[$short]}" != "$long" ]; then
				fail "-$short means one option" "--${letter[$short]} elsewhere, --$long in $cmd"
			fi
			letter[$short]=$long
		fi
	done < <(sed -nE 's/^    -(.), --([a-z-]+).*/\1 \2/p; s/^        --([a-z-]+).*/ \1/p' "$TMP/h.$cmd" |
		awk 'NF == 1 { print "", $1; next } { print }')
	[ -z "$missing" ] && pass "$cmd: every option of its help page has a case" || fail "$cmd: options without a case" "$missing"
done
pass "short letters: $(for k in "${!letter[@]}"; do printf -- '-%s=--%s ' "$k" "${letter[$k]}"; done | tr ' ' '\n' | sort | tr '\n' ' ')"
"$FEECSCOPE" --help >"$TMP/top"
awk 'length > 80 { bad++ } END { exit bad > 0 }' "$TMP/top" && pass "feecscope --help fits 80 columns" || fail "top help width"
for cmd in live replay report em policies; do
	diff <(sed -n '/^EXIT STATUS$/,/^$/p' "$TMP/top") <(sed -n '/^EXIT STATUS$/,/^$/p' "$TMP/h.$cmd") >/dev/null &&
		pass "$cmd --help: the same exit-status table as every command" || fail "$cmd: exit-status table differs"
done

# The version, three ways, says what was built.
"$FEECSCOPE" --version >"$TMP/v1"; "$FEECSCOPE" -V >"$TMP/v2"; "$FEECSCOPE" version >"$TMP/v3"
expect_same "--version is -V" "$TMP/v1" "$TMP/v2"
expect_same "--version is version" "$TMP/v1" "$TMP/v3"
obj=${FS_OUT:-build}/bpf/feecscope.bpf.o
if [ -f "$obj" ]; then
	sum=$(sha256sum "$obj" | cut -c1-64)
	grep -qx "bpf object: sha256 $sum" "$TMP/v1" && pass "version: the BPF object's sha256 ($(echo "$sum" | cut -c1-12)...)" ||
		fail "version: BPF object hash" "$(grep bpf "$TMP/v1") vs $sum"
fi
desc=$(git -C "$(dirname "$0")/../.." describe --always --dirty --tags 2>/dev/null || echo unknown)
grep -q "^git: *${desc%-dirty}" "$TMP/v1" && pass "version: git describe ($desc)" || fail "version: git" "$(grep git "$TMP/v1") vs $desc"
grep -Eq "^arch: *$(uname -m)" "$TMP/v1" && pass "version: build architecture" || fail "version: arch" "$(grep arch "$TMP/v1")"
echo "cases run: $n"
finish
