#!/bin/bash
# timeout: 900
# Stress 1: scheduler switch storm.  Two switchers pick schedulers at random
# (bfq-ng, none, mq-deadline, kyber, bfq) for 30 s, concurrently, while
# mixed verified I/O runs: libaio random writes, psync sequential writes,
# io_uring random writes, random reads.  Every fio pass verifies (crc32c).
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"
source "$BFQNG_TESTS/stress/lib-stress.sh"

modprobe bfq-ng && modprobe kyber-iosched && modprobe bfq || die "modprobe schedulers"
nullb ss0 384 memory_backed=1 irqmode=2 completion_nsec=20000 submit_queues=2 || die "null_blk"
select_sched ss0 bfq-ng || die "select bfq-ng"

verify_loop ss0 ss-aio --ioengine=libaio --iodepth=16 --rw=randwrite --bs=4k --size=16m --numjobs=2 --offset_increment=32m
p1=$!
verify_loop ss0 ss-seq --ioengine=psync --rw=write --bs=64k --size=64m --offset=64m
p2=$!
verify_loop ss0 ss-uring --ioengine=io_uring --iodepth=8 --rw=randwrite --bs=8k --size=32m --offset=128m --verify_backlog=32
p3=$!
# Unverified readers over the whole device add read traffic to the mix.
fio --name=ss-read --filename=/dev/ss0 --direct=1 --ioengine=libaio --iodepth=4 \
	--rw=randread --bs=16k --numjobs=2 --time_based --runtime=40 --output=/dev/null >/dev/null 2>&1 &
p4=$!
sleep 2

switcher() {
	local end=$((SECONDS + 30)) n=0 bad=0 s all=(bfq-ng none mq-deadline kyber bfq)
	while [ $SECONDS -lt $end ]; do
		s=${all[RANDOM % 5]}
		echo "$s" >/sys/block/ss0/queue/scheduler 2>/dev/null || bad=$((bad + 1))
		n=$((n + 1))
	done
	echo "$n $bad" >"/tmp/ss-switch.$1"
}
switcher a &
sa=$!
switcher b &
sb=$!
wait $sa $sb
read -r na ba </tmp/ss-switch.a
read -r nb bb </tmp/ss-switch.b
check_ge "switch storm: switches done by the two switchers" "$((na + nb))" 40
check_eq "switch storm: failed scheduler writes" "$((ba + bb))" 0
select_sched ss0 bfq-ng || tap_fail "bfq-ng selected again after the storm"
sleep 2
verify_loop_stop ss-aio $p1 1
verify_loop_stop ss-seq $p2 1
verify_loop_stop ss-uring $p3 1
wait $p4 || tap_fail "switch storm: the random readers fail" "fio rc $?"
exit 0
