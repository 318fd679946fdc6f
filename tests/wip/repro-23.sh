#!/bin/bash
# timeout: 1500
# WIP (not in make check): the end of 23-classes in a loop, to catch a fio
# reader that does not exit on SIGTERM, and check that stop_readers still
# ends it and that its queue then goes.
#   REPRO_SCHED (bfq-ng), REPRO_IONICE (1), REPRO23_ROUNDS (20)
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"

modprobe bfq-ng || die "bfq-ng"
sched_nullb cl0 "${REPRO_SCHED:-bfq-ng}" || die "null_blk"
diag "scheduler: $(cat /sys/block/cl0/queue/scheduler), ionice ${REPRO_IONICE:-1}"
left=0 killed=0
for ((r = 0; r < ${REPRO23_ROUNDS:-20}; r++)); do
	a=$(start_reader cl0 0 --prioclass=1 --prio=4) || die "reader"
	b=$(start_reader cl0 600 --prioclass=1 --prio=4) || die "reader"
	sleep 1
	kill "$(ps -o ppid= -p "$b")" "$b"
	sleep 0.5
	[ "${REPRO_IONICE:-1}" = 1 ] && ionice -c 2 -n 4 -p "$a"
	sleep 1
	# The order of the old stop_readers: parent first, then the job.
	[ "${REPRO_PARENT_FIRST:-0}" = 1 ] && kill "$(ps -o ppid= -p "$a")" "$a"
	out=$(stop_readers "$a" "$b" 2>&1)
	[ -n "$out" ] && { killed=$((killed + 1)); diag "round $r: $out"; }
	none_running "$a,$b" || { diag "round $r: still running after stop_readers"; left=$((left + 1)); }
	[ -r /sys/kernel/debug/block/cl0/sched/queues ] || continue
	no_queues() { [ "$(bfqng_stat cl0 live_queues)" -eq 0 ]; }
	wait_for 5 no_queues || { left=$((left + 1)); diag_queues cl0; }
done
diag "$r rounds, $killed with a reader killed"
check_eq "rounds with a reader or a queue left after stop_readers (of $r)" "$left" 0
