#!/bin/bash
# hddsim: 4 KiB random reads over the whole disk at depth 1 take an average
# seek plus half a rotation each: 1 / (8.5 ms + 4.17 ms) = 78.9 IOPS, +-20%.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-devices.sh"

desc="hddsim 4k random reads reach 1/(avg seek + half rotation) IOPS +-20%"
dev=$(make_hdd) || { tap_fail "$desc" "make_hdd failed"; exit 0; }
dev_sched "$dev" none
read -r _ iops _ < <(dev_fio --name=rand --filename="/dev/$dev" --rw=randread --bs=4k \
	--ioengine=psync --direct=1 --runtime=10 --time_based --randrepeat=0)
expect=$(awk 'BEGIN { print 1 / (8.5e-3 + 60 / 7200 / 2) }')
lo=$(awk -v e="$expect" 'BEGIN { print e * 0.8 }')
hi=$(awk -v e="$expect" 'BEGIN { print e * 1.2 }')
if dev_within "$lo" "$iops" "$hi"; then
	tap_ok "$desc (measured $iops IOPS, expected $expect)"
else
	tap_fail "$desc" "measured ${iops:-none} IOPS, bound [$lo, $hi]"
fi
remove_hdd
