#!/bin/bash
# timeout: 600
# Soft real-time detection: a periodic reader (one 128 KiB read every
# 100 ms, 2560 sectors/s, well under the 7000 sectors/s threshold) beside 4
# greedy readers is raised as soft real-time; a reader at 8x that rate is
# not.  (Its latency under load is measured by tests/wip/32-soft-rt-latency.sh,
# not yet within its bound under TCG.)  The greedy readers run at CPU nice 19
# so that the emulated CPU's scheduling does not stand in for the I/O
# scheduler's.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"

modprobe bfq-ng || die "bfq-ng"
sched_nullb rt0 || die "null_blk"

# periodic JSON THINK_US RUNTIME: the periodic reader.
periodic() {
	fio --name=periodic --filename=/dev/rt0 --direct=1 --ioengine=psync \
		--rw=read --bs=128k --offset=3g --size=512m --thinktime="$2" \
		--time_based --runtime="$3" --ramp_time=3 --output-format=json \
		--output="$1" >/dev/null
}

# Greedy readers at an explicit level, so that they are never raised.
pids=()
for i in 0 1 2 3; do
	pids+=("$(start_reader rt0 $((i * 600)) --prioclass=2 --prio=3 --nice=19)")
done
sleep 2
periodic /tmp/rt-load.json 100000 10 &
fp=$!
sleep 5
softrt=0
for ((i = 0; i < 40; i++)); do
	for p in $(pids_under $fp); do
		[ "$(queue_field rt0 "$p" raising)" = soft-rt ] && softrt=$((softrt + 1))
	done
	sleep 0.1
done
wait $fp || die "fio load"
check_gt "the periodic reader's queue is seen soft real-time raised (samples)" "$softrt" 0
periodic /tmp/rt-fast.json 12500 9 &
fp=$!
sleep 4
fast=0 seen=0
for ((i = 0; i < 40; i++)); do
	for p in $(pids_under $fp); do
		[ -n "$(queue_line rt0 "$p")" ] && seen=$((seen + 1))
		[ "$(queue_field rt0 "$p" raising)" = soft-rt ] && fast=$((fast + 1))
	done
	sleep 0.1
done
wait $fp
check_gt "the fast periodic reader's queue was observed (samples)" "$seen" 0
check_eq "a reader at 8x the rate (20480 sectors/s) is never soft real-time (samples)" "$fast" 0
stop_readers "${pids[@]}"
check_eq "engine invariants hold" "$(bfqng_check rt0)" ok
