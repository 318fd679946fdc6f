# shellcheck shell=bash
# Sourced by tests/run-tests.sh and tests/run-host.sh: splitting test files
# between VMs or lanes that run at once.

_deal_table=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/durations.txt

# timed: "seconds name" for each file name on stdin, by tests/durations.txt
# (30 s for a file not listed there).
timed() {
	awk -v tf="$_deal_table" '
		BEGIN { while ((getline l < tf) > 0) if (split(l, w) == 2 && w[1] !~ /^#/) d[w[1]] = w[2] }
		NF { print ($1 in d ? d[$1] : 30), $1 }'
}

# deal N [LOAD1]: "k name" for each file name on stdin, k in 1..N: longest
# first, each file goes to the least loaded of the N; number 1 starts with
# LOAD1 seconds.  The split depends only on the names and the table, so a
# file always runs beside the same neighbours.
deal() {
	timed | sort -k1,1nr -k2,2 |
		awk -v n="$1" -v l1="${2:-0}" '
		BEGIN { load[1] = l1 }
		{ k = 1; for (i = 2; i <= n; i++) if (load[i] + 0 < load[k] + 0) k = i
		  load[k] += $1; print k, $2 }'
}
