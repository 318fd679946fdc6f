#!/bin/bash
# timeout: 900
# Stress 3: process churn on bfq-ng.
#  - fio spawns 400 job processes, each writing four
#    4 KiB blocks of its own 16 KiB region and verifying them (crc32c), then
#    exiting while the others still have I/O queued;
#  - short-lived shell processes (dd) read direct 4 KiB blocks of a
#    pattern-filled area and compare them with the pattern, or write the
#    pattern back, 24 at a time for 20 s;
#  - meanwhile deep libaio fio jobs are SIGKILLed with requests in flight.
# Afterwards the pattern area must verify in full, a crc32c write/verify
# pass must succeed, and bfq-ng's queue list must have emptied.
# (1000 fio jobs took over 900 s on the KASAN kernel under TCG: 400 here.)
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"

modprobe bfq-ng || die "modprobe bfq-ng"
nullb pc0 64 memory_backed=1 irqmode=2 completion_nsec=30000 || die "null_blk"
select_sched pc0 bfq-ng || die "select bfq-ng"
# First 32 MiB: the pattern area; last 32 MiB: fio's churn jobs.
blocks=$((32 * 256))
pat=0x5aa5c33c
fio --name=fill --filename=/dev/pc0 --direct=1 --ioengine=libaio --iodepth=16 --rw=write \
	--bs=64k --size=32m --verify=pattern --verify_pattern=$pat --do_verify=0 \
	--output=/dev/null >/dev/null || die "fill the pattern area"
dd if=/dev/pc0 of=/tmp/pc-block bs=4k count=1 iflag=direct status=none || die "read the pattern block"

one() { # a short-lived process doing a few I/Os in the pattern area
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

rm -f /tmp/pc.fail /tmp/pc.stop /tmp/pc.killed
# In-flight exits: deep libaio queues (threads of one process, so SIGKILL
# takes all of them) killed at random moments.  They write the pattern.
(
	while [ ! -e /tmp/pc.stop ]; do
		fio --thread --name=killed --filename=/dev/pc0 --direct=1 --ioengine=libaio \
			--iodepth=32 --rw=randwrite --bs=4k --size=32m --verify=pattern \
			--verify_pattern=$pat --do_verify=0 --time_based --runtime=30 \
			--output=/dev/null >/dev/null 2>&1 &
		f=$!
		sleep "0.$((2 + RANDOM % 7))"
		kill -9 $f 2>/dev/null
		wait $f 2>/dev/null
		echo x >>/tmp/pc.killed
	done
) &
killer=$!

jobs_ok=0
for round in 1; do
	if fio --name=churn --filename=/dev/pc0 --direct=1 --ioengine=libaio --iodepth=4 \
		--rw=randwrite --bs=4k --size=16k --offset=32m --offset_increment=16k \
		--numjobs=400 --randseed=$round --verify=crc32c --verify_fatal=1 \
		--group_reporting --output=/tmp/pc-churn.log >/dev/null 2>&1; then
		jobs_ok=$((jobs_ok + 400))
	else
		tap_fail "process churn: 400 fio job processes (round $round) write and verify" \
			"$(grep -iE 'err|verify' /tmp/pc-churn.log | head -n 3 | paste -sd'|')"
	fi
done

end=$((SECONDS + 20))
procs=0
while [ $SECONDS -lt $end ]; do
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
killed=$(wc -l </tmp/pc.killed 2>/dev/null || echo 0)
diag "$jobs_ok fio job processes, $procs short-lived dd processes, $killed fio jobs killed in flight"
check_ge "process churn: short-lived I/O processes (fio jobs + dd)" "$((jobs_ok + procs))" 400
check_ge "process churn: fio jobs killed with I/O in flight" "$killed" 5
if [ -s /tmp/pc.fail ]; then
	tap_fail "process churn: every short-lived dd read back the pattern or wrote" \
		"$(wc -l </tmp/pc.fail) failure(s): $(head -n 3 /tmp/pc.fail | paste -sd'|')"
else
	tap_ok "process churn: every short-lived dd read back the pattern or wrote"
fi
if pgrep -x fio >/dev/null; then
	tap_fail "process churn: no fio left running" "$(pgrep -a -x fio | head -n 3 | paste -sd'|')"
	pkill -9 -x fio
fi
fio --name=check --filename=/dev/pc0 --direct=1 --ioengine=libaio --iodepth=16 --rw=read \
	--bs=64k --size=32m --verify=pattern --verify_pattern=$pat --verify_fatal=1 \
	--output=/tmp/pc-check.log >/dev/null 2>&1 &&
	tap_ok "process churn: the pattern area verifies in full" ||
	tap_fail "process churn: the pattern area verifies in full" "$(grep -iE 'err|verify' /tmp/pc-check.log | head -n 3 | paste -sd'|')"
fio --name=after --filename=/dev/pc0 --direct=1 --ioengine=libaio --iodepth=16 --rw=randwrite \
	--bs=4k --size=32m --verify=crc32c --verify_fatal=1 --output=/tmp/pc-after.log >/dev/null 2>&1 &&
	tap_ok "process churn: crc32c write/verify pass afterwards" ||
	tap_fail "process churn: crc32c write/verify pass afterwards" "$(grep -iE 'err|verify' /tmp/pc-after.log | head -n 3 | paste -sd'|')"
# Exited processes' queues are gone once idle (only the live ones remain).
q=/sys/kernel/debug/block/pc0/sched/queues
if [ -r $q ]; then
	sleep 1
	check_le "process churn: queues left in bfq-ng's debugfs after the churn" "$(grep -c '^pid ' $q)" 8
fi
exit 0
