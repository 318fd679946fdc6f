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
read -r -a cases <<<"${AB_CASES:-uring1x32 uring2x32 psync2x1}"
# AB_TUNE="name=value ...": bfq-ng tunables set after each switch to it.
tune() {
	local kv
	for kv in ${AB_TUNE:-}; do
		echo "${kv#*=}" >"/sys/block/$dev/queue/iosched/${kv%%=*}" || exit 1
	done
}
# use V: the scheduler (and the bfq-ng build) of variant V; a build is
# loaded only when it is not the one loaded.
loaded=
use() {
	if [ "$1" = dd ]; then
		echo mq-deadline >"/sys/block/$dev/queue/scheduler" || exit 1
	elif [ "$loaded" != "$1" ]; then
		echo none >"/sys/block/$dev/queue/scheduler"
		rmmod bfq_ng 2>/dev/null
		insmod "/mnt/host/$1.ko" || exit 1
		loaded=$1
		echo bfq-ng >"/sys/block/$dev/queue/scheduler" || exit 1
		tune
	else
		echo bfq-ng >"/sys/block/$dev/queue/scheduler" || exit 1
		tune
	fi
	echo 64 >"/sys/block/$dev/queue/nr_requests"
}
# The three variants of a case run back to back, so that the host's load
# moves them together, in an order reversed every other round, so that a
# drift within the three does not favour one.
for ((round = 1; round <= ROUNDS; round++)); do
	order=(a b dd)
	((round % 2)) || order=(dd b a)
	for c in "${cases[@]}"; do
		fast_case_args $c
		for v in "${order[@]}"; do
			use "$v"
			fio --name=ab --filename="/dev/$dev" --rw=randread --bs=4k --direct=1 \
				--time_based --runtime="$RT" --ramp_time=1 --group_reporting \
				--output-format=json --output=/tmp/ab.json "${args[@]}" >/dev/null 2>&1 || exit 1
			echo "$round $v $c $(jq '.jobs[0].read.iops | floor' /tmp/ab.json)" | tee -a "$out/ab.txt"
		done
	done
done
echo none >"/sys/block/$dev/queue/scheduler"
