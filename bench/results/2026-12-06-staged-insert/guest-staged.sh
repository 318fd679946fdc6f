#!/bin/bash
# staged.ko: per case, 3 s of steady state: requests, staged inserts, IPIs,
# and which CPUs ran kblockd work (kworker CPU time)
set -u
# shellcheck source=bench/guest/fast-lib.sh
. /mnt/host/fast-lib.sh
fast_setup
insmod /mnt/host/b.ko || exit 1
S=/sys/kernel/debug/block/$dev/sched
st() { awk -v k=$1 '$1 == k {print $2}' $S/stats; }
ipis() { awk '$1=="CAL:"||$1=="RES:" {s+=$2+$3} END{print s}' /proc/interrupts; }
for round in 1 2; do
for c in uring1x32 psync2x1 uring2x32; do
fast_case_args $c
echo bfq-ng >"/sys/block/$dev/queue/scheduler" || exit 1
fio --filename=/dev/$dev --rw=randread --bs=4k --direct=1 --name=x \
	--time_based --runtime=6 "${args[@]}" >/dev/null &
sleep 1.5
a=$(awk '{print $1}' /sys/block/$dev/stat) s0=$(st staged_inserts) i0=$(ipis)
sleep 3
b=$(awk '{print $1}' /sys/block/$dev/stat) s1=$(st staged_inserts) i1=$(ipis)
wait
echo "$round $c ios $((b-a)) staged $((s1-s0)) ipis $((i1-i0))" | tee -a $out/r.txt
echo none >"/sys/block/$dev/queue/scheduler"
done
done
