#!/bin/bash
# SSD-like null_blk profile (make_ssd): non-rotational, and depth-32 4 KiB
# random reads run in parallel: IOPS are of the order of the 32 tags /
# 100 us limit (320k) -- far above one tag / 100 us (10k) on a fast host,
# bounded here from below at 400 (five times an HDD's ~80) because the TCG
# guest's CPU and timer latency, not the device, limit them: measured 20762
# on a quiet host, 4985 and 2417 with other VMs running, 717 on the debug
# lane's KASAN + lockdep kernel.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-devices.sh"

desc="make_ssd is non-rotational and depth-32 random 4k reads reach 400..320k IOPS"
dev=$(make_ssd ssd0 1024) || { tap_fail "$desc" "make_ssd failed"; exit 0; }
rot=$(cat "/sys/block/$dev/queue/rotational")
read -r _ iops _ < <(dev_fio --name=ssd --filename="/dev/$dev" --rw=randread --bs=4k \
	--ioengine=libaio --iodepth=32 --direct=1 --runtime=10 --time_based)
if [ "$rot" = 0 ] && dev_within 400 "$iops" 320000; then
	tap_ok "$desc (rotational $rot, $iops IOPS)"
else
	tap_fail "$desc" "measured rotational=$rot, ${iops:-none} IOPS; bound rotational=0, [400, 320000] IOPS"
fi
remove_nullb "$dev"
