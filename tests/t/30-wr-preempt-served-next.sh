#!/bin/bash
# timeout: 300
# A raised queue that preempts the queue in service is the one served next.
# Ten random readers keep hddsim busy (their burst long over, none raised);
# then an application-like reader starts, a new queue raised as an
# application starting: 512 KiB reads with 40 ms of think time, so that it
# leaves service at each pause and preempts a random reader at its next
# read.  For each preemption the next request dispatched is the preempting
# queue's, although random readers whose requests complete meanwhile become
# active again before that dispatch (their finish times could come first:
# being urgent orders a queue before the queues active when it preempts,
# not after).  Before the fix: 3 of 54 preemptions were followed by a
# random reader's dispatch, and its whole slot.
# Then a raised application reading 32 MiB without pauses is waited for
# when it empties (its share needs it), and the random readers beside it
# are not: raising does not make the weights differ.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-devices.sh"
source "$BFQNG_TESTS/lib-sched.sh"

modprobe bfq-ng || die "bfq-ng"
dev=$(make_hdd) || die "hddsim"
at_exit remove_hdd
use_sched "$dev" bfq-ng || die "select"
check_eq "low_latency is on (the default)" "$(cat "/sys/block/$dev/queue/iosched/low_latency")" 1

fio --name=rand --filename="/dev/$dev" --rw=randread --bs=4k --ioengine=psync \
	--direct=1 --numjobs=10 --offset=1g --size=6g --time_based --runtime=120 \
	--output=/dev/null >/dev/null 2>&1 &
fp=$!
at_exit "kill $fp 2>/dev/null"
sleep 4
trace_start -b 16384 || die "tracefs"
# The order of events from different CPUs is what is checked: one clock for
# all of them (the default is per CPU).
echo global >"$T/trace_clock" || die "trace_clock"
at_exit "echo local >$T/trace_clock"
trace_start bfq_ng_activate bfq_ng_dispatch || die "trace events"
fio --name=app --filename="/dev/$dev" --rw=read --bs=512k --ioengine=psync \
	--direct=1 --thinktime=40ms --size=256m --time_based --runtime=5 \
	--output=/dev/null >/dev/null 2>&1 || die "fio app"
trace_stop /tmp/wp.trace 30-wr-preempt-served-next.trace
# Second phase: a raised application that reads 32 MiB without pauses, so
# that it has I/O all along, and is waited for whenever it empties.
trace_start bfq_ng_activate bfq_ng_idle || die "trace events"
fio --name=app2 --filename="/dev/$dev" --rw=read --bs=512k --ioengine=psync \
	--direct=1 --offset=512m --size=32m --output=/dev/null >/dev/null 2>&1 ||
	die "fio app2"
trace_stop /tmp/wp2.trace 30-wr-preempt-served-next.greedy.trace
kill "$fp" 2>/dev/null
wait "$fp" 2>/dev/null
# Idling periods started for the application (the queue that preempts)
# and for the random readers.
read -r idle_app idle_readers < <(awk '
	/bfq_ng_activate: .* preempts/ { for (i = 1; i < NF; i++) if ($i == "pid") app = $(i + 1) }
	/bfq_ng_idle: .* starts/ && app != "" {
		for (i = 1; i < NF; i++) if ($i == "pid") q = $(i + 1)
		if (q == app) a++; else r++
	}
	END { print a + 0, r + 0 }' /tmp/wp2.trace)
diag "greedy application: idling periods for it $idle_app, for the readers $idle_readers"
read -r preempts next_other < <(preempts_next_other /tmp/wp.trace)
diag "activations that preempted: $preempts"
check_ge "the application preempted the random readers (activations)" "$preempts" 10
check_eq "preemptions followed by another queue's dispatch" "$next_other" 0
check_gt "the greedy application is waited for (idling periods)" "$idle_app" 10
check_eq "the random readers beside it are not (idling periods)" "$idle_readers" 0
check_eq "engine invariants hold" "$(bfqng_check "$dev")" ok
set_sched "$dev" none
