#!/bin/bash
# hddsim: data integrity: fio verify (crc32c) on ext4 over hddsim passes,
# both right after writing and after a remount (direct I/O, so the reads
# come from the device's sparse store, not the page cache).
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-devices.sh"

desc="hddsim fio crc32c verify on ext4 passes (after write and after remount)"
mnt=/mnt/hddsim-verify
dev=$(make_hdd capacity_mb=2048) || { tap_fail "$desc" "make_hdd failed"; exit 0; }
mkdir -p "$mnt"
fail=
mkfs.ext4 -q -F "/dev/$dev" || fail="mkfs.ext4 failed"
[ -z "$fail" ] && { mount "/dev/$dev" "$mnt" || fail="mount failed"; }
job=(--name=verify --directory="$mnt" --filename=data --size=32m --bs=64k
	--ioengine=psync --direct=1 --verify=crc32c --randrepeat=1 --rw=randwrite)
if [ -z "$fail" ]; then
	fio "${job[@]}" --do_verify=1 >"$BFQNG_OUT/44-fio-write.log" 2>&1 ||
		fail="fio write+verify failed (see 44-fio-write.log)"
fi
if [ -z "$fail" ]; then
	umount "$mnt" && echo 3 >/proc/sys/vm/drop_caches && mount "/dev/$dev" "$mnt" ||
		fail="remount failed"
fi
if [ -z "$fail" ]; then
	fio "${job[@]}" --verify_only >"$BFQNG_OUT/44-fio-verify.log" 2>&1 ||
		fail="fio verify after remount failed (see 44-fio-verify.log)"
fi
mountpoint -q "$mnt" && umount "$mnt"
if [ -z "$fail" ]; then
	tap_ok "$desc"
else
	tap_fail "$desc" "$fail; bound: no verify error"
fi
remove_hdd
