#!/bin/bash
# Runs in the VM booted from the image that check-dkms.sh installed bfq-ng
# into with DKMS (the harness ships no .ko): the module is found where DKMS
# put it, loads, schedules I/O, and `dkms remove` takes it away again.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"
kver=$(uname -r)

path=$(modinfo -n bfq-ng 2>&1)
if [[ $path == /lib/modules/$kver/updates/dkms/bfq-ng.ko* ]]; then
	tap_ok "modinfo finds bfq-ng where DKMS installed it ($path)"
else
	tap_fail "modinfo finds bfq-ng where DKMS installed it" "modinfo -n says '$path'"
fi
check_eq "dkms status lists bfq-ng/$DKMS_VERSION as installed for $kver" \
	"$(dkms status "bfq-ng/$DKMS_VERSION" -k "$kver" 2>/dev/null | grep -c ': installed')" 1

if modprobe bfq-ng && [ -d /sys/module/bfq_ng ]; then
	tap_ok "modprobe bfq-ng loads the DKMS-built module"
else
	tap_fail "modprobe bfq-ng loads the DKMS-built module" "modprobe failed"
fi
nullb dk0 256 memory_backed=1 || die "cannot create null_blk dk0"
if select_sched dk0 bfq-ng && dd if=/dev/zero of=/dev/dk0 bs=64k count=256 oflag=direct status=none &&
	dd if=/dev/dk0 of=/dev/null bs=64k count=256 iflag=direct status=none; then
	tap_ok "the DKMS-built bfq-ng is selected on a device and does I/O"
else
	tap_fail "the DKMS-built bfq-ng is selected on a device and does I/O" "scheduler '$(sched_get dk0)'"
fi
check_eq "its engine invariant check holds after the I/O" "$(bfqng_check dk0)" ok
select_sched dk0 none
rmmod bfq_ng

dkms remove "bfq-ng/$DKMS_VERSION" -k "$kver" >"$BFQNG_OUT/dkms-remove.log" 2>&1 ||
	diag "dkms remove failed: $(tail -n 3 "$BFQNG_OUT/dkms-remove.log" | paste -sd' ')"
check_eq "after dkms remove, modprobe no longer finds bfq-ng" \
	"$(modprobe -n bfq-ng >/dev/null 2>&1 && echo found || echo gone)" gone
nullb_del dk0
