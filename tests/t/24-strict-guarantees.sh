#!/bin/bash
# timeout: 300
# With strict_guarantees=1, bfq-ng keeps at most one request in the device
# even when fio keeps 32 in flight: measured by the disk itself (hddsim with
# NCQ depth 32 counts the requests it holds) and by the scheduler.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-devices.sh"
source "$BFQNG_TESTS/lib-sched.sh"

modprobe bfq-ng || die "bfq-ng"
dev=$(make_hdd ncq_depth=32) || die "hddsim"
use_sched "$dev" bfq-ng || die "select"
echo 1 >"/sys/block/$dev/queue/iosched/strict_guarantees"
fio --name=deep --filename="/dev/$dev" --direct=1 --ioengine=libaio --iodepth=32 \
	--rw=randread --bs=4k --numjobs=2 --time_based --runtime=10 --output=/dev/null ||
	die "fio"
check_le "strict_guarantees: most requests the disk held at once" "$(hdd_stat "$dev" max_outstanding)" 1
check_le "strict_guarantees: most requests bfq-ng had in the driver" "$(bfqng_stat "$dev" max_in_driver)" 1
echo 0 >"/sys/block/$dev/queue/iosched/strict_guarantees"
fio --name=deep --filename="/dev/$dev" --direct=1 --ioengine=libaio --iodepth=32 \
	--rw=randread --bs=4k --numjobs=2 --time_based --runtime=5 --output=/dev/null ||
	die "fio"
check_gt "without strict_guarantees the disk does hold several requests" "$(hdd_stat "$dev" max_outstanding)" 1
check_eq "engine invariants hold after strict mode" "$(bfqng_check "$dev")" ok
select_sched "$dev" none
remove_hdd
