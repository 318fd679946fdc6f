#!/bin/bash
# timeout: 600
# 512 concurrent processes doing I/O all complete, and the count of live
# bfq-ng queues returns to its idle value once they have exited.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"

modprobe bfq-ng || die "bfq-ng"
nullb mp0 256 memory_backed=1 irqmode=2 completion_nsec=50000 || die "null_blk"
select_sched mp0 bfq-ng || die "select"
echo 128 >/sys/block/mp0/queue/nr_requests
idle=$(bfqng_stat mp0 live_queues)
rm -f /tmp/mp.fail
for ((i = 0; i < 512; i++)); do
	(
		if ((i % 2)); then
			dd if=/dev/mp0 of=/dev/null bs=4k count=8 skip=$((i * 16)) iflag=direct status=none
		else
			dd if=/dev/zero of=/dev/mp0 bs=4k count=8 seek=$((i * 16)) oflag=direct status=none
		fi || echo "$i" >>/tmp/mp.fail
	) &
done
peak=$(bfqng_stat mp0 live_queues)
wait
check_eq "512 concurrent processes complete their I/O (failures)" "$( (cat /tmp/mp.fail 2>/dev/null || true) | wc -l)" 0
now=$idle
for ((t = 0; t < 100; t++)); do
	now=$(bfqng_stat mp0 live_queues)
	[ "$now" -le "$idle" ] && break
	sleep 0.1
done
check_eq "live bfq-ng queues return to idle after 512 processes (peak $peak)" "$now" "$idle"
check_eq "engine invariants hold after 512 processes" "$(bfqng_check mp0)" ok
select_sched mp0 none
nullb_del mp0
