#!/bin/bash
# timeout: 1500
# No I/O is lost or corrupted under bfq-ng: fio writes with crc32c verify
# (sequential and random; psync, libaio and io_uring; depths 1 and 32; 8
# jobs), then reads everything back with verify_only on other engines, on
# the raw device and on ext4 over it, on null_blk, virtio and scsi_debug.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"

modprobe bfq-ng || die "cannot load bfq-ng"
nullb iv0 512 memory_backed=1 irqmode=2 completion_nsec=20000 || die "null_blk"
sd=$(scsi_debug_disk 512) || die "cannot create a scsi_debug disk"
vd=$(lsblk -dno NAME | grep '^vd' | grep -v '^vda$' | head -n1)

# region N: on a raw device each job owns its own 4 MiB, of which it writes
# 2 (fio's offset_increment counts within a section, not across sections).
region() {
	[ -n "$RAW" ] && echo "offset=$(($1 * 4))m"
}

# jobfile TARGET-OPTION PHASE: eight jobs; engines swap between phases (job
# names stay, so on ext4 the read phase finds the files the write phase made).
jobfile() {
	local target=$1 phase=$2 e1=psync e2=libaio e3=io_uring
	[ "$phase" = read ] && { e1=io_uring; e2=psync; e3=libaio; }
	cat <<JOB
[global]
$target
verify=crc32c
verify_fatal=1
size=1m
bs=4k
randseed=4242
$([ "$phase" = read ] && echo verify_only=1)
[seq-d1]
rw=write
ioengine=$e1
$(region 0)
[rand-d1]
rw=randwrite
ioengine=$e1
$(region 1)
[seq16k-d32]
rw=write
ioengine=$e2
iodepth=32
bs=16k
$(region 2)
[rand-d32]
rw=randwrite
ioengine=$e2
iodepth=32
$(region 3)
[seq64k-d32]
rw=write
ioengine=$e3
iodepth=32
bs=64k
$(region 4)
[rand-d32b]
rw=randwrite
ioengine=$e3
iodepth=32
$(region 5)
[rand-d1b]
rw=randwrite
ioengine=$e3
$(region 6)
[rand-d32c]
rw=randwrite
ioengine=$e1
iodepth=32
$(region 7)
JOB
}

# run_verify NAME TARGET-OPTION: write phase then verify-only read phase.
run_verify() {
	local name=$1 target=$2 phase out errs=0
	for phase in write read; do
		out=/tmp/fio-$name-$phase.json
		jobfile "$target" "$phase" >/tmp/job.fio
		if ! fio --output-format=json --output="$out" /tmp/job.fio; then
			errs=$((errs + 1))
			continue
		fi
		errs=$((errs + $(fio_errors "$out")))
		[ "$phase" = write ] && sync && echo 3 >/proc/sys/vm/drop_caches
	done
	check_eq "fio crc32c verify, $name under bfq-ng (failed jobs)" "$errs" 0
}

for d in iv0 "$sd" "$vd"; do
	if [ -z "$d" ] || ! select_sched "$d" bfq-ng; then
		tap_fail "fio crc32c verify on every device kind" "device '${d}' missing or bfq-ng not selectable"
		continue
	fi
	RAW=1 run_verify "raw $d" "filename=/dev/$d
direct=1"
	mkfs.ext4 -q -F "/dev/$d" && mkdir -p "/mnt/$d" && mount "/dev/$d" "/mnt/$d" ||
		{ tap_fail "fio crc32c verify, ext4 on $d" "mkfs/mount failed"; continue; }
	run_verify "ext4 on $d" "directory=/mnt/$d
end_fsync=1"
	umount "/mnt/$d"
	check_eq "engine invariants hold after verify on $d" "$(bfqng_check "$d")" ok
	select_sched "$d" none
done
modprobe -r scsi_debug
nullb_del iv0
