#!/bin/bash
# timeout: 900
# bfq-ng loads, is offered by null_blk, virtio and scsi_debug devices, is
# selected by name and through its alias, refuses to unload while in use,
# and survives 50 load/select/deselect/unload cycles.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"

nullb lc0 256 memory_backed=1 || die "cannot create null_blk lc0"
sd=$(scsi_debug_disk 64) || die "cannot create a scsi_debug disk"
vd=$(lsblk -dno NAME | grep '^vd' | grep -v '^vda$' | head -n1)
devs=(lc0 "$sd" "$vd")

if modprobe bfq-ng && [ -d /sys/module/bfq_ng ]; then
	tap_ok "modprobe bfq-ng loads the module"
else
	tap_fail "modprobe bfq-ng loads the module" "modprobe failed"
fi

for d in "${devs[@]}"; do
	if [ -z "$d" ]; then
		tap_fail "bfq-ng offered and selectable on every device kind" "a device is missing (null_blk/scsi_debug/virtio: ${devs[*]})"
		continue
	fi
	if grep -qw bfq-ng "/sys/block/$d/queue/scheduler" && select_sched "$d" bfq-ng; then
		tap_ok "bfq-ng is offered and selected by name on $d"
	else
		tap_fail "bfq-ng is offered and selected by name on $d" "scheduler reads '$(cat "/sys/block/$d/queue/scheduler")'"
	fi
done

if rmmod bfq_ng 2>/dev/null; then
	tap_fail "unloading bfq-ng while selected is refused" "rmmod succeeded"
else
	tap_ok "unloading bfq-ng while selected is refused"
fi

for d in "${devs[@]}"; do [ -n "$d" ] && select_sched "$d" none; done
if rmmod bfq_ng && [ ! -d /sys/module/bfq_ng ]; then
	tap_ok "bfq-ng unloads once deselected everywhere"
else
	tap_fail "bfq-ng unloads once deselected everywhere" "rmmod failed"
fi

# The elevator core asks for "bfq-ng-iosched" when the name is unknown.
if select_sched lc0 bfq-ng && [ -d /sys/module/bfq_ng ]; then
	tap_ok "writing bfq-ng to queue/scheduler loads the module through its alias"
else
	tap_fail "writing bfq-ng to queue/scheduler loads the module through its alias" "scheduler '$(sched_get lc0)'"
fi
select_sched lc0 none
rmmod bfq_ng
if modprobe bfq-ng-iosched && [ -d /sys/module/bfq_ng ]; then
	tap_ok "modprobe bfq-ng-iosched resolves the alias"
else
	tap_fail "modprobe bfq-ng-iosched resolves the alias" "module not loaded"
fi
rmmod bfq_ng

fails=0
for ((i = 0; i < 50; i++)); do
	modprobe bfq-ng && select_sched lc0 bfq-ng &&
		dd if=/dev/lc0 of=/dev/null bs=4k count=64 iflag=direct status=none &&
		select_sched lc0 none && rmmod bfq_ng || fails=$((fails + 1))
done
check_eq "50 load/select/I-O/deselect/unload cycles succeed (failures)" "$fails" 0

modprobe -r scsi_debug
nullb_del lc0
