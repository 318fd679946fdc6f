#!/bin/bash
# timeout: 300
# Bursts of queue creations: ten readers started together are a large burst
# and are not raised, a reader started a second later is; ten readers started
# 300 ms apart are all raised.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"

modprobe bfq-ng || die "bfq-ng"
sched_nullb bu0 || die "null_blk"
# reader OFFSET_MB: a synchronous direct reader; prints its pid.
reader() {
	dd if=/dev/bu0 of=/dev/null bs=64k iflag=direct skip=$(($1 * 16)) count=100000 status=none &
	echo $!
}

pids=()
for i in $(seq 0 9); do pids+=("$(reader $((i * 300)))"); done
sleep 1
late=$(reader 3500)
sleep 0.3
large=0 raised=0
for p in "${pids[@]}"; do
	[ "$(queue_field bu0 "$p" large_burst)" = 1 ] && large=$((large + 1))
	[ "$(queue_field bu0 "$p" raising)" != none ] && raised=$((raised + 1))
done
check_eq "ten readers started together are marked as a large burst" "$large" 10
check_eq "readers of the large burst are not raised" "$raised" 0
check_eq "a reader started a second later is raised" "$(queue_field bu0 "$late" raising)" interactive
check_eq "the late reader is not in the burst" "$(queue_field bu0 "$late" large_burst)" 0
kill "${pids[@]}" "$late" 2>/dev/null
wait 2>/dev/null
sleep 1

spaced=0
pids=()
for i in $(seq 0 9); do
	p=$(reader $((i * 300)))
	pids+=("$p")
	sleep 0.1
	[ "$(queue_field bu0 "$p" raising)" = interactive ] && spaced=$((spaced + 1))
	sleep 0.2
done
check_eq "ten readers started 300 ms apart are all raised" "$spaced" 10
kill "${pids[@]}" 2>/dev/null
wait 2>/dev/null
check_eq "engine invariants hold" "$(bfqng_check bu0)" ok
