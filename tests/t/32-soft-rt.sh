#!/bin/bash
# timeout: 600
# Soft real-time detection: a periodic reader (one 128 KiB read every
# 100 ms, 2560 sectors/s, well under the 7000 sectors/s threshold) beside 4
# greedy readers is raised as soft real-time; a reader at 8x that rate, run
# after the greedy readers stop so that it can reach that rate, is not.
# (Under load a queue that is not raised waits out the in-service queue's
# slice, so its delivered rate, which is what the heuristic measures, can
# fall under the threshold: a CI run saw one such sample.)  Its latency
# under load is measured by 32-soft-rt-latency.sh.  The greedy readers run
# at CPU nice 19 so that the emulated CPU's scheduling does not stand in for
# the I/O scheduler's.
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

# sample_raising DEV FIO_PID N: up to N samples, 0.1 s apart, while FIO_PID
# runs, of the raising state of its job processes' queues (looked up once;
# the queues file is scanned with bash builtins so that a sample is cheap
# under TCG).  Prints "SOFTRT_SAMPLES SEEN_SAMPLES" and logs the states seen.
sample_raising() {
	local i p pids line soft=0 seen=0 states=
	pids=$(pids_under "$2")
	for ((i = 0; i < $3; i++)); do
		[ -d "/proc/$2" ] || break
		read_queues "$1"
		for line in "${QUEUES[@]}"; do
			for p in $pids; do
				[[ $line == "pid $p "* ]] || continue
				seen=$((seen + 1))
				line=${line#* raising }
				states+=" ${line%% *}"
				[[ ${line%% *} == soft-rt ]] && soft=$((soft + 1))
			done
		done
		read -rt 0.1 <> <(:) || true
	done
	echo "# raising states seen:$states" >&2
	echo "$soft $seen"
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
read -r softrt seen < <(sample_raising rt0 $fp 40)
wait $fp || die "fio load"
check_gt "the periodic reader's queue was observed (samples)" "$seen" 20
check_gt "the periodic reader's queue is seen soft real-time raised (samples)" "$softrt" 4
stop_readers "${pids[@]}"
periodic /tmp/rt-fast.json 12500 9 &
fp=$!
sleep 4
read -r fast seen < <(sample_raising rt0 $fp 40)
wait $fp
rate=$(( $(fio_json_bw /tmp/rt-fast.json periodic read) * 2 ))
check_gt "the fast periodic reader's queue was observed (samples)" "$seen" 20
check_gt "the fast periodic reader reaches over 7000 sectors/s (sectors/s)" "$rate" 7000
check_eq "a reader at 8x the rate (20480 sectors/s) is never soft real-time (samples)" "$fast" 0
check_eq "engine invariants hold" "$(bfqng_check rt0)" ok
