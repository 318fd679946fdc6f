#!/bin/bash
# timeout: 300
# Sequential 4 KiB writes and reads are merged under bfq-ng (merge counts
# in /sys/block/X/stat grow).
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"

modprobe bfq-ng || die "bfq-ng"
nullb mg0 256 memory_backed=1 irqmode=2 completion_nsec=500000 hw_queue_depth=2 || die "null_blk"
select_sched mg0 bfq-ng || die "select"
echo 64 >/sys/block/mg0/queue/nr_requests
read -r _ rm0 _ _ _ wm0 _ </sys/block/mg0/stat
fio --name=w --filename=/dev/mg0 --direct=1 --ioengine=libaio --iodepth=32 \
	--rw=write --bs=4k --size=16m --output=/dev/null || die "fio write"
fio --name=r --filename=/dev/mg0 --direct=1 --ioengine=libaio --iodepth=32 \
	--rw=read --bs=4k --size=16m --output=/dev/null || die "fio read"
read -r _ rm1 _ _ _ wm1 _ </sys/block/mg0/stat
check_gt "sequential 4 KiB direct writes are merged (write merges)" "$((wm1 - wm0))" 0
check_gt "sequential 4 KiB direct reads are merged (read merges)" "$((rm1 - rm0))" 0
check_eq "engine invariants hold after merging" "$(bfqng_check mg0)" ok
select_sched mg0 none
nullb_del mg0
