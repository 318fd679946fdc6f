#!/bin/bash
# timeout: 600
# Soft real-time latency: a periodic reader (one 128 KiB read every 100 ms)
# beside 4 greedy readers keeps its median per-batch latency near its
# median on the idle device (bound: max(3 x idle, idle + 2 ms)); with
# low_latency=0 its median is higher.  Medians, because under TCG the idle
# device's own latencies have a tail of 5x the median (a probe measured p50
# 1.97 ms, p99 10.4 ms idle), and a few such batches moved the mean past
# its bound in one CI run (11.49 ms against 8.80 ms, when 3.73-5.38 ms passed
# before); the means and tails are printed for the report.  The greedy
# readers run at CPU nice 19 so that the emulated CPU's scheduling does not
# stand in for the I/O scheduler's.
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
# lat_ms JSON STAT: the periodic job's completion latency STAT (mean, or a
# percentile such as 50.000000) in ms.
lat_ms() {
	jq --arg s "$2" '[.jobs[] | select(.jobname == "periodic") | .read.clat_ns |
		if $s == "mean" then .mean else .percentile[$s] end] | add / 1000000' "$1"
}
# lat_summary JSON: mean, median, p90, p99 and max, for the log.
lat_summary() {
	jq -r '.jobs[] | select(.jobname == "periodic") | .read.clat_ns |
		"mean \(.mean / 1e6) p50 \(.percentile["50.000000"] / 1e6) p90 \(.percentile["90.000000"] / 1e6) p99 \(.percentile["99.000000"] / 1e6) max \(.max / 1e6) ms (\(.N) batches)"' "$1"
}
periodic /tmp/rl-idle.json 6 || die "fio idle"
idle=$(lat_ms /tmp/rl-idle.json 50.000000)
pids=()
for i in 0 1 2 3; do
	pids+=("$(start_reader rl0 $((i * 600)) --prioclass=2 --prio=3 --nice=19)")
done
sleep 2
periodic /tmp/rl-load.json 10 || die "fio load"
loaded=$(lat_ms /tmp/rl-load.json 50.000000)
echo 0 >/sys/block/rl0/queue/iosched/low_latency
periodic /tmp/rl-off.json 10 || die "fio low_latency=0"
off=$(lat_ms /tmp/rl-off.json 50.000000)
stop_readers "${pids[@]}"
diag "periodic reader, idle device: $(lat_summary /tmp/rl-idle.json)"
diag "periodic reader, 4 greedy readers: $(lat_summary /tmp/rl-load.json)"
diag "periodic reader, 4 greedy readers, low_latency=0: $(lat_summary /tmp/rl-off.json)"
bound=$(awk -v i="$idle" 'BEGIN { b = 3 * i; if (i + 2 > b) b = i + 2; printf "%.3f", b }')
check_le "periodic reader's median latency under 4 greedy readers (ms; idle median $idle)" "$loaded" "$bound"
check_lt "low_latency=1 gives the periodic reader a lower median latency than low_latency=0 (ms)" "$loaded" "$off"
check_eq "engine invariants hold" "$(bfqng_check rl0)" ok
