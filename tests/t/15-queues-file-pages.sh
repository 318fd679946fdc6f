#!/bin/bash
# timeout: 300
# The debugfs "queues" file is read a page at a time, the lock dropped
# between pages (debugfs.c).  With 150 idle processes holding a queue each
# (some 10 pages of text):
#  - one read lists every live queue once: as many lines as live_queues,
#    every line whole, every dd process's queue exactly once;
#  - reading it 1000 bytes at a time gives the same text as in one go;
# and while short-lived processes make and free queues beside them, every
# line of repeated reads is whole and the invariant check holds afterwards.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"

N=150
modprobe bfq-ng || die "bfq-ng"
nullb qf0 256 memory_backed=1 irqmode=2 completion_nsec=20000 || die "null_blk"
select_sched qf0 bfq-ng || die "select"
echo 128 >/sys/block/qf0/queue/nr_requests
# One queue per process, and no raising whose time left would change the
# text between two reads.
echo 0 >/sys/block/qf0/queue/iosched/queue_merging
echo 0 >/sys/block/qf0/queue/iosched/low_latency
D=$(bfqng_debugfs qf0)
idle=$(bfqng_stat qf0 live_queues)

# Each dd reads 1 MiB, then blocks writing it into a pipe nobody reads:
# alive, with its queue, until its sleep is killed.
sleepers=()
for ((i = 0; i < N; i++)); do
	# shellcheck disable=SC2216 # the pipe is not to be read
	dd if=/dev/qf0 bs=1M count=1 skip=$((i % 200)) iflag=direct status=none | sleep 600 &
	sleepers+=("$!")
done
at_exit kill "${sleepers[@]}"
all_up() { [ "$(bfqng_stat qf0 live_queues)" -ge $((idle + N)) ]; }
wait_for 120 all_up || diag "live_queues $(bfqng_stat qf0 live_queues) of $((idle + N))"
live=$(bfqng_stat qf0 live_queues)
diag "$N queues up after $SECONDS s"

cat "$D/queues" >/tmp/qf.all
dd if="$D/queues" bs=1000 status=none >/tmp/qf.small
live2=$(bfqng_stat qf0 live_queues)
diag "queues file: $(wc -c </tmp/qf.all) bytes, $(wc -l </tmp/qf.all) lines; live_queues $live, then $live2"
check_ge "the file spans many pages" "$(wc -c </tmp/qf.all)" $((8 * 4096))
check_eq "one line per live queue" "$(wc -l </tmp/qf.all)" "$live"
whole='^pid -?[0-9]+ (sync|async) [a-z]+ class [a-z]+ .* restored [01]$'
check_eq "every line whole" "$(grep -cvE "$whole" /tmp/qf.all)" 0
# The dd processes' pids, and how often each heads a line.
dds=$(for p in /proc/[0-9]*; do
	read -r comm <"$p/comm" 2>/dev/null && [ "$comm" = dd ] && echo "${p#/proc/}"
done | sort)
diag "checked the one read after $SECONDS s"
check_eq "dd processes alive" "$(wc -l <<<"$dds")" "$N"
awk '{ print $2 }' /tmp/qf.all | sort | uniq -c | awk '{ print $2, $1 }' >/tmp/qf.count
check_eq "each dd's queue listed exactly once" \
	"$(join <(echo "$dds") /tmp/qf.count | awk '$2 == 1' | wc -l)" "$N"
if [ "$live" = "$live2" ]; then
	check_eq "1000-byte reads give the same text" "$(cmp -s /tmp/qf.all /tmp/qf.small && echo same || echo differs)" same
else
	tap_fail "1000-byte reads give the same text" "queues changed meanwhile: live_queues $live, then $live2"
fi

# Churn: queues made and freed between the pages of each of 5 reads, by
# 32 loops of short-lived dd processes, the 150 still there.
rm -f /tmp/qf.fail /tmp/qf.r.* /tmp/qf.stop /tmp/qf.runs
churners=()
for ((i = 0; i < 32; i++)); do
	(
		while [ ! -e /tmp/qf.stop ]; do
			dd if=/dev/qf0 of=/dev/null bs=4k count=16 skip=$((i * 16)) iflag=direct status=none ||
				echo "$i" >>/tmp/qf.fail
			echo >>/tmp/qf.runs
		done
	) &
	churners+=("$!")
done
sleep 1
runs0=$(wc -l </tmp/qf.runs)
for ((r = 0; r < 5; r++)); do
	cat "$D/queues" >/tmp/qf.r.$r
done
runs1=$(wc -l </tmp/qf.runs)
touch /tmp/qf.stop
wait "${churners[@]}"
kill "${sleepers[@]}" 2>/dev/null
wait
broken=$(cat /tmp/qf.r.* | grep -cvE "$whole")
diag "5 reads during the churn, $(cat /tmp/qf.r.* | wc -l) lines; $SECONDS s so far"
check_ge "short-lived dd processes run during the 5 reads" $((runs1 - runs0)) 32
check_eq "every line whole during the churn" "$broken" 0
check_eq "the short-lived processes' I/O completed (failures)" "$( (cat /tmp/qf.fail 2>/dev/null || true) | wc -l)" 0
check_eq "engine invariants hold afterwards" "$(bfqng_check qf0)" ok
select_sched qf0 none
nullb_del qf0
