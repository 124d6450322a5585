# Adds power:cpu_frequency lines to a 2-CPU tracefs text trace (tests/cli/trace.sh):
# before every 25th event line, one for CPU (n / 25) % 2 at the next of that
# CPU's frequencies (the hikey960-2cpu.em fixture's OPPs), stamped with that
# line's timestamp so the trace stays in time order. A synthetic input for the
# OPP-residency self-check: the VM that made the fixtures has no cpufreq.
BEGIN {
	split("533000 999000 1402000 1709000 1844000", f0, " ")
	split("903000 1421000 1805000 2112000 2362000", f1, " ")
}
/^ *[^#].*\[[0-9]+\]/ {
	n++
	if (n % 25 == 1) {
		cpu = int(n / 25) % 2
		k = int(n / 50) % 5 + 1
		for (i = 1; i <= NF; i++)
			if ($i ~ /^[0-9]+\.[0-9]+:$/)
				ts = $i
		printf "          <idle>-0       (-------) [%03d] d..1. %s cpu_frequency: state=%s cpu_id=%d\n", cpu, ts, cpu ? f1[k] : f0[k], cpu
	}
}
{ print }
