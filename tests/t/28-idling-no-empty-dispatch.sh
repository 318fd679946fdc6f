#!/bin/bash
# timeout: 240
# While the device is held idle for a reader that thinks between requests,
# has_work does not let blk-mq in for a request it would not get: each
# such call (debugfs stats: empty_dispatches) costs a rerun of the queue
# 3 ms later.  Two cases, on the device of 28-injection: beside the
# thinker (weight of BE 0), a greedy reader of the IDLE class, which is
# never injected, then one of BE 7, which is, up to a limit.  Before
# 2026-12-07 the IDLE case made 2-3 empty calls per idling period (the BE
# case 0.1-3, from run to run); the bound is one per four (calls that lose
# a race between the two CPUs remain).
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"

modprobe bfq-ng || die "bfq-ng"
inject_dev ie0 || die "null_blk with bfq-ng"

for class in 3 2; do
	e0=$(bfqng_stat ie0 empty_dispatches) i0=$(bfqng_stat ie0 idle_started)
	j0=$(bfqng_stat ie0 injections)
	# A counter missing from debugfs would make every difference 0.
	for v in "$e0" "$i0" "$j0"; do
		_is_num "$v" || die "debugfs stats: empty_dispatches, idle_started or injections missing"
	done
	fio_readers /tmp/ie.json ie0 5 \
		"thinker:2:0:--ioengine=psync --iodepth=1 --thinktime=2000" \
		"greedy:$class:7:--rw=randread --bs=16k --iodepth=4" || die "fio"
	e=$(($(bfqng_stat ie0 empty_dispatches) - e0))
	i=$(($(bfqng_stat ie0 idle_started) - i0))
	j=$(($(bfqng_stat ie0 injections) - j0))
	diag "greedy of class $class: thinker $(fio_job_bw_kib /tmp/ie.json thinker) KiB/s, greedy $(fio_job_bw_kib /tmp/ie.json greedy) KiB/s, $i idling periods, $j injections, $e empty dispatches"
	check_gt "class $class: the device was held idle for the thinker" "$i" 100
	check_gt "class $class: the greedy reader was served" "$(fio_job_bw_kib /tmp/ie.json greedy)" 0
	check_le "class $class: empty dispatches, at most a quarter of the idling periods ($i)" "$e" $((i / 4))
done
check_gt "the BE reader was injected" "$j" 0
check_eq "engine invariants hold" "$(bfqng_check ie0)" ok
select_sched ie0 none
