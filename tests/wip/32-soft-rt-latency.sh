#!/bin/bash
# timeout: 600
# (Work in progress: not in `make check`; run with `make check-wip`.
# Since raised queues are never hopeless (0422031) it mostly holds: 3.73,
# 4.98 and 5.38 ms against bounds of 8.3-9.0 ms, but a CI run measured
# 11.49 ms against 8.80.)
# Soft real-time latency: a periodic reader (one 128 KiB read every 100 ms)
# beside 4 greedy readers keeps its mean per-batch latency near its latency
# on the idle device (bound: max(3 x idle, idle + 2 ms)); with
# low_latency=0 it is worse.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"

modprobe bfq-ng || die "bfq-ng"
sched_nullb rl0 || die "null_blk"
periodic() {
	fio --name=periodic --filename=/dev/rl0 --direct=1 --ioengine=psync \
		--rw=read --bs=128k --offset=3g --size=512m --thinktime=100000 \
		--time_based --runtime="$2" --ramp_time=3 --output-format=json \
		--output="$1" >/dev/null
}
lat_ms() {
	jq '[.jobs[] | select(.jobname == "periodic") | .read.clat_ns.mean] | add / 1000000' "$1"
}
periodic /tmp/rl-idle.json 10 || die "fio idle"
idle=$(lat_ms /tmp/rl-idle.json)
pids=()
for i in 0 1 2 3; do
	pids+=("$(start_reader rl0 $((i * 600)) --prioclass=2 --prio=3 --nice=19)")
done
sleep 2
periodic /tmp/rl-load.json 15 || die "fio load"
loaded=$(lat_ms /tmp/rl-load.json)
echo 0 >/sys/block/rl0/queue/iosched/low_latency
periodic /tmp/rl-off.json 15 || die "fio low_latency=0"
off=$(lat_ms /tmp/rl-off.json)
stop_readers "${pids[@]}"
diag "periodic reader mean latency: idle $idle ms, loaded $loaded ms, loaded with low_latency=0 $off ms"
bound=$(awk -v i="$idle" 'BEGIN { b = 3 * i; if (i + 2 > b) b = i + 2; printf "%.3f", b }')
check_le "periodic reader's mean latency under 4 greedy readers (ms)" "$loaded" "$bound"
check_lt "low_latency=1 gives the periodic reader lower latency than low_latency=0 (ms)" "$loaded" "$off"
