#!/bin/bash
# timeout: 180
# A busy process that changes cgroup gets a new queue in its new group while
# its old one drains (queue.c).  That queue takes the process's state (think
# time, idle window, raising) from the old one, as a queue split off a
# shared one does: the move is not a new process, and is not raised as one.
# With low_latency=1, a greedy reader (libaio, 8 in flight: its queue is
# always scheduled, so it cannot move in place) whose raising as a new
# process has ended is moved to another cgroup: its queue there says
# "restored 1" and "wr_starts 0".
# Moved while still raised as a new process, on a slow device (a request
# every 50 ms) so that its old queue is seen draining: the new queue has
# the raising, and the old one, which no process uses any more, has none
# (one process is raised once).
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"
source "$BFQNG_TESTS/lib-cgroup.sh"

modprobe bfq-ng || die "bfq-ng"
cg_init || skip_all "no cgroup v2 with the io controller"
sched_nullb ms0 || die "null_blk"
cg_make mx 100 && cg_make my 100 || die "cgroups"
r=$(cg_reader mx ms0 0) || die "reader"
wait_raising_over ms0 "$r" 40
check_eq "the reader's raising as a new process ended" \
	"$(queue_field ms0 "$r" raising)" none
cg_move "$r" my || die "move"
sleep 1
diag "after the move: $(queue_line ms0 "$r")"
check_eq "moved while busy, it got a new queue, with its state back (restored)" \
	"$(queue_field ms0 "$r" restored)" 1
# A new process's queue is raised at its first request, which counts in
# wr_starts even when the raising ends within the second (without the
# state carried over, it did: wr_starts 1, ttime_us 0).
check_eq "that queue was not raised as a new process's would be (wr_starts)" \
	"$(queue_field ms0 "$r" wr_starts)" 0
check_eq "its old group has no queue left" "$(cg_group_field ms0 mx pending)" 0
check_eq "engine invariants hold after the move" "$(bfqng_check ms0)" ok
stop_readers "$r"
select_sched ms0 none

COMPLETION_NS=50000000 sched_nullb ms1 || die "slow null_blk"
r=$(cg_reader mx ms1 0) || die "reader on the slow device"
sleep 0.5
check_eq "a new reader is raised" "$(queue_field ms1 "$r" raising)" interactive
cg_move "$r" my || die "move"
for ((i = 0; i < 150; i++)); do
	queue_lines ms1 "$r"
	[ ${#LINES[@]} -ge 2 ] && break
	sleep 0.02
done
old='' new=''
for line in "${LINES[@]}"; do
	if [ "$(line_field procs "$line")" = 0 ]; then old=$line; else new=$line; fi
done
diag "old queue: $old"
diag "new queue: $new"
check_eq "moved while raised, it has a new queue and its old one drains" \
	"$([ -n "$old" ] && [ -n "$new" ] && echo both)" both
check_eq "the new queue has the raising back" \
	"$(line_field raising "$new")" interactive
check_eq "the old queue, draining, is raised no more" \
	"$(line_field raising "$old")" none
check_eq "one queue raised on the device" \
	"$(bfqng_stat ms1 raised_queues)" 1
stop_readers "$r"
select_sched ms1 none
