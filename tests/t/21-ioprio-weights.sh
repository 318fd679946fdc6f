#!/bin/bash
# timeout: 600
# Two greedy sequential readers at BE levels 0 and 7 get throughput 8:1
# (+-15%); at levels 2 and 6, 3:1.
source "$BFQNG_TESTS/lib.sh"
source "$BFQNG_TESTS/lib-sched.sh"

modprobe bfq-ng || die "bfq-ng"
sched_nullb wt0 || die "null_blk"
for pair in "0 7 8" "2 6 3"; do
	read -r hi lo ideal <<<"$pair"
	fio_readers /tmp/wt.json wt0 10 "hi:2:$hi" "lo:2:$lo" || die "fio"
	r=$(ratio "$(fio_job_bw_kib /tmp/wt.json hi)" "$(fio_job_bw_kib /tmp/wt.json lo)")
	check_ratio "BE$hi:BE$lo readers share the device $ideal:1" "$r" "$ideal" 0.15
done
check_eq "engine invariants hold after the weight runs" "$(bfqng_check wt0)" ok
select_sched wt0 none
nullb_del wt0
