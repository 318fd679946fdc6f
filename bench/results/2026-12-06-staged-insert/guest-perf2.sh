#!/bin/bash
set -u
# shellcheck source=bench/guest/fast-lib.sh
. /mnt/host/fast-lib.sh
fast_setup
insmod /mnt/host/b.ko || exit 1
export LD_LIBRARY_PATH=/mnt/host/perf/lib
P=/mnt/host/perf/perf
echo 0 > /proc/sys/kernel/kptr_restrict; echo -1 > /proc/sys/kernel/perf_event_paranoid
for c in psync2x1 uring2x32; do
fast_case_args $c
for s in bfq-ng mq-deadline; do
	echo $s >"/sys/block/$dev/queue/scheduler" || exit 1
	fio --filename=/dev/$dev --rw=randread --bs=4k --direct=1 --name=x \
		--time_based --runtime=7 "${args[@]}" >/dev/null &
	sleep 1.5
	a=$(awk '{print $1}' /sys/block/$dev/stat)
	$P record -q -a -e cpu-clock -F 4000 -g -o /tmp/p.data -- sleep 4 2>&1 | tail -2
	b=$(awk '{print $1}' /sys/block/$dev/stat)
	wait
	echo "== $c $s ios $((b-a))" | tee -a $out/perf2.txt
	$P report -i /tmp/p.data --no-children --sort sym --stdio -g caller,0.5,callee,function,percent --percent-limit 1.5 2>/dev/null | grep -v "^#" | grep -v "^$" | head -120 >> $out/perf2.txt
done
done
