# shellcheck shell=bash
# 6. Interleaved I/O on hddsim: 4 readers that together read one region
#    sequentially, each taking every 4th 16 KiB block (reader k: blocks k,
#    k+4, k+8...; psync O_DIRECT).  Aggregate MB/s (MiB/s).
scenario_interleave() {
	local dev run s k
	dev=$(make_hdd) || return 1
	{
		global_section "$BENCH_RT" "$BENCH_RAMP"
		for k in 0 1 2 3; do
			printf '[strided%d]\nfilename=/dev/%s\nrw=read:48k\nbs=16k\nioengine=psync\ndirect=1\noffset=%d\nsize=%d\n' \
				"$k" "$dev" $((GREEDY_BASE + k * 16384)) $((2048 << 20))
		done
	} >"$WORK/il.fio"
	for ((run = 1; run <= BENCH_RUNS; run++)); do
		for s in "${SCHEDS[@]}"; do
			use_sched "$dev" "$s" || continue
			fio_run "$WORK/il.json" "$WORK/il.fio"
			result interleave hdd 4x16k "$s" "$run" MBps \
				"$(awk -v k="$(fio_sum_bw "$WORK/il.json")" 'BEGIN { printf "%.2f", k / 1024 }')"
		done
	done
	use_sched "$dev" none
	remove_hdd
}
