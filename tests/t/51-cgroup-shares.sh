#!/bin/bash
# timeout: 400
# Greedy readers in cgroups share the device by group weight, whatever the
# depth: siblings of weights 100 and 300 get 1:3 (+-10%); A(100) holding
# A1(100) and A2(300), beside B(100), gives B 50%, A1 12.5%, A2 37.5% (+-15%
# of each share).
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"
source "$BFQNG_TESTS/lib-cgroup.sh"

WARMUP_S=2
MEASURE_S=8
# Slots of at most 4096 sectors (2 MiB, ~32 ms here) rather than the ~27000
# that max_budget auto-tunes to: with those, the weight-100 leaf of the
# nested case got a slot every ~0.6 s, its share over 8 or 12 s moved by a
# slot's worth (0.0635 and 0.1498 were measured in CI runs against 0.125).
MAX_BUDGET=4096
NESTED_MEASURE_S=12

modprobe bfq-ng || die "bfq-ng"
cg_init || skip_all "no cgroup v2 with the io controller"
# 1 ms per 64 KiB request (sched_nullb's is 250 us): the device, not the
# emulated CPU, must be the bottleneck.  On the debug lane's KASAN kernel,
# with 250 us, the three fio readers of the nested case could not keep their
# queues backlogged (252 slots of 659 ended too idle) and A1:A2 measured
# 0.24:0.27 against 0.125:0.375.
COMPLETION_NS=1000000 sched_nullb cs0 || die "null_blk"
# Weight raising of new queues would skew the first seconds.
echo 0 >/sys/block/cs0/queue/iosched/low_latency
echo $MAX_BUDGET >/sys/block/cs0/queue/iosched/max_budget

cg_make lo 100 && cg_make hi 300 || die "cgroups"
lo=$(cg_reader lo cs0 0) && hi=$(cg_reader hi cs0 1024) || die "readers"
sleep $WARMUP_S
read -r s_lo s_hi <<<"$(shares $MEASURE_S "$lo" "$hi")"
check_ratio "sibling cgroups of weights 300 and 100 share the device 3:1" "$(ratio "$s_hi" "$s_lo")" 3 0.10
check_eq "engine invariants hold with two groups" "$(bfqng_check cs0)" ok
stop_readers "$lo" "$hi"

cg_make A 100 && cg_make A/A1 100 && cg_make A/A2 300 && cg_make B 100 || die "cgroups"
a1=$(cg_reader A/A1 cs0 0) && a2=$(cg_reader A/A2 cs0 1024) &&
	b=$(cg_reader B cs0 2048) || die "readers"
sleep $WARMUP_S
before=$(expirations cs0)
read -r s_a1 s_a2 s_b <<<"$(shares $NESTED_MEASURE_S "$a1" "$a2" "$b")"
check_ratio "B(100) beside A(100) gets half the device" "$s_b" 0.5 0.15
check_ratio "A1(100) inside A gets 12.5%" "$s_a1" 0.125 0.15
check_ratio "A2(300) inside A gets 37.5%" "$s_a2" 0.375 0.15
diag "slot expirations while measuring: $(expirations_since cs0 "$before")"
check_eq "engine invariants hold with nested groups" "$(bfqng_check cs0)" ok
stop_readers "$a1" "$a2" "$b"
select_sched cs0 none
