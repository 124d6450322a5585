#!/usr/bin/env bash
# --btf FILE (Android kernels without /sys/kernel/btf/vmlinux): the collector
# relocates against an external BTF file; bad files get an error naming them.
. "$(dirname "$0")/../lib.sh"

expect_fail "--btf with a missing file names it" "/nonexistent/vmlinux.btf: cannot read BTF" \
	"$FEECSCOPE" live -d 1 --btf /nonexistent/vmlinux.btf
printf 'not a BTF blob\n' >"$TMP/junk.btf"
expect_fail "--btf with a file that is not BTF names it" "junk.btf: cannot read BTF" \
	"$FEECSCOPE" live -d 1 --btf "$TMP/junk.btf"

if [ -r /sys/kernel/btf/vmlinux ]; then
	# A copy of this kernel's own BTF stands in for one pulled off a device.
	cp /sys/kernel/btf/vmlinux "$TMP/vmlinux.btf"
	"$FEECSCOPE" live -d 2 -i 1 --btf "$TMP/vmlinux.btf" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ $rc -eq 0 ] && grep -q "BTF from --btf" "$TMP/out" && grep -q "^wake-ups" "$TMP/out"; then
		pass "live --btf FILE loads, says so in the banner and prints its summary"
	else
		fail "live --btf FILE" "exit $rc: $(head -c 300 "$TMP/out") $(head -c 300 "$TMP/err")"
	fi
else
	fail "live --btf FILE" "this kernel has no /sys/kernel/btf/vmlinux to copy"
fi
finish
