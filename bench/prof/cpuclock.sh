#!/bin/bash
# Where the guest's CPU time goes with the vCPUs in parallel (plain TCG or
# KVM), per scheduler: bench/prof/cpuclock.sh [MODULE.ko], from the top of
# the tree (default module: ./bfq-ng.ko).  perf samples the cpu-clock
# software event, which needs no PMU (TCG has none): the host's perf
# (Debian's linux-perf; 6.1 on bookworm reads the 6.12 guest fine) is
# shipped to the guest with the libraries it links.  A sample taken with
# interrupts off lands where they come back on: bfq-ng's lock sections
# (spin_lock_irq) show up as _raw_spin_unlock_irq, its work in them
# included.  Environment: CASES (default "psync2x1 uring2x32"; see
# bench/guest/fast-lib.sh), SCHEDS (default "bfq-ng mq-deadline"),
# VM_ACCEL (default tcg), OUT (a directory to keep the reports in).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
ko=${1:-$top/bfq-ng.ko}
perf=$(command -v perf) || { echo "cpuclock: no perf on the host (apt install linux-perf)" >&2; exit 2; }
[ -f "$ko" ] || { echo "cpuclock: no module $ko" >&2; exit 2; }
share=$(mktemp -d "${TMPDIR:-/tmp}/bfqng-cpuclock.XXXXXX")
trap 'rm -rf "$share"' EXIT
mkdir -p "$share/perf/lib"
cp "$perf" "$share/perf/"
ldd "$perf" | awk '$3 ~ /^\// { print $3 }' | xargs -r cp -L -t "$share/perf/lib/"
cp "$ko" "$share/bfq-ng.ko"
cp "$top/bench/guest/fast-lib.sh" "$share/"
out=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/bfqng-cpuclock-out.XXXXXX")}
mkdir -p "$out"
VM_ACCEL=${VM_ACCEL:-tcg} VM_SHARE=$share VM_OUT=$out VM_PASS_ENV="CASES SCHEDS" \
	CASES=${CASES:-psync2x1 uring2x32} SCHEDS=${SCHEDS:-bfq-ng mq-deadline} \
	"$top/tests/vm/run-vm.sh" "$top/bench/prof/guest-cpuclock.sh" >&2
cat "$out/guest-out/cpuclock.txt"
echo "cpuclock: reports in $out/guest-out" >&2
