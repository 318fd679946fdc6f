#!/bin/bash
# timeout: 120
# cgroup v1 (blkio): blkio.bfq-ng.weight reads 100 and takes 1..1000
# (ERANGE outside); blkio.bfq-ng.weight_device takes "MAJ:MIN W" and drops
# the override with "MAJ:MIN 0"; io_service_bytes and io_serviced count a
# group's reads.  It runs after the cgroup v2 tests (50-54, 63): when it
# ran first (as 49), full runs saw the unmounted v1 hierarchy (no group left
# in it) live on and keep the io controller, and every v2 test then
# skipped.  Removed v2 cgroups kept the controller for over 30 s once, so
# it waits up to 60 s for v2 to let the controller go.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"
source "$BFQNG_TESTS/lib-cgroup.sh"

V1=/tmp/blkio-v1

modprobe bfq-ng || die "bfq-ng"
sched_nullb cv0 || die "null_blk"
dev=$(cat /sys/block/cv0/dev)

# The controller must leave cgroup v2 first: no child there may use it, even
# a removed one not yet freed.
echo -io 2>/dev/null >"$CG/cgroup.subtree_control"
mkdir -p $V1
mount_v1() { mount -t cgroup -o blkio blkio-v1 $V1 2>/dev/null; }
wait_for 60 mount_v1 || skip_all "the io controller stays bound to cgroup v2 (60 s)"
at_exit "umount $V1"
mkdir $V1/g || die "v1 cgroup"
at_exit "rmdir $V1/g"
f=$V1/g/blkio.bfq-ng.weight

check_eq "blkio.bfq-ng.weight reads the default" "$(cat "$f")" 100
echo 300 >"$f"
check_eq "blkio.bfq-ng.weight takes a weight" "$(cat "$f")" 300
check_eq "blkio.bfq-ng.weight refuses 0" "$( { echo 0 >"$f"; } 2>&1 | grep -c 'out of range')" 1
check_eq "blkio.bfq-ng.weight refuses 1001" "$( { echo 1001 >"$f"; } 2>&1 | grep -c 'out of range')" 1
echo "$dev 700" >"$V1/g/blkio.bfq-ng.weight_device"
check_eq "weight_device reads the override back" "$(cat "$V1/g/blkio.bfq-ng.weight_device")" "$dev 700"
(echo "$BASHPID" >"$V1/g/cgroup.procs" &&
	dd if=/dev/cv0 of=/dev/null bs=64k count=16 iflag=direct 2>/dev/null)
check_eq "io_service_bytes counts the group's reads" \
	"$(awk -v d="$dev" '$1 == d && $2 == "Read" { print $3 }' "$V1/g/blkio.bfq-ng.io_service_bytes")" 1048576
check_eq "io_serviced counts the group's requests" \
	"$(awk -v d="$dev" '$1 == d && $2 == "Read" { print $3 }' "$V1/g/blkio.bfq-ng.io_serviced")" 16
check_eq "the group's entity weighs the override" "$(cg_group_field cv0 $V1/g weight)" 700
echo "$dev 0" >"$V1/g/blkio.bfq-ng.weight_device"
check_eq "\"MAJ:MIN 0\" drops the override" "$(cat "$V1/g/blkio.bfq-ng.weight_device")" ""
check_eq "the group falls back to the cgroup's weight" "$(cg_group_field cv0 $V1/g new_weight)" 300
select_sched cv0 none

# Give the controller back now rather than in at_exit, whose errors are not
# seen: a v1 hierarchy unmounted with a group left in it lives on, unseen,
# and keeps the io controller from cgroup v2.  rmdir is retried: the
# reader's exit may not have left the group yet.
rmdir_g() { rmdir "$V1/g" 2>/dev/null || [ ! -d "$V1/g" ]; }
if wait_for 10 rmdir_g; then
	tap_ok "the v1 group is removed"
else
	tap_fail "the v1 group is removed" "rmdir: still there with procs '$(cat "$V1/g/cgroup.procs" 2>&1 | paste -sd' ')'"
fi
umount "$V1"
# Not a test point: after a full run the emptied, unmounted hierarchy was
# seen to live on (/proc/cgroups: "blkio 1 1 1") for over a minute, after a
# subset run not; why is not known yet.  No test after this one needs v2.
_cg_enable_io && diag "the io controller is back with cgroup v2" ||
	diag "the io controller is still bound to v1: $(grep blkio /proc/cgroups)"
