#!/usr/bin/env bash
# `make bench`: runs every build/bench/* binary and every tests/bench/*.sh except this one.
set -u
OUT=${1:-build}
cd "$(dirname "$0")/../.."
rc=0
for b in "$OUT"/bench/*; do
	[ -x "$b" ] || continue
	case $(basename "$b") in bpf_floor | prog_run) continue ;; esac # helpers of live_overhead.sh, freqrec_cost.sh
	echo "== $(basename "$b")"
	"$b" || { echo "   $(basename "$b") failed"; rc=1; }
done
for s in tests/bench/*.sh; do
	[ "$(basename "$s")" = run.sh ] && continue
	[ -e "$s" ] || continue
	echo "== $(basename "$s" .sh)"
	bash "$s" "$OUT" || { echo "   $(basename "$s") failed"; rc=1; }
done
exit $rc
