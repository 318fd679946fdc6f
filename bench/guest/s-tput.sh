# shellcheck shell=bash
# 2. Aggregate throughput on hddsim and the SSD profile (raw device, O_DIRECT
#    psync): 1 sequential reader, 10 sequential readers, 10 random readers,
#    5 readers + 5 writers (sequential, and random).  MB/s (MiB/s) summed
#    over all jobs, reads and writes.
tput_jobfile() {	# tput_jobfile CASE DEV
	global_section "$BENCH_RT" "$BENCH_RAMP"
	case $1 in
	seq1) greedy_jobs seqr 1 "$2" ;;
	seq10) greedy_jobs seqr 10 "$2" ;;
	rand10) greedy_jobs randr 10 "$2" ;;
	rw5seq) SLICE0=0 greedy_jobs seqr 5 "$2"; SLICE0=5 greedy_jobs seqw 5 "$2" ;;
	rw5rand) SLICE0=0 greedy_jobs randr 5 "$2"; SLICE0=5 greedy_jobs randw 5 "$2" ;;
	esac
}

scenario_tput() {
	local d dev c run s j
	for d in hdd ssd; do
		case $d in
		hdd) dev=$(make_hdd) || return 1 ;;
		ssd) dev=$(make_ssd ssd0) || return 1 ;;
		esac
		for c in $BENCH_TPUT_CASES; do
			tput_jobfile "$c" "$dev" >"$WORK/tput.fio"
			for ((run = 1; run <= BENCH_RUNS; run++)); do
				for s in "${SCHEDS[@]}"; do
					use_sched "$dev" "$s" || continue
					j=$WORK/tput.json
					fio_run "$j" "$WORK/tput.fio"
					result tput "$d" "$c" "$s" "$run" MBps \
						"$(awk -v k="$(fio_sum_bw "$j")" 'BEGIN { printf "%.2f", k / 1024 }')"
				done
			done
		done
		use_sched "$dev" none
		case $d in hdd) remove_hdd ;; ssd) remove_nullb ssd0 ;; esac
	done
}
