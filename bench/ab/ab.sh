#!/bin/bash
# Same-boot A/B of two bfq-ng builds on the CPU-cost workloads:
#   bench/ab/ab.sh A.ko B.ko       (run from the top of the tree)
# Environment: VM_ACCEL (default icount: IOPS are requests per 10^9 guest
# instructions, repeatable to well under 1 %), RT (seconds per run, 2),
# ROUNDS (3), AB_CASES (cases of bench/guest/fast-lib.sh, default
# "uring1x32 uring2x32 psync2x1"), AB_TUNE ("slice_idle=0 ...": bfq-ng
# tunables for both builds).  Prints each variant's median IOPS per case,
# with mq-deadline, and the medians of the per-round ratios.
set -euo pipefail
[ $# -eq 2 ] && [ -f "$1" ] && [ -f "$2" ] || { echo "usage: $0 A.ko B.ko" >&2; exit 2; }
share=$(mktemp -d "${TMPDIR:-/tmp}/bfqng-ab.XXXXXX")
trap 'rm -rf "$share"' EXIT
cp "$1" "$share/a.ko"
cp "$2" "$share/b.ko"
cp "$(dirname "$0")/../guest/fast-lib.sh" "$share/"
out=$(mktemp -d "${TMPDIR:-/tmp}/bfqng-ab-out.XXXXXX")
VM_ACCEL=${VM_ACCEL:-icount} VM_SHARE=$share VM_OUT=$out VM_PASS_ENV="RT ROUNDS AB_CASES AB_TUNE" \
	RT=${RT:-2} ROUNDS=${ROUNDS:-3} AB_CASES=${AB_CASES:-} AB_TUNE=${AB_TUNE:-} VM_TIMEOUT=${VM_TIMEOUT:-2400} \
	tests/vm/run-vm.sh "$(dirname "$0")/guest-ab.sh" >&2
awk '{ k = $3 " " $2; v[k] = v[k] " " $4 }
END { for (k in v) print k, v[k] }' "$out/guest-out/ab.txt" | sort | while read -r c var vals; do
	med=$(tr ' ' '\n' <<<"$vals" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
	printf '%-10s %-3s median %s  [%s]\n' "$c" "$var" "$med" "$vals"
done
# Without icount the host's load moves the variants of a case in a round
# together (they run back to back, see guest-ab.sh): the median of the
# per-round ratios is steadier than the ratio of the medians.
awk '{ v[$3 " " $2 " " $1] = $4; c[$3] = 1; r[$1] = 1 }
END {
	for (k in c) {
		n = 0
		for (i in r) {
			a = v[k " a " i]; b = v[k " b " i]; d = v[k " dd " i]
			if (a > 0 && b > 0 && d > 0) { n++; ba[n] = b / a; ad[n] = a / d; bd[n] = b / d }
		}
		printf "%-10s per-round medians over %d: b/a %.3f  a/dd %.3f  b/dd %.3f\n", k, n, med(ba, n), med(ad, n), med(bd, n)
	}
}
function med(x, n,   i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && x[j - 1] > x[j]; j--) { t = x[j]; x[j] = x[j - 1]; x[j - 1] = t }
	return n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2
}' "$out/guest-out/ab.txt" | sort
rm -rf "$out"
