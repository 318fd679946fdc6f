# shellcheck shell=bash
# 4. Fairness on hddsim: 4 greedy sequential readers (128 KiB psync O_DIRECT,
#    own slices of the disk) with weights 1:2:3:4,
#    - ioprio: best-effort levels 6,4,2,0 (weights 20:40:60:80),
#    - cgroup: one cgroup v2 group each, io.<sched>.weight 100:200:300:400,
#      where the scheduler has that file (else "n/a").
#    Metrics: each reader's share of the aggregate (%), and the error: the
#    largest |share - ideal| / ideal over the four (%).
#
# The shares are counted over one window common to the four readers: the
# bytes each reader's process read (read_bytes of /proc/PID/io) from
# BENCH_RAMP to BENCH_RAMP + BENCH_RT seconds after they started.  fio's own
# per-job figures would not do: a job's ramp_time ends at its first
# completion past it, so a low-weight reader waiting for its turn then
# starts its window late, and ends it reading alone at the disk's full speed
# once the others have stopped (seen in per-job bandwidth logs: one second
# of 100 MB/s solo reading, enough to make a 10 % share look like 16 %).
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

# proc_read_kib PID...: KiB the processes have read from block devices
proc_read_kib() {
	local p v sum=0
	for p in "$@"; do
		v=$(awk '$1 == "read_bytes:" { print $2 }' "/proc/$p/io" 2>/dev/null)
		sum=$((sum + ${v:-0}))
	done
	echo $((sum / 1024))
}

# fair_window FUNC: "kib1 kib2 kib3 kib4", what each reader read from
# BENCH_RAMP to BENCH_RAMP + BENCH_RT seconds from now; FUNC I prints the
# pids of reader I's processes.
# shellcheck disable=SC2046 # FUNC's pids, one word each
fair_window() {
	local i a=() b=() out=""
	sleep "$BENCH_RAMP"
	for i in 1 2 3 4; do a[i]=$(proc_read_kib $("$1" "$i")); done
	sleep "$BENCH_RT"
	for i in 1 2 3 4; do b[i]=$(proc_read_kib $("$1" "$i")); done
	for i in 1 2 3 4; do out+="$((b[i] - a[i])) "; done
	echo "$out"
}

# The ioprio readers are the job processes of one fio (its children): reader
# I runs at best-effort level 8 - 2I.
FAIR_FIO=
fair_prio_pids() {
	local p
	for p in $(pgrep -P "$FAIR_FIO"); do
		[ "$(ionice -p "$p" 2>/dev/null)" = "best-effort: prio $((8 - 2 * $1))" ] && echo "$p"
	done
}

# The cgroup readers: every process of cgroup benchI.
fair_cg_pids() { cat "/sys/fs/cgroup/bench$1/cgroup.procs"; }

# fair_wait_jobs N PID...: wait (up to 10 s) until the fio processes PID have
# N children in all, their jobs started.
fair_wait_jobs() {
	local n=$1 k
	shift
	for ((k = 0; k < 100; k++)); do
		[ "$(for p in "$@"; do pgrep -P "$p"; done | wc -l)" -ge "$n" ] && return 0
		sleep 0.1
	done
	say "fair: the fio jobs did not start"
	return 1
}

cg_weight_file() {	# the cgroup weight file of a scheduler, if any
	case $1 in
	bfq-ng) echo io.bfq-ng.weight ;;
	bfq) echo io.bfq.weight ;;
	*) echo "" ;;
	esac
}

scenario_fair() {
	local dev run s i win wf cg=/sys/fs/cgroup pids
	dev=$(make_hdd) || return 1
	local cap slice
	cap=$(dev_bytes "$dev")
	slice=$(((cap - GREEDY_BASE) / 4 / 1048576 * 1048576))
	# ioprio: one fio; its jobs would run well past the window, and are
	# stopped (SIGINT) once it is over.
	{
		global_section $((BENCH_RAMP + BENCH_RT + 60)) 0
		for i in 1 2 3 4; do
			printf '[r%d]\nfilename=/dev/%s\nrw=read\nbs=128k\nioengine=psync\ndirect=1\noffset=%d\nsize=%d\nprioclass=2\nprio=%d\n' \
				"$i" "$dev" $((GREEDY_BASE + (i - 1) * slice)) "$slice" $((8 - 2 * i))
		done
	} >"$WORK/fair.fio"
	for ((run = 1; run <= BENCH_RUNS; run++)); do
		for s in "${SCHEDS[@]}"; do
			use_sched "$dev" "$s" || continue
			fio --output-format=json --output="$WORK/fair.json" "$WORK/fair.fio" >>"$LOG" 2>&1 &
			FAIR_FIO=$!
			win="n/a n/a n/a n/a"
			fair_wait_jobs 4 "$FAIR_FIO" && win=$(fair_window fair_prio_pids)
			kill -INT "$FAIR_FIO"
			wait "$FAIR_FIO"
			# shellcheck disable=SC2086 # four numbers
			fair_result hdd ioprio "$s" "$run" "$(fair_shares $win)"
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
						--time_based --runtime=$((BENCH_RAMP + BENCH_RT + 60)) >>"$LOG" 2>&1
				) &
				pids+=($!)
			done
			win="n/a n/a n/a n/a"
			fair_wait_jobs 4 "${pids[@]}" && win=$(fair_window fair_cg_pids)
			kill -INT "${pids[@]}"
			wait "${pids[@]}"
			# shellcheck disable=SC2086 # four numbers
			fair_result hdd cgroup "$s" "$run" "$(fair_shares $win)"
		done
	done
	for i in 1 2 3 4; do rmdir "$cg/bench$i" 2>/dev/null; done
	use_sched "$dev" none
	remove_hdd
}
