#!/bin/bash
# timeout: 900
# Stress 7: nr_requests and the number of hardware queues changed under
# verified load on bfq-ng, for 30 s: nr_requests drawn from 4..256, and
# null_blk's submit_queues (configfs; blk_mq_update_nr_hw_queues, which
# freezes the queue and re-inits the scheduler's hctx data) drawn from 1..4.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"
source "$BFQNG_TESTS/stress/lib-stress.sh"

modprobe bfq-ng || die "modprobe bfq-ng"
nullb nr0 256 memory_backed=1 irqmode=2 completion_nsec=30000 submit_queues=2 || die "null_blk"
select_sched nr0 bfq-ng || die "select bfq-ng"
cpus=$(nproc)

verify_loop nr0 nr-aio --ioengine=libaio --iodepth=32 --rw=randwrite --bs=4k --size=32m --numjobs=2 --offset_increment=32m
p1=$!
verify_loop nr0 nr-sync --ioengine=psync --rw=write --bs=64k --size=32m --offset=64m
p2=$!
fio --name=nr-read --filename=/dev/nr0 --direct=1 --ioengine=libaio --iodepth=8 --rw=randread \
	--bs=4k --time_based --runtime=35 --output=/dev/null >/dev/null 2>&1 &
p3=$!
sleep 2

end=$((SECONDS + 30))
nrc=0 nrbad=0 hwc=0 hwbad=0
sizes=(4 8 16 32 64 128 256)
while [ $SECONDS -lt $end ]; do
	n=${sizes[RANDOM % 7]}
	if echo "$n" >/sys/block/nr0/queue/nr_requests 2>/dev/null; then nrc=$((nrc + 1))
	else nrbad=$((nrbad + 1)); fi
	if ((RANDOM % 3 == 0)); then
		q=$((1 + RANDOM % (cpus < 4 ? cpus : 4)))
		if echo "$q" >/sys/kernel/config/nullb/nr0/submit_queues 2>/dev/null; then hwc=$((hwc + 1))
		else hwbad=$((hwbad + 1)); fi
	fi
	sleep 0.1
done
diag "nr_requests: $nrc changes ($nrbad refused); submit_queues: $hwc changes ($hwbad refused), now submit_queues=$(cat /sys/kernel/config/nullb/nr0/submit_queues), mq/: $(ls /sys/block/nr0/mq | paste -sd" ")"
check_ge "nr_requests changes under load" "$nrc" 20
check_eq "nr_requests changes refused" "$nrbad" 0
check_ge "submit_queues (nr_hw_queues) changes under load" "$hwc" 5
check_eq "submit_queues changes refused" "$hwbad" 0
check_eq "bfq-ng still the scheduler" "$(sched_get nr0)" bfq-ng
verify_loop_stop nr-aio $p1 1
verify_loop_stop nr-sync $p2 1
wait $p3 || tap_fail "nr changes: the random readers fail" "fio rc $?"
exit 0
