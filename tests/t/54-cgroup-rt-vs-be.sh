#!/bin/bash
# timeout: 300
# Classes apply inside a group, not between groups: an RT reader in cgroup
# A beside a BE reader in cgroup B of the same weight get about 1:1 (+-20%).
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"
source "$BFQNG_TESTS/lib-cgroup.sh"

modprobe bfq-ng || die "bfq-ng"
cg_init || skip_all "no cgroup v2 with the io controller"
sched_nullb cr0 || die "null_blk"
echo 0 >/sys/block/cr0/queue/iosched/low_latency

cg_make A 100 && cg_make B 100 || die "cgroups"
rt=$(cg_reader A cr0 0 --prioclass=1 --prio=4) &&
	be=$(cg_reader B cr0 1024 --prioclass=2 --prio=4) || die "readers"
sleep 2
read -r s_rt s_be <<<"$(shares 12 "$rt" "$be")"
check_ratio "RT reader in A and BE reader in B share the device 1:1" "$(ratio "$s_rt" "$s_be")" 1 0.20
check_eq "engine invariants hold" "$(bfqng_check cr0)" ok
stop_readers "$rt" "$be"
select_sched cr0 none
