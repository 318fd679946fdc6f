#!/bin/bash
# Same-boot A/B of two bfq-ng builds on the CPU-cost workloads:
#   bench/ab/ab.sh A.ko B.ko       (run from the top of the tree)
# Environment: VM_ACCEL (default icount: IOPS are requests per 10^9 guest
# instructions, repeatable to well under 1 %), RT (seconds per run, 2),
# ROUNDS (3).  Prints each variant's median IOPS per case, with mq-deadline.
set -euo pipefail
[ $# -eq 2 ] && [ -f "$1" ] && [ -f "$2" ] || { echo "usage: $0 A.ko B.ko" >&2; exit 2; }
share=$(mktemp -d "${TMPDIR:-/tmp}/bfqng-ab.XXXXXX")
trap 'rm -rf "$share"' EXIT
cp "$1" "$share/a.ko"
cp "$2" "$share/b.ko"
cp "$(dirname "$0")/../guest/fast-lib.sh" "$share/"
out=$(mktemp -d "${TMPDIR:-/tmp}/bfqng-ab-out.XXXXXX")
VM_ACCEL=${VM_ACCEL:-icount} VM_SHARE=$share VM_OUT=$out VM_PASS_ENV="RT ROUNDS" \
	RT=${RT:-2} ROUNDS=${ROUNDS:-3} VM_TIMEOUT=${VM_TIMEOUT:-2400} \
	tests/vm/run-vm.sh "$(dirname "$0")/guest-ab.sh" >&2
awk '{ k = $3 " " $2; v[k] = v[k] " " $4 }
END { for (k in v) print k, v[k] }' "$out/guest-out/ab.txt" | sort | while read -r c var vals; do
	med=$(tr ' ' '\n' <<<"$vals" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
	printf '%-10s %-3s median %s  [%s]\n' "$c" "$var" "$med" "$vals"
done
rm -rf "$out"
