#!/bin/bash
# timeout: 600
# Stress 3: process churn on bfq-ng.  Thousands of short-lived processes do
# a few direct I/Os each (4 KiB pattern blocks read and compared, or written
# back), 24 at a time, for up to 60 s; meanwhile libaio fio jobs are killed
# with SIGKILL while their requests are in flight.  Every block of the area
# holds the same pattern, so each reader compares what it read against it,
# and a final full fio pattern verify plus a crc32c write/verify pass must
# succeed.  Also checks that bfq-ng let go of the exited processes' queues.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"

modprobe bfq-ng || die "modprobe bfq-ng"
nullb pc0 64 memory_backed=1 irqmode=2 completion_nsec=30000 || die "null_blk"
select_sched pc0 bfq-ng || die "select bfq-ng"
blocks=$((64 * 256))	# 4 KiB blocks
pat=0x5aa5c33c
fio --name=fill --filename=/dev/pc0 --direct=1 --ioengine=libaio --iodepth=16 --rw=write \
	--bs=64k --verify=pattern --verify_pattern=$pat --do_verify=0 --output=/dev/null >/dev/null ||
	die "fill the device with the pattern"
dd if=/dev/pc0 of=/tmp/pc-block bs=4k count=1 iflag=direct status=none || die "read the pattern block"

one() { # one I: a short-lived process doing a few I/Os
	local b=$(( (RANDOM * 32768 + RANDOM) % blocks )) n=$((1 + RANDOM % 4)) k
	if ((RANDOM % 4)); then
		for ((k = 0; k < n; k++)); do
			dd if=/dev/pc0 bs=4k count=1 skip=$(( (b + k) % blocks )) iflag=direct status=none |
				cmp -s - /tmp/pc-block || { echo "read block $(( (b + k) % blocks ))" >>/tmp/pc.fail; return; }
		done
	else
		dd if=/tmp/pc-block of=/dev/pc0 bs=4k count=1 seek=$b oflag=direct conv=notrunc status=none ||
			echo "write block $b" >>/tmp/pc.fail
	fi
}

rm -f /tmp/pc.fail
# In-flight exits: deep libaio queues killed at random moments.
(
	while [ ! -e /tmp/pc.stop ]; do
		fio --name=killed --filename=/dev/pc0 --direct=1 --ioengine=libaio --iodepth=32 \
			--rw=randwrite --bs=4k --verify=pattern --verify_pattern=$pat --do_verify=0 \
			--time_based --runtime=30 --output=/dev/null >/dev/null 2>&1 &
		f=$!
		sleep "0.$((2 + RANDOM % 7))"
		pkill -9 -P $f 2>/dev/null
		kill -9 $f 2>/dev/null
		wait $f 2>/dev/null
		echo x >>/tmp/pc.killed
	done
) &
killer=$!
rm -f /tmp/pc.stop /tmp/pc.killed
end=$((SECONDS + 60))
procs=0
while [ $SECONDS -lt $end ] && [ $procs -lt 4000 ]; do
	pids=()
	for ((j = 0; j < 24; j++)); do
		one &
		pids+=($!)
	done
	wait "${pids[@]}"
	procs=$((procs + 24))
done
touch /tmp/pc.stop
wait $killer
diag "$procs short-lived I/O processes, $(wc -l </tmp/pc.killed 2>/dev/null || echo 0) fio jobs killed in flight"
check_ge "process churn: short-lived I/O processes run" "$procs" 1000
check_ge "process churn: fio jobs killed with I/O in flight" "$(wc -l </tmp/pc.killed 2>/dev/null || echo 0)" 5
if [ -s /tmp/pc.fail ]; then
	tap_fail "process churn: every short-lived I/O read back the pattern or wrote" \
		"$(wc -l </tmp/pc.fail) failure(s): $(head -n 3 /tmp/pc.fail | paste -sd'|')"
else
	tap_ok "process churn: every short-lived I/O read back the pattern or wrote"
fi
fio --name=check --filename=/dev/pc0 --direct=1 --ioengine=libaio --iodepth=16 --rw=read \
	--bs=64k --verify=pattern --verify_pattern=$pat --verify_fatal=1 --output=/dev/null >/dev/null 2>&1 &&
	tap_ok "process churn: the whole device still holds the pattern" ||
	tap_fail "process churn: the whole device still holds the pattern" "fio pattern verify failed"
fio --name=after --filename=/dev/pc0 --direct=1 --ioengine=libaio --iodepth=16 --rw=randwrite \
	--bs=4k --size=32m --verify=crc32c --verify_fatal=1 --output=/dev/null >/dev/null 2>&1 &&
	tap_ok "process churn: crc32c write/verify pass afterwards" ||
	tap_fail "process churn: crc32c write/verify pass afterwards" "fio failed"
# Exited processes' queues are gone once idle (only the live ones remain).
q=/sys/kernel/debug/block/pc0/sched/queues
if [ -r $q ]; then
	sleep 1
	check_le "process churn: queues left in bfq-ng's debugfs after the churn" "$(grep -c '^pid ' $q)" 8
fi
exit 0
