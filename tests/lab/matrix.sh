#!/usr/bin/env bash
# The kernel matrix: Debian's arm64 kernels (tests/qemu/debian-kernels.sh) booted in the
# EAS lab under rt-app, one row per kernel and topology: programs loaded, collector
# start-up, feec wake-ups, each policy's agreement with the kernel (the guest's recording
# replayed on the host) and the policy `feecscope live` picked for the release, with its own
# agreement (auto%: it may have no column of its own, v7.1 and v7.2).
# A row passes when every program this kernel can run loaded with no fallback, and,
# where the guest has an EM, the picked policy agrees >= 99.5 % and no policy agrees more
# on the feec wake-ups whose snapshot-to-placement window is at most FS_LAB_WINDOW_US
# (tests/lab/window-agreement.py): disagreement grows with that window, and a busy host
# stretches it (docs/agreement.md), so these are the wake-ups whose snapshot still
# describes the kernel's decision. The agreement over every window is shown beside it.
# The guests run under QEMU's -icount (one instruction a guest ns, idle skipped): the
# host's load then changes the wall time of a row, not what the guest sees (how much of
# the time its root domain is overutilized, how long a window is).
#
# usage: tests/lab/matrix.sh [-a] [-w]
#   -a  every kernel of the list on both topologies (`make lab-matrix`); default: 5.10,
#       6.1, 6.12 and the newest series on 2+2 (the part `make check` runs, ~11 min on
#       the two host cores at a load average of 13)
#   -w  write the table into docs/lab.md (between its matrix markers)
# Env: FS_LAB_MATRIX_KERNELS="5.10 7.3" (series), FS_LAB_MATRIX_TOPOLOGIES ("2+2 4+3+1"),
#      FS_LAB_SECONDS (live seconds, 15), FS_LAB_MIN_FEEC (feec wake-ups to judge, 200;
#      a guest with fewer boots once more), FS_LAB_WINDOW_US (the longest window judged,
#      100), FS_LAB_MATRIX_JUDGE=POLICY judges POLICY instead of the picked one (a wrong
#      policy must fail), FS_LAB_MATRIX_QEMU_ARGS (the guests' QEMU options, default
#      "-icount shift=0,sleep=on"; empty: TCG's own clock, which follows the host's load),
#      FS_LAB_REUSE=1 re-reads build/lab/matrix/;
#      FS_LAB_UCLAMP="PREFIX MIN MAX ..." gives rt-app's threads per-task clamps (run-lab.sh):
#      rows are then named SERIESu, kept in build/lab/matrix-uclamp/ and -w writes the
#      uclamp block of docs/lab.md.
cd "$(dirname "$0")/../.."
. tests/lib.sh
all=0 write=0
while getopts "aw" o; do
	case $o in a) all=1 ;; w) write=1 ;; *) exit 2 ;; esac
done
OUTD=${FS_OUT:-build}
FEECSCOPE=${FEECSCOPE:-$OUTD/feecscope}
SECS=${FS_LAB_SECONDS:-15}
MIN_FEEC=${FS_LAB_MIN_FEEC:-200}
# run-lab.sh's guests: under -icount the console transfer takes minutes, so more time
# and no CSV from live (the rows replay the recording)
export FS_LAB_QEMU_ARGS=${FS_LAB_MATRIX_QEMU_ARGS--icount shift=0,sleep=on}
export FS_LAB_NO_CSV=1 FS_LAB_TIMEOUT=${FS_LAB_TIMEOUT:-900}
WIN_US=${FS_LAB_WINDOW_US:-100}
POLICIES="v5.10 v5.15 v6.0 v6.1 v6.6 v6.12 v6.12.97"
uc=${FS_LAB_UCLAMP:+u}            # uclamp rows: "6.18u"
block=matrix${uc:+-uclamp}        # their own block in docs/lab.md
M=$OUTD/lab/$block

if ! tests/qemu/debian-kernels.sh list >"$TMP/kernels" 2>"$TMP/kernels.err"; then
	fail "matrix: list Debian's arm64 kernels" "$(cat "$TMP/kernels.err")"
	finish; exit
fi
newest=$(tail -n 1 "$TMP/kernels" | cut -d' ' -f1)
want=${FS_LAB_MATRIX_KERNELS:-}
[ -n "$want" ] || { [ $all = 1 ] && want=$(cut -d' ' -f1 "$TMP/kernels"); } || want="5.10 6.1 6.12 $newest"

