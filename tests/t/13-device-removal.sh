#!/bin/bash
# timeout: 300
# A null_blk device powered off and removed while fio runs on it under
# bfq-ng: fio ends with errors, nothing hangs, the kernel stays clean.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"

modprobe bfq-ng || die "bfq-ng"
for round in 1 2 3; do
	nullb rm0 128 memory_backed=1 irqmode=2 completion_nsec=50000 || die "null_blk"
	select_sched rm0 bfq-ng || die "select"
	fio --name=gone --filename=/dev/rm0 --direct=1 --ioengine=libaio --iodepth=16 \
		--rw=randrw --bs=4k --numjobs=4 --time_based --runtime=60 \
		--output=/dev/null >/dev/null 2>&1 &
	pid=$!
	sleep 3
	echo 0 >/sys/kernel/config/nullb/rm0/power
	rmdir /sys/kernel/config/nullb/rm0
	for ((i = 0; i < 300 && $(kill -0 $pid 2>/dev/null && echo 1 || echo 0); i++)); do
		sleep 0.1
	done
	if kill -0 $pid 2>/dev/null; then
		tap_fail "fio ends after its device is removed (round $round)" "still running 30 s later"
		kill -9 $pid
	else
		wait $pid
		rc=$?
		if [ "$rc" -ne 0 ] && [ ! -e /dev/rm0 ]; then
			tap_ok "fio ends with errors after its device is removed (round $round, rc $rc)"
		else
			tap_fail "fio ends with errors after its device is removed (round $round)" "rc $rc, /dev/rm0 $( [ -e /dev/rm0 ] && echo present || echo gone)"
		fi
	fi
done
