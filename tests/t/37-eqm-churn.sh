#!/bin/bash
# timeout: 900
# Cooperating processes churn on bfq-ng (merge.c).  A stock-lane test, so
# the debug lane runs it too (under KASAN, lockdep and kmemleak).
#  - 200 rounds: three processes read one region in interleaved 16 KiB
#    strides (their queues merge), then at random offsets (the shared queue
#    splits), and exit; in every other round one of them moves to another
#    cgroup once it has issued a read (it leaves the shared queue at its
#    next request if it was in one);
#  - meanwhile a crc32c write + verify loop runs on another part of the
#    device, with three jobs writing and reading back interleaved blocks
#    (their queues merge too).
# Afterwards: every verify pass good, queues merged and split, moved
# processes left shared queues, none is shared any more, the live-queue
# count is back to where it was, the engine invariants hold.
# The rounds stop after 8 min if 200 are not done by then: on the KASAN
# debug kernel under TCG, 200 rounds outlasted the file's 900 s limit.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"
source "$BFQNG_TESTS/lib-cgroup.sh"
source "$BFQNG_TESTS/stress/lib-stress.sh"

ROUNDS=200
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
for k in 0 1 2; do args+=(--name=c$k --read_iolog=/tmp/eqc-log$k); done

# first_reader PID: the first child of fio PID, once it has submitted a read
# (nothing if it is gone first, or after 5 s).
first_reader() {
	local c="" k v rb end=$((SECONDS + 5)) seen=0
	while ((SECONDS < end)); do
		c=""	# the list has no newline: read fails but sets c
		{ read -r c _ <"/proc/$1/task/$1/children"; } 2>/dev/null
		if [ -n "$c" ]; then
			seen=1
			rb=0
			while read -r k v; do [ "$k" = read_bytes: ] && rb=$v; done 2>/dev/null <"/proc/$c/io"
			((rb > 0)) && { echo "$c"; return; }
		elif ((seen)); then
			return
		fi
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
		# Move a reader once it has issued a read (so that it is in a
		# queue, likely a shared one), while it is still reading: its
		# reads take tens of ms, so poll with shell builtins only.
		p=$(first_reader "$f")
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
splits=$(bfqng_stat eq0 coop_splits)
leaves=$(bfqng_stat eq0 coop_leaves)
diag "$rounds rounds: $merges processes merged, $splits split, $leaves left for another cgroup ($tried moved while reading)"
check_ge "eqm churn: processes that joined a shared queue" "$merges" $((rounds / 4))
check_ge "eqm churn: processes split off a shared queue" "$splits" $((rounds / 4))
((moves == 0)) || check_ge "eqm churn: moved processes that left a shared queue" "$leaves" $((rounds / 20))
sleep 1
check_eq "eqm churn: no queue shared once the processes are gone" "$(bfqng_stat eq0 shared_queues)" 0
check_le "eqm churn: live queues back to the count before the churn" "$(bfqng_stat eq0 live_queues)" "$base"
check_eq "eqm churn: engine invariants hold" "$(bfqng_check eq0)" ok
[ -r $D/queues ] && grep ' procs [1-9]' $D/queues | head -n 5 | while read -r l; do diag "left: $l"; done
select_sched eq0 none
exit 0
