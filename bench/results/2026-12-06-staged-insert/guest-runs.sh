#!/bin/bash
# per scheduler, steady state (1.5 s..4.5 s of a 6 s run): requests,
# IPIs, context switches, bfq-ng stats
set -u
# shellcheck source=bench/guest/fast-lib.sh
. /mnt/host/fast-lib.sh
fast_setup
insmod /mnt/host/b.ko || exit 1
S=/sys/kernel/debug/block/$dev/sched
snap() {
	local ios ipi cs run st=""
	ios=$(awk '{print $1}' /sys/block/$dev/stat)
	ipi=$(awk '$1=="CAL:"||$1=="RES:" {s+=$2+$3} END{print s}' /proc/interrupts)
	cs=$(awk '$1=="ctxt"{print $2}' /proc/stat)
	run=0	# hctx "run" is not in 6.12's debugfs
	# in the file's order: expired_budget expired_empty idle_started
	# kept_resumes shared_queues
	[ -e $S/stats ] && st=$(awk '$1 ~ /expired_empty|kept_resumes|expired_budget|idle_started|shared_queues/ {printf "%s ", $2}' $S/stats)
	echo "$ios $ipi $cs $run $st"
}
for round in 1 2 3; do
for c in psync2x1 uring2x32; do
fast_case_args $c
for s in mq-deadline bfq-ng; do
	echo $s >"/sys/block/$dev/queue/scheduler" || exit 1
	fio --filename=/dev/$dev --rw=randread --bs=4k --direct=1 --name=x \
		--time_based --runtime=6 "${args[@]}" >/dev/null &
	sleep 1.5; read -ra a <<<"$(snap)"; sleep 3; read -ra b <<<"$(snap)"; wait
	line="$round $c $s ios $(( b[0]-a[0] )) ipis $(( b[1]-a[1] )) ctxt $(( b[2]-a[2] ))"
	[ $s = bfq-ng ] && line="$line expired_budget $(( b[4]-a[4] )) expired_empty $(( b[5]-a[5] )) idle_started $(( b[6]-a[6] )) kept_resumes $(( b[7]-a[7] )) shared_queues ${b[8]}"
	echo "$line" | tee -a "$out/r.txt"
done
done
done
grep . $S/stats 2>/dev/null | head -40 | tr '\n' ' '
