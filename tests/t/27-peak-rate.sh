#!/bin/bash
# timeout: 300
# Peak-rate estimate: measured by a sequential reader on hddsim, it is not
# pulled down by random readers (their windows of seeking requests may
# raise the estimate, never lower it), so max_budget keeps its size.  Each
# window of random reads used to take 1/8 off the estimate: with the module
# of d348072 this test measured 149697 -> 34884 sectors/s, max_budget
# 18562 -> 4325 sectors.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-devices.sh"
source "$BFQNG_TESTS/lib-sched.sh"

modprobe bfq-ng || die "bfq-ng"
dev=$(make_hdd) || die "hddsim"
use_sched "$dev" bfq-ng || die "select"
echo 0 >"/sys/block/$dev/queue/iosched/low_latency"
fio --name=seq --filename="/dev/$dev" --rw=read --bs=128k --ioengine=psync \
	--direct=1 --runtime=4 --time_based --output=/dev/null >/dev/null ||
	die "fio seq"
rate_seq=$(bfqng_stat "$dev" peak_rate_sectors_per_s)
budget_seq=$(bfqng_stat "$dev" max_budget_sectors)
fio --name=rand --filename="/dev/$dev" --rw=randread --bs=4k --ioengine=psync \
	--direct=1 --runtime=6 --time_based --numjobs=8 --randrepeat=0 \
	--output=/dev/null >/dev/null || die "fio rand"
rate_rand=$(bfqng_stat "$dev" peak_rate_sectors_per_s)
budget_rand=$(bfqng_stat "$dev" max_budget_sectors)
diag "peak rate $rate_seq -> $rate_rand sectors/s, max_budget $budget_seq -> $budget_rand sectors"
check_gt "a sequential reader gives a peak rate (sectors/s)" "$rate_seq" 20000
check_ge "6 s of 8 random readers keep at least 90% of it (sectors/s)" \
	"$rate_rand" "$(awk -v r="$rate_seq" 'BEGIN { printf "%d", 0.9 * r }')"
check_ge "and max_budget with it (sectors)" "$budget_rand" \
	"$(awk -v b="$budget_seq" 'BEGIN { printf "%d", 0.9 * b }')"
check_eq "engine invariants hold" "$(bfqng_check "$dev")" ok
select_sched "$dev" none
remove_hdd
