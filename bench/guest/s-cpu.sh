# shellcheck shell=bash
# 1. CPU cost: no-latency null_blk, 4 KiB random reads, O_DIRECT:
#    io_uring 1 job x depth 32, io_uring 2 jobs x depth 32, psync one job per
#    vCPU.  IOPS (the report adds IOPS relative to `none`), and the CPU time
#    per request: all CPUs' busy time over the run (/proc/stat) divided by
#    the requests done in it (IOPS x the run's wall time).  null_blk here
#    completes in the submitting task (irqmode=0), so every request's whole
#    path is in it; the report subtracts `none`'s figure to give what the
#    scheduler itself costs per request.
scenario_cpu() {
	local dev c run s j args b0 b1 t0 t1 iops
	dev=$(make_nullb_fast fast0) || return 1
	# the relative figures need `none`, also when it is not in BENCH_SCHEDS
	local scheds=("${SCHEDS[@]}")
	[[ " ${scheds[*]} " == *" none "* ]] || scheds+=(none)
	for c in uring1x32 uring2x32 "psync$(nproc)x1"; do
		case $c in
		uring1x32) args=(--ioengine=io_uring --iodepth=32 --numjobs=1) ;;
		uring2x32) args=(--ioengine=io_uring --iodepth=32 --numjobs=2) ;;
		psync*) args=(--ioengine=psync --iodepth=1 --numjobs="$(nproc)") ;;
		esac
		for ((run = 1; run <= BENCH_RUNS; run++)); do
			for s in "${scheds[@]}"; do
				use_sched "$dev" "$s" || continue
				j=$WORK/cpu.json
				b0=$(cpu_busy) t0=$(date +%s%N)
				fio --output-format=json --output="$j" --name=cpu --filename="/dev/$dev" \
					--rw=randread --bs=4k --direct=1 --time_based --runtime="$BENCH_RT_CPU" \
					--ramp_time=1 --group_reporting "${args[@]}" >>"$LOG" 2>&1
				b1=$(cpu_busy) t1=$(date +%s%N)
				iops=$(fio_sum_iops "$j")
				result cpu nullb_fast "$c" "$s" "$run" iops "$iops"
				result cpu nullb_fast "$c" "$s" "$run" cpu_ns_per_io "$(awk \
					-v b="$((b1 - b0))" -v hz="$(getconf CLK_TCK)" -v w="$((t1 - t0))" -v i="$iops" \
					'BEGIN { if (i > 0 && w > 0) printf "%d", b / hz * 1e9 / (i * w / 1e9); else print "n/a" }')"
			done
		done
	done
	use_sched "$dev" none
	remove_nullb fast0
}
