#!/bin/bash
# Guest side (see README.txt): two psync random readers for 3 s on
# no-latency null_blk, with queue_merging 0 and 1, under /mnt/host/a.ko and
# b.ko in turn, 3 rounds; prints requests, expired_empty and kept_resumes
# gained in each run to $out/r.txt.
set -u
# shellcheck source=bench/guest/fast-lib.sh
. /mnt/host/fast-lib.sh
fast_setup
S=/sys/kernel/debug/block/$dev/sched
st() { awk -v k=$1 '$1 == k {print $2}' $S/stats; }
for round in 1 2 3; do
for v in a b; do
	echo none >"/sys/block/$dev/queue/scheduler"
	rmmod bfq_ng 2>/dev/null
	insmod /mnt/host/$v.ko || exit 1
	echo bfq-ng >"/sys/block/$dev/queue/scheduler" || exit 1
	for m in 0 1; do
		echo $m > /sys/block/$dev/queue/iosched/queue_merging
		e0=$(st expired_empty) k0=$(st kept_resumes)
		fio --filename=/dev/$dev --rw=randread --bs=4k --direct=1 --ioengine=psync \
			--time_based --runtime=3 --output-format=json --output=/tmp/k.json \
			--name=a --name=b >/dev/null || exit 1
		ios=$(jq '[.jobs[].read.total_ios] | add' /tmp/k.json)
		echo "$round $v merging=$m ios $ios empty $(( $(st expired_empty) - e0 )) kept $(( $(st kept_resumes) - k0 )) shared $(st shared_queues)" | tee -a "$out/r.txt"
	done
done
done
