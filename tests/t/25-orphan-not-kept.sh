#!/bin/bash
# timeout: 120
# A queue whose process has exited while its reads were in flight
# (readahead(2) returns before its reads complete) is neither kept in
# service nor idled for (even with strict_guarantees=1) when the last of
# them completes: no process will send it another request.  It leaves
# service at that completion, and the live-queue count is back where it
# was without another request to end a kept slot.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"

modprobe bfq-ng || die "bfq-ng"
# 2 s per request: the process is long gone when its reads complete, and
# the check that they are in flight, a few process starts after it, has
# time (at 400 ms it once found them done, in CI under TCG).
nullb or0 256 irqmode=2 completion_nsec=2000000000 hw_queue_depth=32 \
	memory_backed=0 || die "null_blk"
udevadm settle 2>/dev/null
select_sched or0 bfq-ng || die "select bfq-ng"
sync && echo 3 >/proc/sys/vm/drop_caches
base=$(bfqng_stat or0 live_queues)

# orphan OFFSET: readahead of the device from OFFSET by a process that
# exits at once (187: readahead on x86_64).  The shell holds the device
# open: the last close would wait for the pages under I/O (the block
# device's mapping is dropped then).
orphan() {
	local t0 n
	exec {hold}</dev/or0
	t0=$(date +%s%N)
	perl -e 'open(my $f, "<", "/dev/or0") or die "open: $!";
		syscall(187, fileno($f), $ARGV[0] + 0, 0, 262144) == 0 or die "readahead: $!"' "$1" ||
		die "readahead"
	n=$(bfqng_stat or0 in_driver)
	diag "in the driver $((($(date +%s%N) - t0) / 1000000)) ms after the readahead's process started: $n"
	check_gt "its reads are in flight after the process exited" "$n" 0
	sleep 2.5
	exec {hold}<&-
}

orphan 0
diag "after the completions: serving $(bfqng_stat or0 serving), kept $(bfqng_stat or0 kept), live queues $(bfqng_stat or0 live_queues) (before: $base)"
check_eq "no request left in the driver" "$(bfqng_stat or0 in_driver)" 0
check_eq "no queue in service (none kept for the exited process)" \
	"$(bfqng_stat or0 serving)" -1
check_eq "live queues back to the count before" \
	"$(bfqng_stat or0 live_queues)" "$base"

# strict_guarantees idles for every sync queue that empties: not for one
# whose process is gone.
echo 1 >/sys/block/or0/queue/iosched/strict_guarantees || die "strict_guarantees"
idles=$(bfqng_stat or0 idle_started)
orphan 16777216
check_eq "with strict_guarantees=1, no idling for the exited process (idle waits started)" \
	"$(($(bfqng_stat or0 idle_started) - idles))" 0
check_eq "no queue in service then either" "$(bfqng_stat or0 serving)" -1
echo 0 >/sys/block/or0/queue/iosched/strict_guarantees
check_eq "engine invariants hold" "$(bfqng_check or0)" ok
select_sched or0 none
nullb_del or0
