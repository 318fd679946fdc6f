#!/bin/bash
# hddsim: the media rate falls across the zones: large sequential direct
# reads in the last zone of the default disk (80 MB/s there, 160 MB/s at
# LBA 0) run at that zone's rate, +-15%.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-devices.sh"

desc="hddsim sequential 256k reads in the inner zone run at its media rate (80 MB/s) +-15%"
dev=$(make_hdd) || { tap_fail "$desc" "make_hdd failed"; exit 0; }
dev_sched "$dev" none
# The last of 16 zones of 8 GiB starts at 7.5 GiB.
read -r bw _ < <(dev_fio --name=seq --filename="/dev/$dev" --rw=read --bs=256k \
	--ioengine=psync --direct=1 --runtime=8 --time_based --offset=7680m)
expect=$(awk 'BEGIN { print 80e6 / 1024 }')
lo=$(awk -v e="$expect" 'BEGIN { print e * 0.85 }')
hi=$(awk -v e="$expect" 'BEGIN { print e * 1.15 }')
if dev_within "$lo" "$bw" "$hi"; then
	tap_ok "$desc (measured ${bw} KiB/s)"
else
	tap_fail "$desc" "measured ${bw:-none} KiB/s, bound [$lo, $hi] KiB/s"
fi
remove_hdd
