#!/bin/bash
# timeout: 300
# udev/60-bfq-ng.rules selects bfq-ng for rotational disks only, loads the
# module through the alias to do so, applies on "add" and "change" events,
# and leaves a disk alone when an earlier rule sets BFQ_NG_SKIP.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"

udevd=/usr/lib/systemd/systemd-udevd
if [ ! -x "$udevd" ] || ! command -v udevadm >/dev/null; then
	skip_all "no systemd-udevd/udevadm in the guest image"
fi
rule=$BFQNG_RUN/udev/60-bfq-ng.rules	# shipped by tests/vm/run-vm.sh
[ -r "$rule" ] || die "udev/60-bfq-ng.rules was not shipped to the guest"

rules_d=/run/udev/rules.d
mkdir -p "$rules_d"
cp "$rule" "$rules_d/60-bfq-ng.rules"
printf 'SUBSYSTEM=="block", KERNEL=="skip0", ENV{BFQ_NG_SKIP}="1"\n' >"$rules_d/59-bfq-ng-skip.rules"
at_exit rm -f "$rules_d/60-bfq-ng.rules" "$rules_d/59-bfq-ng-skip.rules"

# The guest boots without udev; run it for this file only.
"$udevd" --daemon --resolve-names=never || die "systemd-udevd --daemon failed"
at_exit udevadm control --exit
udevadm control --reload || die "udevadm control --reload failed"

unload_bfqng || die "cannot unload bfq-ng before the test"
for d in rot0 flash0 skip0; do
	nullb "$d" 64 || die "cannot create null_blk $d"
	select_sched "$d" none || die "cannot select none on $d"
done
echo 1 >/sys/block/rot0/queue/rotational
echo 0 >/sys/block/flash0/queue/rotational
echo 1 >/sys/block/skip0/queue/rotational

udevadm trigger --action=change --settle /sys/block/rot0 /sys/block/flash0 /sys/block/skip0 ||
	diag "udevadm trigger returned $?"

check_eq "a change event selects bfq-ng on a rotational disk (rot0)" "$(sched_get rot0)" bfq-ng
check_eq "the rule loads the module (bfq_ng in /sys/module)" \
	"$([ -d /sys/module/bfq_ng ] && echo loaded || echo absent)" loaded
check_eq "a non-rotational disk keeps its scheduler (flash0)" "$(sched_get flash0)" none
check_eq "BFQ_NG_SKIP set by an earlier rule keeps a rotational disk off bfq-ng (skip0)" \
	"$(sched_get skip0)" none

# "add": what happens at boot or hot plug.
select_sched rot0 none
echo 1 >/sys/block/flash0/queue/rotational
udevadm trigger --action=add --settle /sys/block/rot0 /sys/block/flash0 || diag "udevadm trigger returned $?"
check_eq "an add event selects bfq-ng on a rotational disk (rot0)" "$(sched_get rot0)" bfq-ng
check_eq "a disk that turned rotational gets bfq-ng at its next event (flash0)" "$(sched_get flash0)" bfq-ng

udevadm control --exit
for d in rot0 flash0 skip0; do select_sched "$d" none; done
