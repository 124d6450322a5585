#!/usr/bin/env bash
# feecscope em: printing profiles and trees, save -> load, bad input exits 1 naming the file.
. "$(dirname "$0")/../lib.sh"
EM=$FS_FIXTURES/em

check "em --help reads like a man page" bash -c "'$FEECSCOPE' em --help | grep -q '^EXIT STATUS'"
check "em --list names hikey960 pixel4 rb5" bash -c "'$FEECSCOPE' em --list | grep -q '^hikey960' && '$FEECSCOPE' em --list | grep -q '^pixel4' && '$FEECSCOPE' em --list | grep -q '^rb5'"

"$FEECSCOPE" em --em hikey960 > "$TMP/hikey.txt" 2>&1
# Hand-worked in tests/unit/test_em_profiles.c: 533 MHz 700 mV dpc 110 -> 28728 uW, cost 99389; capacity 462.
check "em --em hikey960 prints the 533 MHz state" grep -Eq '^ +533000 +28728 uW +99389 +no$' "$TMP/hikey.txt"
check "em --em hikey960 prints capacities" grep -q 'pd0: cpus 0-3, capacity 462, flags 0x1 (MICROWATTS), 5 states' "$TMP/hikey.txt"
check "em --em hikey960 shows provenance" grep -q 'hi3660.dtsi' "$TMP/hikey.txt"
check "em --em pixel4 is 4+3+1" bash -c "'$FEECSCOPE' em --em pixel4 | grep -c '^pd[0-9]: cpus \(0-3\|4-6\|7\),' | grep -qx 3"
check "em --em pixel4 marks UNVERIFIED voltages" bash -c "'$FEECSCOPE' em --em pixel4 | grep -q UNVERIFIED"

check "em --save hikey960" "$FEECSCOPE" em --em hikey960 --save "$TMP/hikey.em"
"$FEECSCOPE" em --em "$TMP/hikey.em" > "$TMP/hikey2.txt" 2>&1
expect_same "saved hikey960 prints the same" "$TMP/hikey.txt" "$TMP/hikey2.txt"
"$FEECSCOPE" em --em "$TMP/hikey.em" --save "$TMP/hikey-again.em"
expect_same "save of a saved EM is byte-identical" "$TMP/hikey.em" "$TMP/hikey-again.em"

for t in v5.4 v5.10 v5.15 v5.17 v5.19 v6.1-lab v6.1-gpu v6.12 v6.19; do
	check "em --em tree $t" "$FEECSCOPE" em --check --em "$EM/$t"
done
"$FEECSCOPE" em --em "$EM/v6.1-lab" --kernel 6.1.0 > "$TMP/lab.txt"
# Kernel-written (v6.1-lab.txt): cpu2/ps:903000 power 243358, cost 636557.
check "6.1 lab tree values" grep -Eq '^ +903000 +243358 uW +636557 +no$' "$TMP/lab.txt"
check "lab tree kernel release from --kernel" grep -q 'kernel: *6.1.0' "$TMP/lab.txt"
"$FEECSCOPE" em --em "$EM/v6.1-lab" --kernel 6.1.0 --save "$TMP/lab.em"
"$FEECSCOPE" em --em "$TMP/lab.em" > "$TMP/lab2.txt"
expect_same "saved debugfs tree prints the same" "$TMP/lab.txt" "$TMP/lab2.txt"
check "v5.19 flags 0x1 read as milliwatts" bash -c "'$FEECSCOPE' em --em '$EM/v5.19' | grep -q 'power unit:  mW'"
check "unknown release is stated" bash -c "'$FEECSCOPE' em --em '$EM/v6.12' | grep -q 'kernel release unknown'"
check "--cpu-capacity-dir" "$FEECSCOPE" em --check --em "$EM/v5.4" --cpu-capacity-dir "$EM/v6.12/cpus"

# Bad input: exit 1, the file and field named.
cp -r "$EM/v6.1-lab" "$TMP/bad"
echo 12abc > "$TMP/bad/cpu2/ps:903000/power"
expect_fail "non-numeric power names the file" "bad/cpu2/ps:903000/power: power: '12abc' is not a decimal number" "$FEECSCOPE" em --em "$TMP/bad"
"$FEECSCOPE" em --em "$TMP/bad" >/dev/null 2>&1
check "bad tree exits 1" test $? -eq 1
echo 0 > "$TMP/bad/cpu2/ps:903000/power"
expect_fail "zero power" "ps:903000/power: power: 0" "$FEECSCOPE" em --em "$TMP/bad"
echo 243358 > "$TMP/bad/cpu2/ps:903000/power"
echo 1-2 > "$TMP/bad/cpu2/cpus"
expect_fail "CPU in two PDs" "bad/cpu2/cpus: cpus: CPU 1 is also in .*bad/cpu0/cpus" "$FEECSCOPE" em --em "$TMP/bad"
echo 2-3 > "$TMP/bad/cpu2/cpus"
rm "$TMP/bad/cpu_capacity"
expect_fail "copied tree without capacities" "bad: cpu_capacity: no capacity for cpu0" "$FEECSCOPE" em --em "$TMP/bad"
sed 's/^ps frequency=903000 power=243358/ps frequency=903000 power=oops/' "$TMP/lab.em" > "$TMP/bad.em"
expect_fail "bad saved file names the line" "bad.em:[0-9]+: power: 'oops' is not a number" "$FEECSCOPE" em --em "$TMP/bad.em"
expect_fail "unknown profile lists known ones" "profile 'nexus5': no such built-in profile .*hikey960" "$FEECSCOPE" em --em nexus5
expect_fail "missing path" "nope/em: cannot open" "$FEECSCOPE" em --em "$TMP/nope/em"
"$FEECSCOPE" em --bogus >/dev/null 2>&1
check "bad option exits 2" test $? -eq 2
if [ ! -e /sys/kernel/debug/energy_model ] && [ "$(id -u)" -eq 0 ]; then
	expect_fail "no EM on this kernel is said plainly" "no Energy Model at /sys/kernel/debug/energy_model \(kernel without CONFIG_ENERGY_MODEL" "$FEECSCOPE" em
	# ... with the netlink family asked and what fits this device named
	expect_fail "no EM: netlink asked too" "netlink: no dev-energymodel family" "$FEECSCOPE" em
	expect_fail "no EM: what fits is named" "fits this device \($(nproc --all) CPUs" "$FEECSCOPE" em
	# a saved EM of this machine's shape (a profile sized to its CPUs, capacities as sysfs says) is named
	if [ "$(nproc --all)" -ge 2 ] && [ ! -e /sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq ]; then
		mkdir -p "$TMP/fit" && (cd "$TMP/fit" && "$FEECSCOPE" em --em hikey960 --save other.em >/dev/null)
		(cd "$TMP/fit" && "$FEECSCOPE" em >"$TMP/fit.out" 2>&1)
		check "no EM: a saved EM of another device is not named" sh -c "! grep -q other.em '$TMP/fit.out'"
	fi
	expect_fail "--em netlink without the family" "netlink: no dev-energymodel family" "$FEECSCOPE" em --em netlink
fi
finish
