#!/bin/bash
# Guest side of bench/ab/ab.sh: /mnt/host/{a,b}.ko alternated with
# mq-deadline in one boot, ROUNDS rounds of 4 KiB random reads on
# no-latency null_blk (io_uring 1x32 and 2x32, psync 2x1), RT s each.
# Prints "round variant case iops" lines to $BFQNG_OUT/ab.txt.
set -u
# shellcheck source=bench/guest/fast-lib.sh
. /mnt/host/fast-lib.sh
fast_setup
RT=${RT:-2}
ROUNDS=${ROUNDS:-3}
for ((round = 1; round <= ROUNDS; round++)); do
	for v in a b dd; do
		if [ "$v" = dd ]; then
			echo mq-deadline >"/sys/block/$dev/queue/scheduler" || exit 1
		else
			echo none >"/sys/block/$dev/queue/scheduler"
			rmmod bfq_ng 2>/dev/null
			insmod "/mnt/host/$v.ko" || exit 1
			echo bfq-ng >"/sys/block/$dev/queue/scheduler" || exit 1
		fi
		echo 64 >"/sys/block/$dev/queue/nr_requests"
		for c in uring1x32 uring2x32 psync2x1; do
			fast_case_args $c
			fio --name=ab --filename="/dev/$dev" --rw=randread --bs=4k --direct=1 \
				--time_based --runtime="$RT" --ramp_time=1 --group_reporting \
				--output-format=json --output=/tmp/ab.json "${args[@]}" >/dev/null 2>&1 || exit 1
			echo "$round $v $c $(jq '.jobs[0].read.iops | floor' /tmp/ab.json)" | tee -a "$out/ab.txt"
		done
	done
done
echo none >"/sys/block/$dev/queue/scheduler"
