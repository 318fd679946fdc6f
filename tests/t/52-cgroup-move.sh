#!/bin/bash
# timeout: 300
# A reader's share follows its cgroup: within about a second of moving to a
# cgroup of weight 400 beside a reader of weight 100 it gets 80%, and within
# about a second of that cgroup's weight going back to 100, 50% (+-15%).
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"
source "$BFQNG_TESTS/lib-cgroup.sh"

SETTLE_S=1
MEASURE_S=5

modprobe bfq-ng || die "bfq-ng"
cg_init || skip_all "no cgroup v2 with the io controller"
sched_nullb cm0 || die "null_blk"
echo 0 >/sys/block/cm0/queue/iosched/low_latency

cg_make x 100 && cg_make y 100 && cg_make z 400 || die "cgroups"
r=$(cg_reader x cm0 0) && o=$(cg_reader y cm0 1024) || die "readers"
sleep 2
read -r s_r _ <<<"$(shares $MEASURE_S "$r" "$o")"
check_ratio "a reader of weight 100 beside another gets half" "$s_r" 0.5 0.15

cg_move "$r" z || die "move"
sleep $SETTLE_S
read -r s_r _ <<<"$(shares $MEASURE_S "$r" "$o")"
check_ratio "moved to a cgroup of weight 400, it gets 80% a second later" "$s_r" 0.8 0.15
check_eq "its old group has no queue left" "$(cg_group_field cm0 x pending)" 0

echo 100 >"$CG/z/io.bfq-ng.weight"
sleep $SETTLE_S
read -r s_r _ <<<"$(shares $MEASURE_S "$r" "$o")"
check_ratio "its cgroup's weight set to 100, it gets half a second later" "$s_r" 0.5 0.15
check_eq "engine invariants hold after the moves" "$(bfqng_check cm0)" ok
stop_readers "$r" "$o"
select_sched cm0 none
