#!/bin/bash
# hddsim: the media rate falls across the zones: large sequential direct
# reads in the last zone of the disk run at that zone's rate, +-15%.  The
# disk is configured at 40 MB/s at LBA 0 and 20 MB/s in its last zone: at
# the default 160/80 MB/s a CI run measured 61275 KiB/s in the last zone,
# the loaded emulated CPU, not the disk, setting the rate.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-devices.sh"

desc="hddsim sequential 256k reads in the inner zone run at its media rate (20 MB/s) +-15%"
dev=$(make_hdd rate_outer_mbps=40 rate_inner_mbps=20) || { tap_fail "$desc" "make_hdd failed"; exit 0; }
dev_sched "$dev" none
# The last of 16 zones of 8 GiB starts at 7.5 GiB.
read -r bw _ < <(dev_fio --name=seq --filename="/dev/$dev" --rw=read --bs=256k \
	--ioengine=psync --direct=1 --runtime=8 --time_based --offset=7680m)
expect=$(awk 'BEGIN { print 20e6 / 1024 }')
lo=$(awk -v e="$expect" 'BEGIN { print e * 0.85 }')
hi=$(awk -v e="$expect" 'BEGIN { print e * 1.15 }')
if dev_within "$lo" "$bw" "$hi"; then
	tap_ok "$desc (measured ${bw} KiB/s)"
else
	tap_fail "$desc" "measured ${bw:-none} KiB/s, bound [$lo, $hi] KiB/s"
fi
remove_hdd
