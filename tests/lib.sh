# Shared helpers for shell test suites: check NAME CMD... runs CMD and counts it.
# A suite sources this, calls check/expect_*, and ends with `finish`.
set -u
# Absolute paths, given or not, since suites cd into $TMP: by default the
# tree's own build and fixtures, wherever a suite is run from; a relative
# path given is taken from where the suite started.
_fs_top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FEECSCOPE=${FEECSCOPE:-$_fs_top/build/feecscope}
FS_FIXTURES=${FS_FIXTURES:-$_fs_top/tests/fixtures}
case $FEECSCOPE in /*) ;; *) FEECSCOPE=$PWD/$FEECSCOPE ;; esac
case $FS_FIXTURES in /*) ;; *) FS_FIXTURES=$PWD/$FS_FIXTURES ;; esac
_pass=0 _fail=0
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT

pass() { echo "ok   $1"; _pass=$((_pass + 1)); }
fail() { echo "FAIL $1${2:+: $2}"; _fail=$((_fail + 1)); }

# check NAME CMD...: CMD must exit 0.
check() { local n=$1; shift; if "$@" >"$TMP/out" 2>&1; then pass "$n"; else fail "$n" "exit $? from: $*"; sed 's/^/    /' "$TMP/out" | head -n 20; fi; }

# expect_fail NAME REGEX CMD...: CMD must exit non-zero and print REGEX (stdout or stderr).
expect_fail() {
	local n=$1 re=$2; shift 2
	"$@" >"$TMP/out" 2>&1; local rc=$?
	if [ $rc -eq 0 ]; then fail "$n" "exited 0: $*"; sed 's/^/    /' "$TMP/out" | head -n 10
	elif [ $rc -ge 128 ]; then fail "$n" "crashed (exit $rc): $*"
	elif ! grep -Eq "$re" "$TMP/out" && ! unwrap "$TMP/out" | grep -Eq "$re"; then # wrapped messages too
		fail "$n" "output lacks /$re/"; sed 's/^/    /' "$TMP/out" | head -n 10
	else pass "$n"; fi
}

# expect_same NAME FILE_A FILE_B
expect_same() { if cmp -s "$2" "$3"; then pass "$1"; else fail "$1" "$2 and $3 differ"; diff "$2" "$3" | head -n 20 | sed 's/^/    /'; fi; }

# A message as one line: wrapped messages (80 columns) go on in lines indented by two blanks.
unwrap() { awk 'NR > 1 && /^  / { sub(/^ +/, " "); printf "%s", $0; next } NR > 1 { print "" } { printf "%s", $0 } END { if (NR) print "" }' "$@"; }
# report FILE: a checker's lines "ok WHAT" and "FAIL WHAT: WHY" as passes and failures;
# any other line is shown as it is.
report() {
	local st what
	while read -r st what; do
		case $st in
		ok) pass "$what" ;;
		FAIL) fail "${what%%: *}" "${what#*: }" ;;
		*) echo "    $st $what" ;;
		esac
	done <"$1"
}
finish() { echo "$_pass passed, $_fail failed"; [ $_fail -eq 0 ]; }
# out_inputs: into $TMP, with in.csv (the pixel4 fixture's records) and in.fsr
# (their recording): the inputs of the suites on where outputs go (stdout.sh,
# out_links.sh). A suite that cannot have them ends there, failed.
out_inputs() {
	cd "$TMP" && cp "$FS_FIXTURES/replay/pixel4.csv" in.csv &&
		"$FEECSCOPE" replay in.csv --em pixel4 --convert-record in.fsr >/dev/null 2>&1 ||
		{ fail "set-up: in.csv and in.fsr from the pixel4 fixture"; finish; exit 1; }
}
