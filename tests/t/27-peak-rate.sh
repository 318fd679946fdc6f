#!/bin/bash
# timeout: 300
# Peak-rate estimate on hddsim.  Random readers alone, from the scheduler's
# start, do not make an estimate (their windows of seeking requests measure
# the workload): max_budget keeps its default.  Then measured by a
# sequential reader, the estimate is not pulled down by random readers
# (seeking windows may raise it, never lower it), so max_budget keeps its
# size.  Before the first check, 8 random readers set it to about 600
# sectors/s and max_budget to its floor, 128 sectors.  Each
# window of random reads used to take 1/8 off the estimate: with the module
# of d348072 this test measured 149697 -> 34884 sectors/s, max_budget
# 18562 -> 4325 sectors.
# Then a sequential writer beside the reader does not pull the estimate
# down either: before reads and writes had an estimate each, this test
# measured 312815 -> 161957 sectors/s (0.52), max_budget 38789 -> 20082.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-devices.sh"
source "$BFQNG_TESTS/lib-sched.sh"

modprobe bfq-ng || die "bfq-ng"
dev=$(make_hdd) || die "hddsim"
use_sched "$dev" bfq-ng || die "select"
echo 0 >"/sys/block/$dev/queue/iosched/low_latency"
budget0=$(bfqng_stat "$dev" max_budget_sectors)
fio --name=rand0 --filename="/dev/$dev" --rw=randread --bs=4k --ioengine=psync \
	--direct=1 --runtime=4 --time_based --numjobs=8 --randrepeat=0 \
	--output=/dev/null >/dev/null || die "fio rand0"
diag "random readers first: peak rate $(bfqng_stat "$dev" peak_rate_sectors_per_s) sectors/s, max_budget $budget0 -> $(bfqng_stat "$dev" max_budget_sectors) sectors"
check_eq "random readers alone make no peak-rate estimate" "$(bfqng_stat "$dev" peak_rate_sectors_per_s)" 0
check_eq "and leave max_budget at its default (sectors)" "$(bfqng_stat "$dev" max_budget_sectors)" "$budget0"
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
# A sequential O_DIRECT writer beside the reader: hddsim's sync writes
# move about a tenth of what its reads do, and their windows pulled the
# one estimate down, max_budget with it, and the reader's share of the
# device's time (its slots end on its budget, the writer's on the
# timeout).  Reads and writes are measured apart now.
fio --name=r --filename="/dev/$dev" --rw=read --bs=128k --ioengine=psync \
	--direct=1 --runtime=6 --time_based --output=/dev/null \
	--name=w --filename="/dev/$dev" --rw=write --bs=128k --ioengine=psync \
	--direct=1 --offset=4g --size=128m --runtime=6 --time_based \
	>/dev/null || die "fio rw"
rate_rw=$(bfqng_stat "$dev" peak_rate_sectors_per_s)
diag "reader and writer: peak rate $rate_rw sectors/s (reads $(bfqng_stat "$dev" read_rate_sectors_per_s), writes $(bfqng_stat "$dev" write_rate_sectors_per_s)), max_budget $(bfqng_stat "$dev" max_budget_sectors) sectors"
check_ge "6 s of a writer beside the reader keep at least 80% of it (sectors/s)" \
	"$rate_rw" "$(awk -v r="$rate_seq" 'BEGIN { printf "%d", 0.8 * r }')"
check_lt "the writes' own estimate is below half of it (sectors/s)" \
	"$(bfqng_stat "$dev" write_rate_sectors_per_s)" "$((rate_rw / 2))"
check_eq "engine invariants hold" "$(bfqng_check "$dev")" ok
select_sched "$dev" none
remove_hdd
