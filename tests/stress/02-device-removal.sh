#!/bin/bash
# timeout: 900
# Stress 2: devices removed under I/O, repeatedly, on bfq-ng.  Each round
# first proves the device works (a fio write + crc32c verify pass must
# succeed), then starts heavy I/O from several processes and removes the
# device under it: null_blk by power-off + rmdir (4 rounds, alternating
# irqmode), scsi_debug by deleting the SCSI device then unloading the module
# (3 rounds).  The I/O must end (with errors) within 30 s; nothing may hang.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"

modprobe bfq-ng || die "modprobe bfq-ng"

# ends_with_errors PID WHAT: the fio started for a removal ends within 30 s.
ends_with_errors() {
	local pid=$1 what=$2 i rc
	for ((i = 0; i < 300; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$pid" 2>/dev/null; then
		tap_fail "$what: I/O ends after the removal" "fio still running 30 s later"
		pkill -9 -P "$pid"
		kill -9 "$pid"
		return 1
	fi
	wait "$pid"
	rc=$?
	if [ $rc -ne 0 ]; then tap_ok "$what: I/O ended with errors after the removal (fio rc $rc)"
	else tap_fail "$what: I/O ended with errors after the removal" "fio rc 0: the removal went unnoticed?"; fi
}

load() { # load DEV: mixed direct I/O until the device goes away
	fio --name=gone --filename="/dev/$1" --direct=1 --ioengine=libaio --iodepth=16 \
		--rw=randrw --bs=4k --numjobs=4 --time_based --runtime=90 \
		--name=gone-seq --filename="/dev/$1" --ioengine=psync --rw=write --bs=128k \
		--time_based --runtime=90 --output=/dev/null >/dev/null 2>&1 &
}

for round in 1 2 3 4; do
	nullb dr$round 128 memory_backed=1 irqmode=$((round % 2 ? 2 : 1)) completion_nsec=50000 ||
		die "null_blk round $round"
	select_sched dr$round bfq-ng || die "select bfq-ng (null_blk round $round)"
	fio --name=pre --filename=/dev/dr$round --direct=1 --ioengine=libaio --iodepth=16 \
		--rw=randwrite --bs=4k --size=32m --verify=crc32c --verify_fatal=1 \
		--output=/dev/null >/dev/null 2>&1 ||
		tap_fail "null_blk round $round: verified I/O before the removal"
	load dr$round
	pid=$!
	sleep 2
	echo 0 >/sys/kernel/config/nullb/dr$round/power
	rmdir /sys/kernel/config/nullb/dr$round
	ends_with_errors $pid "null_blk round $round"
done

for round in 1 2 3; do
	dev=$(scsi_debug_disk 64) || die "scsi_debug round $round"
	echo 64 >/sys/block/$dev/queue/nr_requests 2>/dev/null
	select_sched "$dev" bfq-ng || die "select bfq-ng (scsi_debug round $round)"
	fio --name=pre --filename=/dev/$dev --direct=1 --ioengine=libaio --iodepth=16 \
		--rw=randwrite --bs=4k --size=32m --verify=crc32c --verify_fatal=1 \
		--output=/dev/null >/dev/null 2>&1 ||
		tap_fail "scsi_debug round $round: verified I/O before the removal"
	load "$dev"
	pid=$!
	sleep 2
	echo 1 >/sys/block/$dev/device/delete
	ends_with_errors $pid "scsi_debug round $round"
	for ((i = 0; i < 100; i++)); do
		modprobe -r scsi_debug 2>/dev/null && break
		sleep 0.2
	done
	if [ -d /sys/module/scsi_debug ]; then
		tap_fail "scsi_debug round $round: module unloads after the removal" "still loaded"
		break
	fi
done
exit 0
