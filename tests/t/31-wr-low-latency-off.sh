#!/bin/bash
# timeout: 300
# Setting low_latency=0 while a queue is raised ends its raising within one
# service slot (at most 2 x timeout_sync for a raised queue).
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"

modprobe bfq-ng || die "bfq-ng"
sched_nullb ll0 || die "null_blk"
slot_ms=$((2 * $(cat /sys/block/ll0/queue/iosched/timeout_sync)))
a=$(start_reader ll0 0) || die "reader a"
sleep 2
b=$(start_reader ll0 1024) || die "reader b"
sleep 0.3
check_eq "the newcomer is raised before the switch" "$(queue_field ll0 "$b" raising)" interactive
t0=$(date +%s%N)
echo 0 >/sys/block/ll0/queue/iosched/low_latency
while [ "$(queue_field ll0 "$b" raising)" != none ]; do
	(( ($(date +%s%N) - t0) / 1000000 > 5000 )) && break
	sleep 0.01
done
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
check_le "raising ended after low_latency=0 within one slot (ms)" "$ms" $((slot_ms + 100))
check_eq "no queue is raised any more" "$(bfqng_stat ll0 raised_queues)" 0
stop_readers "$a" "$b"
check_eq "engine invariants hold" "$(bfqng_check ll0)" ok