# "policy wake-ups pct" per row of a summary's policy table: the agreement is the first
# "P%" field ("=kernel" column; older summaries wrote "N/M P%"), the wake-ups judged its
# N/M denominator or else the row's "eligible" count (the second number).
agreements() {
	awk '/^policy / && /kernel/ { on = 1; next }
	     on && NF == 0 { on = 0 }
	     on { n = 0; el = ""; den = ""; pct = ""
		  for (i = 2; i <= NF; i++) {
			if ($i ~ /^[0-9]+$/ && ++n == 2) el = $i
			if ($i ~ /^[0-9]+\/[0-9]+$/) { split($i, f, "/"); den = f[2] }
			if ($i ~ /^[0-9.]+%$/ && pct == "") pct = $i + 0
		  }
		  if (pct != "") print $1, (den != "" ? den : el), pct }' "$1"
}

# uclamp rows: the guest clamped each PREFIX's threads, and the recording's wake-ups of
# them carry those effective clamps (no task group; the system default is 1024). The
# first wake-ups of a thread come before uclamp-set reaches it: 90 % is enough.
clamps_recorded() {
	local row=$1 o=$2 spec n ok
	"$FEECSCOPE" replay "$o/live.rec" --convert-csv "$TMP/records.csv" >"$TMP/conv" 2>&1 ||
		{ fail "$row: records of the recording" "$(head -c 300 "$TMP/conv")"; return; }
	read -ra spec <<<"$FS_LAB_UCLAMP"
	for ((i = 0; i + 2 < ${#spec[@]}; i += 3)); do
		read -r ok n < <(awk -F, -v pre="${spec[i]}" -v lo="${spec[i+1]}" -v hi="${spec[i+2]}" '
			/^#/ { next }
			!h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
			$c["type"] == "wakeup" && index($c["comm"], pre) == 1 {
				n++; ok += $c["task_uclamp_min"] == lo && $c["task_uclamp_max"] == hi }
			END { print ok + 0, n + 0 }' "$TMP/records.csv")
		local what="wake-ups of ${spec[i]}* recorded with clamps ${spec[i+1]}..${spec[i+2]}"
		if [ "$ok" -gt 0 ] && [ $((ok * 10)) -ge $((n * 9)) ]; then
			pass "$row: $ok of $n $what"
		else
			fail "$row: $what" "$ok of $n; uclamp-set: $(head -c 200 "$o/uclamp.log" 2>/dev/null)"
		fi
	done
}

# What the clamps are worth: the picked policy's agreement once every wake-up's clamps
# are set to none (task and rq: 0..1024), for the line under the table.
without_clamps() {
	local row=$1 pol=$2 pct
	awk -F, -v OFS=, '/^#/ { print; next }
		!h { for (i = 1; i <= NF; i++) if ($i ~ /uclamp_min$/) lo[i]; else if ($i ~ /uclamp_max$/) hi[i]
		     h = 1; print; next }
		$1 == "wakeup" { for (i in lo) if ($i != "" && $i != "none") $i = 0
				 for (i in hi) if ($i != "" && $i != "none") $i = 1024 }
		{ print }' "$TMP/records.csv" >"$TMP/unclamped.csv"
	"$FEECSCOPE" replay "$TMP/unclamped.csv" --policies "$pol" >"$TMP/unclamped" 2>&1 ||
		{ fail "$row: replay without the clamps" "$(head -c 300 "$TMP/unclamped")"; return; }
	pct=$(agreements "$TMP/unclamped" | awk -v p="$pol" '$1 == p { printf "%.1f", $3 }')
	echo "    $row: $pol agrees ${pct:-?} % with the recorded clamps dropped"
	printf '%-11s %s agrees %s %% of the same wake-ups with the clamps dropped\n' \
		"$row" "$pol" "${pct:-?}" >>"$TMP/unclamped.lines"
}

table=$TMP/table
{
	printf '%-5s %-5s %5s %5s %5s %5s' kern topo progs start feec short
	for p in $POLICIES; do printf ' %5s' "${p#v}" | sed 's/6.12.97/12.97/'; done
	printf ' %5s %5s %s\n' auto% all% auto
} >"$table"
built=0
for series in $want; do
	read -r _ ver parts < <(grep "^$series " "$TMP/kernels") || {
		fail "$series: in the archive" "no such series in: $(cut -d' ' -f1 "$TMP/kernels" | tr '\n' ' ')"
		continue
	}
	kd=build/qemu/kernels/$series
	if ! tests/qemu/debian-kernels.sh fetch "$ver" "$parts" "$kd" >"$TMP/fetch" 2>&1; then
		fail "$series: fetch $parts $ver" "$(cat "$TMP/fetch")"
		continue
	fi
	topos=${FS_LAB_MATRIX_TOPOLOGIES:-2+2}
	[ $all = 1 ] && topos=${FS_LAB_MATRIX_TOPOLOGIES:-2+2 4+3+1}
	for topo in $topos; do
		d=$M/$series-$topo o=$M/$series-$topo/out row="$series $topo"
		if [ "${FS_LAB_REUSE:-0}" != 1 ] || [ ! -d "$o" ]; then
			keep=; [ $built = 1 ] && keep=-k
			if ! tests/qemu/run-lab.sh -t "$topo" -d "$SECS" -K "$kd" -o "$d" $keep >"$TMP/run" 2>&1; then
				fail "$row: guest boots and returns its files" "$(tail -n 3 "$TMP/run")"
				continue
			fi
			built=1
		fi
		# TCG on a busy host can keep the root domain overutilized: boot once more.
		n=$(sed -nE 's/.*feec-eligible under [^ ]+ ([0-9]+).*/\1/p' "$o/live.out" | tail -n 1)
		if [ "${FS_LAB_REUSE:-0}" != 1 ] && [ "${n:-0}" -lt "$MIN_FEEC" ] && [ -s "$kd/cpufreq-dt.ko" ]; then
			echo "    $row: only ${n:-no} feec-eligible wake-ups: guest too slow, booting it again"
			tests/qemu/run-lab.sh -t "$topo" -d "$SECS" -K "$kd" -o "$d" -k >"$TMP/run" 2>&1 ||
				{ fail "$row: guest boots again" "$(tail -n 3 "$TMP/run")"; continue; }
		fi
		prog=$(sed -n 's/^programs: \([0-9]*\) of \([0-9]*\) loaded.*start-up \([0-9.]*\) s$/\1 \2 \3/p' "$o/live.err" 2>/dev/null | tail -n 1)
		if [ "$(cat "$o/live.rc" 2>/dev/null)" != 0 ] || [ -z "$prog" ]; then
			fail "$row: collector ran" "live exit $(cat "$o/live.rc" 2>/dev/null || echo -): $(grep -v '^libbpf' "$o/live.err" 2>/dev/null | head -c 300)"
			continue
		fi
		set -- $prog
		loaded=$1 wanted=$2 start=$3
		lost=$(sed -n 's/^collector fallback: //p' "$o/live.err" | head -n 1)
		if [ "$loaded" = "$wanted" ] && [ -z "$lost" ]; then
			pass "$row: $loaded of $wanted programs loaded, start-up $start s"
		elif [ "$loaded" = $((wanted - 1)) ] && echo "$lost" | grep -qE '^select_task_rq_fair not in BTF|^no fentry .*(\(attach: not supported\)|: not supported by this)'; then
			# What the kernel cannot do, not a refused program: Debian's 5.10 BTF has no
			# select_task_rq_fair; arm64 before ftrace direct calls has no fentry trampoline
			# (ENOTSUPP at attach, as live_env.c's fs_fentry_refusal() words it).
			pass "$row: $loaded of $wanted programs loaded, start-up $start s (kernel cannot run fentry: wake flags lost, said in the header)"
		else
			fail "$row: every program loaded ($loaded of $wanted)" "${lost:-no fallback line}"
		fi
		auto=$(sed -n 's/.*policies \[0\] \([^ ,]*\).*/\1/p' "$o/live.out" | head -n 1)
		# The picked policy is judged too when it has no column (v7.1, v7.2: the v6.12 body
		# with 7.1's overutilized rule, which only decides where the gates are emulated).
		judge=${FS_LAB_MATRIX_JUDGE:-$auto}
		pols=$(echo $POLICIES | tr ' ' ,)
		for p in $auto $judge; do
			case ",$pols," in *",$p,"*) ;; *) pols="$pols,$p" ;; esac
		done
		"$FEECSCOPE" replay "$o/live.rec" --policies "$pols" --csv "$TMP/decisions.csv" \
			>"$TMP/replay" 2>&1 || { fail "$row: host replay" "$(head -c 300 "$TMP/replay")"; continue; }
		agreements "$TMP/replay" >"$TMP/agree.all"
		"$FEECSCOPE" replay "$o/live.rec" --convert-csv "$TMP/records.csv" >"$TMP/conv" 2>&1 &&
			python3 tests/lab/window-agreement.py --window-us "$WIN_US" --bins "$judge" "$TMP/decisions.csv" \
				"$TMP/records.csv" >"$TMP/window" 2>&1 ||
			{ fail "$row: agreement by window" "$(head -c 300 "$TMP/conv" "$TMP/window")"; continue; }
		# "policy judged pct" on short windows, as agreements() gives for the summary
		awk '$1 != "bin" { printf "%s %d %s\n", $1, $4, $4 ? sprintf("%.4f", 100 * $5 / $4) : "" }' \
			"$TMP/window" >"$TMP/agree"
		# the join lost nothing: over every window the judged policy agrees as the summary says
		if ! awk -v p="$judge" 'FNR == NR { if ($1 == p) s = $3; next }
			$1 == p && $2 > 0 { d = s - 100 * $3 / $2; exit !(s != "" && d < 0.05 && d > -0.05) }' \
			"$TMP/agree.all" "$TMP/window"; then
			fail "$row: agreement over every window equals the summary's" "$(grep "^$judge " "$TMP/agree.all" "$TMP/window" | tr '\n' ' ')"
		fi
		echo "    $row: $judge by window (us, feec wake-ups, disagreeing):" "$(awk '$1 == "bin" { printf "%s-%s %d %d, ", $2, $3, $4, $5 }' "$TMP/window" | sed 's/, $//')"
		[ -z "$uc" ] || { clamps_recorded "$row" "$o"; [ -z "$auto" ] || without_clamps "$series$uc $topo" "$auto"; }
		feec=$(awk -v p="$judge" '$1 == p { print $2 }' "$TMP/window")
		short=$(awk -v p="$judge" '$1 == p { print $2 }' "$TMP/agree")
		allpct=$(awk -v p="$judge" '$1 == p && $2 { printf "%.1f", 100 * $3 / $2 }' "$TMP/window")
		{
			printf '%-5s %-5s %5s %5s %5s %5s' "$series$uc" "$topo" "$loaded/$wanted" "$start" "${feec:--}" "${short:--}"
			for p in $POLICIES; do printf ' %5s' "$(awk -v p="$p" '$1 == p { printf "%.1f", $3 }' "$TMP/agree")"; done
			printf ' %5s %5s %s\n' "$(awk -v p="$judge" '$1 == p { printf "%.1f", $3 }' "$TMP/agree")" "${allpct:--}" "$judge"
		} >>"$table"
		# v6.19+: the dev-energymodel netlink family tells the same EM as debugfs
		if [ "$(cat "$o/em-netlink.rc" 2>/dev/null)" = 0 ]; then
			if diff <(grep -v 'source:' "$o/em.out") <(grep -v 'source:' "$o/em-netlink.out") >"$TMP/nldiff"; then
				pass "$row: the netlink EM equals the debugfs EM"
			else
				fail "$row: the netlink EM equals the debugfs EM" "$(head -c 300 "$TMP/nldiff")"
			fi
		fi
		if [ ! -s "$kd/cpufreq-dt.ko" ]; then
			echo "    $row: no modules in the archive, so no EM: agreement not judged (EAS emulated)"
			continue
		fi
		best=$(sort -k3,3gr "$TMP/agree" | head -n 1 | cut -d' ' -f3)
		mine=$(awk -v p="$judge" '$1 == p { print $3 }' "$TMP/agree")
		what="picked $judge"; [ -z "${FS_LAB_MATRIX_JUDGE:-}" ] || what="judged $judge"
		if [ "${short:-0}" -lt "$MIN_FEEC" ]; then
			fail "$row: at least $MIN_FEEC feec wake-ups with a window <= $WIN_US us to judge" "${short:-0} of ${feec:-0} (guest overutilized or host too busy)"
		elif [ -n "$mine" ] && awk -v m="$mine" -v b="$best" 'BEGIN { exit !(m >= 99.5 && m >= b) }'; then
			pass "$row: $what agrees $(printf %.1f "$mine") % of $short feec wake-ups with a window <= $WIN_US us ($allpct % of $feec in all), no policy more"
		else
			fail "$row: $what agrees >= 99.5 % and best (window <= $WIN_US us)" "$(printf %.2f "${mine:-0}") % of ${short:-0}, best $(printf %.2f "$best") % ($allpct % of $feec in all): $(awk '{ printf "%s %.2f, ", $1, $3 }' "$TMP/agree" | sed 's/, $//')"
		fi
	done
done
sed 's/^/    /' "$table"
if [ $write = 1 ]; then
	{
		echo "<!-- $block: tests/lab/matrix.sh ${uc:+(FS_LAB_UCLAMP) }-w writes this block -->"
		echo '```'
		cat "$table"
		[ ! -s "$TMP/unclamped.lines" ] || { echo; cat "$TMP/unclamped.lines"; }
		echo '```'
		echo "<!-- $block end: $(date -u +%Y-%m-%d), live $SECS s per guest${uc:+, clamps $FS_LAB_UCLAMP} -->"
	} >"$TMP/block"
	awk -v block="$TMP/block" -v name="$block" '
		$0 ~ "^<!-- " name ":" { while ((getline l < block) > 0) print l; skip = 1; next }
		$0 ~ "^<!-- " name " end" { skip = 0; next }
		!skip' docs/lab.md >"$TMP/lab.md" && cp "$TMP/lab.md" docs/lab.md
fi
finish
