#!/bin/bash
# timeout: 300
# A process whose new queue cannot be allocated goes to the device's OOM
# queue, and tries again at its next request (queue.c).  When it gets a
# queue of its own again, that queue takes back the state saved when it
# left the old one, at once: it is no new process, and is not raised as
# one.  As 52-cgroup-move-state, with the queue cache failing (failslab,
# this lane's kernel only) while the busy reader moves to another cgroup.
# Before the fix, the first queue after the OOM queue was set up as a new
# process's (raised: wr_starts 1) and got the state back one request late;
# before 2026-12-07 it also took the current time as its age (age_ms),
# which would let it merge again as a new process would (merge.c).
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"
source "$BFQNG_TESTS/lib-cgroup.sh"

fs=/sys/kernel/debug/failslab
modprobe bfq-ng || die "bfq-ng"
slab=/sys/kernel/slab/bq_queue/failslab
[ -d $fs ] || die "no $fs (kernel without CONFIG_FAILSLAB?)"
[ -w $slab ] || die "no $slab"
cg_init || skip_all "no cgroup v2 with the io controller"
sched_nullb mo0 || die "null_blk"
cg_make ox 100 && cg_make oy 100 || die "cgroups"

age_over() { [ "$(queue_field mo0 "$r" age_ms)" -ge "$1" ] 2>/dev/null; }

failslab_off() {
	echo 0 >$slab
	echo 0 >$fs/probability
}
at_exit failslab_off

r=$(cg_reader ox mo0 0) || die "reader"
wait_raising_over mo0 "$r" 40
check_eq "the reader's raising as a new process ended" \
	"$(queue_field mo0 "$r" raising)" none
# Old enough that a queue made now would be seen younger.
wait_for 20 age_over 4000
a0=$(queue_field mo0 "$r" age_ms) t0=$(date +%s%3N)
check_ge "the reader's queue is over 4 s old (age_ms)" "$a0" 4000
before=$(bfqng_stat mo0 oom_fallbacks)

# Only this cache fails, only allocations that cannot sleep (the
# scheduler's), and quietly: a stack trace per failure would be a splat.
echo Y >$fs/cache-filter
echo Y >$fs/ignore-gfp-wait
echo 0 >$fs/verbose
echo -1 >$fs/times
echo 1 >$fs/interval
echo 100 >$fs/probability
echo 1 >$slab
# A queue caught idle at the move moves in place, allocating nothing (the
# reader keeps 8 in flight, so that is rare): move it again until one
# allocation has failed.
to=oy
for ((i = 0; i < 10; i++)); do
	cg_move "$r" $to || die "move"
	sleep 0.5
	[ "$(bfqng_stat mo0 oom_fallbacks)" -gt "$before" ] && break
	[ $to = oy ] && to=ox || to=oy
done
diag "moves made: $((i + 1))"
sleep 1
diag "while the cache failed: $(queue_line mo0 "$r")"
check_eq "while the queue cache failed, the reader had no queue of its own" \
	"$(queue_line mo0 "$r")" ""
failslab_off
fell=$(($(bfqng_stat mo0 oom_fallbacks) - before))
check_ge "queue allocations failed and fell back to the OOM queue" "$fell" 1
sleep 1
diag "after: $(queue_line mo0 "$r")"
check_eq "back on a queue of its own, with its state (restored)" \
	"$(queue_field mo0 "$r" restored)" 1
check_eq "that queue was not raised as a new process's would be (wr_starts)" \
	"$(queue_field mo0 "$r" wr_starts)" 0
# Its age goes on from the left queue's (a second's slack for the reads);
# a queue aged from its creation would be younger than the time since.
a1=$(queue_field mo0 "$r" age_ms) t1=$(date +%s%3N)
check_ge "that queue took the age of the one left, $a0 ms at $((t1 - t0)) ms before (age_ms)" \
	"$a1" $((a0 + t1 - t0 - 1000))
check_eq "engine invariants hold" "$(bfqng_check mo0)" ok
stop_readers "$r"
select_sched mo0 none
