# shellcheck shell=bash
# 4. Fairness on hddsim: 4 greedy sequential readers (128 KiB psync O_DIRECT,
#    own slices of the disk) with weights 1:2:3:4,
#    - ioprio: best-effort levels 6,4,2,0 (weights 20:40:60:80),
#    - cgroup: one cgroup v2 group each, io.<sched>.weight 100:200:300:400,
#      where the scheduler has that file (else "n/a").
#    Metrics: each reader's share of the aggregate (%), and the error: the
#    largest |share - ideal| / ideal over the four (%).
fair_shares() {	# fair_shares KIB1 KIB2 KIB3 KIB4 -> "s1 s2 s3 s4 err"
	awk -v a="$1" -v b="$2" -v c="$3" -v d="$4" 'BEGIN {
		t = a + b + c + d; if (t <= 0) { print "n/a n/a n/a n/a n/a"; exit }
		v[1] = a; v[2] = b; v[3] = c; v[4] = d; e = 0
		for (i = 1; i <= 4; i++) {
			s = 100 * v[i] / t; id = 10 * i
			x = (s - id) / id; if (x < 0) x = -x; if (x > e) e = x
			printf "%.1f ", s
		}
		printf "%.1f\n", 100 * e }'
}

fair_result() {	# fair_result DEV CASE SCHED RUN "s1 s2 s3 s4 err"
	local v i=0
	for v in $5; do
		i=$((i + 1))
		if [ $i -le 4 ]; then result fair "$1" "$2" "$3" "$4" "share$i" "$v"
		else result fair "$1" "$2" "$3" "$4" err "$v"; fi
	done
}

cg_weight_file() {	# the cgroup weight file of a scheduler, if any
	case $1 in
	bfq-ng) echo io.bfq-ng.weight ;;
	bfq) echo io.bfq.weight ;;
	*) echo "" ;;
	esac
}

scenario_fair() {
	local dev run s j i kib wf cg=/sys/fs/cgroup pids
	dev=$(make_hdd) || return 1
	local cap slice
	cap=$(dev_bytes "$dev")
	slice=$(((cap - GREEDY_BASE) / 4 / 1048576 * 1048576))
	# ioprio
	{
		global_section "$BENCH_RT" "$BENCH_RAMP"
		for i in 1 2 3 4; do
			printf '[r%d]\nfilename=/dev/%s\nrw=read\nbs=128k\nioengine=psync\ndirect=1\noffset=%d\nsize=%d\nprioclass=2\nprio=%d\n' \
				"$i" "$dev" $((GREEDY_BASE + (i - 1) * slice)) "$slice" $((8 - 2 * i))
		done
	} >"$WORK/fair.fio"
	for ((run = 1; run <= BENCH_RUNS; run++)); do
		for s in "${SCHEDS[@]}"; do
			use_sched "$dev" "$s" || continue
			j=$WORK/fair.json
			fio_run "$j" "$WORK/fair.fio"
			fair_result hdd ioprio "$s" "$run" \
				"$(fair_shares $(for i in 1 2 3 4; do fio_sum_bw "$j" "^r$i\$"; done))"
		done
	done
	# cgroups
	mountpoint -q "$cg" || mount -t cgroup2 none "$cg"
	echo +io >"$cg/cgroup.subtree_control" 2>/dev/null
	for i in 1 2 3 4; do mkdir -p "$cg/bench$i"; done
	for ((run = 1; run <= BENCH_RUNS; run++)); do
		for s in "${SCHEDS[@]}"; do
			wf=$(cg_weight_file "$s")
			if [ -z "$wf" ] || [ ! -e "$cg/bench1/$wf" ]; then
				say "fair: $s: no cgroup weight file ${wf:-(none for this scheduler)}: n/a"
				fair_result hdd cgroup "$s" "$run" "n/a n/a n/a n/a n/a"
				continue
			fi
			use_sched "$dev" "$s" || continue
			pids=()
			for i in 1 2 3 4; do
				echo $((100 * i)) >"$cg/bench$i/$wf" || say "fair: cannot set $wf=$((100 * i))"
				(
					echo "$BASHPID" >"$cg/bench$i/cgroup.procs"
					exec fio --output-format=json --output="$WORK/cg$i.json" --name="r$i" \
						--filename="/dev/$dev" --rw=read --bs=128k --ioengine=psync --direct=1 \
						--offset=$((GREEDY_BASE + (i - 1) * slice)) --size="$slice" \
						--time_based --runtime="$BENCH_RT" --ramp_time="$BENCH_RAMP" >>"$LOG" 2>&1
				) &
				pids+=($!)
			done
			wait "${pids[@]}"
			for i in 1 2 3 4; do kib[$i]=$(fio_sum_bw "$WORK/cg$i.json"); done
			fair_result hdd cgroup "$s" "$run" "$(fair_shares "${kib[1]}" "${kib[2]}" "${kib[3]}" "${kib[4]}")"
		done
	done
	for i in 1 2 3 4; do rmdir "$cg/bench$i" 2>/dev/null; done
	use_sched "$dev" none
	remove_hdd
}
