#!/bin/bash
# timeout: 600
# An fsync-heavy workload (small writes, fsync after each) on ext4 over
# bfq-ng completes without errors.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"

modprobe bfq-ng || die "bfq-ng"
nullb fs0 512 memory_backed=1 irqmode=2 completion_nsec=100000 || die "null_blk"
select_sched fs0 bfq-ng || die "select"
mkfs.ext4 -q -F /dev/fs0 && mkdir -p /mnt/fs0 && mount /dev/fs0 /mnt/fs0 || die "mkfs/mount"
if fio --name=fsync --directory=/mnt/fs0 --rw=randwrite --bs=4k --size=4m \
	--fsync=1 --numjobs=4 --time_based --runtime=8 --output-format=json \
	--output=/tmp/fsync.json && [ "$(fio_errors /tmp/fsync.json)" = 0 ]; then
	tap_ok "fsync after every 4 KiB write on ext4 completes ($(fio_bw_kib /tmp/fsync.json) KiB/s)"
else
	tap_fail "fsync after every 4 KiB write on ext4 completes" "fio failed or reported errors"
fi
umount /mnt/fs0
check_eq "engine invariants hold after fsync load" "$(bfqng_check fs0)" ok
select_sched fs0 none
nullb_del fs0
