#!/bin/bash
# timeout: 300
# With strict_guarantees=1, bfq-ng keeps at most one request in the device
# even when fio keeps 32 in flight.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"

modprobe bfq-ng || die "bfq-ng"
nullb sg0 1024 irqmode=2 completion_nsec=200000 hw_queue_depth=32 || die "null_blk"
select_sched sg0 bfq-ng || die "select"
echo 64 >/sys/block/sg0/queue/nr_requests
echo 1 >/sys/block/sg0/queue/iosched/strict_guarantees
fio --name=deep --filename=/dev/sg0 --direct=1 --ioengine=libaio --iodepth=32 \
	--rw=randread --bs=4k --numjobs=2 --time_based --runtime=10 --output=/dev/null &
pid=$!
max=0
while kill -0 $pid 2>/dev/null; do
	read -r r w </sys/block/sg0/inflight
	((r + w > max)) && max=$((r + w))
done
wait $pid
check_le "strict_guarantees: requests in the device (sampled /sys/block/X/inflight)" "$max" 1
check_le "strict_guarantees: requests in the driver (scheduler's own maximum)" "$(bfqng_stat sg0 max_in_driver)" 1
echo 0 >/sys/block/sg0/queue/iosched/strict_guarantees
check_eq "engine invariants hold after strict mode" "$(bfqng_check sg0)" ok
select_sched sg0 none
nullb_del sg0
