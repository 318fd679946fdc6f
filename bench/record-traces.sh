#!/usr/bin/env bash
# Record the start-up read traces in the test VM and convert them
# (make bench-traces).  Raw logs go to bench/traces/raw/, replay traces to
# bench/traces/NAME.trace (format: bench/trace-convert.awk).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
out=bench/work/rec
VM_OUT=$top/$out VM_TIMEOUT=${VM_TIMEOUT:-900} tests/vm/run-vm.sh bench/guest/record-traces.sh
mkdir -p bench/traces/raw
for c in "$out"/guest-out/traces/*.cmd; do
	n=$(basename "$c" .cmd)
	cp "$out/guest-out/traces/$n".{cmd,strace,sizes,fincore} bench/traces/raw/
	awk -f bench/trace-convert.awk -v cmd="$(cat "$c")" "bench/traces/raw/$n.sizes" \
		"bench/traces/raw/$n.fincore" "bench/traces/raw/$n.strace" >"bench/traces/$n.trace"
	echo "trace $n: $(tail -n 1 "bench/traces/$n.trace")"
done
