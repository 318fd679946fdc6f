#!/bin/bash
# hddsim: two sequential 4 KiB readers at distant offsets, interleaved by
# the device with no idling (mq-deadline), lose most of the throughput: each
# switch costs a seek and the read-ahead is lost.  Aggregate < 50% of one
# sequential reader alone (the effect BFQ's idling avoids).
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-devices.sh"

desc="hddsim two interleaved sequential readers get < 50% of one reader's throughput"
dev=$(make_hdd) || { tap_fail "$desc" "make_hdd failed"; exit 0; }
dev_sched "$dev" mq-deadline
common=(--filename="/dev/$dev" --rw=read --bs=4k --ioengine=psync --direct=1 --time_based)
read -r one _ < <(dev_fio --name=one "${common[@]}" --runtime=8)
read -r two _ < <(dev_fio --name=two "${common[@]}" --runtime=10 --numjobs=2 \
	--offset_increment=4g)
bound=$(awk -v o="$one" 'BEGIN { print o * 0.5 }')
if [ -n "$one" ] && dev_within 0 "$two" "$bound"; then
	tap_ok "$desc (one: $one KiB/s, two: $two KiB/s)"
else
	tap_fail "$desc" "measured ${two:-none} KiB/s aggregate, bound < $bound (one reader: ${one:-none} KiB/s)"
fi
remove_hdd
