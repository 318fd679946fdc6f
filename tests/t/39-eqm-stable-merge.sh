#!/bin/bash
# timeout: 300
# Stable merge: two random readers started together by one fio (same group,
# same priority) on a null_blk without internal queueing, where idling for a
# random reader gains nothing, share one queue once the later one has been
# observed (600 ms), and stay merged although the shared queue is seeky
# (stably merged processes are not split).  Two sequential readers started
# together on hddsim, for which idling pays, are not stably merged.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-devices.sh"
source "$BFQNG_TESTS/lib-sched.sh"

modprobe bfq-ng || die "bfq-ng"
sched_nullb sm0 || die "null_blk"
queues=/sys/kernel/debug/block/sm0/sched/queues
fio --name=rand --filename=/dev/sm0 --rw=randread --bs=4k --direct=1 --ioengine=psync \
	--numjobs=2 --size=4g --runtime=8 --time_based --output=/dev/null >/dev/null 2>&1 &
fp=$!
sleep 3
check_ge "random readers started together: processes stably merged after 3 s" \
	"$(bfqng_stat sm0 stable_merges)" 1
check_eq "a queue holds both" "$(grep -c ' procs 2 ' $queues)" 1
sleep 3
line=$(grep ' procs 2 ' $queues)
diag "${line:-no shared queue}"
check_eq "3 s later the seeky shared queue still holds both" "$(grep -c ' procs 2 .* seeky 1 \| seeky 1 .* procs 2 ' <<<"$line")" 1
check_eq "and none was split off it" "$(bfqng_stat sm0 coop_splits)" 0
wait $fp
check_eq "engine invariants hold" "$(bfqng_check sm0)" ok
select_sched sm0 none
nullb_del sm0

dev=$(make_hdd) || die "make_hdd"
at_exit remove_hdd
use_sched "$dev" bfq-ng || die "select bfq-ng"
fio --name=seq --filename="/dev/$dev" --rw=read --bs=64k --direct=1 --ioengine=psync \
	--numjobs=2 --offset_increment=2g --size=1g --runtime=4 --time_based --output=/dev/null >/dev/null 2>&1
check_eq "sequential readers started together on hddsim: processes stably merged" \
	"$(bfqng_stat "$dev" stable_merges)" 0
set_sched "$dev" none
