#!/bin/bash
# timeout: 600
# Weight raising: a reader started beside a long-running greedy reader gets
# most of the throughput (>= 80%) until its raising ends, then 1:1; with
# low_latency=0 it gets 1:1 from the start; at a non-default BE level it is
# not raised.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"

modprobe bfq-ng || die "bfq-ng"
# 4 ms per 64 KiB request (16 MB/s): raising ends by its 64 MiB sector cap
# only after about 4 s, so the raised period can be measured.
nullb wr0 4096 irqmode=2 completion_nsec=4000000 hw_queue_depth=1 || die "null_blk"
select_sched wr0 bfq-ng || die "select"
echo 64 >/sys/block/wr0/queue/nr_requests
wr_ms=$(cat /sys/block/wr0/queue/iosched/wr_max_time)
diag "wr_max_time ${wr_ms} ms"

a=$(start_reader wr0 0) || die "reader a"
sleep 3
b=$(start_reader wr0 1024) || die "reader b"
sleep 0.3
kind=$(queue_field wr0 "$b" raising)
if [ "$kind" = interactive ] || [ "$kind" = soft-rt ]; then
	tap_ok "a new reader's queue is raised ($kind)"
else
	tap_fail "a new reader's queue is raised" "raising '$kind', expected interactive (or soft-rt)"
fi
check_ge "raised newcomer's share of the device, first 2 s" "$(share_of "$a" "$b" 2)" 0.80
# Raising ends by time or by the sector cap; wait for it.
for ((i = 0; i < (wr_ms / 100 + 50); i++)); do
	[ "$(queue_field wr0 "$b" raising)" = none ] && break
	sleep 0.1
done
check_eq "raising ends within wr_max_time" "$(queue_field wr0 "$b" raising)" none
sleep 1
check_range "newcomer's share once raising ended (1:1)" "$(share_of "$a" "$b" 6)" 0.43 0.57
stop_readers "$b"

echo 0 >/sys/block/wr0/queue/iosched/low_latency
b=$(start_reader wr0 1024) || die "reader b"
sleep 0.3
check_eq "low_latency=0: a new reader is not raised" "$(queue_field wr0 "$b" raising)" none
check_range "low_latency=0: newcomer's share from the start (1:1)" "$(share_of "$a" "$b" 3)" 0.40 0.60
stop_readers "$b"
echo 1 >/sys/block/wr0/queue/iosched/low_latency

b=$(start_reader wr0 1024 --prioclass=2 --prio=3) || die "reader b"
sleep 0.3
check_eq "a new reader at BE level 3 (not the default) is not raised" "$(queue_field wr0 "$b" raising)" none
check_range "BE3 newcomer beside a BE4 reader gets its weight's share (50:40)" "$(share_of "$a" "$b" 3)" 0.47 0.64
stop_readers "$a" "$b"
check_eq "engine invariants hold after raising" "$(bfqng_check wr0)" ok
