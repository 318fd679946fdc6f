#!/bin/bash
# timeout: 300
# Async writes get half their share of the tags only while a raised queue
# has I/O queued or in flight (main.c, bq_limit_depth; debugfs state shows
# the share in effect as async_depth_now): a process raised at its first
# read, then idle but alive (a shell, a paused player: raising ends only at
# its next activation), does not cut them for as long as it lives.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"

modprobe bfq-ng || die "bfq-ng"
sched_nullb wd0 || die "null_blk"
full=$(bfqng_stat wd0 async_depth)
check_eq "with no queue raised, async writes get their whole share" \
	"$(bfqng_stat wd0 async_depth_now)" "$full"

# A new reader reading on, slowly (raising also ends after some 64 MiB):
# raised, and busy.
r=$(start_reader wd0 0 --rate=2m) || die "reader"
for ((i = 0; i < 50; i++)); do
	[ "$(bfqng_stat wd0 raised_busy)" = 1 ] && break
	sleep 0.05
done
# Between its reads it stays in service ("kept"), so counted.
check_eq "a new reader reading on counts as raised and busy" \
	"$(bfqng_stat wd0 raised_busy)/$(bfqng_stat wd0 raised_queues)" 1/1
check_eq "meanwhile async writes get half their share" \
	"$(bfqng_stat wd0 async_depth_now)" $((full / 2))
stop_readers "$r"

# Two reads, then a minute of sleep: raised at its first, then idle.
fio --name=idle-reader --filename=/dev/wd0 --rw=randread --direct=1 --bs=4k \
	--offset=512m --thinktime=60s --thinktime_blocks=2 --time_based \
	--runtime=60 >/dev/null 2>&1 &
f=$!
for ((i = 0; i < 100; i++)); do
	[ "$(bfqng_stat wd0 raised_queues)" = 1 ] && break
	sleep 0.05
done
sleep 0.5	# its two reads done
# Its slot ends at the next request of any queue, if it is kept until then.
dd if=/dev/wd0 of=/dev/null bs=4k count=1 iflag=direct status=none || die "dd"
check_eq "the idle reader's queue is still raised" "$(bfqng_stat wd0 raised_queues)" 1
check_eq "but not busy" "$(bfqng_stat wd0 raised_busy)" 0
check_eq "so async writes get their whole share again" \
	"$(bfqng_stat wd0 async_depth_now)" "$full"
check_eq "the reader is alive" "$(kill -0 $f 2>/dev/null && echo yes)" yes
kill $f 2>/dev/null
wait 2>/dev/null
check_eq "engine invariants hold" "$(bfqng_check wd0)" ok
select_sched wd0 none
exit 0
