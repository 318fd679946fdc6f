#!/bin/bash
# timeout: 900
# Cooperating processes churn on bfq-ng (merge.c).  A stock-lane test, so
# the debug lane runs it too (under KASAN, lockdep and kmemleak).
#  - 100 rounds: three processes read one region in interleaved 16 KiB
#    strides (their queues merge), then at random offsets (the shared queue
#    splits), and exit; in every other round one of them moves to another
#    cgroup while it is in a shared queue (it leaves the queue at its next
#    request);
#  - meanwhile a crc32c write + verify loop runs on another part of the
#    device, with three jobs writing and reading back interleaved blocks
#    (their queues merge too).
# Afterwards: every verify pass good, queues merged and split, moved
# processes left shared queues, none is shared any more, the live-queue
# count is back to where it was, the engine invariants hold.
# The rounds stop after 8 min if they are not done by then: on the KASAN
# debug kernel under TCG, 200 rounds outlasted the file's 900 s limit.
# 100 rounds (under 2 min on the stock kernel) still merge and split
# hundreds of processes and move tens; the bounds scale with the rounds.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"
source "$BFQNG_TESTS/lib-cgroup.sh"
source "$BFQNG_TESTS/stress/lib-stress.sh"

ROUNDS=100
modprobe bfq-ng || die "modprobe bfq-ng"
nullb eq0 1024 memory_backed=1 irqmode=2 completion_nsec=30000 || die "null_blk"
# Rotational: early merging is for devices that do not reorder by themselves.
echo 1 >/sys/block/eq0/queue/rotational
use_sched eq0 bfq-ng || die "select bfq-ng"
moves=0
cg_init && cg_make eqa && cg_make eqb && moves=1
D=/sys/kernel/debug/block/eq0/sched
base=$(bfqng_stat eq0 live_queues)

# Logs: 64 strided reads in [0, 4 MiB), then 16 random ones in [64, 512) MiB.
for k in 0 1 2; do
	awk -v k=$k 'BEGIN {
		srand(k + 7)
		print "fio version 2 iolog"; print "/dev/eq0 add"; print "/dev/eq0 open"
		for (i = 0; i < 64; i++) print "/dev/eq0 read " (i * 3 + k) * 16384 " 16384"
		for (i = 0; i < 16; i++) print "/dev/eq0 read " (4096 + int(rand() * 28672)) * 16384 " 16384"
		print "/dev/eq0 close" }' >/tmp/eqc-log$k
done
args=()
for k in 0 1 2; do args+=("--name=c$k" "--read_iolog=/tmp/eqc-log$k"); done

# shared_reader PID: a job process of fio PID that is, while it reads, the
# owner of a queue shared by two processes or more (debugfs "procs"); nothing
# if there is none within 5 s.  Polls with shell builtins only: the strided
# phase takes tens of ms.
shared_reader() {
	local l w i procs ppid end=$((SECONDS + 5))
	while ((SECONDS < end)) && kill -0 "$1" 2>/dev/null; do
		read_queues eq0
		for l in "${QUEUES[@]}"; do
			read -r -a w <<<"$l"
			procs=0
			for ((i = 2; i < ${#w[@]} - 1; i++)); do
				[ "${w[i]}" = procs ] && procs=${w[i + 1]}
			done
			((procs >= 2)) || continue
			ppid=""
			{ read -r _ _ _ ppid _ <"/proc/${w[1]}/stat"; } 2>/dev/null
			[ "$ppid" = "$1" ] && { echo "${w[1]}"; return; }
		done
	done
}

verify_loop eq0 eqv --ioengine=psync --rw=write:32k --bs=16k --size=8m \
	--offset=768m --offset_increment=16k --numjobs=3
vpid=$!
failed=0
tried=0
stop=$((SECONDS + 480))
for ((r = 0; r < ROUNDS && SECONDS < stop; r++)); do
	fio --ioengine=psync --direct=1 --replay_no_stall=1 "${args[@]}" \
		--output=/tmp/eqc-fio.log >/dev/null 2>&1 &
	f=$!
	if ((moves && r % 2)); then
		# Move a reader while it is in a shared queue.
		p=$(shared_reader "$f")
		[ -n "$p" ] && cg_move "$p" "$( ((r % 4 == 1)) && echo eqa || echo eqb)" 2>/dev/null &&
			tried=$((tried + 1))
	fi
	wait $f || { failed=$((failed + 1)); diag "round $r: $(grep -i err /tmp/eqc-fio.log | head -n 2 | paste -sd'|')"; }
done
rounds=$r
verify_loop_stop eqv "$vpid" 1
check_ge "eqm churn: replay rounds done in 8 min" "$rounds" 20
check_eq "eqm churn: replay rounds without a fio error" "$failed" 0
merges=$(bfqng_stat eq0 coop_merges)
# Split off: for the shared queue turning seeky, or for the process's own
# requests landing away from it (coop_aparts).
splits=$(($(bfqng_stat eq0 coop_splits) + $(bfqng_stat eq0 coop_aparts)))
leaves=$(bfqng_stat eq0 coop_leaves)
diag "$rounds rounds: $merges processes merged, $splits split, $leaves left for another cgroup ($tried moved while in one)"
check_ge "eqm churn: processes that joined a shared queue" "$merges" $((rounds / 4))
check_ge "eqm churn: processes split off a shared queue" "$splits" $((rounds / 4))
if ((moves)); then
	check_ge "eqm churn: readers moved to another cgroup while in a shared queue" "$tried" $((rounds / 8))
	# A reader moved in the last of its strided reads is split off at its
	# next (random) read, which counts as a split, not a leave: 0.3 to
	# 0.6 of them in ten runs under TCG, of 20 to 80 moves.
	check_ge "eqm churn: moved readers that left their shared queue for their cgroup" "$leaves" $((tried / 8))
fi
sleep 1
check_eq "eqm churn: no queue shared once the processes are gone" "$(bfqng_stat eq0 shared_queues)" 0
check_le "eqm churn: live queues back to the count before the churn" "$(bfqng_stat eq0 live_queues)" "$base"
check_eq "eqm churn: engine invariants hold" "$(bfqng_check eq0)" ok
[ -r $D/queues ] && grep ' procs [1-9]' $D/queues | head -n 5 | while read -r l; do diag "left: $l"; done
select_sched eq0 none
exit 0
