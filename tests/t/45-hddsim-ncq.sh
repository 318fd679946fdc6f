#!/bin/bash
# hddsim: with ncq_depth=8 the disk reorders its queue by shortest
# positioning time: 4 KiB random reads at iodepth 8 get >= 1.3x the IOPS of
# the same disk without NCQ.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-devices.sh"

desc="hddsim ncq_depth=8 random 4k reads at iodepth 8 get >= 1.3x the no-NCQ IOPS"
job=(--name=rand --rw=randread --bs=4k --ioengine=libaio --iodepth=8 --direct=1
	--runtime=12 --time_based --randrepeat=0)
dev=$(make_hdd) || { tap_fail "$desc" "make_hdd failed"; exit 0; }
dev_sched "$dev" none
read -r _ base _ < <(dev_fio --filename="/dev/$dev" "${job[@]}")
dev=$(make_hdd ncq_depth=8) || { tap_fail "$desc" "make_hdd ncq_depth=8 failed"; exit 0; }
dev_sched "$dev" none
read -r _ ncq _ < <(dev_fio --filename="/dev/$dev" "${job[@]}")
bound=$(awk -v b="$base" 'BEGIN { print b * 1.3 }')
if [ -n "$base" ] && dev_within "$bound" "$ncq" 1e9; then
	tap_ok "$desc (no NCQ: $base IOPS, NCQ 8: $ncq IOPS)"
else
	tap_fail "$desc" "measured ${ncq:-none} IOPS, bound >= $bound (no NCQ: ${base:-none})"
fi
remove_hdd
