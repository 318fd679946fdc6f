#!/bin/bash
# Guest side of bench/prof/cpuclock.sh: per case and scheduler, 4 s of
# perf record -a -e cpu-clock in the steady state of a 7 s fio run; the
# requests done meanwhile (from the device's stat), the top symbols with
# their callers (cpuclock.txt) and the whole report per run.
set -u
# shellcheck source=bench/guest/fast-lib.sh
. /mnt/host/fast-lib.sh
fast_setup
insmod /mnt/host/bfq-ng.ko || exit 1
export LD_LIBRARY_PATH=/mnt/host/perf/lib
P=/mnt/host/perf/perf
echo 0 >/proc/sys/kernel/kptr_restrict
echo -1 >/proc/sys/kernel/perf_event_paranoid
for c in ${CASES:-psync2x1}; do
	fast_case_args "$c" || { echo "cpuclock: unknown case $c" >&2; exit 1; }
	for s in ${SCHEDS:-bfq-ng mq-deadline}; do
		echo "$s" >"/sys/block/$dev/queue/scheduler" || exit 1
		fio --filename="/dev/$dev" --rw=randread --bs=4k --direct=1 --name=x \
			--time_based --runtime=7 "${args[@]}" >/dev/null &
		sleep 1.5
		a=$(awk '{ print $1 }' "/sys/block/$dev/stat")
		"$P" record -q -a -e cpu-clock -F 4000 -g -o /tmp/p.data -- sleep 4 >/dev/null 2>&1
		b=$(awk '{ print $1 }' "/sys/block/$dev/stat")
		wait
		r=$out/report-$c-$s.txt
		"$P" report -i /tmp/p.data --no-children --sort sym --stdio \
			-g caller,0.5,callee,function,percent >"$r" 2>/dev/null
		echo "== $c $s: $((b - a)) requests in the 4 s sampled" >>"$out/cpuclock.txt"
		# the symbols over 1.5 %, and their kernel callers
		awk '/^ +[0-9.]+%/ { p = $1 + 0 >= 1.5; if (p) print; next }
			p && /--[0-9.]+%--[a-z_]/ && !/0x/' "$r" >>"$out/cpuclock.txt"
	done
done
echo none >"/sys/block/$dev/queue/scheduler"
