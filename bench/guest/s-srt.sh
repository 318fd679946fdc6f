# shellcheck shell=bash
# 5. Soft real-time on hddsim: a 25 frames/s reader (fio rate_iops=25: one
#    256 KiB O_DIRECT read per 40 ms frame slot) under 5 greedy sequential
#    readers.  A frame misses its deadline when its read takes more than
#    40 ms (issue to completion), or when it is never issued because the
#    reader fell behind (the run should have read 25 x seconds frames).
#    Metrics: frames expected, missed, and missed %.
scenario_srt() {
	local dev run s log n miss
	dev=$(make_hdd) || return 1
	{
		global_section "$BENCH_SRT_RT" 0
		greedy_jobs seqr 5 "$dev"
		printf '[srt]\nfilename=/dev/%s\nrw=read\nbs=256k\nioengine=psync\ndirect=1\noffset=%d\nsize=%d\nrate_iops=25\nstartdelay=%s\nruntime=%s\nwrite_lat_log=%s/srt\nlog_avg_msec=0\n' \
			"$dev" $((GREEDY_BASE + 9 * ((($(dev_bytes "$dev") - GREEDY_BASE) / 10) / 1048576 * 1048576))) \
			$((512 << 20)) "$BENCH_WARMUP" $((BENCH_SRT_RT - BENCH_WARMUP)) "$WORK"
	} >"$WORK/srt.fio"
	for ((run = 1; run <= BENCH_RUNS; run++)); do
		for s in "${SCHEDS[@]}"; do
			use_sched "$dev" "$s" || continue
			rm -f "$WORK"/srt_lat.*.log
			fio_run "$WORK/srt.json" "$WORK/srt.fio"
			log=$(ls "$WORK"/srt_lat.*.log 2>/dev/null | head -n 1)
			if [ -z "$log" ]; then
				result srt hdd 25fps "$s" "$run" missed_pct error
				continue
			fi
			# the log has, per frame, its completion time (ms) and its
			# latency (ns, issue to completion)
			read -r n miss < <(awk -F', *' -v want=$(((BENCH_SRT_RT - BENCH_WARMUP) * 25)) '
				{ if ($2 + 0 > 40e6) m++ }
				END { if (NR < want) m += want - NR; print (NR > want ? NR : want), m + 0 }' "$log")
			result srt hdd 25fps "$s" "$run" frames "$n"
			result srt hdd 25fps "$s" "$run" missed "$miss"
			result srt hdd 25fps "$s" "$run" missed_pct "$(awk -v m="$miss" -v n="$n" 'BEGIN { printf "%.1f", n ? 100 * m / n : 0 }')"
		done
	done
	use_sched "$dev" none
	remove_hdd
}
