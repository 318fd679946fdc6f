#!/bin/bash
# timeout: 600
# Soft real-time: a periodic reader (one 64 KiB read every 100 ms, 1280
# sectors/s, well under the 7000 sectors/s threshold) beside 4 greedy
# readers keeps its per-batch latency near its latency on the idle device;
# a reader at 8x that rate does not get soft real-time raising.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"

modprobe bfq-ng || die "bfq-ng"
sched_nullb rt0 || die "null_blk"

# periodic JSON THINK_US RUNTIME: the periodic reader, latency after 3 s.
periodic() {
	fio --name=periodic --filename=/dev/rt0 --direct=1 --ioengine=psync \
		--rw=read --bs=64k --offset=3g --size=512m --thinktime="$2" \
		--time_based --runtime="$3" --ramp_time=3 --output-format=json \
		--output="$1" >/dev/null
}
lat_ms() {
	jq '[.jobs[] | select(.jobname == "periodic") | .read.clat_ns.mean] | add / 1000000' "$1"
}

periodic /tmp/rt-idle.json 100000 10 || die "fio idle"
idle=$(lat_ms /tmp/rt-idle.json)
# Greedy readers at an explicit level, so that they are never raised.
pids=()
for i in 0 1 2 3; do
	pids+=("$(start_reader rt0 $((i * 600)) --prioclass=2 --prio=3)")
done
sleep 2
periodic /tmp/rt-load.json 100000 15 &
fp=$!
sleep 5
softrt=0
for ((i = 0; i < 40; i++)); do
	for p in $(pgrep -P $fp); do
		[ "$(queue_field rt0 "$p" raising)" = soft-rt ] && softrt=$((softrt + 1))
	done
	sleep 0.1
done
wait $fp || die "fio load"
loaded=$(lat_ms /tmp/rt-load.json)
bound=$(awk -v i="$idle" 'BEGIN { b = 3 * i; if (i + 2 > b) b = i + 2; printf "%.3f", b }')
diag "periodic reader mean latency: idle ${idle} ms, under 4 greedy readers ${loaded} ms"
check_gt "the periodic reader's queue is seen soft real-time raised (samples)" "$softrt" 0
check_le "periodic reader's mean latency under 4 greedy readers (ms)" "$loaded" "$bound"

periodic /tmp/rt-fast.json 12500 12 &
fp=$!
sleep 4
fast=0
for ((i = 0; i < 40; i++)); do
	for p in $(pgrep -P $fp); do
		[ "$(queue_field rt0 "$p" raising)" = soft-rt ] && fast=$((fast + 1))
	done
	sleep 0.1
done
wait $fp
check_eq "a reader at 8x the rate (10240 sectors/s) is never soft real-time (samples)" "$fast" 0
stop_readers "${pids[@]}"
check_eq "engine invariants hold" "$(bfqng_check rt0)" ok
