#!/bin/bash
# timeout: 120
# A queue whose process has exited while its reads were in flight
# (readahead(2) returns before its reads complete) is neither kept in
# service nor idled for when the last of them completes: no process will
# send it another request.  It leaves service at that completion, and the
# live-queue count is back where it was without another request to end a
# kept slot.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"

modprobe bfq-ng || die "bfq-ng"
# 400 ms per request: the process is long gone when its reads complete.
nullb or0 256 irqmode=2 completion_nsec=400000000 hw_queue_depth=32 \
	memory_backed=0 || die "null_blk"
udevadm settle 2>/dev/null
select_sched or0 bfq-ng || die "select bfq-ng"
sync && echo 3 >/proc/sys/vm/drop_caches
base=$(bfqng_stat or0 live_queues)

# 256 KiB of readahead from a process that exits at once (187: readahead
# on x86_64).  The shell holds the device open: the last close would wait
# for the pages under I/O (the block device's mapping is dropped then).
exec {hold}</dev/or0
perl -e 'open(my $f, "<", "/dev/or0") or die "open: $!";
	syscall(187, fileno($f), 0, 0, 262144) == 0 or die "readahead: $!"' ||
	die "readahead"
check_gt "its reads are in flight after the process exited" \
	"$(bfqng_stat or0 in_driver)" 0
sleep 1.5
exec {hold}<&-
diag "after the completions: serving $(bfqng_stat or0 serving), kept $(bfqng_stat or0 kept), idling $(bfqng_stat or0 idling), live queues $(bfqng_stat or0 live_queues) (before: $base)"
check_eq "no request left in the driver" "$(bfqng_stat or0 in_driver)" 0
check_eq "no queue in service (none kept for the exited process)" \
	"$(bfqng_stat or0 serving)" -1
check_eq "the device is not held idle" "$(bfqng_stat or0 idling)" 0
check_eq "live queues back to the count before" \
	"$(bfqng_stat or0 live_queues)" "$base"
check_eq "engine invariants hold" "$(bfqng_check or0)" ok
select_sched or0 none
nullb_del or0
