#!/bin/bash
# hddsim: a sequential 4 KiB direct reader (psync, think time between
# requests) is served from the read-ahead cache and reaches the media rate of
# the zone, +-15%.  The disk is configured at 4 MB/s (8 MB/s gave 5890 KiB/s
# in a CI run: 2000 4 KiB reads/s were more than the loaded emulated CPU
# could issue) so that even the slow
# TCG guest outpaces the media and the disk, not the CPU, sets the rate.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-devices.sh"

desc="hddsim sequential 4k psync reader reaches the zone media rate (4 MB/s) +-15%"
dev=$(make_hdd rate_outer_mbps=4 rate_inner_mbps=2) || { tap_fail "$desc" "make_hdd failed"; exit 0; }
dev_sched "$dev" none
read -r bw _ < <(dev_fio --name=seq --filename="/dev/$dev" --rw=read --bs=4k \
	--ioengine=psync --direct=1 --runtime=15 --time_based --offset=0)
expect=$(awk 'BEGIN { print 4e6 / 1024 }')	# KiB/s
lo=$(awk -v e="$expect" 'BEGIN { print e * 0.85 }')
hi=$(awk -v e="$expect" 'BEGIN { print e * 1.15 }')
if dev_within "$lo" "$bw" "$hi"; then
	tap_ok "$desc (measured ${bw} KiB/s)"
else
	tap_fail "$desc" "measured ${bw:-none} KiB/s, bound [$lo, $hi] KiB/s"
fi
remove_hdd
