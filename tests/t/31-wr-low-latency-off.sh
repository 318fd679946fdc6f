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
check_ge "the newcomer is raised before the switch (raising periods)" "$(queue_field ll0 "$b" wr_starts)" 1
echo 0 >/sys/block/ll0/queue/iosched/low_latency
# Raising ends at once; the weight in effect follows when the slot ends.
check_eq "right after low_latency=0, no queue is raised" "$(bfqng_stat ll0 raised_queues)" 0
check_eq "right after low_latency=0, the newcomer's raising is over" "$(queue_field ll0 "$b" raising)" none
t0=$EPOCHREALTIME
while [ "$(queue_field ll0 "$b" weight)" != 40 ]; do
	(( $(ms_since "$t0") > 5000 )) && break
	sleep 0.05
done
ms=$(ms_since "$t0")
# Bound: one raised slot (2 x timeout_sync) plus 1 s for polling under TCG.
check_le "the newcomer's weight is back to 40 within a slot (ms)" "$ms" $((slot_ms + 1000))
stop_readers "$a" "$b"
check_eq "engine invariants hold" "$(bfqng_check ll0)" ok
