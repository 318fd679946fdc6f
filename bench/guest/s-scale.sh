# shellcheck shell=bash
# 7. Scalability: 1, 16, 256, 1024 tasks doing 4 KiB random psync O_DIRECT
#    reads on the no-latency null_blk.  IOPS.  The tasks are fio threads
#    (--thread): each has its own I/O context, hence its own queue in bfq.
scenario_scale() {
	local dev n run s j
	dev=$(make_nullb_fast fast0) || return 1
	local NR_REQUESTS=1024
	for n in $BENCH_SCALE_N; do
		for ((run = 1; run <= BENCH_RUNS; run++)); do
			for s in "${SCHEDS[@]}"; do
				use_sched "$dev" "$s" || continue
				j=$WORK/scale.json
				fio --output-format=json --output="$j" --name=scale --filename="/dev/$dev" \
					--rw=randread --bs=4k --direct=1 --ioengine=psync --thread --numjobs="$n" \
					--time_based --runtime="$BENCH_RT_CPU" --ramp_time=1 --group_reporting >>"$LOG" 2>&1
				result scale nullb_fast "$n" "$s" "$run" iops "$(fio_sum_iops "$j")"
				# cross-check: completed I/Os and the group's run time (ms)
				result scale nullb_fast "$n" "$s" "$run" ios "$(jq '.jobs[0].read.total_ios' "$j")"
				result scale nullb_fast "$n" "$s" "$run" runtime_ms "$(jq '.jobs[0].read.runtime' "$j")"
			done
		done
	done
	use_sched "$dev" none
	remove_nullb fast0
}
